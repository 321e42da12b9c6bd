"""Speed and memory of the benchmark-log parsers on a large fio json+ file.

``run()`` builds a ~100 MB fio ``json+`` document (many jobs, histogram bins in every
latency object) in a temporary directory, then compares ``zfsplanner.parsers.parse`` with a
bare ``orjson.loads`` of the same bytes: time (target ≤ 2×) and peak traced memory
(target: parse adds at most one copy of the file on top of what ``orjson.loads`` needs,
and stays within a few copies of the file overall).
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from zfsplanner.parsers import parse  # noqa: E402

TARGET_BYTES = 100 * 1024 * 1024
COMMAND = ".venv/bin/python -c 'from tests.perf.bench_parsers import run; print(run())'"


def _latency(rng: random.Random, mean_ns: float, bins: int) -> dict[str, Any]:
    keys = sorted({int(mean_ns * rng.lognormvariate(0, 0.6)) + 1 for _ in range(bins)})
    counts = {str(k): rng.randint(1, 5000) for k in keys}
    pct = {
        f"{p:.6f}": int(mean_ns * (0.5 + p / 50))
        for p in (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99)
    }
    return {
        "min": int(mean_ns / 3),
        "max": int(mean_ns * 40),
        "mean": mean_ns,
        "stddev": mean_ns / 4,
        "N": sum(counts.values()),
        "percentile": pct,
        "bins": counts,
    }


def _direction(rng: random.Random, active: bool, bins: int) -> dict[str, Any]:
    bw = rng.randint(10_000, 2_000_000) if active else 0
    lat = (
        _latency(rng, rng.uniform(50_000, 900_000), bins)
        if active
        else {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}
    )
    return {
        "io_bytes": bw * 60 * 1024,
        "io_kbytes": bw * 60,
        "bw_bytes": bw * 1024,
        "bw": bw,
        "iops": bw / 4.0,
        "runtime": 60000 if active else 0,
        "total_ios": bw * 15 if active else 0,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0},
        "clat_ns": lat,
        "lat_ns": {k: v for k, v in lat.items() if k not in ("percentile", "bins")},
        "bw_min": bw // 2,
        "bw_max": bw * 2,
        "bw_agg": 100.0,
        "bw_mean": float(bw),
        "bw_dev": 1.0,
        "bw_samples": 120,
        "iops_min": 1,
        "iops_max": 2,
        "iops_mean": 1.5,
        "iops_stddev": 0.1,
        "iops_samples": 120,
    }


def make_document(target_bytes: int = TARGET_BYTES, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    job_template_count = 40
    templates = []
    for i in range(job_template_count):
        rw = ("randread", "randwrite", "randrw", "read")[i % 4]
        templates.append(
            {
                "jobname": f"job{i}",
                "groupid": i,
                "error": 0,
                "eta": 0,
                "elapsed": 61,
                "job options": {
                    "rw": rw,
                    "bs": ("4k", "64k", "1m")[i % 3],
                    "iodepth": str(1 << (i % 6)),
                    "numjobs": "1",
                    "ioengine": "libaio",
                    "direct": "1",
                    "runtime": "60",
                    "filename": "/dev/zvol/tank/bench",
                },
                "read": _direction(rng, rw in ("randread", "randrw", "read"), 1400),
                "write": _direction(rng, rw in ("randwrite", "randrw"), 1400),
                "trim": _direction(rng, False, 0),
                "sync": {"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}},
                "job_runtime": 60000,
                "usr_cpu": 1.0,
                "sys_cpu": 2.0,
                "ctx": 1000,
                "majf": 0,
                "minf": 10,
            }
        )
    one = sum(len(orjson.dumps(t, option=orjson.OPT_INDENT_2)) for t in templates) // job_template_count
    jobs = [
        dict(templates[i % job_template_count], jobname=f"job{i}", groupid=i)
        for i in range(max(1, target_bytes // one))
    ]
    doc = {
        "fio version": "fio-3.33",
        "timestamp": 1700000000,
        "timestamp_ms": 1700000000000,
        "time": "Tue Nov 14 22:13:20 2023",
        "global options": {"group_reporting": "1"},
        "jobs": jobs,
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def _best_time(fn: Any, data: bytes, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn(data)
        best = min(best, time.perf_counter() - start)
        del result
    return best


def _peak(fn: Any, data: bytes) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        result = fn(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    return peak


def run() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big-fio-jsonplus.json"
        path.write_bytes(make_document())
        data = path.read_bytes()
    size = len(data)
    t_loads = _best_time(orjson.loads, data)
    t_parse = _best_time(parse, data)
    m_loads = _peak(orjson.loads, data)
    m_parse = _peak(parse, data)
    jobs = len(parse(data).results)
    mib = size / 1024 / 1024
    return [
        {
            "name": f"fio json+ parse time ({mib:.0f} MiB, {jobs} results)",
            "result": f"{t_parse:.2f} s vs orjson.loads {t_loads:.2f} s ({t_parse / t_loads:.2f}×)",
            "target": "≤ 2× orjson.loads",
            "ok": t_parse <= 2 * t_loads,
            "command": COMMAND,
        },
        {
            "name": f"fio json+ parse peak memory ({mib:.0f} MiB file)",
            "result": (
                f"{m_parse / 1024 / 1024:.0f} MiB = {m_parse / size:.2f}× the file "
                f"(orjson.loads alone: {m_loads / 1024 / 1024:.0f} MiB = {m_loads / size:.2f}×)"
            ),
            "target": "≤ orjson.loads peak + 1× the file, ≤ 4× the file",
            "ok": m_parse <= m_loads + size and m_parse <= 4 * size,
            "command": COMMAND,
        },
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
