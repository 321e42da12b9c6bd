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

One module per layout reads a file into :class:`~.runs.Run` objects (``csv_lines``, ``tables``,
``html_tables``); ``runs`` holds the cell readers they share and turns runs into results.
"""

from __future__ import annotations

from ..common import ProgressFn, make_source
from ..decode import decode, peek_text
from ..types import BenchResult, ParseError
from .csv_lines import CSV103_RE, CSV_HEADER_RE, CSV_RE, csv_runs
from .html_tables import HTML_TITLE_RE, html_runs
from .runs import FORMAT, clean, meta_of, results_of
from .tables import FILE_HEAD_RE, IO_HEAD_RE, VERSION_RE, table_runs

TOOL = "bonnie++"


def sniff(data: bytes) -> bool:
    head = peek_text(data)
    if HTML_TITLE_RE.search(head):
        return True
    for line in head.splitlines()[:400]:
        line = clean(line)
        if CSV_HEADER_RE.match(line) or IO_HEAD_RE.search(line) or FILE_HEAD_RE.search(line):
            return True
        if CSV_RE.match(line) and line.count(",") >= 45:
            return True
        if CSV103_RE.match(line) and line.count(",") == 26 and "+" not in line.split(",", 1)[0]:
            return True
    return False


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    raw_lines = text.split("\n")
    lines = [clean(line) for line in raw_lines]
    runs = csv_runs(lines)
    if not runs and HTML_TITLE_RE.search(text[:65536]):
        runs = html_runs(text)
    if not runs:
        runs = table_runs(lines)
    results = results_of(runs)
    if not results:
        raise ParseError(FORMAT, f"line {len(lines)}", "no bonnie++ results found")
    meta = meta_of(runs)
    version = next((r.version for r in runs if r.version), None)
    if version is None:  # 1.0x CSV lines carry no version; the table above them may
        version = next((m.group(1) for m in map(VERSION_RE.match, lines) if m), None)
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=results)
