"""50 concurrent clients against gunicorn + PostgreSQL + Redis on loopback: /healthz, the design
page and the two estimate APIs, each for a bounded time, with 0 errors and at least 0.7 × the
requests/s of /healthz as the target.

Needs PostgreSQL (127.0.0.1:5432, user postgres); creates and drops its own database. The app
runs as in production: ``DEBUG=false``, collected static files through WhiteNoise's manifest,
``gunicorn --workers 3`` (as docker-compose.yml runs it), Redis as the shared cache when it
answers on 127.0.0.1:6379 (a key space of its own), bound to 127.0.0.1 only. The clients are one
asyncio process (HTTP/1.1, a new connection per request, as gunicorn's sync workers close each
one), so the figures are for this machine with load generator and server sharing its cores.
The estimate rate limit is raised for the run (THROTTLE_ESTIMATE) so it measures the server,
not the limit.

Two configurations: the default, where each worker keeps its database connection, and a new
database connection per request (``CONN_MAX_AGE=0``, a third of the time). A fifth endpoint
posts a document never estimated before on every request (nothing cached): the cost of a
real estimate under load.

Run alone: ``python tests/perf/run.py bench_load``; BENCH_LOAD_SECONDS (default 60) sets the
time per endpoint, BENCH_LOAD_CLIENTS (default 50) the concurrency.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
GUNICORN = str(Path(PY).with_name("gunicorn"))
DB_NAME = "zfsplanner_bench_load"
PG = "postgres://postgres@127.0.0.1:5432"
SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "60"))
CLIENTS = int(os.environ.get("BENCH_LOAD_CLIENTS", "50"))
WORKERS = int(os.environ.get("BENCH_LOAD_WORKERS", "3"))
TARGET_RATIO = 0.7
REDIS_URL = "redis://127.0.0.1:6379/1"
COMMAND = "python tests/perf/run.py bench_load"

# Runs once in a subprocess against the bench database: a user, a team, the home-server example
# design, a logged-in session and an API token; prints what the clients need.
SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from zfsplanner.accounts.models import Membership, Role, Team
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.plans.services import save_design_document

user = get_user_model().objects.create_user("load", password="load-pw-0123")
team = Team.objects.create(name="Load", slug="load")
Membership.objects.create(team=team, user=user, role=Role.OWNER)
doc = json.load(open("examples/home-server.json"))
design = save_design_document(team, doc, user)
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
token = issue_token(user, "load", None)[1]
print(json.dumps({"design": design.pk, "session": session.session_key, "token": token, "document": doc}))
"""


def _row(name: str, result: str, target: str, ok: bool) -> dict:
    return {"name": name, "result": result, "target": target, "ok": ok, "command": COMMAND}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_missing() -> str | None:
    try:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", connect_timeout=3):
            pass
    except Exception as exc:  # noqa: BLE001 - reported as the reason the benchmark did not run
        return f"{type(exc).__name__}: {exc}"
    return None


def _cache_env() -> dict[str, str]:
    """Redis as docker-compose.yml configures it (shared cache, sessions read from it), in a
    key space of this run; without Redis each worker keeps its own in-memory cache."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2):
            pass
    except OSError:
        return {}
    return {"CACHE_URL": REDIS_URL, "CACHE_KEY_PREFIX": f"bench-load-{secrets.token_hex(4)}"}


def _database(action: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        if action == "create":
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')


# --------------------------------------------------------------------------- the load


class Endpoint:
    """One request, sent again and again; ``bodies`` (if given) makes a new body for each request."""

    def __init__(
        self, name: str, method: str, path: str, headers: dict[str, str], body: bytes = b"",
        bodies: Callable[[], bytes] | None = None, expect: int = 200,
    ) -> None:
        self.name, self.method, self.path, self.headers, self.bodies = name, method, path, headers, bodies
        self.expect = expect
        self.request = self._request(body)

    def _request(self, body: bytes) -> bytes:
        head = [f"{self.method} {self.path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
                "Accept-Encoding: identity"]
        head += [f"{k}: {v}" for k, v in self.headers.items()]
        if body:
            head.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body

    def next_request(self) -> bytes:
        return self._request(self.bodies()) if self.bodies else self.request


async def _one(port: int, endpoint: Endpoint) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(endpoint.next_request())
        await writer.drain()
        status_line = await reader.readline()
        await reader.read()  # the server closes the connection after the response
        return int(status_line.split()[1])
    finally:
        writer.close()


async def _load(port: int, endpoint: Endpoint, seconds: float, clients: int) -> dict:
    latencies: list[float] = []
    errors: dict[str, int] = {}
    stop = time.monotonic() + seconds

    async def client() -> None:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                status = await asyncio.wait_for(_one(port, endpoint), timeout=60)
            except Exception as exc:  # noqa: BLE001 - counted and reported as an error
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                continue
            latencies.append(time.perf_counter() - t0)
            if status != endpoint.expect and not (endpoint.expect == 200 and 200 <= status < 300):
                errors[str(status)] = errors.get(str(status), 0) + 1

    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - t0
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_s": len(latencies) / wall,
        "errors": errors,
        "p50_ms": statistics.median(latencies) * 1000 if latencies else 0.0,
        "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000 if latencies else 0.0,
    }


def measure(port: int, endpoints: list[Endpoint], seconds: float, clients: int) -> dict[str, dict]:
    out = {}
    for endpoint in endpoints:
        asyncio.run(_load(port, endpoint, min(3.0, seconds), clients))  # warm every worker up
        out[endpoint.name] = asyncio.run(_load(port, endpoint, seconds, clients))
    return out


def _wait_until_up(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {log.read_text()[-800:]}")
        try:
            if asyncio.run(_one(port, Endpoint("healthz", "GET", "/healthz", {}))) == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("gunicorn not answering after 60 s")


def _serve(env: dict[str, str], work: Path, endpoints: list[Endpoint], seconds: float) -> dict[str, dict]:
    """Start gunicorn with ``env``, put each endpoint under load, stop it."""
    port = _free_port()
    log = work / "gunicorn.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [GUNICORN, "zfsplanner.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(WORKERS),
             "--timeout", "120", "--backlog", "2048"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_up(port, server, log)
        return measure(port, endpoints, seconds, CLIENTS)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def _rows(figures: dict[str, dict], label: str, seconds: float, targeted: list[str]) -> list[dict]:
    base = figures[HEALTHZ]["per_s"]
    rows = []
    for name, f in figures.items():
        errors = sum(f["errors"].values())
        ratio = f["per_s"] / base if base else 0.0
        result = (
            f"{f['per_s']:.0f} req/s ({ratio:.2f}× /healthz), p50 {f['p50_ms']:.0f} ms, p95 {f['p95_ms']:.0f} ms, "
            f"{f['requests']:,} requests, {errors} errors{' ' + json.dumps(f['errors']) if errors else ''}"
        )
        row_name = f"load{label}: {name}, {CLIENTS} clients, {seconds:.0f} s"
        if name in targeted:
            target = f"0 errors, >= {TARGET_RATIO}× /healthz"
            rows.append(_row(row_name, result, target, errors == 0 and ratio >= TARGET_RATIO))
        else:
            rows.append(_row(row_name, result, "0 errors", errors == 0))
    return rows


HEALTHZ = "/healthz"
TARGETED = ["design page", "stored-design estimate API", "stateless estimate API"]
FRESH = "stateless estimate API, a new document each request"
# Django's request cycle for a logged-in visitor and nothing else (the 404 page): what any page costs at least.
FLOOR = "a logged-in request answering 404 (no view work: the floor of any page)"
# The configurations measured: the default (each worker keeps its database connection), and a
# new database connection per request (CONN_MAX_AGE=0), shorter.
CONFIGS = [("", {}, 1.0), (" (a database connection per request, CONN_MAX_AGE=0)", {"CONN_MAX_AGE": "0"}, 1 / 3)]


def run() -> list[dict]:
    missing = _postgres_missing()
    if missing:
        return [_row(f"load: {n}", f"not run: PostgreSQL unavailable ({missing})", "-", False)
                for n in [HEALTHZ, *TARGETED]]
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")} | _cache_env() | {
        "DJANGO_SETTINGS_MODULE": "zfsplanner.settings",
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": str(work / "static"),
        "MEDIA_ROOT": str(work / "media"),
        "LOG_LEVEL": "WARNING",
        "THROTTLE_ESTIMATE": "1000000/minute",
    }
    rows: list[dict] = []
    _database("create")
    try:
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([PY, "manage.py", *step], cwd=ROOT, env=env, check=True, capture_output=True)
        setup = subprocess.run([PY, "-c", SETUP], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
        info = json.loads(setup.stdout.strip().splitlines()[-1])
        token = {"Authorization": f"Token {info['token']}"}
        body = json.dumps(info["document"]).encode()
        counter = itertools.count()

        def fresh_document() -> bytes:  # a different description: a document never estimated before
            return json.dumps({**info["document"], "description": f"variant {next(counter)}"}).encode()

        json_headers = token | {"Content-Type": "application/json"}
        endpoints = [
            Endpoint(HEALTHZ, "GET", "/healthz", {}),
            Endpoint(TARGETED[0], "GET", f"/designs/{info['design']}/", {"Cookie": f"sessionid={info['session']}"}),
            Endpoint(TARGETED[1], "GET", f"/api/designs/{info['design']}/estimate/", token),
            Endpoint(TARGETED[2], "POST", "/api/estimate/", json_headers, body),
            Endpoint(FRESH, "POST", "/api/estimate/", json_headers, bodies=fresh_document),
            Endpoint(FLOOR, "GET", "/no-such-page/", {"Cookie": f"sessionid={info['session']}"}, expect=404),
        ]
        for label, extra, share in CONFIGS:
            seconds = max(5.0, SECONDS * share)
            rows += _rows(_serve(env | extra, work, endpoints, seconds), label, seconds, TARGETED)
    except (subprocess.CalledProcessError, RuntimeError) as exc:
        detail = getattr(exc, "stderr", None) or str(exc)
        return [_row(f"load: {n}", f"error: {str(detail)[-300:]}", "-", False) for n in [HEALTHZ, *TARGETED]]
    finally:
        shutil.rmtree(work, ignore_errors=True)
        _database("drop")
        _drop_cache_keys(env.get("CACHE_KEY_PREFIX"))
    return rows


def _drop_cache_keys(prefix: str | None) -> None:
    """Remove this run's cache entries (estimates of thousands of distinct documents)."""
    if not prefix:
        return
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])


if __name__ == "__main__":
    for row in run():
        print(row)
