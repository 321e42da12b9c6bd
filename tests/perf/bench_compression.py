"""Measuring compression runs at least half as fast as the compressor itself, on one core.

``run()`` writes 64 MiB of mixed data (text, fixed-width records, random bytes, zero runs) to a
temporary file and, for lz4, zstd-3 and gzip-6 at 128K records, compares:

* the compressor alone: every 128 KiB block of the same data through the compressor, in a
  tight loop (OpenZFS's lz4 and zstd 1.4.5 in the extension; zlib for gzip);
* the measurement: ``zfsplanner.core.datasets.measure.measure_files`` on the file, as the command, the
  API and the worker run it (reading, zero detection, the budget, the compressor, ZFS's
  rounding and acceptance, the du and compressratio accounting).

Target: the measurement reaches at least half the compressor's throughput. The python ``lz4``
and ``zstandard`` packages' speeds on the same blocks are printed for comparison.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lz4.block  # noqa: E402
import zstandard  # noqa: E402

from zfsplanner.core.compression.compressors import NATIVE  # noqa: E402
from zfsplanner.core.datasets.measure import Source, measure_files  # noqa: E402
from zfsplanner.core.versions import Version  # noqa: E402

SIZE = 64 * 1024 * 1024
RECORD = 128 * 1024
COMMAND = "python tests/perf/run.py bench_compression"


def sample_data(size: int = SIZE) -> bytes:
    words = b"pool vdev raidz mirror special dataset recordsize compression ashift sector metaslab slop".split()
    text = b" ".join(words[(i * 7) % len(words)] + str(i % 1000).encode() for i in range(30000))
    rows = b"".join(b"%08d|%-12s|%016x|\n" % (i, words[i % len(words)], i * 4096) for i in range(20000))
    parts = []
    total = 0
    i = 0
    while total < size:
        kind = i % 4
        if kind == 0:
            chunk = text[(i * 997) % 1000 :][:300_000]
        elif kind == 1:
            chunk = rows[(i * 131) % 1000 :][:300_000]
        elif kind == 2:
            chunk = os.urandom(200_000)
        else:
            chunk = bytes(60_000) + text[:40_000]
        parts.append(chunk)
        total += len(chunk)
        i += 1
    return b"".join(parts)[:size]


def _compressor_alone(blocks: list[bytes], algorithm: str) -> float:
    budget = RECORD - RECORD // 8
    start = time.perf_counter()
    if algorithm == "lz4":
        assert NATIVE is not None
        for b in blocks:
            NATIVE.compressed_size(NATIVE.LZ4, b, budget)
    elif algorithm == "zstd-3":
        assert NATIVE is not None
        for b in blocks:
            NATIVE.compressed_size(NATIVE.ZSTD, b, budget, 3)
    else:
        for b in blocks:
            c = zlib.compressobj(6, zlib.DEFLATED, 15, 8)
            c.compress(b)
            c.flush()
    return time.perf_counter() - start


def _python_library(blocks: list[bytes], algorithm: str) -> float | None:
    start = time.perf_counter()
    if algorithm == "lz4":
        for b in blocks:
            lz4.block.compress(b, store_size=False)
    elif algorithm == "zstd-3":
        cctx = zstandard.ZstdCompressor(level=3)
        for b in blocks:
            cctx.compress(b)
    else:
        return None
    return time.perf_counter() - start


def run() -> list[dict[str, Any]]:
    if NATIVE is None:
        return [{"name": "measured compression", "result": "the extension is not built (make native)",
                 "target": "-", "ok": False, "command": COMMAND}]
    data = sample_data()
    blocks = [data[i : i + RECORD] for i in range(0, len(data), RECORD)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sample.bin"
        path.write_bytes(data)
        for algorithm in ("lz4", "zstd-3", "gzip-6"):
            alone = min(_compressor_alone(blocks, algorithm) for _ in range(2))
            start = time.perf_counter()
            doc = measure_files([Source("sample.bin", len(data), lambda: open(path, "rb"))], [algorithm], [RECORD],
                                12, Version.parse("2.3"))
            measured = time.perf_counter() - start
            py = _python_library(blocks, algorithm)
            mb = len(data) / 1e6
            ratio = alone / measured
            extra = f"; python library {mb / py:.0f} MB/s" if py else ""
            result = doc["total"]["results"][0]
            rows.append(
                {
                    "name": f"measure {algorithm} at 128K ({mb:.0f} MB, compressratio {result['compressratio']:.2f}x)",
                    "result": f"{mb / measured:.0f} MB/s measured vs {mb / alone:.0f} MB/s compressor alone "
                    f"({ratio:.0%}){extra}",
                    "target": "≥ 50 % of the compressor alone",
                    "ok": ratio >= 0.5,
                    "command": COMMAND,
                }
            )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
