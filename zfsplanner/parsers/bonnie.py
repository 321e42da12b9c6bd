"""bonnie++ 1.02–2.00a: the human tables, the CSV lines, and bon_csv2txt / bon_csv2html output.

Sources read (shared/reference/benchmark-formats.md §3):

* CSV lines: format 1.96/1.97 (48 fields), 1.98 (bonnie++ 1.98–2.00a, 50 fields: two inserted
  after ``io_chunk_size``), ≈1.93–1.95 (46 fields, no concurrency/seed), and bonnie++ 1.0x
  (27 fields, no version fields at all: ``name,size,putc,putc_cpu,…,ran_del_cpu``).
* Tables as bonnie++ prints them (``Version  1.97 ------Sequential Output------`` …), also the
  1.0x ``Create`` table that has no ``Version`` line, several ``-x`` runs as continuation rows,
  and tables indented or quoted (``> ``) in Markdown and e-mail.
* ``bon_csv2txt`` tables: several machines per table, each row starting with its machine name
  (truncated by bon_csv2txt in the throughput table, complete in the create table), a
  ``Latency`` row after each machine's row, ``0k +++`` for a test that ran too fast.
* ``bon_csv2html`` tables (2.00a: ``Per Char`` columns in K/s and ``Block``/``Rewrite`` columns
  in MiB/s whatever the ``M/sec`` header says, as its source prints them; 1.9x: ``K/sec``).

Units: throughput ``K/sec`` and CSV numbers are KiB/s (×1024); the 2.00 tables print
``1354k``/``327m``/``1g`` (KiB/MiB/GiB per second). ``+++++`` means the test ran too fast to
time: the figure is null and the test is listed in ``meta["too_fast"]``. Latency cells
(``21900us``, ``735ms``, ``2s``) are the *maximum* latency, so they go to ``latency_max_us``.
Seeks and the file tests are operations per second (``ops_per_s``). When a file has both
tables and CSV lines, the CSV (exact numbers) is used.

Each bonnie++ test is one result; ``op`` and ``name`` are the test's snake-case name:
``seq_output_char``, ``seq_output_block``, ``rewrite``, ``seq_input_char``,
``seq_input_block``, ``seeks``, ``seq_create``, ``seq_read``, ``seq_delete``,
``random_create``, ``random_read``, ``random_delete``. With several machines in one file the
name starts with the machine (``zfs-mirror seq_output_block``); repeated runs of one machine
(``-x 3``) are named ``… #2``, ``… #3``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from .common import KIB, MIB, ProgressFn, make_source, number_repeats, to_float
from .decode import decode, peek_text
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "bonnie++"
TOOL = "bonnie++"

THROUGHPUT_OPS = ("seq_output_char", "seq_output_block", "rewrite", "seq_input_char", "seq_input_block")
IO_OPS = (*THROUGHPUT_OPS, "seeks")
FILE_OPS = ("seq_create", "seq_read", "seq_delete", "random_create", "random_read", "random_delete")
ALL_OPS = (*IO_OPS, *FILE_OPS)
FAST_IO_OPS = ("seq_output_block", "rewrite", "seq_input_block", "seeks")  # -f skips the per-char tests

_CSV_RE = re.compile(r"^\s*(1\.9[0-9][a-z]?),")
_CSV_HEADER_RE = re.compile(r"^\s*format_version,bonnie_version,")
_SIZE_TOKEN = r"\d+(?:\.\d+)?[KMGTkmgt]?(?::[\w:]*)?"  # noqa: S105 (a regex, not a secret)
_CSV103_RE = re.compile(r"^\s*[^,\s]+," + _SIZE_TOKEN + r",")
_VERSION_RE = re.compile(r"^\s*Version\s+(\d+\.\d+[a-z]?)\b")
_IO_HEAD_RE = re.compile(r"-+Sequential Output-+")
_FILE_HEAD_RE = re.compile(r"-+Sequential Create-+")
_CONCURRENCY_RE = re.compile(r"^\s*Concurrency\s+(\d+)")
_LATENCY_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)(us|ms|s)\s*$")
_RATE_RE = re.compile(r"^(\d+(?:\.\d+)?)([kmg]?)$", re.IGNORECASE)
_SIZE_RE = re.compile(r"^(\d+(?:\.\d+)?)([KMGT]?)$", re.IGNORECASE)
_FILES_CELL_RE = re.compile(r"^\d+(?::\d+)*(?:/\d+)?(?::\d+)?$")
_QUOTE_RE = re.compile(r"^(?:\s*>)+ ?")
_HTML_TITLE_RE = re.compile(r"<title>\s*Bonnie\+\+ Benchmark results", re.IGNORECASE)
_TR_RE = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.IGNORECASE | re.DOTALL)
_TD_RE = re.compile(r"<td\b([^>]*)>(.*?)</td>", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"<[^>]+>")


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    if _HTML_TITLE_RE.search(head):
        return True
    for line in head.splitlines()[:400]:
        line = _clean(line)
        if _CSV_HEADER_RE.match(line) or _IO_HEAD_RE.search(line) or _FILE_HEAD_RE.search(line):
            return True
        if _CSV_RE.match(line) and line.count(",") >= 45:
            return True
        if _CSV103_RE.match(line) and line.count(",") == 26 and "+" not in line.split(",", 1)[0]:
            return True
    return False


@dataclass
class _Run:
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


def _clean(line: str) -> str:
    """A line without Markdown/e-mail quote markers or backticks around it."""
    if line.lstrip().startswith(">"):
        line = _QUOTE_RE.sub("", line, count=1)
    return line.rstrip().strip("`")


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    raw_lines = text.split("\n")
    lines = [_clean(line) for line in raw_lines]
    runs = _csv_runs(lines)
    if not runs and _HTML_TITLE_RE.search(text[:65536]):
        runs = _html_runs(text)
    if not runs:
        runs = _table_runs(lines)
    results = _results(runs)
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no bonnie++ results found")
    meta = _meta(runs)
    version = next((r.version for r in runs if r.version), None)
    if version is None:  # 1.0x CSV lines carry no version; the table above them may
        version = next((m.group(1) for m in map(_VERSION_RE.match, lines) if m), None)
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=results)


def _meta(runs: list[_Run]) -> dict[str, Any]:
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


def _name(run: _Run, op: str, machines: int) -> str:
    return f"{run.machine} {op}" if machines > 1 else op


def _results(runs: list[_Run]) -> tuple[TestResult, ...]:
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


def _size_bytes(cell: str) -> int | None:
    m = _SIZE_RE.match(cell.strip().split(":", 1)[0])
    if not m:
        return None
    factor = {"": MIB, "k": KIB, "m": MIB, "g": 1024 * MIB, "t": 1024 * 1024 * MIB}[m.group(2).lower()]
    return int(float(m.group(1)) * factor)


def _chunk_bytes(cell: str) -> int | None:
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


def _files(cell: str) -> int | None:
    """``16`` / ``16:100000:16/64`` → 16 × 1024 files (bonnie++ counts files in units of 1024)."""
    head = cell.strip().split(":", 1)[0].split("/", 1)[0]
    return int(head) * 1024 if head.isdigit() else None


def _value(cell: str, where: str, suffixes: bool) -> float | None:
    """A throughput or ops/s cell. Returns None for ``+++++`` and empty cells."""
    cell = cell.strip()
    if not cell or set(cell) == {"+"}:
        return None
    if suffixes:
        m = _RATE_RE.match(cell)
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


def _record(run: _Run, op: str, cell: str, cpu: str, where: str, suffixes: bool) -> None:
    """Store one figure; ``+++++`` (or bon_csv2txt's ``0k`` next to a ``+++`` CPU cell) is too fast."""
    too_fast = "+" in cell or cpu.strip().startswith("+")
    value = None if too_fast else _value(cell, where, suffixes)
    if too_fast and op not in run.too_fast:
        run.too_fast.append(op)
    run.values[op] = value


# --- CSV lines --------------------------------------------------------------------------------

_CSV_VALUE_COLS = {
    "seq_output_char": 7,
    "seq_output_block": 9,
    "rewrite": 11,
    "seq_input_char": 13,
    "seq_input_block": 15,
    "seeks": 17,
    "seq_create": 24,
    "seq_read": 26,
    "seq_delete": 28,
    "random_create": 30,
    "random_read": 32,
    "random_delete": 34,
}
# bonnie++ 1.0x: name,size,putc,cpu,put_block,cpu,rewrite,cpu,getc,cpu,get_block,cpu,seeks,cpu,
# num_files,seq_create,cpu,seq_stat,cpu,seq_del,cpu,ran_create,cpu,ran_stat,cpu,ran_del,cpu
_CSV103_VALUE_COLS = dict(zip(ALL_OPS, (2, 4, 6, 8, 10, 12, 15, 17, 19, 21, 23, 25), strict=True))


def _csv_runs(lines: list[str]) -> list[_Run]:
    runs: list[_Run] = []
    for lineno, line in enumerate(lines, start=1):
        stripped = line.strip()
        if _CSV_RE.match(stripped):
            runs.append(_parse_csv(stripped, lineno))
        elif _CSV103_RE.match(stripped) and stripped.count(",") == 26:
            runs.append(_parse_csv103(stripped, lineno))
    return runs


def _parse_csv(line: str, lineno: int) -> _Run:
    cells = line.split(",")
    fmt = cells[0]
    where = f"line {lineno}"
    if fmt.startswith("1.98") or fmt.startswith("1.99") or len(cells) in (50, 51):
        expected, shift = 50, 2
    elif len(cells) in (46, 47):  # ≈1.93-1.95: no concurrency and seed fields
        expected, shift = 46, -2
    else:
        expected, shift = 48, 0
    if len(cells) < expected:
        raise ParseError(FORMAT, where, f"CSV format {fmt} needs {expected} fields, found {len(cells)}")
    run = _Run(machine=cells[2], version=cells[1], csv_format=fmt)
    size_col, chunk_col = (5, 6) if shift >= 0 else (3, 4)
    if shift >= 0 and cells[3].strip().isdigit():
        run.concurrency = int(cells[3])
    chunk_cell = cells[chunk_col].strip()
    run.chunk = int(chunk_cell) if chunk_cell.isdigit() else None
    run.size = _size_bytes(cells[size_col])
    run.num_files = _files(cells[19 + shift])
    for i, op in enumerate(ALL_OPS):
        col = _CSV_VALUE_COLS[op] + shift
        cell, cpu = cells[col], cells[col + 1]
        lat_col = 36 + shift + i
        latency = latency_us(cells[lat_col], f"{where}, field {lat_col + 1}")
        if not cell.strip() and latency is None:
            continue  # test not run (e.g. -f skips per-char tests, -n 0 the file tests)
        _record(run, op, cell, cpu, f"{where}, field {col + 1}", suffixes=False)
        run.latencies[op] = latency
    return run


def _parse_csv103(line: str, lineno: int) -> _Run:
    cells = line.split(",")
    where = f"line {lineno}"
    run = _Run(machine=cells[0], csv_format="1.0x")
    run.size = _size_bytes(cells[1])
    run.chunk = _chunk_bytes(cells[1])
    run.num_files = _files(cells[14])
    for op in ALL_OPS:
        col = _CSV103_VALUE_COLS[op]
        if not cells[col].strip():
            continue
        _record(run, op, cells[col], cells[col + 1], f"{where}, field {col + 1}", suffixes=False)
    return run


# --- text tables --------------------------------------------------------------------------------


@dataclass
class _Table:
    kind: str  # "io" or "file"
    version: str | None
    suffixes: bool  # 2.00 tables print k/m/g units
    machine: str | None  # the machine named in a create table's header (bonnie++'s own output)


def _table_runs(lines: list[str]) -> list[_Run]:
    runs: list[_Run] = []
    table: _Table | None = None
    in_data = False
    last: _Run | None = None
    last_ops: tuple[str, ...] = ()
    concurrency: int | None = None
    version: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        io_head, file_head = _IO_HEAD_RE.search(line), _FILE_HEAD_RE.search(line)
        if io_head or file_head:
            vm = _VERSION_RE.match(line)
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
        if not tokens or _CSV_RE.match(stripped) or _CSV103_RE.match(stripped):
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
    runs: list[_Run], last: _Run | None, tokens: list[str], table: _Table, concurrency: int | None, lineno: int
) -> tuple[_Run, tuple[str, ...]]:
    figures_only = len(tokens) in (8, 12) and all(_is_figure(t) for t in tokens)
    if figures_only and last is not None:  # -x: another run of the machine above, on its own row
        run = _Run(machine=last.machine, version=last.version, concurrency=last.concurrency, size=last.size)
        run.chunk = last.chunk
        figures = tokens
    else:
        if len(tokens) < 4:
            raise ParseError(FORMAT, f"line {lineno}", "expected machine name, size and figures")
        name, size, figures = tokens[0], tokens[1], tokens[2:]
        run = _Run(machine=name, version=table.version, concurrency=concurrency)
        run.size = _size_bytes(size)
        run.chunk = _chunk_bytes(size)
    if len(figures) >= 12:
        ops: tuple[str, ...] = IO_OPS
    elif len(figures) >= 8:
        ops = FAST_IO_OPS
    else:
        raise ParseError(FORMAT, f"line {lineno}", f"expected 8 or 12 figures, found {len(figures)}")
    for n, op in enumerate(ops):
        suffixes = table.suffixes and op in THROUGHPUT_OPS
        _record(run, op, figures[2 * n], figures[2 * n + 1], f"line {lineno}, column {op}", suffixes)
    runs.append(run)
    return run, ops


def _is_figure(token: str) -> bool:
    return bool(set(token) == {"+"} or to_float(token) is not None or _RATE_RE.match(token))


def _file_row(
    runs: list[_Run], last: _Run | None, tokens: list[str], table: _Table, concurrency: int | None, lineno: int
) -> tuple[_Run, tuple[str, ...]]:
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
        run = _Run(machine=name, version=table.version, concurrency=concurrency)
        runs.append(run)
    run.has_file_tests = True
    run.num_files = _files(files)
    for n, op in enumerate(FILE_OPS):
        _record(run, op, figures[2 * n], figures[2 * n + 1], f"line {lineno}, column {op}", suffixes=False)
    return run, FILE_OPS


def _owner(runs: list[_Run], name: str) -> _Run | None:
    """The first run of machine ``name`` without file results yet. bon_csv2txt cuts long names in
    its throughput table ("zfs-ra 512M::8192:5"), so a name may be the start of the full one."""
    for run in runs:
        if not run.has_file_tests and (run.machine == name or (name.startswith(run.machine) and run.machine)):
            run.machine = name
            return run
    return None


def _latencies(run: _Run, ops: tuple[str, ...], cells: list[str], lineno: int) -> None:
    if len(cells) == len(ops):
        pairs = list(zip(ops, cells, strict=True))
    else:  # every column printed; blank ones collapsed away
        block = IO_OPS if ops[0] in IO_OPS else FILE_OPS
        pairs = [(op, cell) for op, cell in zip(block, cells, strict=False) if op in ops]
    for op, cell in pairs:
        run.latencies[op] = latency_us(cell, f"line {lineno}")


# --- bon_csv2html -------------------------------------------------------------------------------


def _cells(row: str) -> list[tuple[str, str]]:
    return [(attrs.lower(), html.unescape(_TAG_RE.sub("", text)).strip()) for attrs, text in _TD_RE.findall(row)]


def _html_runs(text: str) -> list[_Run]:
    """bon_csv2html: one row of figures per run (name cell ``class="rowheader"``), then its latencies."""
    version_m = re.search(r"Version\s+(\d+\.\d+[a-z]?)", text)
    version = version_m.group(1) if version_m else None
    mib_blocks = ">M/sec<" in text.replace("</font>", "").replace("</FONT>", "")
    runs: list[_Run] = []
    current: _Run | None = None
    for row in _TR_RE.findall(text):
        cells = _cells(row)
        if not cells:
            continue
        if "rowheader" in cells[0][0]:
            current = _Run(machine=cells[0][1], version=version, csv_format="bon_csv2html")
            sizes = [t for a, t in cells[1:] if "size" in a]
            figures = [t for a, t in cells[1:] if "size" not in a]
            if sizes:
                current.size = _size_bytes(sizes[0])
            if len(sizes) > 1:
                current.num_files = _files(sizes[-1])
            for n, op in enumerate(ALL_OPS):
                value, cpu = (figures + [""] * 24)[2 * n], (figures + [""] * 24)[2 * n + 1]
                if not value:
                    continue
                where = f"HTML row of {current.machine}, column {op}"
                if mib_blocks and op in ("seq_output_block", "rewrite", "seq_input_block") and not cpu.startswith("+"):
                    mib = _value(value, where, suffixes=False)  # 2.00a prints these columns in MiB/s
                    value = value if mib is None else str(mib * 1024)  # +++++ stays "too fast"
                _record(current, op, value, cpu, where, suffixes=False)
            runs.append(current)
        elif current is not None and any(t == "Latency" for _, t in cells):
            labels = [n for n, (_, t) in enumerate(cells) if t == "Latency"]
            io_cells = [t for _, t in cells[labels[0] + 1 : labels[0] + 7]]
            file_cells = [t for _, t in cells[labels[-1] + 1 : labels[-1] + 7]] if len(labels) > 1 else []
            for op, cell in (*zip(IO_OPS, io_cells, strict=False), *zip(FILE_OPS, file_cells, strict=False)):
                if cell:
                    current.latencies[op] = latency_us(cell, f"HTML row of {current.machine}, latency of {op}")
            current = None
    return runs
