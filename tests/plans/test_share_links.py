"""Read-only share links: managing them (page and API), opening them without login, revoking."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign, ShareLink
from zfsplanner.plans.services import create_share_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="the main pool"))


@pytest.fixture
def link(design, alice):
    return create_share_link(design, alice)


# ------------------------------------------------------------------ the model


def test_tokens_are_long_random_and_unique(design, alice):
    tokens = {create_share_link(design, alice).token for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(t) == 32 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)


def test_active_excludes_revoked_and_expired_links(design, alice):
    live = create_share_link(design, alice)
    later = create_share_link(design, alice, expires=timezone.now() + timedelta(days=1))
    ShareLink.objects.filter(pk=create_share_link(design, alice).pk).update(revoked=True)
    ShareLink.objects.filter(pk=create_share_link(design, alice).pk).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    assert set(ShareLink.objects.active()) == {live, later}


# ------------------------------------------------------------------ managing links on the design page


def test_an_editor_creates_a_link_with_htmx(design, erin, web):
    response = web(erin).post(f"/designs/{design.pk}/share-links/", {"expires_in_days": "7"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    link = design.share_links.get()
    assert link.created_by == erin
    assert timedelta(days=6, hours=23) < link.expires - timezone.now() <= timedelta(days=7)
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card share" id="share-links">')
    assert f"/share/{link.token}/" in html


def test_a_link_without_expiry_never_expires(design, alice, web):
    web(alice).post(f"/designs/{design.pk}/share-links/", {"expires_in_days": ""})
    assert design.share_links.get().expires is None


def test_without_htmx_it_redirects_to_the_design(design, alice, web):
    response = web(alice).post(f"/designs/{design.pk}/share-links/", {})
    assert response.status_code == 302
    assert response["Location"] == f"/designs/{design.pk}/"


def test_an_invalid_expiry_is_422_and_creates_nothing(design, alice, web):
    response = web(alice).post(f"/designs/{design.pk}/share-links/", {"expires_in_days": "5"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not design.share_links.exists()


def test_a_viewer_sees_links_but_cannot_create_or_revoke(design, link, bob, web):
    html = web(bob).get(f"/designs/{design.pk}/").content.decode()
    assert f"/share/{link.token}/" in html
    assert 'id="create-share-link"' not in html
    assert "revoke-link" not in html
    assert web(bob).post(f"/designs/{design.pk}/share-links/", {}).status_code == 403
    assert web(bob).post(f"/designs/{design.pk}/share-links/{link.pk}/revoke/").status_code == 403
    assert design.share_links.count() == 1
    link.refresh_from_db()
    assert not link.revoked


def test_an_outsider_gets_404(design, link, charlie, web):
    assert web(charlie).post(f"/designs/{design.pk}/share-links/", {}).status_code == 404
    assert web(charlie).post(f"/designs/{design.pk}/share-links/{link.pk}/revoke/").status_code == 404
    assert design.share_links.count() == 1


def test_the_owner_revokes_a_link(design, link, alice, web):
    response = web(alice).post(f"/designs/{design.pk}/share-links/{link.pk}/revoke/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    link.refresh_from_db()
    assert link.revoked
    html = response.content.decode()
    assert 'class="revoked"' in html
    assert f'href="/share/{link.token}/"' not in html
    assert web().get(f"/share/{link.token}/").status_code == 404


def test_a_link_of_another_design_cannot_be_revoked_through_this_one(design, team, alice, web):
    other = PoolDesignFactory(team=team, name="backup")
    foreign = create_share_link(other, alice)
    assert web(alice).post(f"/designs/{design.pk}/share-links/{foreign.pk}/revoke/").status_code == 404
    foreign.refresh_from_db()
    assert not foreign.revoked


# ------------------------------------------------------------------ the shared page


def test_anyone_with_the_link_sees_the_design_read_only(design, link, web):
    response = web().get(f"/share/{link.token}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<meta name="robots" content="noindex' in html
    assert response["X-Robots-Tag"].startswith("noindex")
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]
    assert "<h1>tank</h1>" in html
    assert "the main pool" in html
    assert "Alpha" in html  # the team's name
    assert 'id="summary"' in html and 'table class="pool"' in html
    assert 'class="card risks"' in html
    # the commands, one top-level vdev per line
    assert '<span class="w">\\</span></span><span class="line">  <span class="w">raidz2' in html
    assert "data-commands" in html
    assert f"/share/{link.token}/charts/breakdown/" in html


def test_the_shared_page_has_no_edit_controls_or_team_details(design, link, alice, bob, web):
    html = web().get(f"/share/{link.token}/").content.decode()
    for needle in (
        '<form method="post"',
        "<textarea",
        "design-edit",
        "/edit/",
        "/delete/",
        "share-links",
        "Revoke",
        "alice",
        "bob",
        "csrfmiddlewaretoken",
        f"/designs/{design.pk}/",
    ):
        assert needle not in html, needle


def test_the_shared_page_offers_the_json(design, link, web):
    response = web().get(f"/share/{link.token}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tank-r1.json"'
    assert json.loads(response.content) == design.to_document()


def test_the_shared_charts_work_without_login(design, link, web):
    response = web().get(f"/share/{link.token}/charts/capacity/")
    assert response.status_code == 200
    assert response.json()["unit"] == "bytes"


def test_revoked_expired_and_unknown_tokens_are_404(design, alice, web):
    revoked = create_share_link(design, alice)
    ShareLink.objects.filter(pk=revoked.pk).update(revoked=True)
    expired = create_share_link(design, alice, expires=timezone.now() - timedelta(minutes=1))
    for token in (revoked.token, expired.token, "x" * 32, ""):
        for suffix in ("", "export/", "charts/capacity/", "charts/efficiency/", "charts/breakdown/"):
            path = f"/share/{token}/{suffix}" if token else f"/share/{suffix}"
            assert web().get(path).status_code == 404, path


def test_a_share_link_never_allows_writes(design, link, web):
    doc = design_document("tank", description="changed through the share link")
    c = web()
    for method in ("post", "put", "patch", "delete"):
        for suffix in ("", "export/"):
            response = getattr(c, method)(
                f"/share/{link.token}/{suffix}", json.dumps(doc), content_type="application/json"
            )
            assert response.status_code == 405, (method, suffix)
    # the token opens nothing else: the design's own pages and the API still need a login
    assert c.post(f"/designs/{design.pk}/edit/", {"document": json.dumps(doc)}).status_code == 302
    assert c.post(f"/designs/{design.pk}/share-links/", {}).status_code == 302
    assert c.get(f"/api/designs/{design.pk}/", HTTP_AUTHORIZATION=f"Token {link.token}").status_code in (401, 403)
    fresh = PoolDesign.objects.get(pk=design.pk)
    assert fresh.revision == 1
    assert fresh.description == "the main pool"
    assert design.share_links.count() == 1


def test_a_logged_in_outsider_with_the_link_still_only_reads(design, link, charlie, web):
    c = web(charlie)
    assert c.get(f"/share/{link.token}/").status_code == 200
    assert c.get(f"/designs/{design.pk}/").status_code == 404
    assert c.post(f"/designs/{design.pk}/share-links/", {}).status_code == 404


def test_deleting_the_design_closes_its_links(design, link, web):
    design.delete()
    assert web().get(f"/share/{link.token}/").status_code == 404
    assert not ShareLink.objects.exists()


# ------------------------------------------------------------------ the API


def api_url(design, suffix=""):
    return f"/api/designs/{design.pk}/share-links/{suffix}"


def test_api_owner_creates_a_link(design, alice, client_for):
    response = client_for(alice).post(api_url(design), {}, format="json")
    assert response.status_code == 201
    body = response.json()
    link = ShareLink.objects.get(pk=body["id"])
    assert body["token"] == link.token
    assert body["url"] == f"http://testserver/share/{link.token}/"
    assert body["export_url"] == f"http://testserver/share/{link.token}/export/"
    assert body["created_by"] == "alice"
    assert body["expires"] is None and body["active"] is True and body["revoked"] is False


def test_api_link_with_expiry(design, erin, client_for):
    expires = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    body = client_for(erin).post(api_url(design), {"expires": expires.isoformat()}, format="json").json()
    assert ShareLink.objects.get(pk=body["id"]).expires == expires
    body = client_for(erin).post(api_url(design), {"expires_in_days": 30}, format="json").json()
    assert ShareLink.objects.get(pk=body["id"]).expires > timezone.now() + timedelta(days=29)


def test_api_rejects_an_expiry_in_the_past(design, alice, client_for):
    past = (timezone.now() - timedelta(hours=1)).isoformat()
    response = client_for(alice).post(api_url(design), {"expires": past}, format="json")
    assert response.status_code == 400
    assert "expires" in response.json()
    response = client_for(alice).post(api_url(design), {"expires_in_days": 0}, format="json")
    assert response.status_code == 400
    assert "expires_in_days" in response.json()
    assert not design.share_links.exists()


def test_api_viewer_lists_but_cannot_create_or_revoke(design, link, bob, client_for):
    c = client_for(bob)
    listed = c.get(api_url(design))
    assert listed.status_code == 200
    assert [item["token"] for item in listed.json()] == [link.token]
    assert c.post(api_url(design), {}, format="json").status_code == 403
    assert c.delete(api_url(design, f"{link.pk}/")).status_code == 403
    assert c.delete(api_url(design) + f"?id={link.pk}").status_code == 403
    link.refresh_from_db()
    assert not link.revoked
    assert design.share_links.count() == 1


def test_api_outsider_gets_404(design, link, charlie, client_for):
    c = client_for(charlie)
    assert c.get(api_url(design)).status_code == 404
    assert c.post(api_url(design), {}, format="json").status_code == 404
    assert c.delete(api_url(design, f"{link.pk}/")).status_code == 404


def test_api_needs_a_login(design, api_client):
    assert api_client.get(api_url(design)).status_code in (401, 403)
    assert api_client.post(api_url(design), {}, format="json").status_code in (401, 403)


def test_api_revokes_a_link(design, link, erin, client_for, web):
    response = client_for(erin).delete(api_url(design, f"{link.pk}/"))
    assert response.status_code == 204
    link.refresh_from_db()
    assert link.revoked
    listed = client_for(erin).get(api_url(design)).json()
    assert listed[0]["revoked"] is True and listed[0]["active"] is False
    assert web().get(f"/share/{link.token}/").status_code == 404
    assert web().get(f"/share/{link.token}/export/").status_code == 404


def test_api_revokes_a_link_by_id_on_the_collection(design, link, alice, client_for):
    c = client_for(alice)
    assert c.delete(api_url(design)).status_code == 400
    assert c.delete(api_url(design) + f"?id={link.pk}").status_code == 204
    link.refresh_from_db()
    assert link.revoked


def test_api_cannot_revoke_a_link_of_another_design(design, team, alice, client_for):
    foreign = create_share_link(PoolDesignFactory(team=team, name="backup"), alice)
    assert client_for(alice).delete(api_url(design, f"{foreign.pk}/")).status_code == 404
    foreign.refresh_from_db()
    assert not foreign.revoked


def test_the_share_link_list_is_a_plain_list_as_the_schema_says(team, alice, client_for):
    from rest_framework.test import APIClient

    from tests.factories import PoolDesignFactory

    design = PoolDesignFactory(team=team)
    client = client_for(alice)
    assert client.post(f"/api/designs/{design.pk}/share-links/", {}, format="json").status_code == 201
    listed = client.get(f"/api/designs/{design.pk}/share-links/").json()
    assert isinstance(listed, list) and len(listed) == 1
    schema = APIClient().get("/api/schema/?format=json").json()
    op = schema["paths"]["/api/designs/{id}/share-links/"]["get"]
    assert op["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"
