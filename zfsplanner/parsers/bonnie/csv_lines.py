"""bonnie++ CSV lines: formats 1.96/1.97 (48 fields), 1.98 (50), ≈1.93–1.95 (46) and 1.0x (27)."""

from __future__ import annotations

import re

from ..types import ParseError
from .runs import ALL_OPS, FORMAT, Run, chunk_bytes, file_count, latency_us, record, size_bytes

CSV_RE = re.compile(r"^\s*(1\.9[0-9][a-z]?),")
CSV_HEADER_RE = re.compile(r"^\s*format_version,bonnie_version,")
_SIZE_TOKEN = r"\d+(?:\.\d+)?[KMGTkmgt]?(?::[\w:]*)?"  # noqa: S105 (a regex, not a secret)
CSV103_RE = re.compile(r"^\s*[^,\s]+," + _SIZE_TOKEN + r",")

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


def csv_runs(lines: list[str]) -> list[Run]:
    runs: list[Run] = []
    for lineno, line in enumerate(lines, start=1):
        stripped = line.strip()
        if CSV_RE.match(stripped):
            runs.append(_parse_csv(stripped, lineno))
        elif CSV103_RE.match(stripped) and stripped.count(",") == 26:
            runs.append(_parse_csv103(stripped, lineno))
    return runs


def _parse_csv(line: str, lineno: int) -> Run:
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
    run = Run(machine=cells[2], version=cells[1], csv_format=fmt)
    size_col, chunk_col = (5, 6) if shift >= 0 else (3, 4)
    if shift >= 0 and cells[3].strip().isdigit():
        run.concurrency = int(cells[3])
    chunk_cell = cells[chunk_col].strip()
    run.chunk = int(chunk_cell) if chunk_cell.isdigit() else None
    run.size = size_bytes(cells[size_col])
    run.num_files = file_count(cells[19 + shift])
    for i, op in enumerate(ALL_OPS):
        col = _CSV_VALUE_COLS[op] + shift
        cell, cpu = cells[col], cells[col + 1]
        lat_col = 36 + shift + i
        latency = latency_us(cells[lat_col], f"{where}, field {lat_col + 1}")
        if not cell.strip() and latency is None:
            continue  # test not run (e.g. -f skips per-char tests, -n 0 the file tests)
        record(run, op, cell, cpu, f"{where}, field {col + 1}", suffixes=False)
        run.latencies[op] = latency
    return run


def _parse_csv103(line: str, lineno: int) -> Run:
    cells = line.split(",")
    where = f"line {lineno}"
    run = Run(machine=cells[0], csv_format="1.0x")
    run.size = size_bytes(cells[1])
    run.chunk = chunk_bytes(cells[1])
    run.num_files = file_count(cells[14])
    for op in ALL_OPS:
        col = _CSV103_VALUE_COLS[op]
        if not cells[col].strip():
            continue
        record(run, op, cells[col], cells[col + 1], f"{where}, field {col + 1}", suffixes=False)
    return run
