"""Helpers shared by the format modules: test names, sizes, numbers, the source record."""

from __future__ import annotations

import errno
import hashlib
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from .types import BenchResult, ParseError, Source, TestResult

ProgressFn = Callable[[float], None]

KIB = 1024
MIB = 1024 * 1024
GIB = 1024 * 1024 * 1024


def make_source(tool: str, version: str | None, encoding: str, data: bytes) -> Source:
    return Source(tool=tool, tool_version=version, encoding=encoding, sha256=hashlib.sha256(data).hexdigest())


def finish_result(
    tool: str,
    version: str | None,
    encoding: str,
    data: bytes,
    meta: dict[str, Any],
    results: Sequence[TestResult],
    warnings: Sequence[str],
    progress: ProgressFn | None,
) -> BenchResult:
    """The parsed log: its results with repeats numbered (:func:`number_repeats`); ``progress`` told it is done."""
    if progress:
        progress(1.0)
    return BenchResult(
        source=make_source(tool, version, encoding, data),
        meta=meta,
        results=number_repeats(results),
        warnings=tuple(warnings),
    )


def format_block_size(size: int) -> str:
    """1048576 -> "1M", 131072 -> "128K", 4096 -> "4K", 512 -> "512B" (binary units)."""
    for unit, factor in (("G", GIB), ("M", MIB), ("K", KIB)):
        if size >= factor and size % factor == 0:
            return f"{size // factor}{unit}"
    return f"{size}B"


def test_name(
    pattern: str | None,
    block_size: int | None,
    queue_depth: int | None,
    threads: int | None,
    direction: str,
    extra: str = "",
) -> str:
    """The cross-tool test name: ``SEQ1M Q8T1 read``, ``RND4K Q32T16 write``.

    ``SEQ``/``RND`` from the access pattern, the block size in binary units, then queue
    depth and thread count, then the direction. ``extra`` (e.g. a read/write mix ``R65W35``)
    goes between the shape and the direction. Unknown parts are written ``?``.
    """
    kind = {"sequential": "SEQ", "random": "RND"}.get(pattern or "", "IO")
    bs = format_block_size(block_size) if block_size else "?"
    q = str(queue_depth) if queue_depth is not None else "?"
    t = str(threads) if threads is not None else "?"
    parts = [f"{kind}{bs}", f"Q{q}T{t}"]
    if extra:
        parts.append(extra)
    parts.append(direction)
    return " ".join(parts)


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)(b?)\s*$", re.IGNORECASE)
_SIZE_FACTORS = {"": 1, "k": KIB, "m": MIB, "g": GIB, "t": GIB * KIB, "p": GIB * MIB}


def parse_fio_size(text: str) -> int | None:
    """fio's size syntax as used in ``bs=``: ``4k``, ``1M``, ``4096``, ``128KiB`` (always 1024-based,
    the fio default ``kb_base=1024``). Returns None when the text is not a plain size."""
    m = _SIZE_RE.match(text)
    if not m:
        return None
    value = float(m.group(1)) * _SIZE_FACTORS[m.group(2).lower()]
    return int(value)


_NUM_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def to_float(text: str) -> float | None:
    text = text.strip()
    if not _NUM_RE.match(text):
        return None
    return float(text)


def percentile_key(key: str) -> str | None:
    """fio's ``"99.900000"`` -> ``"99.9"``; ``"1.000000"`` -> ``"1"``. None if not a number."""
    value = to_float(key)
    if value is None:
        return None
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text


def number_repeats(results: Sequence[TestResult]) -> tuple[TestResult, ...]:
    """Tests with the same name in one log are repeats (dd run three times, fio output appended
    with ``>>``, bonnie++ ``-x 3``): the first keeps its name, the later ones are named
    ``… #2``, ``… #3`` so that every result of a run has a distinct name."""
    seen: dict[str, int] = {}
    out: list[TestResult] = []
    for r in results:
        seen[r.name] = seen.get(r.name, 0) + 1
        out.append(r if seen[r.name] == 1 else replace(r, name=f"{r.name} #{seen[r.name]}"))
    return tuple(out)


FIGURE_FIELDS = (
    "bandwidth_bytes_per_s",
    "iops",
    "latency_mean_us",
    "latency_max_us",
    "ops_per_s",
    "block_size_bytes",
    "queue_depth",
    "threads",
)


def _bad_figure(value: float) -> bool:
    return not math.isfinite(value) or value < 0


def check_figures(result: BenchResult, fmt: str) -> None:
    """Refuse a document with a negative or non-finite figure: no tool measures -5 MB/s or an
    infinite latency, so such a number means the log (or its reading) is wrong."""
    for i, r in enumerate(result.results, start=1):
        where = f"result {i} ({r.name})"
        for name in FIGURE_FIELDS:
            value = getattr(r, name)
            if value is not None and _bad_figure(float(value)):
                raise ParseError(fmt, where, f"{name} is {value!r}; figures must be finite and not negative")
        for key, value in r.latency_percentiles_us.items():
            if _bad_figure(float(value)):
                raise ParseError(
                    fmt, where, f"latency percentile {key} is {value!r}; figures must be finite and not negative"
                )
    for s in result.series:
        for t, v in s.points:
            if not math.isfinite(t) or _bad_figure(v):
                raise ParseError(fmt, f"series {s.name}", f"point ({t!r}, {v!r}) is not a finite, non-negative value")


def errno_words(number: int, text: str = "") -> str:
    """``28`` -> ``"ENOSPC: No space left on device"`` (fio reports errors as errno values);
    ``text`` is the tool's own wording when the log has it."""
    name = errno.errorcode.get(number)
    text = text.strip() or os.strerror(number)
    return f"{name}: {text}" if name else text
