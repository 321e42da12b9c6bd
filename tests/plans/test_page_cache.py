"""The design page and the estimate APIs are computed once per state and then served from the cache.

Each test looks at what a user sees: the page after a change shows the change, a cached page
carries the visitor's own CSRF token, one-time messages are shown once and never cached, and
the cached estimate equals a fresh computation.
"""

import json
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from tests.factories import CatalogDiskFactory, MembershipFactory, PoolDesignFactory, UserFactory, design_document
from zfsplanner.accounts.models import Membership, Role, Team
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.plans.access import design_state, get_design_for_user
from zfsplanner.plans.models import ShareLink
from zfsplanner.plans.services import estimate_design, save_design_document, validate_document
from zfsplanner.plans.services.disk_inputs import estimate_with_catalog
from zfsplanner.plans.views.designs import _until_next_expiry
from zfsplanner.web.page_cache import CSRF_PLACEHOLDER

pytestmark = pytest.mark.django_db

TOKEN_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ANY_TOKEN_RE = re.compile(r'(?<=value=")[A-Za-z0-9]{64}(?=")|(?<="x-csrftoken": ")[A-Za-z0-9]{64}(?=")')


@pytest.fixture
def design(team, alice):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="first words"))


def _page(client, design):
    response = client.get(f"/designs/{design.pk}/")
    assert response.status_code == 200
    return response.content.decode()


# --------------------------------------------------------------------------- served from the cache


def test_a_second_view_is_served_without_rendering_or_estimating(alice, design, web):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    web = web(alice)
    with CaptureQueriesContext(connection) as rendered:
        first = _page(web, design)
    with CaptureQueriesContext(connection) as cached:
        second = _page(web, design)
    selects = [q["sql"] for q in cached.captured_queries if "SELECT" in q["sql"] and "django_session" not in q["sql"]]
    assert len(selects) == 2, selects  # the user and the design's state (and the session unless it is cached)
    assert not any(table in sql for sql in selects for table in ("vdevgroup", "datasetplan", "catalogdisk"))
    assert len(rendered.captured_queries) > len(cached.captured_queries)
    assert ANY_TOKEN_RE.sub("", first) == ANY_TOKEN_RE.sub("", second)
    assert CSRF_PLACEHOLDER not in second


def test_a_cached_page_carries_the_csrf_token_of_the_session_that_reads_it(alice, design, web):
    one, two = web(alice, enforce_csrf_checks=True), web(alice, enforce_csrf_checks=True)
    token_one = TOKEN_RE.search(_page(one, design)).group(1)  # rendered now
    token_two = TOKEN_RE.search(_page(two, design)).group(1)  # served from the cache
    duplicate = f"/designs/{design.pk}/duplicate/"
    assert two.post(duplicate, {"csrfmiddlewaretoken": token_one}).status_code == 403  # not the other session's
    assert two.post(duplicate, {"csrfmiddlewaretoken": token_two}).status_code == 302
    body = _page(two, design)
    assert f'"x-csrftoken": "{TOKEN_RE.search(body).group(1)}"' in body  # htmx requests send it too


def test_one_time_messages_are_shown_once_and_never_cached(team, alice, design, web):
    web = web(alice)
    _page(web, design)  # cached without a message
    doc = json.dumps(design_document("tank", description="first words"))
    response = web.post("/designs/new/", {"team": team.pk, "document": doc}, follow=True)
    assert response.status_code == 200
    created = response.redirect_chain[-1][0]
    assert "Design tank created." in response.content.decode()
    again = web.get(created).content.decode()
    assert "Design tank created." not in again  # shown once, and not kept in the cached page
    assert "Design tank created." not in _page(web, design)


# --------------------------------------------------------------------------- what changes the page


def test_a_new_revision_shows_at_once(alice, design, web):
    web = web(alice)
    assert "first words" in _page(web, design)
    save_design_document(design.team, design_document("tank", description="second words"), alice, instance=design)
    page = _page(web, design)
    assert "second words" in page and "first words" not in page


def test_share_links_created_and_revoked_show_at_once(alice, design, web):
    web = web(alice)
    assert "No share links yet." in _page(web, design)
    web.post(f"/designs/{design.pk}/share-links/", {"expires_in_days": ""})
    link = ShareLink.objects.get(design=design)
    assert link.token in _page(web, design)
    web.post(f"/designs/{design.pk}/share-links/{link.pk}/revoke/")
    page = _page(web, design)
    assert link.token not in page and "revoked" in page
    ShareLink.objects.filter(pk=link.pk).delete()
    assert "No share links yet." in _page(web, design)


def test_the_page_expires_with_the_first_share_link_to_expire(alice, design):
    soon = timezone.now() + timedelta(minutes=5)
    links = [ShareLink(design=design, expires=soon), ShareLink(design=design, expires=None)]
    assert 290 <= _until_next_expiry({"share_links": links}) <= 300
    gone = [ShareLink(design=design, expires=timezone.now() - timedelta(days=1))]
    assert _until_next_expiry({"share_links": gone}) == 3600


def test_team_rename_role_change_and_removal_show_at_once(team, alice, bob, design, web):
    viewer = web(bob)
    page = _page(viewer, design)
    assert "Alpha" in page and 'id="open-designer"' not in page
    Team.objects.filter(pk=team.pk).update(name="Renamed team")
    assert "Renamed team" in _page(viewer, design)
    Membership.objects.filter(team=team, user=bob).update(role=Role.EDITOR)
    assert 'id="open-designer"' in _page(viewer, design)
    Membership.objects.filter(team=team, user=bob).delete()
    assert viewer.get(f"/designs/{design.pk}/").status_code == 404


def test_a_catalog_price_shows_at_once(team, alice, web):
    disk = CatalogDiskFactory(model="EX-PRICE", capacity_bytes=14000519643136)
    doc = design_document("tank")
    doc["vdevs"][0]["disk"] = {"catalog": "EX-PRICE"}
    design = PoolDesignFactory(team=team, document=doc)
    web = web(alice)
    assert "Prices known for 0 of 6 disks" in _page(web, design)
    disk.price = "250.00"
    disk.save()
    assert "1500.00 for 6 disks" in _page(web, design)


def test_visitors_never_see_each_others_page(team, alice, bob, design, web):
    owner_page, viewer_page = _page(web(alice), design), _page(web(bob), design)
    assert 'id="open-designer"' in owner_page and 'id="open-designer"' not in viewer_page
    assert ">alice<" in owner_page and ">bob<" in viewer_page and ">alice<" not in viewer_page


# --------------------------------------------------------------------------- who may see the state


def test_design_state_follows_the_same_rule_as_get_design_for_user(rf, alice, erin, bob, charlie, design):
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404

    for user, role in [(alice, Role.OWNER), (erin, Role.EDITOR), (bob, Role.VIEWER), (charlie, None)]:
        request = rf.get("/")
        request.user = user
        state = design_state(user, design.pk)
        if role is None:
            assert state is None
            with pytest.raises(Http404):
                get_design_for_user(request, design.pk)
        else:
            _, can_write = get_design_for_user(request, design.pk)
            assert state is not None and state.role == role and state.can_write == can_write
    for pk in (design.pk + 1000, "x", "1; DROP TABLE x", 2**70, -1, "²", "١"):
        assert design_state(alice, pk) is None
    assert design_state(AnonymousUser(), design.pk) is None


# --------------------------------------------------------------------------- the estimate APIs


def test_the_stored_estimate_is_served_as_computed_and_follows_each_revision(alice, design):
    api = Client(HTTP_AUTHORIZATION=f"Token {issue_token(alice, 't', None)[1]}")
    url = f"/api/designs/{design.pk}/estimate/"
    first, again = api.get(url), api.get(url)  # computed, then served
    assert first.status_code == again.status_code == 200 and first["Content-Type"] == "application/json"
    assert first.content == again.content
    assert first.json() == json.loads(estimate_design(design).as_json())
    doc = design_document("tank")
    doc["vdevs"][0]["width"] = 8
    design = save_design_document(design.team, doc, alice, instance=design)
    after = api.get(url)
    assert after.json() == json.loads(estimate_design(design).as_json()) and after.json() != first.json()
    browsable = api.get(url + "?format=api", HTTP_ACCEPT="text/html")
    assert browsable.status_code == 200 and browsable["Content-Type"].startswith("text/html")


def test_the_stored_estimate_of_another_team_is_not_found_cached_or_not(alice, charlie, design):
    Client(HTTP_AUTHORIZATION=f"Token {issue_token(alice, 't', None)[1]}").get(f"/api/designs/{design.pk}/estimate/")
    outsider = Client(HTTP_AUTHORIZATION=f"Token {issue_token(charlie, 't', None)[1]}")
    assert outsider.get(f"/api/designs/{design.pk}/estimate/").status_code == 404


def test_the_stateless_estimate_is_computed_once_per_document_and_never_caches_an_error(alice, bob):
    api = Client(HTTP_AUTHORIZATION=f"Token {issue_token(alice, 't', None)[1]}")
    body = json.dumps(design_document("tank"))
    first, again = (api.post("/api/estimate/", body, content_type="application/json") for _ in range(2))
    assert first.status_code == again.status_code == 200 and first.content == again.content
    assert first.json() == json.loads(estimate_with_catalog(validate_document(json.loads(body))).as_json())
    bad = json.dumps({**design_document("tank"), "vdevs": []})
    for _ in range(2):
        refused = api.post("/api/estimate/", bad, content_type="application/json")
        assert refused.status_code == 400 and "vdevs" in refused.content.decode()
    other = Client(HTTP_AUTHORIZATION=f"Token {issue_token(bob, 't', None)[1]}")
    assert other.post("/api/estimate/", body, content_type="application/json").content == first.content


def test_a_catalog_change_reaches_the_cached_stateless_estimate(alice):
    api = Client(HTTP_AUTHORIZATION=f"Token {issue_token(alice, 't', None)[1]}")
    body = json.dumps({"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2,
                                                   "disk": {"catalog": "EX-CACHE"}}]})
    disk = CatalogDiskFactory(model="EX-CACHE", capacity_bytes=4_000_787_030_016)
    before = api.post("/api/estimate/", body, content_type="application/json").json()
    disk.capacity_bytes = 8_001_563_222_016
    disk.save()
    after = api.post("/api/estimate/", body, content_type="application/json").json()
    assert after["pool"]["zpool_size_bytes"] > before["pool"]["zpool_size_bytes"]


# --------------------------------------------------------------------------- the cache is down


@pytest.mark.parametrize("path", ["/healthz", "/api/estimate/", "/designs/{pk}/"])
def test_while_the_cache_is_down_clients_get_503_with_retry_after(alice, design, path, free_tcp_port):
    web = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {issue_token(alice, 't', None)[1]}")
    web.force_login(alice)
    down = {"default": {"BACKEND": "zfsplanner.web.cache.RedisCache", "LOCATION": f"redis://127.0.0.1:{free_tcp_port}/0",
                        "OPTIONS": {"socket_connect_timeout": 1}}}
    with override_settings(CACHES=down, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        if path == "/api/estimate/":
            response = web.post(path, json.dumps(design_document("tank")), content_type="application/json")
        else:
            response = web.get(path.format(pk=design.pk), HTTP_ACCEPT="text/html")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    body = response.content.decode()
    assert "cache" in body and ("unavailable" in body or "not answering" in body)
    cache.clear()


def test_new_members_see_the_page_and_old_outsiders_do_not(team, design, web):
    newcomer = UserFactory(username="newcomer")
    web = web(newcomer)
    assert web.get(f"/designs/{design.pk}/").status_code == 404
    MembershipFactory(team=team, user=newcomer, role=Role.VIEWER)
    assert "tank" in _page(web, design)


# --------------------------------------------------------------------------- the shared page


def test_the_shared_page_is_cached_but_a_revoked_or_expired_link_closes_at_once(alice, charlie, design, web):
    link = ShareLink.objects.create(design=design, created_by=alice)
    anonymous, outsider = Client(), web(charlie)
    url = f"/share/{link.token}/"
    first = anonymous.get(url).content.decode()
    assert "first words" in first and "Log in" in first
    assert ">charlie<" in outsider.get(url).content.decode()  # the visitor's own navigation
    assert ANY_TOKEN_RE.sub("", anonymous.get(url).content.decode()) == ANY_TOKEN_RE.sub("", first)
    save_design_document(design.team, design_document("tank", description="second words"), alice, instance=design)
    assert "second words" in anonymous.get(url).content.decode()
    ShareLink.objects.filter(pk=link.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert anonymous.get(url).status_code == 404
    ShareLink.objects.filter(pk=link.pk).update(expires=None, revoked=True)
    assert anonymous.get(url).status_code == 404
    assert outsider.get(url).status_code == 404
