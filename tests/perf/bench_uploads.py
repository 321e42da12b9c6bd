"""1,000 CrystalDiskMark logs through the upload API, parsed by two real Celery worker processes.

Needs PostgreSQL (127.0.0.1:5432, user postgres) and Redis (127.0.0.1:6379). It creates its
own database and uses its own Redis db, starts ``celery -A zfsplanner worker -c 2`` as a
subprocess, uploads from a second subprocess (DRF's test client against the real stack,
token auth, 50 files a request) and waits until every upload is done or failed.
Run alone: ``python tests/perf/run.py bench_uploads``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
CELERY = str(Path(PY).with_name("celery"))
DB_NAME = "zfsplanner_bench_uploads"
PG = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/13"
FILES = 1000
BATCH = 50
COMMAND = "python tests/perf/run.py bench_uploads"

# Runs in a subprocess with DATABASE_URL/CELERY_BROKER_URL pointing at the bench services.
CLIENT = r"""
import json, os, sys, time
import django
django.setup()
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient
from django.contrib.auth import get_user_model
from zfsplanner.accounts.models import Membership, Role, Team
from zfsplanner.accounts.tokens import issue_token
from benchmarks.models import BenchResult, BenchUpload

files, batch, sample = int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "rb").read()
user = get_user_model().objects.create_user("bench", password="bench-pw-0123")
team = Team.objects.create(name="Bench", slug="bench")
Membership.objects.create(team=team, user=user, role=Role.OWNER)
client = APIClient()
client.credentials(HTTP_AUTHORIZATION="Token " + issue_token(user, "bench", None)[1])
logs = [sample.replace(b"Comment: WD Blue 3D 1TB", b"Comment: bench disk %d" % i) for i in range(files)]
t0 = time.perf_counter()
for start in range(0, files, batch):
    chunk = [SimpleUploadedFile("cdm-%04d.txt" % (start + j), data) for j, data in enumerate(logs[start:start + batch])]
    r = client.post("/api/benchmark-uploads/", {"team": "bench", "files": chunk}, format="multipart")
    assert r.status_code == 201, r.content[:300]
t_uploaded = time.perf_counter() - t0
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    finished = BenchUpload.objects.filter(status__in=["done", "failed"]).count()
    if finished >= files:
        break
    time.sleep(0.1)
t_done = time.perf_counter() - t0
print(json.dumps({
    "uploaded_s": t_uploaded, "done_s": t_done,
    "done": BenchUpload.objects.filter(status="done").count(),
    "failed": BenchUpload.objects.filter(status="failed").count(),
    "rows": BenchResult.objects.count(),
    "stored_bytes": sum(BenchUpload.objects.values_list("size", flat=True)),
}))
"""


def _row(name: str, result: str, target: str, ok: bool) -> dict:
    return {"name": name, "result": result, "target": target, "ok": ok, "command": COMMAND}


def _services_missing() -> str | None:
    try:
        import psycopg
        import redis

        with psycopg.connect(f"{PG}/postgres", connect_timeout=3):
            pass
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except Exception as exc:  # noqa: BLE001 - reported as the reason the benchmark did not run
        return f"{type(exc).__name__}: {exc}"
    return None


def _recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def _drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')


def _wait_for_ready(logfile: Path, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited with {proc.returncode}: {logfile.read_text()[-500:]}")
        if logfile.exists() and " ready." in logfile.read_text():
            return
        time.sleep(0.2)
    raise RuntimeError("worker not ready after 60 s")


def run() -> list[dict]:
    name = f"benchmarks: {FILES:,} CrystalDiskMark uploads, API -> Redis -> 2 worker processes -> PostgreSQL"
    missing = _services_missing()
    if missing:
        return [_row(name, f"not run: PostgreSQL/Redis unavailable ({missing})", "all done", False)]
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    _recreate_database()
    work = Path(tempfile.mkdtemp(prefix="bench-uploads-"))
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "zfsplanner.settings",
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "CELERY_BROKER_URL": REDIS,
        "MEDIA_ROOT": str(work / "media"),
        "LOG_LEVEL": "WARNING",
        "DEBUG": "true",
    }
    worker = None
    try:
        subprocess.run([PY, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True)
        logfile = work / "worker.log"
        worker = subprocess.Popen(
            [
                CELERY,
                "-A",
                "zfsplanner",
                "worker",
                "-c",
                "2",
                "--loglevel",
                "INFO",
                "--logfile",
                str(logfile),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_ready(logfile, worker)
        sample = (
            ROOT / "tests" / "parsers" / "samples" / "crystaldiskmark" / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"
        )
        out = subprocess.run(
            [PY, "-c", CLIENT, str(FILES), str(BATCH), str(sample)],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        )
        m = json.loads(out.stdout.strip().splitlines()[-1])
    except subprocess.CalledProcessError as exc:
        return [_row(name, f"error: {(exc.stderr or '')[-300:]}", "all done", False)]
    finally:
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        shutil.rmtree(work, ignore_errors=True)
        _drop_database()
    all_done = m["done"] == FILES and m["failed"] == 0 and m["rows"] == FILES * 8
    per_s = FILES / m["done_s"]
    return [
        _row(
            f"benchmarks: {FILES:,} CrystalDiskMark files stored through the API ({BATCH} a request)",
            f"{m['uploaded_s']:.1f} s ({FILES / m['uploaded_s']:.0f} files/s, {m['stored_bytes']:,} bytes)",
            "< 60 s",
            m["uploaded_s"] < 60,
        ),
        _row(
            name,
            f"{m['done_s']:.1f} s wall, {per_s:.0f} uploads/s; "
            f"{m['done']} done, {m['failed']} failed, {m['rows']:,} result rows",
            f"all {FILES:,} done, >= 20 uploads/s",
            all_done and per_s >= 20,
        ),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
