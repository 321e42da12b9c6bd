"""bonnie++ runs: one machine's figures as cells are read, the cell readers every layout shares,
and the results and meta of a file built from its runs (units: see the package's docstring)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..common import KIB, MIB, number_repeats, to_float
from ..types import ParseError, Pattern, TestResult

FORMAT = "bonnie++"

THROUGHPUT_OPS = ("seq_output_char", "seq_output_block", "rewrite", "seq_input_char", "seq_input_block")
IO_OPS = (*THROUGHPUT_OPS, "seeks")
FILE_OPS = ("seq_create", "seq_read", "seq_delete", "random_create", "random_read", "random_delete")
ALL_OPS = (*IO_OPS, *FILE_OPS)
FAST_IO_OPS = ("seq_output_block", "rewrite", "seq_input_block", "seeks")  # -f skips the per-char tests

_LATENCY_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)(us|ms|s)\s*$")
RATE_RE = re.compile(r"^(\d+(?:\.\d+)?)([kmg]?)$", re.IGNORECASE)
_SIZE_RE = re.compile(r"^(\d+(?:\.\d+)?)([KMGT]?)$", re.IGNORECASE)
_QUOTE_RE = re.compile(r"^(?:\s*>)+ ?")


@dataclass
class Run:
    """One bonnie++ run of one machine: figures (raw cells) and latencies by test."""

    machine: str
    version: str | None = None
    values: dict[str, float | None] = field(default_factory=dict)
    latencies: dict[str, float | None] = field(default_factory=dict)
    too_fast: list[str] = field(default_factory=list)
    concurrency: int | None = None
    chunk: int | None = None
    size: int | None = None
    num_files: int | None = None
    csv_format: str | None = None
    has_file_tests: bool = False


def clean(line: str) -> str:
    """A line without Markdown/e-mail quote markers or backticks around it."""
    if line.lstrip().startswith(">"):
        line = _QUOTE_RE.sub("", line, count=1)
    return line.rstrip().strip("`")


def meta_of(runs: list[Run]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    machines = list(dict.fromkeys(r.machine for r in runs))
    meta["machine"] = machines[0]
    if len(machines) > 1:
        meta["machines"] = machines
    first = runs[0]
    if first.csv_format:
        meta["csv_format"] = first.csv_format
    for key, value in (("file_size_bytes", first.size), ("concurrency", first.concurrency)):
        if value is not None:
            meta[key] = value
    files = next((r.num_files for r in runs if r.num_files is not None), None)
    if files is not None:
        meta["num_files"] = files
    meta["too_fast"] = list(dict.fromkeys(_name(r, op, len(machines)) for r in runs for op in r.too_fast))
    meta["runs"] = len(runs)
    return meta


def _name(run: Run, op: str, machines: int) -> str:
    return f"{run.machine} {op}" if machines > 1 else op


def results_of(runs: list[Run]) -> tuple[TestResult, ...]:
    machines = len({r.machine for r in runs})
    out: list[TestResult] = []
    for run in runs:
        for op in ALL_OPS:
            if op not in run.values and op not in run.latencies:
                continue
            chunk = run.chunk or 8192  # bonnie++'s default chunk size
            out.append(
                _result(_name(run, op, machines), op, run.values.get(op), run.latencies.get(op), run.concurrency, chunk)
            )
    return number_repeats(out)


def latency_us(cell: str, where: str) -> float | None:
    """``21900us`` / ``735ms`` / ``2s`` → µs; empty → None."""
    cell = cell.strip()
    if not cell:
        return None
    m = _LATENCY_RE.match(cell)
    if not m:
        raise ParseError(FORMAT, where, f"expected a latency like 735ms, got {cell!r}")
    factor = {"us": 1.0, "ms": 1000.0, "s": 1_000_000.0}[m.group(2)]
    return float(m.group(1)) * factor


def size_bytes(cell: str) -> int | None:
    m = _SIZE_RE.match(cell.strip().split(":", 1)[0])
    if not m:
        return None
    factor = {"": MIB, "k": KIB, "m": MIB, "g": 1024 * MIB, "t": 1024 * 1024 * MIB}[m.group(2).lower()]
    return int(float(m.group(1)) * factor)


def chunk_bytes(cell: str) -> int | None:
    """The chunk part of ``1G:32k`` (``-s size:chunk``) or bon_csv2txt's ``512M:8192:5:1``
    (size, chunk, seeks, seek processes; an empty chunk means the default)."""
    parts = cell.split(":")
    if len(parts) < 2 or not parts[1]:
        return None
    m = _SIZE_RE.match(parts[1])
    if not m:
        return None
    factor = {"": 1, "k": KIB, "m": MIB, "g": 1024 * MIB, "t": 1024 * 1024 * MIB}[m.group(2).lower()]
    return int(float(m.group(1)) * factor)


def file_count(cell: str) -> int | None:
    """``16`` / ``16:100000:16/64`` → 16 × 1024 files (bonnie++ counts files in units of 1024)."""
    head = cell.strip().split(":", 1)[0].split("/", 1)[0]
    return int(head) * 1024 if head.isdigit() else None


def cell_value(cell: str, where: str, suffixes: bool) -> float | None:
    """A throughput or ops/s cell. Returns None for ``+++++`` and empty cells."""
    cell = cell.strip()
    if not cell or set(cell) == {"+"}:
        return None
    if suffixes:
        m = RATE_RE.match(cell)
        if m and m.group(2):
            return float(m.group(1)) * {"k": 1, "m": 1024, "g": 1024 * 1024}[m.group(2).lower()]
        if to_float(cell) is not None:
            raise ParseError(FORMAT, where, f"throughput {cell!r} has no k/m/g unit (this table prints one)")
    value = to_float(cell)
    if value is None:
        raise ParseError(FORMAT, where, f"expected a number or +++++, got {cell!r}")
    return value


def _result(
    name: str,
    op: str,
    value: float | None,
    latency: float | None,
    concurrency: int | None,
    chunk: int | None,
) -> TestResult:
    if op in THROUGHPUT_OPS:
        pattern: Pattern = "sequential"
        block = 1 if op.endswith("_char") else chunk
        bandwidth = value * 1024.0 if value is not None else None
        ops = None
    else:
        pattern = "random" if op == "seeks" or op.startswith("random_") else "sequential"
        block = None
        bandwidth = None
        ops = value
    return TestResult(
        name=name,
        op=op,
        pattern=pattern,
        block_size_bytes=block,
        queue_depth=None,
        threads=concurrency,
        bandwidth_bytes_per_s=bandwidth,
        iops=None,
        latency_mean_us=None,
        latency_max_us=latency,
        latency_percentiles_us={},
        ops_per_s=ops,
    )


def record(run: Run, op: str, cell: str, cpu: str, where: str, suffixes: bool) -> None:
    """Store one figure; ``+++++`` (or bon_csv2txt's ``0k`` next to a ``+++`` CPU cell) is too fast."""
    too_fast = "+" in cell or cpu.strip().startswith("+")
    value = None if too_fast else cell_value(cell, where, suffixes)
    if too_fast and op not in run.too_fast:
        run.too_fast.append(op)
    run.values[op] = value
