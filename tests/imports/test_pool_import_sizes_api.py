"""The API answers the sizes a preview of ``zpool status`` alone asks, as the page and ``import_pool --size`` do:
``POST /api/pool-imports/{id}/sizes/`` with typed sizes or catalog disks, by token or by session + CSRF."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.core.import_samples import text
from zfsplanner.accounts.tokens import issue_upload_token
from zfsplanner.imports.models import PoolImport
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db

STATUS_ONLY = text("manpage-zpool8-example15.txt")  # kernel names: no model, no size


@pytest.fixture
def browser(erin):
    """A browser logged in as erin, holding the CSRF cookie a page gave it."""
    c = Client(enforce_csrf_checks=True)
    c.force_login(erin)
    assert c.get("/imports/pool/").status_code == 200
    c.csrf = c.cookies["csrftoken"].value
    return c


def test_a_token_answers_the_sizes_and_saves_the_design(erin, team, token_client):
    api = token_client(erin)
    created = api.post("/api/pool-imports/", {"text": STATUS_ONLY}, format="json").json()
    assert [q["id"] for q in created["questions"]] == ["q1", "q2"] and created["comparison"] == []
    r = api.post(f"/api/pool-imports/{created['id']}/save/", {"team": team.pk}, format="json")
    assert r.status_code == 400 and PoolDesign.objects.count() == 0  # not saved while sizes are asked
    r = api.post(f"/api/pool-imports/{created['id']}/sizes/", {"sizes": {"q1": "4 TB"}}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert [q["id"] for q in body["questions"]] == ["q2"] and body["document"]["vdevs"][0]["disk"] == {
        "size_bytes": 4 * 10**12}
    r = api.post(f"/api/pool-imports/{created['id']}/sizes/", {"sizes": {"q2": 16 * 10**9}}, format="json")
    body = r.json()
    assert r.status_code == 200 and body["questions"] == []
    devices = {d["name"]: d["size_source"] for d in body["document"]["imported"]["devices"]}
    assert devices["sda"] == "given in the preview"
    r = api.post(f"/api/pool-imports/{created['id']}/save/", {"team": team.pk}, format="json")
    assert r.status_code == 201
    assert [v.role for v in PoolDesign.objects.get().vdevs.all()] == ["data", "log"]


def test_a_browser_session_answers_with_its_csrf_token_and_a_catalog_disk(browser):
    pid = browser.post("/api/pool-imports/", {"text": STATUS_ONLY}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=browser.csrf).json()["id"]
    answers = {"catalog": {"q1": "ST16000NM001G"}, "sizes": {"q2": "16GB"}}
    r = browser.post(f"/api/pool-imports/{pid}/sizes/", answers, content_type="application/json")
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    r = browser.post(f"/api/pool-imports/{pid}/sizes/", answers, content_type="application/json",
                     HTTP_X_CSRFTOKEN=browser.csrf)
    assert r.status_code == 200, r.content
    disk = PoolImport.objects.get(pk=pid).document["vdevs"][0]["disk"]
    assert disk["catalog"] == "ST16000NM001G" and disk["size_bytes"] == 16000900661248


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"sizes": {"q1": "16 XB"}}, "Size of each data disk: '16 XB' is not a size"),
        ({"sizes": {"q1": "1MB", "q2": "16GB"}}, "Size of each data disk: 1000000 B leaves 0 B for ZFS"),
        ({"catalog": {"q1": "NO-SUCH-DISK"}}, "Size of each data disk: 'NO-SUCH-DISK' is not in the disk catalog"),
        ({"sizes": {"q9": "4TB"}}, "import: no open question 'q9' (the preview asks q1, q2)"),
        ({}, "give at least one size"),
    ],
    ids=["not-a-size", "too-small", "unknown-model", "unknown-question", "nothing"],
)
def test_a_refused_answer_names_the_question_and_changes_nothing(erin, answers, message, token_client):
    api = token_client(erin)
    pid = api.post("/api/pool-imports/", {"text": STATUS_ONLY}, format="json").json()["id"]
    r = api.post(f"/api/pool-imports/{pid}/sizes/", answers, format="json")
    assert r.status_code == 400 and message in r.json()["sizes"][0], r.content
    assert len(PoolImport.objects.get(pk=pid).document["imported"]["questions"]) == 2


def test_only_the_owner_answers_and_an_upload_token_cannot(erin, alice, team, token_client):
    pid = token_client(erin).post("/api/pool-imports/", {"text": STATUS_ONLY}, format="json").json()["id"]
    r = token_client(alice).post(f"/api/pool-imports/{pid}/sizes/", {"sizes": {"q1": "4TB"}}, format="json")
    assert r.status_code == 404
    _token, key = issue_upload_token(erin, team)
    upload_only = APIClient()
    upload_only.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    r = upload_only.post(f"/api/pool-imports/{pid}/sizes/", {"sizes": {"q1": "4TB"}}, format="json")
    assert r.status_code == 403
