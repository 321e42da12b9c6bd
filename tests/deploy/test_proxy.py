"""nginx in front of gunicorn, as docker-compose.yml runs them: the site ``zfsplanner.server.proxy`` writes.

The first tests read the site and let nginx check it. The ``services`` tests start Debian's nginx,
a real gunicorn with the production settings on the test database, and a Celery worker: a large
upload sent slowly is parsed while gunicorn spends a fraction of the upload's time on it; static
files carry the app's own security headers; clients' forwarding headers never reach the app; a
gunicorn worker aborted mid-upload leaves no partial file.

The slow upload's size and rate are parameters (``ZFSPLANNER_SLOW_UPLOAD_MB``, default 8, and
``ZFSPLANNER_SLOW_UPLOAD_RATE``, bytes a second as curl's ``--limit-rate`` reads them, default 1M);
docs/operations.md quotes the full run (150 MB at 1 MB/s).
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request

import pytest
from django.db import connection

from benchmarks.models import BenchRun, BenchUpload, UploadStatus
from tests.benchmarks.faults import ROOT, Worker, database_url, free_port, wait_for
from tests.deploy.stack import Gunicorn, Nginx, curl_upload, fio_log, production_env
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.celery import app
from zfsplanner.server.proxy import nginx_site, security_headers
from zfsplanner.uploads.handler import FORM_OVERHEAD_BYTES, max_request_bytes

STATIC_ROOT = ROOT / "zfsplanner" / "static"
SECURITY_HEADERS = (
    "Content-Security-Policy", "Permissions-Policy", "X-Frame-Options", "X-Content-Type-Options",
    "Referrer-Policy", "Cross-Origin-Opener-Policy", "Strict-Transport-Security",
)


def test_the_proxy_takes_the_largest_request_any_upload_kind_takes(settings):
    settings.IMPORT_UPLOAD_MAX_BYTES = 9 * 1000**3
    site = nginx_site(upstream="127.0.0.1:8000", static_root="/srv/static")
    assert max_request_bytes() == 9 * 1000**3 + FORM_OVERHEAD_BYTES
    assert f"client_max_body_size {9 * 1000**3 + FORM_OVERHEAD_BYTES};" in site


def test_the_proxy_buffers_whole_requests_and_replaces_forwarding_headers():
    site = nginx_site(upstream="127.0.0.1:8000", static_root="/srv/static")
    assert "proxy_request_buffering on;" in site
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site  # replaced, not appended to
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site


def test_static_files_get_the_headers_the_middleware_sends(settings):
    settings.CONTENT_SECURITY_POLICY = "default-src 'none'"
    site = nginx_site(upstream="127.0.0.1:8000", static_root="/srv/static")
    assert security_headers()["Content-Security-Policy"] == "default-src 'none'"
    assert site.count("add_header Content-Security-Policy \"default-src 'none'\" always;") == 2


def test_nginx_accepts_the_site(tmp_path):
    site = nginx_site(
        upstream="127.0.0.1:8000", static_root=str(STATIC_ROOT), listen=f"127.0.0.1:{free_port()}",
        body_temp_dir=str(tmp_path / "body"),
    )
    result = Nginx(tmp_path, site, 0).check()
    assert result.returncode == 0, result.stderr


# --------------------------------------------------------------------------- the real stack


@pytest.fixture
def stack(tmp_path, transactional_db):
    """gunicorn (production settings, the test database) behind nginx; ``stack(**gunicorn_options)``."""
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is not set: the services suite needs PostgreSQL (see .ci/run)")
    started: list = []

    def start(**options):
        env = production_env(tmp_path, DATABASE_URL=database_url(connection.settings_dict))
        gunicorn = Gunicorn(tmp_path, env, **options).start()
        started.append(gunicorn)
        port = free_port()
        site = nginx_site(
            upstream=f"127.0.0.1:{gunicorn.port}", static_root=str(STATIC_ROOT), listen=f"127.0.0.1:{port}",
            body_temp_dir=str(tmp_path / "nginx-body"),
        )
        nginx = Nginx(tmp_path / "nginx", site, port).start()
        started.append(nginx)
        return gunicorn, nginx

    yield start
    for process in reversed(started):
        process.stop()


def _get(url: str, **headers: str):
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 (loopback)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:  # noqa: S310
            return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers


def _security(headers) -> dict[str, str | None]:
    return {name: headers.get(name) for name in SECURITY_HEADERS}


@pytest.mark.services
def test_static_files_from_nginx_carry_the_apps_security_headers(stack):
    _, nginx = stack()
    status, app_headers = _get(f"http://127.0.0.1:{nginx.port}/api/designs/")  # answered by the app
    assert status in (401, 403)
    status, static_headers = _get(f"http://127.0.0.1:{nginx.port}/static/css/app.css")  # by nginx alone
    assert status == 200 and static_headers["Content-Type"].startswith("text/css")
    assert "X-Frame-Options" in static_headers and "Content-Security-Policy" in static_headers
    assert _security(static_headers) == _security(app_headers)


@pytest.mark.services
def test_a_clients_forwarding_headers_never_reach_the_app(stack):
    gunicorn, nginx = stack()
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    # Straight to gunicorn, a forged header makes the request "secure" (HSTS comes back): why only
    # the proxy may reach it. Through the proxy, the request is what it is: plain http.
    _, direct = _get(f"{gunicorn.url}/api/designs/", **forged)
    assert direct.get("Strict-Transport-Security")
    _, proxied = _get(f"http://127.0.0.1:{nginx.port}/api/designs/", **forged)
    assert proxied.get("Strict-Transport-Security") is None


@pytest.mark.services
def test_a_large_upload_sent_slowly_is_parsed_and_holds_gunicorn_a_fraction_of_its_time(
    stack, alice, tmp_path, settings
):
    size = int(float(os.environ.get("ZFSPLANNER_SLOW_UPLOAD_MB", "8")) * 1_000_000)
    rate = os.environ.get("ZFSPLANNER_SLOW_UPLOAD_RATE", "1M")
    settings.MEDIA_ROOT = tmp_path / "media"
    gunicorn, nginx = stack()
    env = production_env(tmp_path, DATABASE_URL=database_url(connection.settings_dict))
    worker = Worker(tmp_path / "worker.log", env, f"proxy-{os.getpid()}@%h")
    worker.start(app)
    try:
        _, key = issue_token(alice, "slow upload", None)
        log = fio_log(tmp_path / "big_bw.1.log", size)
        sent = curl_upload(f"http://127.0.0.1:{nginx.port}/api/benchmark-uploads/", key, log, tmp_path / "r", rate)
        assert sent["status"] == 201, (tmp_path / "r").read_text()
        # gunicorn logs a request once its answer is sent: wait for the line.
        [busy] = wait_for(
            lambda: [seconds for _, seconds, line in gunicorn.requests() if line.startswith("POST ")], 30,
            "gunicorn logging the upload",
        )
        upload = BenchUpload.objects.get()

        def parsed() -> bool:
            upload.refresh_from_db()
            assert upload.status != UploadStatus.FAILED, upload.error
            return upload.status == UploadStatus.DONE

        started = time.monotonic()
        wait_for(parsed, 600, "the slow upload parsed", interval=0.25)
        print(  # the figures docs/operations.md quotes (pytest -s)
            f"\nslow upload: {sent['sent_bytes'] / 1e6:.1f} MB sent in {sent['upload_seconds']:.1f} s "
            f"({sent['sent_bytes'] / 1e6 / sent['upload_seconds']:.2f} MB/s); gunicorn busy {busy:.2f} s; "
            f"parsed {time.monotonic() - started:.1f} s after the answer"
        )
    finally:
        worker.stop()
    assert upload.size == log.stat().st_size
    assert BenchRun.objects.get(upload=upload).series.get().point_count == log.read_text().count("\n")
    # The worker spent on the request a fraction of what the client took to send it (without the
    # proxy's buffering it is busy for the whole upload, and more).
    assert busy < sent["upload_seconds"] / 2, (busy, sent)


@pytest.mark.services
def test_a_gunicorn_worker_aborted_mid_upload_leaves_no_partial_file(stack, alice, tmp_path):
    """Straight to gunicorn (no proxy: the case the proxy prevents), a client too slow for ``--timeout``."""
    gunicorn, _ = stack(timeout=3)
    _, key = issue_token(alice, "cut upload", None)
    log = fio_log(tmp_path / "cut_bw.1.log", 4_000_000)
    spool = tmp_path / "media" / "benchmarks" / "tmp"
    client = subprocess.Popen(  # noqa: S603
        ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--limit-rate", "100K",
         "-H", f"Authorization: Token {key}", "-F", "team=alpha", "-F", f"files=@{log};filename=cut_bw.1.log",
         f"{gunicorn.url}/api/benchmark-uploads/"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        [partial] = wait_for(lambda: list(spool.glob("*")) if spool.exists() else [], 30, "the upload arriving")
        born = time.monotonic()
        wait_for(lambda: "WORKER TIMEOUT" in gunicorn.output(), 30, "gunicorn aborting the worker")
        wait_for(lambda: not partial.exists(), 10, "the partial file removed")
        print(f"\npartial file lived {time.monotonic() - born:.1f} s (gunicorn --timeout 3)")
    finally:
        client.kill()
        status, _ = client.communicate()
    # The client got no success, whichever came first: the connection closed (000) or an error answer.
    assert not status.startswith("2"), status
    assert not BenchUpload.objects.exists()


@pytest.mark.services
def test_a_client_cut_off_mid_upload_never_reaches_gunicorn_and_leaves_no_file(stack, alice, tmp_path):
    gunicorn, nginx = stack()
    _, key = issue_token(alice, "cut client", None)
    log = fio_log(tmp_path / "cut_bw.1.log", 4_000_000)
    body_temp = tmp_path / "nginx-body"
    client = subprocess.run(  # noqa: S603 (curl gives up after 3 s, 3 MB in: nginx holds them in a file)
        ["curl", "-sS", "-o", "/dev/null", "--max-time", "3", "--limit-rate", "1M",
         "-H", f"Authorization: Token {key}", "-F", "team=alpha", "-F", f"files=@{log};filename=cut_bw.1.log",
         f"http://127.0.0.1:{nginx.port}/api/benchmark-uploads/"],
        capture_output=True, text=True, check=False,
    )
    assert client.returncode == 28  # curl's "operation timed out": the client went away mid-body
    access = tmp_path / "nginx" / "logs" / "access.log"
    wait_for(lambda: "POST /api/benchmark-uploads/" in access.read_text(), 30, "nginx ending the cut request")
    assert [p for p in body_temp.rglob("*") if p.is_file()] == []
    assert [line for _, _, line in gunicorn.requests() if line.startswith("POST ")] == []
    assert not (tmp_path / "media" / "benchmarks" / "tmp").exists() or not any(
        (tmp_path / "media" / "benchmarks" / "tmp").iterdir()
    )


def test_nginx_accepts_the_site_with_a_certificate(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(  # noqa: S603
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
         "-keyout", str(key), "-out", str(cert)],
        capture_output=True, check=True,
    )
    site = nginx_site(
        upstream="127.0.0.1:8000", static_root=str(STATIC_ROOT), listen=f"127.0.0.1:{free_port()}",
        tls_certificate=str(cert), tls_key=str(key),
    )
    assert f"ssl_certificate {cert};" in site and "listen 443 ssl;" in site
    result = Nginx(tmp_path, site, 0).check()
    assert result.returncode == 0, result.stderr
