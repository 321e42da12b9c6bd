"""bonnie++ 1.96–2.00a: the human table and the CSV line (``bon_csv`` format 1.96/1.97 and 1.98).

Units (shared/reference/benchmark-formats.md §3): throughput ``K/sec`` and CSV numbers are
KiB/s (×1024); the 2.00 table prints ``1354k``/``327m``/``1g`` (KiB/MiB/GiB per second).
``+++++`` means the test ran too fast to time: the figure is null and the test is listed in
``meta["too_fast"]``. Latency cells (``21900us``, ``735ms``, ``2s``) are the *maximum*
latency, so they go to ``latency_max_us``. Seeks and the file tests are operations per
second (``ops_per_s``). When a file has both the table and the CSV line of a run, the CSV
(exact numbers) is used.

Each bonnie++ test is one result; ``op`` and ``name`` are the test's snake-case name:
``seq_output_char``, ``seq_output_block``, ``rewrite``, ``seq_input_char``,
``seq_input_block``, ``seeks``, ``seq_create``, ``seq_read``, ``seq_delete``,
``random_create``, ``random_read``, ``random_delete``.
"""

from __future__ import annotations

import re
from typing import Any

from .common import KIB, MIB, ProgressFn, make_source, to_float
from .decode import decode, peek_text
from .types import BenchResult, ParseError, Pattern, TestResult

FORMAT = "bonnie++"
TOOL = "bonnie++"

THROUGHPUT_OPS = ("seq_output_char", "seq_output_block", "rewrite", "seq_input_char", "seq_input_block")
FILE_OPS = ("seq_create", "seq_read", "seq_delete", "random_create", "random_read", "random_delete")
ALL_OPS = (*THROUGHPUT_OPS, "seeks", *FILE_OPS)

_CSV_RE = re.compile(r"^\s*(1\.9[0-9][a-z]?),")
_CSV_HEADER_RE = re.compile(r"^\s*format_version,bonnie_version,")
_TABLE_VERSION_RE = re.compile(r"^\s*Version\s+(\d+\.\d+[a-z]?)\s+-+Sequential (Output|Create)")
_LATENCY_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)(us|ms|s)\s*$")
_RATE_RE = re.compile(r"^(\d+(?:\.\d+)?)([kmg]?)$", re.IGNORECASE)
_SIZE_RE = re.compile(r"^(\d+(?:\.\d+)?)([KMGT]?)$", re.IGNORECASE)


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    for line in head.splitlines()[:400]:
        if _TABLE_VERSION_RE.match(line) or _CSV_HEADER_RE.match(line):
            return True
        if _CSV_RE.match(line) and line.count(",") >= 45:
            return True
    return False


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    csv_lines = [
        (n, line.strip().strip("`")) for n, line in enumerate(lines, start=1) if _CSV_RE.match(line.strip().strip("`"))
    ]
    meta: dict[str, Any] = {}
    results: list[TestResult] = []
    version: str | None = None
    if csv_lines:
        for lineno, line in csv_lines:
            ver, run_results, run_meta = _parse_csv(line, lineno)
            version = version or ver
            results.extend(run_results)
            _merge_meta(meta, run_meta)
    else:
        version, results, table_meta = _parse_tables(lines)
        _merge_meta(meta, table_meta)
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no bonnie++ results found")
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=tuple(results))


def _merge_meta(meta: dict[str, Any], new: dict[str, Any]) -> None:
    too_fast = meta.get("too_fast", []) + [op for op in new.pop("too_fast", []) if op not in meta.get("too_fast", [])]
    for key, value in new.items():
        meta.setdefault(key, value)
    if too_fast:
        meta["too_fast"] = too_fast
    meta["runs"] = meta.get("runs", 0) + 1


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
    m = _SIZE_RE.match(cell.strip())
    if not m:
        return None
    factor = {"": MIB, "k": KIB, "m": MIB, "g": 1024 * MIB, "t": 1024 * 1024 * MIB}[m.group(2).lower()]
    return int(float(m.group(1)) * factor)


def _value(cell: str, where: str, kib_suffixes: bool) -> float | None:
    """A throughput or ops/s cell. Returns None for ``+++++`` and empty cells."""
    cell = cell.strip()
    if not cell or set(cell) == {"+"}:
        return None
    if kib_suffixes:
        m = _RATE_RE.match(cell)
        if m:
            return float(m.group(1)) * {"": 1, "k": 1, "m": 1024, "g": 1024 * 1024}[m.group(2).lower()]
    value = to_float(cell)
    if value is None:
        raise ParseError(FORMAT, where, f"expected a number or +++++, got {cell!r}")
    return value


def _result(
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
        name=op,
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


def _parse_csv(line: str, lineno: int) -> tuple[str, list[TestResult], dict[str, Any]]:
    cells = line.split(",")
    fmt = cells[0]
    where = f"line {lineno}"
    if fmt.startswith("1.98") or fmt.startswith("1.99") or len(cells) in (50, 51):
        expected, shift = 50, 2
    else:
        expected, shift = 48, 0
    if len(cells) < expected:
        raise ParseError(FORMAT, where, f"CSV format {fmt} needs {expected} fields, found {len(cells)}")
    version = cells[1]
    concurrency = int(cells[3]) if cells[3].strip().isdigit() else None
    chunk_cell = cells[6].strip()
    chunk = int(chunk_cell) if chunk_cell.isdigit() else 8192  # bonnie++'s default chunk size
    meta: dict[str, Any] = {"machine": cells[2], "csv_format": fmt}
    size = _size_bytes(cells[5])
    if size is not None:
        meta["file_size_bytes"] = size
    if concurrency is not None:
        meta["concurrency"] = concurrency
    nf = cells[19 + shift].strip()
    if nf.isdigit():
        meta["num_files"] = int(nf) * 1024
    value_cols = {
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
    results: list[TestResult] = []
    too_fast: list[str] = []
    for i, op in enumerate(ALL_OPS):
        col = value_cols[op] + shift
        cell = cells[col]
        value = _value(cell, f"{where}, field {col + 1}", kib_suffixes=False)
        latency = latency_us(cells[36 + shift + i], f"{where}, field {36 + shift + i + 1}")
        if "+" in cell:
            too_fast.append(op)
        if value is None and latency is None and "+" not in cell:
            continue  # test not run (e.g. -f skips per-char tests, -n 0 the file tests)
        results.append(_result(op, value, latency, concurrency, chunk))
    meta["too_fast"] = too_fast
    return version, results, meta


def _parse_tables(lines: list[str]) -> tuple[str | None, list[TestResult], dict[str, Any]]:
    version: str | None = None
    results: list[TestResult] = []
    meta: dict[str, Any] = {}
    too_fast: list[str] = []
    concurrency: int | None = None
    i = 0
    while i < len(lines):
        vm = _TABLE_VERSION_RE.match(lines[i])
        if not vm:
            i += 1
            continue
        version = vm.group(1)
        kind = vm.group(2)
        suffixes = not version.startswith("1.")
        j = i + 1
        # skip header rows up to and including the "%CP" units row
        while j < len(lines) and "%CP" not in lines[j]:
            cm = re.match(r"^\s*Concurrency\s+(\d+)", lines[j])
            if cm:
                concurrency = int(cm.group(1))
            j += 1
        if j + 1 >= len(lines):
            raise ParseError(FORMAT, f"line {j + 1}", "table ends before its data row")
        data_no = j + 2
        tokens = lines[j + 1].split()
        ops: tuple[str, ...]
        if kind == "Output":
            if len(tokens) < 4:
                raise ParseError(FORMAT, f"line {data_no}", "expected machine name, size and figures")
            meta.setdefault("machine", tokens[0])
            size = _size_bytes(tokens[1])
            if size is not None:
                meta.setdefault("file_size_bytes", size)
            figures = tokens[2:]
            if len(figures) >= 12:
                ops = ("seq_output_char", "seq_output_block", "rewrite", "seq_input_char", "seq_input_block", "seeks")
            elif len(figures) >= 8:  # -f: no per-char tests
                ops = ("seq_output_block", "rewrite", "seq_input_block", "seeks")
            else:
                raise ParseError(FORMAT, f"line {data_no}", f"expected 8 or 12 figures, found {len(figures)}")
        else:
            figures = tokens[1:]  # first token: number of files (maybe files:max:min/dirs)
            nf = tokens[0].split(":")[0] if tokens else ""
            if nf.isdigit():
                meta.setdefault("num_files", int(nf) * 1024)
            ops = FILE_OPS
            if len(figures) < 12:
                raise ParseError(FORMAT, f"line {data_no}", f"expected 12 figures, found {len(figures)}")
        lat_cells: list[str] = []
        k = j + 2
        if k < len(lines) and lines[k].strip().startswith("Latency"):
            lat_cells = lines[k].split()[1:]
        for n, op in enumerate(ops):
            cell = figures[2 * n]
            is_throughput = op in THROUGHPUT_OPS
            value = _value(cell, f"line {data_no}, column {op}", kib_suffixes=suffixes and is_throughput)
            if "+" in cell:
                too_fast.append(op)
            lat_index = ALL_OPS.index(op) - (0 if kind == "Output" else 6)
            if len(ops) == 4 and kind == "Output":
                lat_index = n if len(lat_cells) == 4 else lat_index
            latency = latency_us(lat_cells[lat_index], f"line {k + 1}") if lat_index < len(lat_cells) else None
            results.append(_result(op, value, latency, concurrency, 8192 if is_throughput else None))
        i = k
    if concurrency is not None:
        meta["concurrency"] = concurrency
    meta["too_fast"] = too_fast
    return version, results, meta
