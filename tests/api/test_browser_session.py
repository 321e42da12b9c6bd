"""The API as a browser uses it: a logged-in session, the CSRF token from the cookie sent back in
``X-CSRFToken`` (what the browsable API and the API docs' "Try it out" do), JSON bodies."""

from __future__ import annotations

import pytest
from django.test import Client

DOC = {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "1TB"}}]}


@pytest.fixture
def browser(alice):
    """A browser logged in as alice, holding the CSRF cookie a page gave it."""
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    assert c.get("/api/estimate/", HTTP_ACCEPT="text/html").status_code in (200, 405)
    c.csrf = c.cookies["csrftoken"].value
    return c


def test_the_estimate_answers_a_browser_session_with_its_csrf_token(browser):
    r = browser.post("/api/estimate/", DOC, content_type="application/json", HTTP_X_CSRFTOKEN=browser.csrf)
    assert r.status_code == 200, r.content
    assert r.json()["format"].startswith("zfsplanner.estimate") and r.json()["pool"]
    again = browser.post("/api/estimate/", DOC, content_type="application/json", HTTP_X_CSRFTOKEN=browser.csrf)
    assert again.content == r.content  # the second answer comes from the cache, byte for byte


def test_the_estimate_refuses_a_browser_session_without_the_csrf_token(browser):
    r = browser.post("/api/estimate/", DOC, content_type="application/json")
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]


def test_the_browsable_api_posts_an_estimate(browser):
    r = browser.post(
        "/api/estimate/", DOC, content_type="application/json", HTTP_ACCEPT="text/html", HTTP_X_CSRFTOKEN=browser.csrf
    )
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    assert "&quot;tank&quot;" in r.content.decode() or '"tank"' in r.content.decode()


def test_an_invalid_document_from_a_browser_session_names_its_field(browser):
    bad = {**DOC, "vdevs": [{**DOC["vdevs"][0], "width": 1}]}
    r = browser.post("/api/estimate/", bad, content_type="application/json", HTTP_X_CSRFTOKEN=browser.csrf)
    assert r.status_code == 400
    assert "vdevs[0].width" in r.content.decode()
