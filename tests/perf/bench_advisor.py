"""The layout advisor for 24 disks (every layout estimated, with a file-size histogram): target <= 200 ms."""

from __future__ import annotations

import random
import statistics
import time

from zfsplanner.core.advisor import Candidate, DataNeeds, advise
from zfsplanner.core.design.types import Disk, Media

DISK = Disk(16_000_900_661_248, model="ST16000NM001G", media=Media.HDD, rpm=7200)


def run() -> list[dict]:
    rng = random.Random(24)
    hist = tuple((int(2 ** rng.uniform(9, 30)), rng.randint(1, 5000)) for _ in range(200))
    needs = DataNeeds(100 * 10**12, growth_per_year=0.2, years=3, file_size_histogram=hist)
    candidates = [Candidate(DISK, 24, price=310.0, currency="EUR")]
    rows = advise(candidates, needs)  # warm up
    samples = []
    for _ in range(15):
        t0 = time.perf_counter()
        advise(candidates, needs)
        samples.append((time.perf_counter() - t0) * 1000)
    median = statistics.median(samples)
    return [
        {
            "name": f"layout advisor: 24 disks, {len(rows)} layouts, 200-bucket histogram",
            "result": f"{median:.1f} ms median of 15 (max {max(samples):.1f} ms)",
            "target": "<= 200 ms",
            "ok": median <= 200,
            "command": "python tests/perf/run.py bench_advisor",
        }
    ]
