"""dd transfer summaries: GNU coreutils (old and new), BSD/macOS and busybox.

Each summary line is one run, one result. Bandwidth is computed exactly as bytes ÷ seconds
from the line, not taken from the rounded rate dd prints. When the ``records out`` line
is there, the block size is bytes ÷ full records and IOPS is records ÷ seconds. The
direction comes from a ``dd if=… of=…`` command line when the paste has one
(``of=/dev/null`` → read, ``if=/dev/zero``/``/dev/urandom`` or a regular output file →
write); otherwise the op is ``copy``.
"""

from __future__ import annotations

import re
from typing import Any

from .common import ProgressFn, make_source, parse_fio_size, test_name
from .decode import decode, peek_text
from .types import BenchResult, ParseError, TestResult

FORMAT = "dd"
TOOL = "dd"

_NUM = r"(\d+(?:[.,]\d+)?)"
_GNU_RE = re.compile(
    r"^\s*(\d+)\s+(?:bytes?|Bytes?|octets?)\b(?:\s*\([^)]*\))?[^,]*,\s*"
    + _NUM
    + r"\s*s\w*\s*,\s*"
    + _NUM
    + r"\s*([kKMGTPE]?i?B)/s\s*$"
)
_BSD_RE = re.compile(r"^\s*(\d+)\s+bytes\s+transferred\s+in\s+" + _NUM + r"\s*secs?\s*\(\s*(\d+)\s*bytes/sec\s*\)")
_RECORDS_RE = re.compile(r"^\s*(\d+)\+(\d+)\s+records?\s+(in|out)\b")
_CMD_RE = re.compile(r"(?:^|[\s$#>])dd\s+(.*\b(?:if|of|bs)=.*)$")


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    for line in head.splitlines()[:2000]:
        if _GNU_RE.match(line) or _BSD_RE.match(line):
            return True
    return False


def _float(text: str) -> float:
    return float(text.replace(",", "."))


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    has_records = any(_RECORDS_RE.match(line) for line in lines)
    results: list[TestResult] = []
    commands: list[str] = []
    command: dict[str, str] = {}
    records_out: tuple[int, int] | None = None
    prev_was_records_out = False
    for lineno, line in enumerate(lines, start=1):
        cm = _CMD_RE.search(line)
        if cm:
            command = dict(arg.split("=", 1) for arg in cm.group(1).split() if "=" in arg)
            commands.append(cm.group(0).strip().lstrip("$#> "))
            continue
        rm = _RECORDS_RE.match(line)
        if rm:
            if rm.group(3) == "out":
                records_out = (int(rm.group(1)), int(rm.group(2)))
                prev_was_records_out = True
            continue
        m = _GNU_RE.match(line)
        bm = _BSD_RE.match(line) if m is None else None
        if m is None and bm is None:
            if line.strip():
                prev_was_records_out = False
            continue
        if has_records and not prev_was_records_out:
            continue  # a status=progress line, not the final summary
        match = m or bm
        assert match is not None
        nbytes = int(match.group(1))
        seconds = _float(match.group(2))
        if seconds <= 0:
            raise ParseError(FORMAT, f"line {lineno}", "elapsed time is zero, no rate can be computed")
        results.append(_result(nbytes, seconds, records_out if prev_was_records_out else None, command))
        prev_was_records_out = False
        records_out = None
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no dd summary line ('… bytes … copied, … s, …') found")
    meta: dict[str, Any] = {"runs": len(results)}
    if commands:
        meta["commands"] = commands
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, None, encoding, data), meta=meta, results=tuple(results))


def _direction(command: dict[str, str]) -> str:
    src, dst = command.get("if", ""), command.get("of", "")
    if dst == "/dev/null":
        return "read"
    if src in ("/dev/zero", "/dev/urandom", "/dev/random") or (dst and not dst.startswith("/dev/null")):
        return "write"
    return "copy"


def _result(nbytes: int, seconds: float, records: tuple[int, int] | None, command: dict[str, str]) -> TestResult:
    block: int | None = None
    iops: float | None = None
    if records is not None and records[0] > 0:
        total = records[0] + records[1]
        iops = total / seconds
        if records[1] == 0 and nbytes % records[0] == 0:
            block = nbytes // records[0]
    bs_option = command.get("bs") or command.get("obs") or command.get("ibs")
    if block is None and bs_option:
        block = parse_fio_size(bs_option.rstrip("B"))
    op = _direction(command)
    name = test_name("sequential", block, 1, 1, op) if block else f"dd {op}"
    return TestResult(
        name=name,
        op=op,
        pattern="sequential",
        block_size_bytes=block,
        queue_depth=1,
        threads=1,
        bandwidth_bytes_per_s=nbytes / seconds,
        iops=iops,
        latency_mean_us=None,
        latency_max_us=None,
        latency_percentiles_us={},
    )
