"""bonnie++ ``bon_csv2html`` tables (2.00a: ``Per Char`` columns in K/s and ``Block``/``Rewrite``
columns in MiB/s whatever the ``M/sec`` header says, as its source prints them; 1.9x: ``K/sec``)."""

from __future__ import annotations

import html
import re

from .runs import ALL_OPS, FILE_OPS, IO_OPS, Run, cell_value, file_count, latency_us, record, size_bytes

HTML_TITLE_RE = re.compile(r"<title>\s*Bonnie\+\+ Benchmark results", re.IGNORECASE)
_TR_RE = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.IGNORECASE | re.DOTALL)
_TD_RE = re.compile(r"<td\b([^>]*)>(.*?)</td>", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"<[^>]+>")


def _cells(row: str) -> list[tuple[str, str]]:
    return [(attrs.lower(), html.unescape(_TAG_RE.sub("", text)).strip()) for attrs, text in _TD_RE.findall(row)]


def html_runs(text: str) -> list[Run]:
    """bon_csv2html: one row of figures per run (name cell ``class="rowheader"``), then its latencies."""
    version_m = re.search(r"Version\s+(\d+\.\d+[a-z]?)", text)
    version = version_m.group(1) if version_m else None
    mib_blocks = ">M/sec<" in text.replace("</font>", "").replace("</FONT>", "")
    runs: list[Run] = []
    current: Run | None = None
    for row in _TR_RE.findall(text):
        cells = _cells(row)
        if not cells:
            continue
        if "rowheader" in cells[0][0]:
            current = Run(machine=cells[0][1], version=version, csv_format="bon_csv2html")
            sizes = [t for a, t in cells[1:] if "size" in a]
            figures = [t for a, t in cells[1:] if "size" not in a]
            if sizes:
                current.size = size_bytes(sizes[0])
            if len(sizes) > 1:
                current.num_files = file_count(sizes[-1])
            for n, op in enumerate(ALL_OPS):
                value, cpu = (figures + [""] * 24)[2 * n], (figures + [""] * 24)[2 * n + 1]
                if not value:
                    continue
                where = f"HTML row of {current.machine}, column {op}"
                if mib_blocks and op in ("seq_output_block", "rewrite", "seq_input_block") and not cpu.startswith("+"):
                    mib = cell_value(value, where, suffixes=False)  # 2.00a prints these columns in MiB/s
                    value = value if mib is None else str(mib * 1024)  # +++++ stays "too fast"
                record(current, op, value, cpu, where, suffixes=False)
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
