"""/collect.sh as served, the "Collect from a server" page and its upload-only token."""

from __future__ import annotations

import hashlib
import re
import subprocess
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from tests.core.import_samples import text
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.models import ApiToken, RevokeReason, TokenScope
from zfsplanner.accounts.tokens import MAX_UPLOAD_TOKENS, UPLOAD_TOKEN_LIFETIME, issue_upload_token, revoke_token
from zfsplanner.imports.models import PoolImport

pytestmark = pytest.mark.django_db
SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "collect.sh"
LINUX = "linux-2.3-raidz2-special-log-cache-spare.txt"


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def new_key(page: str) -> str:
    return re.search(r'<pre id="collect-new-token-key">([A-Za-z0-9_-]+)</pre>', page).group(1)


def test_collect_sh_is_the_file_byte_for_byte_and_cacheable(web):
    response = web().get("/collect.sh")
    assert response.status_code == 200
    assert response.content == SCRIPT.read_bytes()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "public" in response["Cache-Control"] and "max-age=3600" in response["Cache-Control"]
    again = web().get("/collect.sh", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_collect_sh_sha256_is_what_sha256sum_checks(web, tmp_path):
    response = web().get("/collect.sh.sha256")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    digest = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()
    assert response.content.decode() == f"{digest}  collect.sh\n"
    (tmp_path / "collect.sh").write_bytes(web().get("/collect.sh").content)
    (tmp_path / "collect.sh.sha256").write_bytes(response.content)
    checked = subprocess.run(["sha256sum", "-c", "collect.sh.sha256"], cwd=tmp_path, capture_output=True, text=True,
                             check=False)
    assert (checked.returncode, checked.stdout) == (0, "collect.sh: OK\n")


def test_the_page_leads_through_download_check_read_dry_run_and_run(web, alice, team):
    page = web(alice).get("/imports/collect/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    html = unescape(page.content.decode())
    digest = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()
    commands = re.findall(r'<pre id="collect-([a-z-]+)-command" data-commands>([^<]*)</pre>', html)
    assert commands == [
        ("download", "curl -fsSO http://testserver/collect.sh"),
        ("check", f"echo '{digest}  collect.sh' | sha256sum -c -"),
        ("read", "less collect.sh"),
        ("dry-run", "sh collect.sh --server http://testserver --dry-run | less"),
        ("token-file", "(umask 077 && cat > ~/.zfsplanner-token)"),
        ("run", "sh collect.sh --server http://testserver --token-file ~/.zfsplanner-token"),
    ]
    assert digest in html and "/collect.sh.sha256" in html
    assert "as root" not in html and "| sh " not in html and "--token " not in html


def test_the_check_command_passes_on_the_script_as_served(web, alice, team, tmp_path):
    html = unescape(web(alice).get("/imports/collect/").content.decode())
    check = re.search(r'<pre id="collect-check-command" data-commands>([^<]*)</pre>', html).group(1)
    (tmp_path / "collect.sh").write_bytes(web().get("/collect.sh").content)
    done = subprocess.run(["sh", "-c", check], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "collect.sh: OK\n")
    (tmp_path / "collect.sh").write_bytes(SCRIPT.read_bytes() + b"# changed\n")
    changed = subprocess.run(["sh", "-c", check], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert changed.returncode == 1 and "FAILED" in changed.stdout


def test_showing_the_page_makes_no_token(web, alice, team):
    for _ in range(3):
        assert web(alice).get("/imports/collect/").status_code == 200
    assert not ApiToken.objects.filter(user=alice).exists()
    assert 'id="collect-no-tokens"' in web(alice).get("/imports/collect/").content.decode()


def test_the_button_makes_one_upload_only_token_shown_once(web, alice, team):
    client = web(alice)
    page = client.post("/imports/collect/tokens/", {"team": team.slug, "name": "nas-01"})
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    token = ApiToken.objects.get(user=alice)
    assert (token.scope, token.team, token.name) == (TokenScope.UPLOAD, team, "nas-01")
    assert abs(token.expires - (timezone.now() + UPLOAD_TOKEN_LIFETIME)) < timedelta(minutes=1)
    html = page.content.decode()
    key = new_key(html)
    assert key.startswith(token.prefix) and token_client(key).post(
        "/api/pool-imports/", {"text": text(LINUX), "pool": "tank"}, format="json").status_code == 201
    # the key is in the answer to the button only; the page lists the token by name, without its key
    again = client.get("/imports/collect/").content.decode()
    assert key not in again and 'id="collect-new-token"' not in again
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_the_tokens_are_listed_with_made_last_used_and_expires(web, alice, team):
    used, _ = issue_upload_token(alice, team, "used")
    fresh, fresh_key = issue_upload_token(alice, team, "fresh")
    token_client(fresh_key).post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank"}, format="json")
    revoke_token(used)
    html = web(alice).get("/imports/collect/").content.decode()
    rows = dict(re.findall(r'<tr data-token="(\d+)">(.*?)</tr>', html, re.S))
    fresh.refresh_from_db()
    assert fresh.last_used is not None
    row = rows[str(fresh.pk)]
    assert "fresh" in row and f"{fresh.prefix}…" in row
    assert timezone.localtime(fresh.created).strftime("%Y-%m-%d %H:%M") in row
    assert timezone.localtime(fresh.last_used).strftime("%Y-%m-%d %H:%M") in row
    assert timezone.localtime(fresh.expires).strftime("%Y-%m-%d %H:%M") in row and "Revoke" in row
    assert "never" in rows[str(used.pk)] and "revoked" in rows[str(used.pk)] and "Revoke" not in rows[str(used.pk)]


def test_a_token_is_revoked_from_the_page(web, alice, team):
    token, key = issue_upload_token(alice, team)
    response = web(alice).post(f"/imports/collect/tokens/{token.pk}/revoke/", {"team": team.slug})
    assert response.status_code == 302 and response["Location"] == f"/imports/collect/?team={team.slug}#collect-tokens"
    token.refresh_from_db()
    assert token.revoked is not None and token.revoked_reason == RevokeReason.BY_USER
    refused = token_client(key).post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank"}, format="json")
    assert refused.status_code == 403


def test_another_users_token_cannot_be_revoked(web, alice, erin, team):
    token, _ = issue_upload_token(alice, team)
    assert web(erin).post(f"/imports/collect/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked is None


def test_the_design_link_adds_design_and_uses_its_team(web, alice, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    html = web(alice).get(f"/imports/collect/?design={design.pk}").content.decode()
    assert f"--design {design.pk} --dry-run" in html and f"--design {design.pk} --token-file" in html
    assert f'<input type="hidden" name="design" value="{design.pk}">' in html
    made = web(alice).post("/imports/collect/tokens/", {"design": design.pk})
    assert made.status_code == 200 and ApiToken.objects.get(user=alice).team == team
    assert f'href="/imports/collect/?design={design.pk}"' in web(alice).get(f"/designs/{design.pk}/").content.decode()


def test_another_teams_design_is_hidden(web, charlie, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    assert web(charlie).get(f"/imports/collect/?design={design.pk}").status_code == 404
    assert web(charlie).post("/imports/collect/tokens/", {"design": design.pk}).status_code == 404
    assert not ApiToken.objects.filter(user=charlie).exists()


def test_a_viewer_gets_no_token(web, bob, team):
    html = web(bob).get("/imports/collect/").content.decode()
    assert "collect-token-form" not in html and "not an owner or editor" in html
    refused = web(bob).post("/imports/collect/tokens/", {"team": team.slug})
    assert refused.status_code == 422 and "not an owner or editor" in refused.content.decode()
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
