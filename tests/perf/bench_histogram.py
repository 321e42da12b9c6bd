"""File-size histograms: 10 million sizes bucketed in at most a second, in memory that does not grow.

``run()`` writes listings of file sizes (log-normal, like real trees: many small files, a
long tail of big ones) to a temporary directory and buckets them with
``zfsplanner.core.importers.listings.bucket_stream`` reading 1 MiB chunks from the file, as
``manage.py histogram`` and the Celery worker do. Time is the best of three runs (file
reads included); memory is the peak traced by ``tracemalloc`` (numpy's buffers included)
for 1 million and for 10 million lines: flat means the second is no larger than the first
plus a little. A 1-million-line ``du -ab``-style listing with paths is timed for reference.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from zfsplanner.core.importers.listings import bucket_stream  # noqa: E402

COMMAND = "python tests/perf/run.py bench_histogram"
LINES = 10_000_000
SMALL = 1_000_000


def write_sizes(path: Path, n: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    with path.open("wb") as fh:
        for start in range(0, n, 1_000_000):
            values = rng.lognormal(10, 3, min(1_000_000, n - start)).astype(np.int64)
            fh.write(("\n".join(map(str, values.tolist())) + "\n").encode())


def write_du(path: Path, n: int, seed: int = 2) -> None:
    rng = np.random.default_rng(seed)
    values = rng.lognormal(10, 3, n).astype(np.int64).tolist()
    with path.open("wb") as fh:
        fh.write("".join(f"{v}\t./data/d{i // 25 % 4000}/s{i // 100000}/file-{i}.bin\n"
                         for i, v in enumerate(values)).encode())


def chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            yield chunk


def best_time(path: Path, fmt: str, repeat: int = 3) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        result = bucket_stream(chunks(path), fmt)
        best = min(best, time.perf_counter() - t)
    return best, result


def peak(path: Path, fmt: str) -> int:
    gc.collect()
    tracemalloc.start()
    bucket_stream(chunks(path), fmt)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def run() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        big, small, du = Path(tmp) / "sizes-10m.txt", Path(tmp) / "sizes-1m.txt", Path(tmp) / "du-1m.txt"
        write_sizes(big, LINES)
        write_sizes(small, SMALL)
        write_du(du, SMALL)
        seconds, result = best_time(big, "sizes")
        assert result.file_count == LINES
        m_small, m_big = peak(small, "sizes"), peak(big, "sizes")
        du_seconds, du_result = best_time(du, "du", repeat=1)
        mib = big.stat().st_size / 1024 / 1024
        return [
            {
                "name": f"histogram: {LINES:,} file sizes bucketed ({mib:.0f} MiB listing)",
                "result": f"{seconds:.2f} s ({LINES / seconds / 1e6:.1f} M lines/s), "
                          f"{len(result.file_size_histogram)} buckets",
                "target": "≤ 1 s",
                "ok": seconds <= 1.0,
                "command": COMMAND,
            },
            {
                "name": "histogram: peak memory, 1 M vs 10 M sizes",
                "result": f"{m_small / 1024 / 1024:.1f} MiB vs {m_big / 1024 / 1024:.1f} MiB",
                "target": "flat: 10 M ≤ 1 M + 2 MiB, and ≤ 32 MiB",
                "ok": m_big <= m_small + 2 * 1024 * 1024 and m_big <= 32 * 1024 * 1024,
                "command": COMMAND,
            },
            {
                "name": f"histogram: {SMALL:,} du -ab lines with paths (directories counted)",
                "result": f"{du_seconds:.2f} s, {du_result.directories:,} directories "
                          f"({'estimated' if du_result.directories_estimated else 'exact'}), "
                          f"{du_result.files_per_directory} files per directory",
                "target": "informational",
                "ok": True,
                "command": COMMAND,
            },
        ]


if __name__ == "__main__":
    for row in run():
        print(row)
