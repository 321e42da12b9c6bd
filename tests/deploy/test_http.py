"""What every answer carries and how errors look: security headers, JSON errors for JSON clients,
control characters in addresses, rate limits, and 503 + Retry-After while the database is down."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import PoolDesignFactory
from zfsplanner.plans.services import create_share_link

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture
def web(alice):
    c = Client()
    c.force_login(alice)
    return c


# --------------------------------------------------------------------------- headers


@pytest.mark.parametrize("url", ["/", "/benchmarks/", "/teams/", "/api/designs/", "/api/docs/", "/nowhere/"])
def test_every_answer_carries_the_content_security_policy_and_permissions_policy(url, web):
    r = web.get(url)
    csp = r["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "camera=()" in r["Permissions-Policy"] and "geolocation=()" in r["Permissions-Policy"]


SECURITY_HEADERS = ("Content-Security-Policy", "Permissions-Policy", "X-Frame-Options", "X-Content-Type-Options",
                    "Referrer-Policy", "Cross-Origin-Opener-Policy")


@pytest.mark.django_db
def test_healthz_carries_the_same_security_headers_as_a_page():
    page, health = Client().get("/accounts/login/"), Client().get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    for name in SECURITY_HEADERS:
        assert health.get(name) and health[name] == page[name], name
    assert health["X-Frame-Options"] == "DENY" and health["X-Content-Type-Options"] == "nosniff"


def test_the_anonymous_login_page_and_share_page_carry_them_too(team, alice):
    link = create_share_link(PoolDesignFactory(team=team), alice)
    for url in ("/accounts/login/", f"/share/{link.token}/"):
        assert "script-src 'self'" in Client().get(url)["Content-Security-Policy"]


TEMPLATE_DIRS = [ROOT / "zfsplanner", ROOT / "benchmarks"]


def _templates():
    for base in TEMPLATE_DIRS:
        yield from base.rglob("templates/**/*.html")


def test_no_template_has_inline_script_style_or_event_handlers():
    offenders = []
    for path in _templates():
        text = re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", path.read_text(), flags=re.S)
        for pattern, what in (
            (r"<script(?![^>]*\bsrc=)[^>]*>", "inline <script>"),
            (r"<style\b", "<style> block"),
            (r"\sstyle=\"", "style= attribute"),
            (r"\son[a-z]+=\"", "on*= handler"),
            (r"\bhx-on", "hx-on handler (evaluated as script)"),
            (r"javascript:", "javascript: URL"),
        ):
            for m in re.finditer(pattern, text):
                offenders.append(f"{path.relative_to(ROOT)}: {what}: {m.group(0)[:40]}")
    assert offenders == []


def test_swagger_ui_runs_from_files_only(web):
    html = web.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts and all("src=" in s for s in scripts)
    init = re.search(r'<script src="([^"]*script=[^"]*)"', html).group(1).replace("&amp;", "&")
    r = web.get(init)
    assert r.status_code == 200 and "SwaggerUIBundle" in r.content.decode()
    assert "cdn" not in html.lower()


# --------------------------------------------------------------------------- errors


def test_json_clients_get_json_errors(web):
    r = web.get("/api/no-such-thing/")
    assert r.status_code == 404 and r["Content-Type"] == "application/json" and r.json() == {"detail": "Not found."}
    r = web.get("/designs/999999/", HTTP_ACCEPT="application/json")
    assert r.status_code == 404 and r.json()["detail"] == "Not found."
    r = web.get("/designs/999999/", HTTP_ACCEPT="text/html,application/json")
    assert r.status_code == 404 and r["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "url", ["/share/x%00/", "/share/x%00/export/", "/?q=%00", "/teams/a%00b/", "/api/designs/?q=%00"]
)
def test_a_nul_in_the_address_is_a_400_not_a_500(url, web):
    for client in (Client(), web):
        r = client.get(url)
        assert r.status_code == 400
        assert "control character" in r.content.decode()


def test_a_control_character_in_the_path_answers_json_to_the_api(web):
    r = web.get("/api/designs/%01/")
    assert r.status_code == 400 and "control character" in r.json()["detail"]
    assert r.json()["errors"] == [{"field": "", "message": r.json()["detail"]}]  # the API's error shape


# --------------------------------------------------------------------------- rate limits


def _with_rate(settings, scope, rate):
    from rest_framework.settings import api_settings

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], scope: rate},
    }
    api_settings.reload()


# Rates are counted in fixed windows (zfsplanner/web/throttling.py): requests that straddle the end of
# a window are counted in two. The clock is stopped half-way through one, so each test sees one
# window whatever the time it runs at, and Retry-After is exact.
MID_WINDOW = datetime(2026, 3, 2, 12, 30, 30, tzinfo=UTC)


@pytest.fixture
def reload_api_settings():
    yield
    from rest_framework.settings import api_settings

    api_settings.reload()


def test_uploads_past_the_rate_get_429_through_the_api_and_the_page(
    alice, client_for, settings, tmp_path, reload_api_settings, time_machine
):
    time_machine.move_to(MID_WINDOW, tick=False)
    settings.MEDIA_ROOT = tmp_path
    _with_rate(settings, "uploads", "2/hour")
    client = client_for(alice)
    for i in range(2):
        f = SimpleUploadedFile(f"{i}.txt", f"not a log {i}\n".encode())
        assert client.post("/api/benchmark-uploads/", {"team": "alpha", "file": f}).status_code == 201
    f = SimpleUploadedFile("3.txt", b"not a log 3\n")
    r = client.post("/api/benchmark-uploads/", {"team": "alpha", "file": f})
    assert r.status_code == 429 and int(r["Retry-After"]) == 29 * 60 + 30  # to the end of the hour
    page = Client()
    page.force_login(alice)
    r = page.post("/benchmarks/upload/", {"files": [SimpleUploadedFile("4.txt", b"x")]})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert client.get("/api/benchmark-uploads/").status_code == 200  # polling the status is not limited


def test_compression_measurement_past_the_rate_gets_429(
    alice, client_for, settings, reload_api_settings, time_machine
):
    time_machine.move_to(MID_WINDOW, tick=False)
    _with_rate(settings, "compression", "1/hour")
    client = client_for(alice)
    sample = {"file": SimpleUploadedFile("s.bin", b"abc" * 1000), "algorithm": "lz4"}
    assert client.post("/api/compression/measure/", sample).status_code == 200
    sample = {"file": SimpleUploadedFile("s.bin", b"abc" * 1000), "algorithm": "lz4"}
    r = client.post("/api/compression/measure/", sample)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0


def test_estimates_past_the_rate_get_429_with_retry_after(
    alice, team, client_for, settings, reload_api_settings, time_machine
):
    time_machine.move_to(MID_WINDOW, tick=False)
    _with_rate(settings, "estimate", "3/minute")
    client = client_for(alice)
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "1TB"}}]}
    codes = [client.post("/api/estimate/", doc, format="json").status_code for _ in range(3)]
    assert codes == [200, 200, 200]
    r = client.post("/api/estimate/", doc, format="json")
    assert r.status_code == 429 and int(r["Retry-After"]) == 30  # to the end of the minute
    assert "throttled" in r.json()["detail"].lower()
    design = PoolDesignFactory(team=team)
    assert client.get(f"/api/designs/{design.pk}/estimate/").status_code == 429  # the same rate
    assert client.get("/api/designs/").status_code == 200  # reading is not limited
    time_machine.move_to(MID_WINDOW + timedelta(seconds=30), tick=False)  # the next minute: a new window
    assert client.post("/api/estimate/", doc, format="json").status_code == 200


# --------------------------------------------------------------------------- the database is down


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PROBE = """
import json, django
django.setup()
from django.test import Client
c = Client(raise_request_exception=False)
out = {}
for name, url, headers in [
    ("healthz", "/healthz", {}),
    ("api", "/api/designs/", {"HTTP_ACCEPT": "application/json"}),
    ("api_post", "/api/estimate/", {}),
    ("page", "/", {"HTTP_ACCEPT": "text/html"}),
    ("login", "/accounts/login/", {"HTTP_ACCEPT": "text/html"}),
]:
    r = c.post(url, "{}", content_type="application/json", **headers) if name == "api_post" else c.get(url, **headers)
    out[name] = {"status": r.status_code, "retry": r.get("Retry-After"), "type": r.get("Content-Type"),
                 "body": r.content.decode()[:300]}
print(json.dumps(out))
"""


def test_while_the_database_is_down_clients_get_503_with_retry_after():
    """A production-like process (DEBUG off) whose PostgreSQL refuses connections."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "zfsplanner.settings",
            "DEBUG": "false",
            "SECRET_KEY": "k" * 60,
            "ALLOWED_HOSTS": "testserver",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": f"postgres://nobody@127.0.0.1:{_closed_port()}/gone",
        }
    )
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    for name in ("healthz", "api", "api_post", "page", "login"):
        assert out[name]["status"] == 503, (name, out[name])
        assert out[name]["retry"] == "30", name
    assert out["api"]["type"] == "application/json" and "database is unavailable" in out["api"]["body"]
    assert out["api_post"]["type"] == "application/json"
    assert out["page"]["type"].startswith("text/html") and "Back in a moment" in out["page"]["body"]
    assert json.loads(out["healthz"]["body"]) == {"status": "database unavailable"}
