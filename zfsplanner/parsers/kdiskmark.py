"""KDiskMark text results (the Linux CrystalDiskMark clone that runs fio), versions 1.x–3.x.

KDiskMark writes CrystalDiskMark 7's layout (``[Read]``/``[Write]``/``[Mix]`` blocks, rows
``Sequential   1 MiB (Q=  8, T= 1):   3574.483 MB/s [   3408.9 IOPS] <  2341.28 us>``) under
its own header, which names itself and the fio it ran::

                          KDiskMark (3.1.4): https://github.com/JonMagon/KDiskMark
                      Flexible I/O Tester (fio-3.35): https://github.com/axboe/fio

(``KDiskMark: https://…`` without a version in 1.x). The rows and units are CrystalDiskMark's
(MB/s = 10^6 bytes/s, KiB/MiB block sizes, µs), so they are read by the same code and get the
same test names; the footer adds ``Target:`` (the storage and model) and ISO dates. The
result says ``"tool": "kdiskmark"`` and ``meta.fio_version``. Layout from KDiskMark's
``MainWindow::getTextBenchmarkResult()`` (src/mainwindow.cpp).
"""

from __future__ import annotations

import re

from .common import ProgressFn, make_source
from .crystaldiskmark import read_rows
from .decode import decode, peek_text
from .types import BenchResult

FORMAT = "kdiskmark"
TOOL = "kdiskmark"

_HEADER_RE = re.compile(r"KDiskMark(?:\s*\(|:\s*https?://)")
_VERSION_RE = re.compile(r"KDiskMark\s*\(\s*v?(\d+\.\d+(?:\.\d+)?[\w.-]*)\s*\)")
_FIO_RE = re.compile(r"Flexible I/O Tester\s*\(\s*(?:fio-)?([\w.+-]+)\s*\)")


def sniff(data: bytes) -> bool:
    head = peek_text(data, 4096)
    return bool(_HEADER_RE.search(head))


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    text, encoding = decode(data)
    lines = text.split("\n")
    version, results, meta, warnings = read_rows(lines, FORMAT, _VERSION_RE)
    fio = _FIO_RE.search(text[:4096])
    if fio:
        meta["fio_version"] = fio.group(1)
    if progress:
        progress(1.0)
    return BenchResult(source=make_source(TOOL, version, encoding, data), meta=meta, results=results, warnings=warnings)
