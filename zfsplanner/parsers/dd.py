"""dd transfer summaries: GNU coreutils in any locale (old and new), BSD/macOS, busybox, toybox.

A summary line is recognised by its shape, not by its words, so translated output reads
the same as English (coreutils' .po translations move and replace the words, never the
figures)::

    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s          (en)
    1073741824 Bytes (1,1 GB, 1,0 GiB) kopiert, 1,70473 s, 630 MB/s         (de)
    скопировано 1073741824 байта (1,1 GB), 5,18438 c, 207 MB/c              (ru, old)
    1073741824字节(1.1 GB)已复制，5.05 秒，213 MB/秒                          (zh_CN, old)

that is: a whole number of bytes, words and a parenthesised size, then the seconds and
the rate, separated by ``,``/``，``/``、``. A decimal comma is read as the decimal mark:
the seconds and the rate are never grouped by thousands. The figures are then checked
against each other (bytes ÷ seconds must agree with the printed rate within dd's
rounding), so a misread figure is refused with the line number instead of being stored.
``records in``/``records out`` lines are recognised the same way (``N+M`` and words).

Each summary line is one run, one result. Bandwidth is computed exactly as bytes ÷
seconds from the line, not taken from the rounded rate dd prints. The block size comes
from bytes ÷ full records (or the command line's ``bs=``/``obs=``), and IOPS is records
÷ seconds, or bytes ÷ block size ÷ seconds when only the command line gives the block
size.

The direction follows one rule, from the ``if=``/``of=`` operands of the run's ``dd``
command wherever the paste writes it: after any prompt, continued over several lines with
``\\`` (and the ``> `` of the continuation prompt), wrapped onto a next line of bare
operands (a terminal that wrapped a long command), or several commands on one line
(``dd … && dd …``, ``;``, pipes): ``if=/dev/zero``/``/dev/urandom`` or input from stdin
or a pipe → write; ``of=/dev/null`` or output to stdout or a pipe → read; two files →
copy; no command in the paste → ``copy``. The words dd prints are never read for it, so
the rule is the same in every language and for GNU, BSD, macOS and BusyBox. Each run
takes the next command not yet taken, in order; a run with none left repeats the last one
(a loop, or one command whose output was pasted several times). Repeated runs of the same
shape are named ``… #2``, ``… #3``. ``meta.run_commands`` gives each result's command;
``meta.test_size_bytes`` the bytes of the largest run (the file a read test reads back), and
``meta.shortest_test_s`` and ``meta.fewest_ios`` the seconds and records out of the shortest run.

A run that did not complete (dd printed an error such as ``dd: writing `f': No space left
on device`` and wrote fewer records than it read) keeps its bandwidth, bytes ÷ seconds of
what was written, but gets no IOPS, and a warning names the line. A log that ends inside a
run (``records in`` without its summary) is read as partial, with a warning naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .common import ProgressFn, finish_result, parse_fio_size, test_name
from .decode import decode, peek_text
from .types import BenchResult, ParseError, TestResult

FORMAT = "dd"
TOOL = "dd"

_SEP = r"\s*[,，、]\s*"
_DEC = r"\d+(?:[.,]\d+)?"
# The part between the byte count and the first separator may hold a parenthesised size
# with its own commas: "(1,1 GB, 1,0 GiB)".
_MIDDLE = r"(?:[^,，、()（）\d]|\([^)]*\)|（[^）]*）)*?"
_GNU_RE = re.compile(
    r"^\s*(?P<pre>[^\d,，、]{0,40}?)(?P<bytes>\d+)(?P<mid>"
    + _MIDDLE
    + ")"
    + r"(?:"
    + _SEP
    + r"|\s+)"  # FreeBSD ≥ 13 has no comma there: "… transferred 2.017s, 532 MB/s"
    + r"(?P<secs>"
    + _DEC
    + r"(?:[eE][-+]?\d+)?)\s*(?P<su>[^\W\d_]{1,10})?\.?"
    + _SEP
    + r"(?P<rate>"
    + _DEC
    + r"|[Ii]nfinity|inf|∞)\s*(?P<ru>[kKMGTPEZY]?i?B|[kKMGTPEZY])\s*/\s*[^\W\d_]{1,8}\.?\s*$"
)
_BSD_RE = re.compile(r"^\s*(\d+)\s+bytes\s+transferred\s+in\s+(" + _DEC + r")\s*secs?\s*\(\s*(\d+)\s*bytes/sec\s*\)")
_RECORDS_RE = re.compile(r"^[^\d]{0,40}?(\d+)\+(\d+)[^\d]{0,40}$")
_CMD_RE = re.compile(r"(?:^|[\s$#%>;&|(`])(?:\S*/)?dd(?:\s+(.*))?$")
_DD_WORD_RE = re.compile(r"(?:^|[\s$#%>(`])(?:\S*/)?dd(?=\s|$)")
_PROMPT_RE = re.compile(r"^\s*>\s?")
# dd's own operands (POSIX dd, GNU, BSD, BusyBox): a line of nothing else continues a command.
_OPERAND_RE = re.compile(r"^(?:if|of|bs|ibs|obs|cbs|count|skip|seek|iseek|oseek|conv|iflag|oflag|status|fillchar)=\S*$")
_SHELL_SPLIT_RE = re.compile(r"(\|\||&&|;|\||\))")
_ERROR_RE = re.compile(r"^\s*(?:\S*/)?dd:\s")
_RATE_UNITS = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24}
_NOT_SECONDS = frozenset({"records", "record", "bytes", "byte"})
_WRITE_SOURCES = ("/dev/zero", "/dev/urandom", "/dev/random")
_SINKS = ("/dev/null",)


@dataclass(frozen=True)
class _Summary:
    nbytes: int
    seconds: float
    exact_seconds: bool  # printed with decimals (a final summary, not a status=progress line)


@dataclass(frozen=True)
class _Command:
    """One ``dd`` invocation: its operands, whether a pipe feeds it or takes its output."""

    text: str
    operands: dict[str, str]
    piped_in: bool
    piped_out: bool


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _summary(line: str, lineno: int, strict: bool) -> _Summary | None:
    """The figures of a dd summary line, or None. ``strict``: figures that disagree are an error."""
    bm = _BSD_RE.match(line)
    if bm:
        return _Summary(int(bm.group(1)), _number(bm.group(2)), True)
    m = _GNU_RE.match(line)
    if m is None:
        return None
    if (m.group("su") or "s").lower() in _NOT_SECONDS:
        return None
    nbytes = int(m.group("bytes"))
    secs_text = m.group("secs")
    seconds = _number(secs_text)
    exact = any(c in secs_text for c in ".,eE")
    rate_text = m.group("rate")
    if seconds > 0 and rate_text[0].isdigit():
        unit = m.group("ru")
        printed = _number(rate_text) * _RATE_UNITS[unit[0] if unit != "B" else ""]
        if "i" in unit:  # toybox and busybox print binary units
            printed = _number(rate_text) * 1024 ** " KMGTPEZY".index(unit[0].upper())
        computed = nbytes / seconds
        if not _agrees(computed, printed):
            if not exact:
                return None  # a status=progress line: whole seconds, the rate from the exact time
            if strict:
                raise ParseError(
                    FORMAT,
                    f"line {lineno}",
                    f"the figures disagree: {nbytes} bytes in {secs_text} s is {computed:,.0f} bytes/s, "
                    f"but the line says {rate_text} {m.group('ru')}/s; not storing a figure that may be misread",
                )
            return None
    return _Summary(nbytes, seconds, exact)


def _agrees(computed: float, printed: float) -> bool:
    """dd rounds the rate to 2-3 significant digits; busybox prints 1024-based units as MB."""
    if printed == 0 or computed == 0:
        return computed < 1000 and printed < 1000
    ratio = computed / printed
    return 0.8 <= ratio <= 1.3


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    for lineno, line in enumerate(head.splitlines()[:2000], start=1):
        if _summary(line, lineno, strict=False) is not None:
            return True
    return False


def _records(line: str) -> tuple[int, int] | None:
    if "+" not in line or len(line) > 100:
        return None
    m = _RECORDS_RE.match(line)
    if m is None or re.search(r"[=/:]", line):
        return None
    return int(m.group(1)), int(m.group(2))


def _is_operands(line: str) -> bool:
    """A line of bare dd operands (``of=/tank/f bs=1M``): the rest of a wrapped command."""
    words = _PROMPT_RE.sub("", line).split()
    return bool(words) and all(_OPERAND_RE.match(w) for w in words) and any(w[:3] in ("if=", "of=") for w in words)


def _logical_lines(lines: list[str]) -> list[tuple[int, str, bool]]:
    """(line number, text, is a command): a dd command continued with ``\\`` or wrapped onto
    lines of bare operands is joined into one line."""
    out: list[tuple[int, str, bool]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _CMD_RE.search(line) and not _ERROR_RE.match(line) and ("=" in line or line.rstrip().endswith("\\")):
            start = i
            text = line
            while i + 1 < len(lines) and (text.rstrip().endswith("\\") or _is_operands(lines[i + 1])):
                i += 1
                head = text.rstrip()
                text = (head[:-1] if head.endswith("\\") else head) + " " + _PROMPT_RE.sub("", lines[i])
            out.append((start + 1, text, True))
        else:
            out.append((i + 1, line, False))
        i += 1
    return out


def _commands(line: str) -> list[_Command]:
    """The dd invocations on one command line, in order (``dd … && dd …``, ``;``, pipes)."""
    parts = _SHELL_SPLIT_RE.split(line)
    out: list[_Command] = []
    for k in range(0, len(parts), 2):
        segment = parts[k]
        word = _DD_WORD_RE.search(segment)
        if word is None:
            continue
        args = segment[word.end() :].split()
        operands = {}
        for arg in args:
            if "=" in arg:
                key, value = arg.split("=", 1)
                operands[key] = value.strip("'\"")
        before = parts[k - 1] if k > 0 else ""
        after = parts[k + 1] if k + 1 < len(parts) else ""
        out.append(
            _Command(
                text=" ".join(segment[word.start() :].split()).lstrip("$#%>( "),
                operands=operands,
                piped_in=before == "|",
                piped_out=after == "|",
            )
        )
    return out


def command_operands(command: str) -> dict[str, str]:
    """The operands of the first dd invocation in ``command`` (``{"if": "/dev/zero", "bs": "1M"}``),
    read as :func:`parse` reads them; empty when the text runs no dd."""
    found = _commands(command)
    return dict(found[0].operands) if found else {}


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    logical = _logical_lines(lines)
    has_records = any(_records(line) is not None for _, line, is_cmd in logical if not is_cmd)
    results: list[TestResult] = []
    commands: list[str] = []
    run_commands: list[str | None] = []
    seconds: list[float] = []
    sizes: list[int] = []
    records_out: list[int] = []
    queue: list[_Command] = []  # commands not yet taken by a run
    last: _Command | None = None
    pending: list[tuple[int, int]] = []  # records lines of the run being read
    pending_line = 0
    error_line = 0  # a "dd: …" error printed in the run being read
    warnings: list[str] = []
    for lineno, line, is_cmd in logical:
        if is_cmd:
            if pending:
                warnings.append(_missing_summary(pending_line))
                pending = []
            found = _commands(line)
            queue.extend(found)
            commands.append(" ".join(line.split()).lstrip("$#%> "))
            error_line = 0
            continue
        if _ERROR_RE.match(line):
            error_line = error_line or lineno
            continue
        rec = _records(line)
        if rec is not None:
            if len(pending) == 2:  # a new run started before the last one printed its summary
                warnings.append(_missing_summary(pending_line))
                pending = []
            if not pending:
                pending_line = lineno
            pending.append(rec)
            continue
        summary = _summary(line, lineno, strict=True)
        if summary is None:
            continue
        if has_records and len(pending) < 2:
            continue  # a status=progress line, not the final summary
        if summary.seconds <= 0:
            raise ParseError(FORMAT, f"line {lineno}", "elapsed time is zero, no rate can be computed")
        if queue:
            last = queue.pop(0)
        incomplete = bool(error_line) and _fewer_out_than_in(pending)
        if incomplete:
            warnings.append(_did_not_complete(error_line, lines[error_line - 1]))
        out = pending[1] if len(pending) == 2 else None
        results.append(_result(summary.nbytes, summary.seconds, out, last, incomplete))
        seconds.append(summary.seconds)
        sizes.append(summary.nbytes)
        if out is not None:
            records_out.append(sum(out))
        run_commands.append(last.text if last else None)
        pending = []
        error_line = 0
    if pending:
        warnings.append(_missing_summary(pending_line))
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no dd summary line ('… bytes … copied, … s, …') found")
    meta: dict[str, Any] = {"runs": len(results), "test_size_bytes": max(sizes), "shortest_test_s": min(seconds)}
    if records_out:
        meta["fewest_ios"] = min(records_out)
    if commands:
        meta["commands"] = commands
        meta["run_commands"] = run_commands
    return finish_result(TOOL, None, encoding, data, meta, results, warnings, progress)


def _fewer_out_than_in(records: list[tuple[int, int]]) -> bool:
    """Records out (full + partial) below records in: dd stopped before writing what it read.
    Without records lines the error alone decides."""
    if len(records) < 2:
        return True
    return sum(records[1]) < sum(records[0])


def _missing_summary(lineno: int) -> str:
    return (
        f"the run whose 'records in/out' lines start at line {lineno} has no summary line "
        "(bytes, seconds, rate): the log was cut off there, so that run has no figures"
    )


def _did_not_complete(lineno: int, line: str) -> str:
    return (
        f"the run with the error at line {lineno} ({line.strip()}) did not complete: its bandwidth "
        "is what was written before the error, and it has no IOPS"
    )


def _direction(command: _Command | None) -> str:
    """Write, read or copy from ``if=``/``of=`` (the module docstring gives the rule)."""
    if command is None:
        return "copy"
    src = command.operands.get("if", "") or ("|" if command.piped_in else "")
    dst = command.operands.get("of", "") or ("|" if command.piped_out else "")
    if src in _WRITE_SOURCES:
        return "write"
    if dst in _SINKS:
        return "read"
    if not src or src == "|":
        return "write" if dst and dst != "|" else "copy"  # stdin or a pipe into a file or device
    if not dst or dst == "|":
        return "read"  # a file or device to stdout or a pipe
    return "copy"


def _block_option(operands: dict[str, str]) -> int | None:
    raw = operands.get("bs") or operands.get("obs") or operands.get("ibs")
    if not raw:
        return None
    value = parse_fio_size(raw.rstrip("Bb").replace("i", "").replace("I", ""))
    return value if value else None


def _result(
    nbytes: int, seconds: float, records: tuple[int, int] | None, command: _Command | None, incomplete: bool
) -> TestResult:
    block: int | None = None
    iops: float | None = None
    if records is not None and records[0] > 0:
        iops = (records[0] + records[1]) / seconds
        if records[1] == 0 and nbytes % records[0] == 0:
            block = nbytes // records[0]
    option = _block_option(command.operands) if command else None
    if block is None and option:
        block = option
    if iops is None and block:
        iops = nbytes / block / seconds
    if incomplete:
        iops = None
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
