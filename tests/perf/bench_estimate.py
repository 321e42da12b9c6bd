"""The estimate of a 60-vdev pool with a 1,000-bucket file-size histogram: target < 10 ms on one core."""

from __future__ import annotations

import random
import statistics
import time

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate


def big_design() -> dict:
    rng = random.Random(60)
    hist = [[int(2 ** rng.uniform(9, 30)), rng.randint(1, 5000)] for _ in range(1000)]
    return {
        "name": "big",
        "vdevs": [
            {"role": "data", "layout": "raidz2", "width": 10, "count": 58, "ashift": 12,
             "disk": {"size_bytes": "18TB", "physical_sector_bytes": 4096}},
            {"role": "special", "layout": "mirror", "width": 3, "count": 2, "ashift": 12,
             "disk": {"size_bytes": "3.84TB", "physical_sector_bytes": 4096, "media": "nvme", "plp": True}},
        ],
        "datasets": [
            {"name": "big/files", "recordsize": "1M", "compression": "zstd", "special_small_blocks": "64K",
             "contents": {"file_size_histogram": hist, "compressibility": {"profile": "mixed"}}},
        ],
    }


def run() -> list[dict]:
    doc = big_design()
    design = parse_design(doc)
    estimate(design).to_document()  # warm up
    samples = []
    for _ in range(50):
        t0 = time.perf_counter()
        estimate(design).to_document()
        samples.append((time.perf_counter() - t0) * 1000)
    median = statistics.median(samples)
    t0 = time.perf_counter()
    for _ in range(20):
        parse_design(doc)
    parse_ms = (time.perf_counter() - t0) * 1000 / 20
    return [
        {
            "name": "estimate: 60 top-level vdevs, 1,000-bucket histogram",
            "result": f"{median:.2f} ms median of 50 (max {max(samples):.2f} ms)",
            "target": "< 10 ms on one core",
            "ok": median < 10,
            "command": "python tests/perf/run.py bench_estimate",
        },
        {
            "name": "design document validation (same design)",
            "result": f"{parse_ms:.2f} ms",
            "target": "informational",
            "ok": True,
            "command": "python tests/perf/run.py bench_estimate",
        },
    ]
