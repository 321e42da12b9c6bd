"""fio log files: ``write_bw_log``, ``write_iops_log``, ``write_lat_log`` (``_lat``/``_clat``/
``_slat``) and ``write_hist_log`` (``_clat_hist``), as time series.

Line format (shared/reference/benchmark-formats.md §1.6): ``time_ms, value, direction, bs[,
offset][, priority][, issue_time]``; direction 0 = read, 1 = write, 2 = trim, 3 = sync.

The numbers alone don't say what they measure, so the kind comes from the file name fio
gave the log (``…_bw.1.log``, ``…_iops.1.log``, ``…_lat.1.log``, ``…_clat.1.log``,
``…_slat.1.log``, ``…_clat_hist.1.log``). Units: bandwidth KiB/s (×1024 → bytes/s), IOPS,
latency ns in fio 3.x (÷1000 → µs) and µs in fio 2.x. Logs with 5 or more columns come
from fio 3; a 4-column latency log may be either, so it is read as fio 3 (ns) unless the
caller passes ``fio_version`` (``meta["latency_unit_assumed"]`` says so).

Histogram logs: ``time_ms, direction, bs, bin counts…``. The bin count tells the layout:
1216 bins (19 groups × 64, fio 2.x, µs) or 1856 (29 groups × 64, fio 3.x, ns), divided by
2^coarseness. Each line becomes points of p50 and p99 latency series.
"""

from __future__ import annotations

import re
from typing import Any

from .common import ProgressFn, make_source
from .decode import decode, peek_text
from .types import BenchResult, Metric, ParseError, Series, SeriesUnit

FORMAT = "fio-log"
TOOL = "fio"

_LINE_RE = re.compile(r"^\s*\d+\s*,\s*-?\d+(?:\.\d+)?\s*,\s*\d+\s*,\s*\d+(?:\s*,\s*-?\d+(?:\.\d+)?)*\s*$")
_KIND_RE = re.compile(r"_(bw|iops|lat|clat|slat|clat_hist|lat_hist)(?:\.\d+)?\.log", re.IGNORECASE)
_DIRECTIONS = {0: "read", 1: "write", 2: "trim", 3: "sync"}
_PLAT_BITS = 6
_PLAT_VAL = 1 << _PLAT_BITS
_LAYOUTS = {19 * _PLAT_VAL: "us", 29 * _PLAT_VAL: "ns"}  # FIO_IO_U_PLAT_NR of fio 2.x / 3.x


def sniff(data: bytes) -> bool:
    head = peek_text(data, 16384)
    lines = [line for line in head.splitlines() if line.strip()]
    if not lines:
        return False
    check = lines[: min(len(lines) - 1, 5) or 1] if len(head) == 16384 else lines[:5]
    return all(_LINE_RE.match(line) for line in check)


def kind_from_filename(filename: str | None) -> str | None:
    if not filename:
        return None
    matches = list(_KIND_RE.finditer(filename.rsplit("/", 1)[-1]))
    return matches[-1].group(1).lower() if matches else None


def parse(
    data: bytes,
    filename: str | None = None,
    progress: ProgressFn | None = None,
    fio_version: str | None = None,
) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    first = next((line for line in lines if line.strip()), "")
    ncols = first.count(",") + 1
    kind = kind_from_filename(filename)
    if kind in ("clat_hist", "lat_hist") or (kind is None and ncols > 12):
        series, meta = _parse_hist(lines, kind or "clat_hist", progress)
    else:
        if kind is None:
            raise ParseError(
                FORMAT,
                "line 1",
                "a fio log's numbers don't say whether they are bandwidth, IOPS or latency; keep the name fio "
                "gave the file (…_bw.1.log, …_iops.1.log, …_lat.1.log, …_clat.1.log or …_slat.1.log)",
            )
        series, meta = _parse_plain(lines, kind, ncols, fio_version, progress)
    if not series:
        raise ParseError(FORMAT, f"line {len(lines)}", "no log entries found")
    meta["log_kind"] = kind or "clat_hist"
    return BenchResult(source=make_source(TOOL, fio_version, encoding, data), meta=meta, results=(), series=series)


def _fields(line: str, lineno: int) -> list[str]:
    parts = [p.strip() for p in line.split(",")]
    if len(parts) < 3:
        raise ParseError(FORMAT, f"line {lineno}", "expected 'time, value, direction, block size'")
    return parts


def _int(text: str, lineno: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParseError(FORMAT, f"line {lineno}", f"expected a whole number for {what}, got {text!r}") from None


def _parse_plain(
    lines: list[str], kind: str, ncols: int, fio_version: str | None, progress: ProgressFn | None
) -> tuple[tuple[Series, ...], dict[str, Any]]:
    meta: dict[str, Any] = {}
    metric: Metric
    unit: SeriesUnit
    if kind == "bw":
        metric, unit, factor = "bandwidth", "bytes_per_s", 1 / 1024
    elif kind == "iops":
        metric, unit, factor = "iops", "iops", 1.0
    else:
        metric, unit = "latency", "us"
        if fio_version is not None:
            major = fio_version.removeprefix("fio-").split(".", 1)[0]
            is_v2 = major.isdigit() and int(major) < 3 and not fio_version.removeprefix("fio-").startswith("2.99")
            factor = 1.0 if is_v2 else 1000.0
        else:
            factor = 1000.0
            if ncols < 5:
                meta["latency_unit_assumed"] = "ns (fio 3.x); fio 2.x latency logs are in µs"
    points: dict[str, list[tuple[float, float]]] = {}
    sizes: dict[str, set[int]] = {}
    total = len(lines)
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parts = _fields(line, lineno)
        t = _int(parts[0], lineno, "the time")
        try:
            value = float(parts[1])
        except ValueError:
            raise ParseError(FORMAT, f"line {lineno}", f"expected a number, got {parts[1]!r}") from None
        ddir = _int(parts[2], lineno, "the direction")
        direction = _DIRECTIONS.get(ddir)
        if direction is None:
            raise ParseError(FORMAT, f"line {lineno}", f"unknown data direction {ddir}")
        bs = _int(parts[3], lineno, "the block size") if len(parts) > 3 else 0
        points.setdefault(direction, []).append((t / 1000.0, value / factor))
        if bs:
            sizes.setdefault(direction, set()).add(bs)
        if progress and lineno % 200_000 == 0:
            progress(lineno / total)
    series = tuple(
        Series(
            name=f"{kind} {direction}",
            metric=metric,
            unit=unit,
            direction=direction,
            block_size_bytes=next(iter(sizes[direction])) if len(sizes.get(direction, ())) == 1 else None,
            points=tuple(pts),
        )
        for direction, pts in points.items()
    )
    return series, meta


def plat_idx_to_val(idx: float, edge: float = 0.5) -> float:
    """fio's histogram bucket index → latency (stat.c ``plat_idx_to_val``, as in
    ``tools/hist/fiologparser_hist.py``); ``edge`` 0 = bucket start, 1 = end, 0.5 = middle."""
    if idx < (_PLAT_VAL << 1):
        return float(idx)
    i = int(idx)
    error_bits = (i >> _PLAT_BITS) - 1
    base = 1 << (error_bits + _PLAT_BITS)
    k = i % _PLAT_VAL
    return base + (k + edge) * (1 << error_bits)


def _bucket_values(nbins: int, lineno: int) -> tuple[list[float], str]:
    for full, unit in _LAYOUTS.items():
        stride = full // nbins if nbins else 0
        if stride and full % nbins == 0 and stride & (stride - 1) == 0:
            values = [
                plat_idx_to_val(i * stride, 0.0)
                + (plat_idx_to_val(i * stride + stride - 1, 1.0) - plat_idx_to_val(i * stride, 0.0)) * 0.5
                for i in range(nbins)
            ]
            return values, unit
    raise ParseError(FORMAT, f"line {lineno}", f"{nbins} histogram bins match no fio histogram layout")


def _parse_hist(lines: list[str], kind: str, progress: ProgressFn | None) -> tuple[tuple[Series, ...], dict[str, Any]]:
    values: list[float] | None = None
    factor = 1.0
    p50: dict[str, list[tuple[float, float]]] = {}
    p99: dict[str, list[tuple[float, float]]] = {}
    nbins = 0
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parts = _fields(line, lineno)
        counts = [_int(c, lineno, "a bin count") for c in parts[3:]]
        if values is None:
            nbins = len(counts)
            values, unit = _bucket_values(nbins, lineno)
            factor = 1.0 if unit == "us" else 1000.0
        elif len(counts) != nbins:
            raise ParseError(
                FORMAT, f"line {lineno}", f"expected {nbins} bins like the first line, found {len(counts)}"
            )
        total = sum(counts)
        if total == 0:
            continue
        t = _int(parts[0], lineno, "the time") / 1000.0
        ddir = _int(parts[1], lineno, "the direction")
        direction = _DIRECTIONS.get(ddir)
        if direction is None:
            raise ParseError(FORMAT, f"line {lineno}", f"unknown data direction {ddir}")
        targets = [(0.5, p50), (0.99, p99)]
        running = 0
        ti = 0
        for idx, count in enumerate(counts):
            running += count
            while ti < len(targets) and running >= targets[ti][0] * total:
                targets[ti][1].setdefault(direction, []).append((t, values[idx] / factor))
                ti += 1
            if ti == len(targets):
                break
    series: list[Series] = []
    for label, store in (("p50", p50), ("p99", p99)):
        for direction, pts in store.items():
            series.append(
                Series(
                    name=f"{kind.removesuffix('_hist')} {label} {direction}",
                    metric="latency",
                    unit="us",
                    direction=direction,
                    block_size_bytes=None,
                    points=tuple(pts),
                )
            )
    return tuple(series), {"histogram_bins": nbins}


def downsample(
    points: tuple[tuple[float, float], ...] | list[tuple[float, float]], max_points: int
) -> tuple[tuple[float, float], ...]:
    """Reduce a series to at most ``max_points`` points for a chart, keeping every bucket's
    minimum and maximum (so spikes and dips stay visible), in time order."""
    pts = tuple(points)
    if max_points < 2:
        raise ValueError("max_points must be at least 2")
    if len(pts) <= max_points:
        return pts
    buckets = max_points // 2
    size = len(pts) / buckets
    out: list[tuple[float, float]] = []
    for b in range(buckets):
        chunk = pts[int(b * size) : int((b + 1) * size)]
        if not chunk:
            continue
        lo = min(range(len(chunk)), key=lambda i: chunk[i][1])
        hi = max(range(len(chunk)), key=lambda i: chunk[i][1])
        for i in sorted({lo, hi}):
            out.append(chunk[i])
    return tuple(out)
