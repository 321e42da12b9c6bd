"""/collect.sh as served, the "Collect from a server" page and its upload-only token."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from tests.core.import_samples import text
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.models import ApiToken, RevokeReason, TokenScope
from zfsplanner.accounts.tokens import MAX_UPLOAD_TOKENS, UPLOAD_TOKEN_LIFETIME, issue_upload_token
from zfsplanner.imports.models import PoolImport

pytestmark = pytest.mark.django_db
SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "collect.sh"
LINUX = "linux-2.3-raidz2-special-log-cache-spare.txt"


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def command_key(page: str) -> str:
    return re.search(r"--token ([A-Za-z0-9_-]+)", page).group(1)


def test_collect_sh_is_the_file_byte_for_byte_and_cacheable(web):
    response = web().get("/collect.sh")
    assert response.status_code == 200
    assert response.content == SCRIPT.read_bytes()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "public" in response["Cache-Control"] and "max-age=3600" in response["Cache-Control"]
    again = web().get("/collect.sh", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_the_page_shows_a_fresh_upload_only_command_for_the_team(web, alice, team):
    page = web(alice).get("/imports/collect/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    html = page.content.decode()
    token = ApiToken.objects.get(user=alice)
    assert (token.scope, token.team) == (TokenScope.UPLOAD, team)
    assert abs(token.expires - (timezone.now() + UPLOAD_TOKEN_LIFETIME)) < timedelta(minutes=1)
    key = command_key(html)
    assert key.startswith(token.prefix)
    assert "curl -fsS http://testserver/collect.sh | sh -s -- --server http://testserver --token " + key in html
    assert web(alice).get("/imports/collect/").content.decode() != html  # every visit: a new token
    assert ApiToken.objects.filter(user=alice).count() == 2


def test_the_design_link_adds_design_and_uses_its_team(web, alice, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    html = web(alice).get(f"/imports/collect/?design={design.pk}").content.decode()
    assert f"--design {design.pk}" in html
    assert f'href="/imports/collect/?design={design.pk}"' in web(alice).get(f"/designs/{design.pk}/").content.decode()


def test_another_teams_design_is_hidden(web, charlie, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    assert web(charlie).get(f"/imports/collect/?design={design.pk}").status_code == 404
    assert not ApiToken.objects.filter(user=charlie).exists()


def test_a_viewer_gets_no_command(web, bob):
    html = web(bob).get("/imports/collect/").content.decode()
    assert "--token" not in html and "not an owner or editor" in html
    assert not ApiToken.objects.filter(user=bob).exists()


def test_the_polling_list_shows_what_arrived_and_issues_no_token(web, alice, team):
    key = issue_upload_token(alice, team)[1]
    created = token_client(key).post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank"}, format="json")
    assert created.status_code == 201
    before = ApiToken.objects.count()
    part = web(alice).get("/imports/collect/", HTTP_HX_REQUEST="true")
    assert ApiToken.objects.count() == before
    html = part.content.decode()
    assert html.lstrip().startswith('<section class="card" id="collect-arrived"')
    assert f'href="/imports/pool/{created.data["id"]}/"' in html and "pool tank" in html


def test_the_upload_only_token_creates_imports_and_runs_and_nothing_else(alice, team, other_team):
    key = issue_upload_token(alice, team)[1]
    client = token_client(key)
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    assert client.get("/api/designs/").status_code == 403
    assert client.get(f"/api/designs/{design.pk}/").status_code == 403
    assert client.get("/api/teams/").status_code == 403
    assert client.post("/api/auth/tokens/", {"name": "x"}, format="json").status_code == 403
    assert client.get("/api/pool-imports/").status_code == 403
    made = client.post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank", "design": design.pk}, format="json")
    assert made.status_code == 201 and PoolImport.objects.get().design == design
    assert client.get(f"/api/pool-imports/{made.data['id']}/").status_code == 403
    saved = client.post(f"/api/pool-imports/{made.data['id']}/save/", {"team": team.pk}, format="json")
    assert saved.status_code == 403


def test_the_upload_only_token_sends_to_its_own_team_only(alice, team, other_team):
    from tests.factories import MembershipFactory
    from zfsplanner.accounts.models import Role

    MembershipFactory(team=other_team, user=alice, role=Role.OWNER)
    theirs = PoolDesignFactory(team=other_team, name="tank", document=design_document("tank"))
    client = token_client(issue_upload_token(alice, team)[1])
    refused = client.post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank", "design": theirs.pk},
                          format="json")
    assert refused.status_code == 400 and "another team" in str(refused.data["design"])
    assert not PoolImport.objects.exists()


def test_it_expires_and_the_oldest_are_replaced(alice, team):
    keys = [issue_upload_token(alice, team)[1] for _ in range(MAX_UPLOAD_TOKENS + 1)]
    first = ApiToken.objects.order_by("created", "pk").first()
    assert first.revoked_reason == RevokeReason.REPLACED
    body = {"text": text(LINUX), "pool": "tank"}
    # a refused token is 403 here (SessionAuthentication comes first, so no WWW-Authenticate)
    assert token_client(keys[0]).post("/api/pool-imports/", body, format="json").status_code == 403
    with time_machine.travel(timezone.now() + UPLOAD_TOKEN_LIFETIME + timedelta(minutes=1)):
        assert token_client(keys[-1]).post("/api/pool-imports/", body, format="json").status_code == 403
    assert token_client(keys[-1]).post("/api/pool-imports/", body, format="json").status_code == 201
