"""bonnie++ tables as bonnie++ and bon_csv2txt print them, also indented or quoted in Markdown and
e-mail: a throughput table and a create table, each machine's row followed by its latencies."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..common import to_float
from ..types import ParseError
from .csv_lines import CSV103_RE, CSV_RE
from .runs import (
    FAST_IO_OPS,
    FILE_OPS,
    FORMAT,
    IO_OPS,
    RATE_RE,
    THROUGHPUT_OPS,
    Run,
    chunk_bytes,
    file_count,
    latency_us,
    record,
    size_bytes,
)

VERSION_RE = re.compile(r"^\s*Version\s+(\d+\.\d+[a-z]?)\b")
IO_HEAD_RE = re.compile(r"-+Sequential Output-+")
FILE_HEAD_RE = re.compile(r"-+Sequential Create-+")
_CONCURRENCY_RE = re.compile(r"^\s*Concurrency\s+(\d+)")
_FILES_CELL_RE = re.compile(r"^\d+(?::\d+)*(?:/\d+)?(?::\d+)?$")


@dataclass
class _Table:
    kind: str  # "io" or "file"
    version: str | None
    suffixes: bool  # 2.00 tables print k/m/g units
    machine: str | None  # the machine named in a create table's header (bonnie++'s own output)


def table_runs(lines: list[str]) -> list[Run]:
    runs: list[Run] = []
    table: _Table | None = None
    in_data = False
    last: Run | None = None
    last_ops: tuple[str, ...] = ()
    concurrency: int | None = None
    version: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        io_head, file_head = IO_HEAD_RE.search(line), FILE_HEAD_RE.search(line)
        if io_head or file_head:
            vm = VERSION_RE.match(line)
            version = vm.group(1) if vm else version
            table = _Table("io" if io_head else "file", version, False, None)
            in_data = False
            i += 1
            # header rows up to and including the "%CP" units row
            while i < len(lines) and "%CP" not in lines[i]:
                cm = _CONCURRENCY_RE.match(lines[i])
                if cm:
                    concurrency = int(cm.group(1))
                elif table.kind == "file" and "-Create--" in lines[i]:
                    name = lines[i].split("-Create--", 1)[0].strip()
                    table.machine = name or None
                i += 1
            if i >= len(lines):
                raise ParseError(FORMAT, f"line {i}", "table ends before its data row")
            table.suffixes = "K/sec" not in lines[i] and "/sec" in lines[i]
            in_data = True
            i += 1
            continue
        if not in_data or table is None:
            i += 1
            continue
        stripped = line.strip()
        tokens = stripped.split()
        if not tokens or CSV_RE.match(stripped) or CSV103_RE.match(stripped):
            in_data = False
        elif tokens[0] == "Latency":
            if last is not None:
                _latencies(last, last_ops, tokens[1:], i + 1)
        elif table.kind == "io":
            last, last_ops = _io_row(runs, last, tokens, table, concurrency, i + 1)
        else:
            last, last_ops = _file_row(runs, last, tokens, table, concurrency, i + 1)
        i += 1
    return runs


def _io_row(
    runs: list[Run], last: Run | None, tokens: list[str], table: _Table, concurrency: int | None, lineno: int
) -> tuple[Run, tuple[str, ...]]:
    figures_only = len(tokens) in (8, 12) and all(_is_figure(t) for t in tokens)
    if figures_only and last is not None:  # -x: another run of the machine above, on its own row
        run = Run(machine=last.machine, version=last.version, concurrency=last.concurrency, size=last.size)
        run.chunk = last.chunk
        figures = tokens
    else:
        if len(tokens) < 4:
            raise ParseError(FORMAT, f"line {lineno}", "expected machine name, size and figures")
        name, size, figures = tokens[0], tokens[1], tokens[2:]
        run = Run(machine=name, version=table.version, concurrency=concurrency)
        run.size = size_bytes(size)
        run.chunk = chunk_bytes(size)
    if len(figures) >= 12:
        ops: tuple[str, ...] = IO_OPS
    elif len(figures) >= 8:
        ops = FAST_IO_OPS
    else:
        raise ParseError(FORMAT, f"line {lineno}", f"expected 8 or 12 figures, found {len(figures)}")
    for n, op in enumerate(ops):
        suffixes = table.suffixes and op in THROUGHPUT_OPS
        record(run, op, figures[2 * n], figures[2 * n + 1], f"line {lineno}, column {op}", suffixes)
    runs.append(run)
    return run, ops


def _is_figure(token: str) -> bool:
    return bool(set(token) == {"+"} or to_float(token) is not None or RATE_RE.match(token))


def _file_row(
    runs: list[Run], last: Run | None, tokens: list[str], table: _Table, concurrency: int | None, lineno: int
) -> tuple[Run, tuple[str, ...]]:
    if _FILES_CELL_RE.match(tokens[0]):
        name = table.machine or (last.machine if last else "bonnie")
        files, figures = tokens[0], tokens[1:]
    else:
        if len(tokens) < 2:
            raise ParseError(FORMAT, f"line {lineno}", "expected machine name, number of files and figures")
        name, files, figures = tokens[0], tokens[1], tokens[2:]
    if len(figures) < 12:
        raise ParseError(FORMAT, f"line {lineno}", f"expected 12 figures, found {len(figures)}")
    run = _owner(runs, name)
    if run is None:
        run = Run(machine=name, version=table.version, concurrency=concurrency)
        runs.append(run)
    run.has_file_tests = True
    run.num_files = file_count(files)
    for n, op in enumerate(FILE_OPS):
        record(run, op, figures[2 * n], figures[2 * n + 1], f"line {lineno}, column {op}", suffixes=False)
    return run, FILE_OPS


def _owner(runs: list[Run], name: str) -> Run | None:
    """The first run of machine ``name`` without file results yet. bon_csv2txt cuts long names in
    its throughput table ("zfs-ra 512M::8192:5"), so a name may be the start of the full one."""
    for run in runs:
        if not run.has_file_tests and (run.machine == name or (name.startswith(run.machine) and run.machine)):
            run.machine = name
            return run
    return None


def _latencies(run: Run, ops: tuple[str, ...], cells: list[str], lineno: int) -> None:
    if len(cells) == len(ops):
        pairs = list(zip(ops, cells, strict=True))
    else:  # every column printed; blank ones collapsed away
        block = IO_OPS if ops[0] in IO_OPS else FILE_OPS
        pairs = [(op, cell) for op, cell in zip(block, cells, strict=False) if op in ops]
    for op, cell in pairs:
        run.latencies[op] = latency_us(cell, f"line {lineno}")
