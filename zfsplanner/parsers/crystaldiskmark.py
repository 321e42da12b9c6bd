"""CrystalDiskMark text results, versions 2.x–9.x (saved file or clipboard copy).

Units (shared/reference/benchmark-formats.md §2): ``MB/s`` is 10^6 bytes/s as the header
line says; block sizes ``KiB``/``MiB`` (and the ``KB`` of 2.x/3.x) are 1024-based; ``us``
is µs. CDM's IOPS column is computed by CDM from MB/s and the block size.

Rows are normalised to the cross-tool name grammar (``SEQ1M Q8T1 read``):

* 7.x/8.x/9.x ``SEQ    1MiB (Q=  8, T= 1)`` / ``Sequential 1MiB (…)`` under ``[Read]``/``[Write]``
  (``[Mix]`` rows become op ``mixed``, named with the read/write share, e.g. ``R70W30``);
* 5.x/6.x ``Sequential Read (Q= 32,T= 1)`` = SEQ128K Q32T1, ``Sequential Read (T= 1)`` = SEQ1M Q1T1,
  ``Random Read 4KiB (Q=  8,T= 8)`` = RND4K Q8T8;
* 2.x/3.x ``Sequential Read`` = SEQ1M Q1T1, ``Random Read 512KB`` = RND512K Q1T1,
  ``Random Read 4KB (QD=32)`` = RND4K Q32T1.

Rows of ``0.000 MB/s`` (an unfinished run) have null figures, not zero. A result block
pasted without its header lines (the ``Sequential Read … MB/s`` rows of CDM 2.x/3.x, as
blog posts show them) is still read. KDiskMark, the Linux clone, writes the 7.x layout
under its own header; ``kdiskmark.py`` reads it with :func:`read_rows` as tool
``kdiskmark``.

A log cut off before its end is read as partial with a warning saying what is missing:
a ``[Write]`` block shorter than the ``[Read]`` block (or none at all), fewer than the
rows of a CDM ≤ 6 result block, a last row cut in half, rows of an unfinished run.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from .common import KIB, MIB, ProgressFn, make_source, test_name
from .decode import decode, peek_text
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "crystaldiskmark"
TOOL = "crystaldiskmark"

_VERSION_RE = re.compile(r"CrystalDiskMark\s+(\d+\.\d+(?:\.\d+)?[a-z]?)")
_SECTION_RE = re.compile(r"^\s*\[(Read|Write|Mix)\]\s*(.*)$", re.IGNORECASE)
_MIX_RE = re.compile(r"Read\s*(\d+)\s*%\s*/\s*Write\s*(\d+)\s*%", re.IGNORECASE)
_NUM = r"(\d+(?:\.\d+)?)"
_ROW_NEW_RE = re.compile(
    r"^\s*(SEQ|RND|Sequential|Random)\s*(\d+)\s*(KiB|MiB|KB|MB)\s*\(\s*Q\s*=\s*(\d+)\s*,\s*T\s*=\s*(\d+)\s*\)\s*:\s*"
    + _NUM
    + r"\s*MB/s\s*\[\s*"
    + _NUM
    + r"\s*IOPS\s*\]\s*(?:<\s*"
    + _NUM
    + r"\s*us\s*>)?\s*$",
    re.IGNORECASE,
)
_ROW_OLD_RE = re.compile(
    r"^\s*(Sequential|Random)\s+(Read|Write)(?:\s+(\d+)\s*(KiB|MiB|KB|MB))?\s*"
    r"(?:\(\s*(?:QD\s*=\s*(\d+)|(?:Q\s*=\s*(\d+)\s*,\s*)?T\s*=\s*(\d+))\s*\))?\s*:\s*"
    + _NUM
    + r"\s*MB/s\s*(?:\[\s*"
    + _NUM
    + r"\s*IOPS\s*\])?\s*$",
    re.IGNORECASE,
)
_ROWISH_RE = re.compile(r"^\s*(SEQ|RND|Sequential|Random)\b.*(MB/s|\(Q|\(T|\(QD)", re.IGNORECASE)
_FOOTER_RE = re.compile(r"^\s*(Profile|Test|Mode|Time|Date|OS|Comment|Target)\s*:\s?(.*?)\s*$")
_TEST_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(GiB|MiB|KiB|GB|MB)\b")
_RUNS_RE = re.compile(r"\(x\s*(\d+)\)")
_TARGET_RE = re.compile(r"\[\s*([A-Za-z]:)")
_INTERVAL_RE = re.compile(r"Interval\s*[:=]?\s*(\d+)\s*sec", re.IGNORECASE)
_DATE_RE = re.compile(r"^(\d{4})[/-](\d{1,2})[/-](\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})")
_UNIT_BYTES = {"kib": KIB, "kb": KIB, "mib": MIB, "mb": MIB, "gib": 1024 * MIB}
_SIZE_BYTES = {"gib": 1024 * MIB, "mib": MIB, "kib": KIB, "gb": 10**9, "mb": 10**6}


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    if "CrystalDiskMark" in head:
        return True
    lines = [_clean(line) for line in head.splitlines()[:200]]
    if any(_ROW_NEW_RE.match(line) for line in lines):
        return True
    # A CDM 2.x-6.x result block pasted without its header: two or more of its rows.
    return sum(1 for line in lines if _ROW_OLD_RE.match(line)) >= 2


# Rows of a complete result block of CDM 2.x (6) and 3.x/5.x/6.x (8), which print no [Read]/[Write] blocks.
_OLD_BLOCK_ROWS = {"2": 6}
_OLD_BLOCK_ROWS_DEFAULT = 8


def _clean(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith(">"):
        line = stripped[1:]
    return line.rstrip()


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    version, results, meta, warnings = read_rows(text.split("\n"), FORMAT, _VERSION_RE)
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=results, warnings=warnings)


def read_rows(
    lines: list[str], fmt: str, version_re: re.Pattern[str]
) -> tuple[str | None, tuple[TestResult, ...], dict[str, Any], tuple[str, ...]]:
    """(tool version, results, meta, warnings) of a CrystalDiskMark-layout text (also KDiskMark's)."""
    version: str | None = None
    section: str | None = None
    mix: tuple[int, int] | None = None
    results: list[TestResult] = []
    blocks: dict[str, int] = {}  # [Read]/[Write]/[Mix] -> rows read in it
    meta: dict[str, Any] = {}
    warnings: list[str] = []
    after_os = False
    comment_next = False
    old_rows = 0
    last_line = max((n for n, raw in enumerate(lines, start=1) if raw.strip()), default=0)

    for lineno, raw in enumerate(lines, start=1):
        line = _clean(raw)
        if not line.strip() or line.strip().startswith("```"):
            continue
        if version is None:
            vm = version_re.search(line)
            if vm:
                version = vm.group(1)
                continue
        if comment_next:
            meta["comment"] = line.strip()
            comment_next = False
            continue
        if line.strip() == "::Comment::":  # CDM 2.x puts the comment on the next line
            comment_next = True
            continue
        sm = _SECTION_RE.match(line)
        if sm:
            section = sm.group(1).lower()
            blocks.setdefault(section, 0)
            mix = None
            if section == "mix":
                mm = _MIX_RE.search(sm.group(2))
                mix = (int(mm.group(1)), int(mm.group(2))) if mm else None
            continue
        m = _ROW_NEW_RE.match(line)
        if m:
            if section is None:
                raise ParseError(fmt, f"line {lineno}", "result row outside a [Read]/[Write]/[Mix] block")
            results.append(_new_row(m, section, mix))
            blocks[section] += 1
            continue
        m = _ROW_OLD_RE.match(line)
        if m:
            results.append(_old_row(m))
            old_rows += 1
            continue
        if _ROWISH_RE.match(line):
            if lineno == last_line:
                warnings.append(f"the last line ({lineno}) is a result row cut off in the middle: {line.strip()!r}")
                continue
            raise ParseError(fmt, f"line {lineno}", f"unreadable result row: {line.strip()!r}")
        fm = _FOOTER_RE.match(line)
        if fm:
            _footer(meta, fm.group(1), fm.group(2), lineno)
            after_os = fm.group(1) == "OS"
            continue
        if after_os and "comment" not in meta and not line.lstrip().startswith(("-", "*")):
            meta["comment"] = line.strip()  # CDM ≤ 6 prints the comment as a bare line after OS
            after_os = False
    if not results:
        raise ParseError(fmt, f"line {len(lines)}", "no result rows found")
    warnings.extend(_missing(blocks, old_rows, version, meta))
    unmeasured = [r.name for r in results if r.bandwidth_bytes_per_s is None]
    if unmeasured:
        warnings.append(
            f"{len(unmeasured)} test(s) show 0.000 MB/s, so the run was stopped before them: {', '.join(unmeasured)}"
        )
    return version, tuple(results), meta, tuple(warnings)


def _missing(blocks: dict[str, int], old_rows: int, version: str | None, meta: dict[str, Any]) -> list[str]:
    """What a cut-off log lacks, in words."""
    out: list[str] = []
    if blocks:
        expected = max(blocks.values())
        if "write" not in blocks and "read" in blocks:
            out.append("there is no [Write] block: the file ends after the [Read] results")
        for name in ("read", "write", "mix"):
            count = blocks.get(name)
            if count is not None and count < expected:
                out.append(f"the [{name.capitalize()}] block has {count} of {expected} rows: the file was cut off")
    elif old_rows:
        major = (version or "").split(".", 1)[0]
        expected = _OLD_BLOCK_ROWS.get(major, _OLD_BLOCK_ROWS_DEFAULT)
        has_footer = any(key in meta for key in ("test", "date", "os"))
        if old_rows < expected and not has_footer:
            out.append(f"only {old_rows} of the {expected} result rows are there: the file was cut off")
    return out


def _measured(value: float) -> float | None:
    return value if value > 0 else None


def _mb_per_s(text: str) -> float | None:
    """CDM's ``MB/s`` (10^6 bytes/s) → bytes/s, exactly (decimal arithmetic, no 0.99999 tails)."""
    try:
        value = float(Decimal(text) * 1_000_000)
    except InvalidOperation:  # pragma: no cover - the row regex only lets digits through
        return None
    return value if value > 0 else None


def _new_row(m: re.Match[str], section: str, mix: tuple[int, int] | None) -> TestResult:
    kind, size, unit, q, t, mbps, iops, lat = m.groups()
    pattern: Pattern = "sequential" if kind.upper().startswith("SEQ") else "random"
    block = int(size) * _UNIT_BYTES[unit.lower()]
    op = {"read": "read", "write": "write", "mix": "mixed"}[section]
    extra = f"R{mix[0]}W{mix[1]}" if section == "mix" and mix else ""
    bw = float(mbps)
    return TestResult(
        name=test_name(pattern, block, int(q), int(t), op, extra),
        op=op,
        pattern=pattern,
        block_size_bytes=block,
        queue_depth=int(q),
        threads=int(t),
        bandwidth_bytes_per_s=_mb_per_s(mbps),
        iops=_measured(float(iops)) if bw > 0 else None,
        latency_mean_us=_measured(float(lat)) if lat is not None and bw > 0 else None,
        latency_max_us=None,
        latency_percentiles_us={},
    )


def _old_row(m: re.Match[str]) -> TestResult:
    kind, direction, size, unit, qd, q, t, mbps, iops = m.groups()
    pattern: Pattern = "sequential" if kind.lower() == "sequential" else "random"
    op = direction.lower()
    if size is not None:
        block = int(size) * _UNIT_BYTES[unit.lower()]
    elif pattern == "sequential":
        block = 128 * KIB if q is not None else MIB  # 5.x/6.x: Q32 row uses 128 KiB, T-only row 1 MiB
    else:
        block = 4 * KIB
    queue_depth = int(qd or q or 1)
    threads = int(t or 1)
    bw = float(mbps)
    return TestResult(
        name=test_name(pattern, block, queue_depth, threads, op),
        op=op,
        pattern=pattern,
        block_size_bytes=block,
        queue_depth=queue_depth,
        threads=threads,
        bandwidth_bytes_per_s=_mb_per_s(mbps),
        iops=_measured(float(iops)) if iops is not None and bw > 0 else None,
        latency_mean_us=None,
        latency_max_us=None,
        latency_percentiles_us={},
    )


def _footer(meta: dict[str, Any], key: str, value: str, lineno: int) -> None:
    if key == "Profile":
        meta["profile"] = value
    elif key == "Test":
        meta["test"] = value
        sm = _TEST_SIZE_RE.match(value)
        if sm:
            meta["test_size_bytes"] = int(float(sm.group(1)) * _SIZE_BYTES[sm.group(2).lower()])
        rm = _RUNS_RE.search(value)
        if rm:
            meta["runs"] = int(rm.group(1))
        tm = _TARGET_RE.search(value)
        if tm:
            meta["target"] = tm.group(1).upper()
        im = _INTERVAL_RE.search(value)
        if im:
            meta["interval_s"] = int(im.group(1))
        if "0Fill" in value:
            meta["zero_fill"] = True
    elif key == "Mode":
        if value:
            meta["mode"] = value
        if "0Fill" in value:
            meta["zero_fill"] = True
    elif key == "Time":
        meta["time"] = value
    elif key == "Date":
        dm = _DATE_RE.match(value)
        if dm:
            y, mo, d, h, mi, s = (int(x) for x in dm.groups())
            meta["date"] = f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}"
        else:
            meta["date"] = value
    elif key == "OS":
        meta["os"] = value
    elif key == "Comment":
        if value:
            meta["comment"] = value
    elif key == "Target":
        if value:
            meta["target"] = value
