"""Quick-planner updates through Django's test client on PostgreSQL: server time per update, p50/p95.

An update is what the browser sends as the user types: ``GET /plan/?…`` from htmx, answered with
the ``update`` partial (results, field messages, the live line) and ``HX-Replace-Url``. Each
request has a parameter set never asked before (the demo design's shape as the quick planner
describes it: 6 × 14 TB raidz2, a special mirror of 960 GB SSDs, a mirrored 16 GB SLOG, one 1M/zstd
dataset, with its disk size and data size changed every time), so nothing comes from a cache: form, document,
validation, estimate, presentation, rendering. Next to it, the bare view ``/healthz`` on the same
stack, and the same parameters asked again (served from the page cache) for reference. Runs in a
subprocess with its own database and the server's garbage-collector settings
(``zfsplanner/server/runtime.py``), anonymous as a visitor is. Target: p95 <= 30 ms.
Run alone: ``python tests/perf/run.py bench_quick``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
DB_NAME = "zfsplanner_bench_quick"
PG = "postgres://postgres@127.0.0.1:5432"
COMMAND = "python tests/perf/run.py bench_quick"
UPDATES = 200
TARGET_MS = 30
DEMO = "layout=raidz2&disks=6&vdevs=1&special=960GB&slog=16GB&recordsize=1M&compression=zstd"

CLIENT = r"""
import json, statistics, sys, time
import django
django.setup()
from zfsplanner.server.runtime import tune_gc
tune_gc()  # as zfsplanner/wsgi.py does for the server
from django.test import Client

updates, demo = int(sys.argv[1]), sys.argv[2]
client = Client()
HX = {"HTTP_HX_REQUEST": "true"}

def pct(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]

def timed(url, extra=HX, status=200):
    t0, c0 = time.perf_counter(), time.process_time()
    r = client.get(url, **extra)
    dt, dc = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    assert r.status_code == status, (url, r.status_code, r.content[:300])
    return dt, dc, r

def series(urls, extra=HX):
    wall, cpu = [], []
    for i, url in enumerate(urls):
        dt, dc, r = timed(url, extra)
        if i >= 3:  # the first requests warm imports and connections
            wall.append(dt)
            cpu.append(dc)
    return wall, cpu

# Each update changes the disk size (a new pool: estimate and commands computed anew) and the data.
fresh = [f"/plan/?{demo}&size={14000 + i}GB&data={1000 + i}GB" for i in range(updates + 3)]
out = {
    "healthz": series(["/healthz"] * (updates + 3), {}),
    "fresh": series(fresh),
    "cached": series([fresh[0]] * (updates + 3)),  # one parameter set asked again and again
}
_, _, r = timed(fresh[10])
assert b'data-figure="usable"' in r.content and r["HX-Replace-Url"].startswith("/plan/?layout=raidz2")
print(json.dumps({
    k: {"p50": statistics.median(w), "p95": pct(w, 95), "cpu_p50": statistics.median(c), "cpu_p95": pct(c, 95),
        "n": len(w)}
    for k, (w, c) in out.items()
}))
"""


def _row(name: str, result: str, target: str, ok: bool) -> dict:
    return {"name": name, "result": result, "target": target, "ok": ok, "command": COMMAND}


def _database(action: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True, connect_timeout=3) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')
        if action == "create":
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def run() -> list[dict]:
    name = "quick-planner update (htmx GET /plan/?…, a new parameter set each time), test client on PostgreSQL"
    target = f"p95 <= {TARGET_MS} ms"
    try:
        _database("create")
    except Exception as exc:  # noqa: BLE001 - reported as the reason the benchmark did not run
        return [_row(name, f"not run: PostgreSQL unavailable ({exc})", target, False)]
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "zfsplanner.settings",
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "LOG_LEVEL": "WARNING",
        "DEBUG": "true",
        "THROTTLE_ESTIMATE": "100000/minute",  # the server is measured, not the rate limit
    }
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CACHE_URL", None)  # the default per-process cache: nothing shared with other runs
    try:
        subprocess.run([PY, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True)
        done = subprocess.run([PY, "-c", CLIENT, str(UPDATES), DEMO], cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "client failed")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        _database("drop")
    bare, fresh, cached = figures["healthz"], figures["fresh"], figures["cached"]
    load = os.getloadavg()[0]
    return [
        _row(
            f"{name}: demo design",
            f"p50 {fresh['p50']:.1f} ms, p95 {fresh['p95']:.1f} ms over {fresh['n']} updates "
            f"(CPU p50 {fresh['cpu_p50']:.1f} ms, p95 {fresh['cpu_p95']:.1f} ms; "
            f"bare /healthz on the same stack: p50 {bare['p50']:.2f} ms, p95 {bare['p95']:.2f} ms; "
            f"the same parameters again, from the page cache: p50 {cached['p50']:.1f} ms, p95 {cached['p95']:.1f} ms; "
            f"load average {load:.1f} on {os.cpu_count()} cores)",
            target,
            fresh["p95"] <= TARGET_MS,
        )
    ]
