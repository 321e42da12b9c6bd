"""Benchmark-log parsers: bytes in, :class:`BenchResult` out (spec: benchmark-result-format.md).

``detect()`` tries each module's ``sniff()`` in the order of :data:`PARSERS` and returns the
first that recognises the content; ``parse()`` runs it. No Django here.
"""

from __future__ import annotations

from types import ModuleType

from . import bonnie, crystaldiskmark, dd, fio_json, fio_log, fio_text, kdiskmark
from .common import ProgressFn, check_figures
from .types import BenchResult, ParseError, Series, Source, TestResult, UnknownFormat

# Order matters: the most specific signatures first. fio JSON can carry text before the
# `{`; KDiskMark names itself in a header above CrystalDiskMark's layout, so it comes before
# CrystalDiskMark; CrystalDiskMark and bonnie++ have unmistakable banners; fio normal text
# may quote other tools (shell sessions), so it comes after them; fio log files and dd last.
PARSERS: tuple[ModuleType, ...] = (fio_json, kdiskmark, crystaldiskmark, bonnie, fio_text, fio_log, dd)

__all__ = (
    "PARSERS",
    "BenchResult",
    "ParseError",
    "Series",
    "Source",
    "TestResult",
    "UnknownFormat",
    "detect",
    "parse",
)


def detect(data: bytes, filename: str | None = None) -> ModuleType:
    """The parser module for ``data``, chosen by content (``filename`` only breaks ties for
    fio log files, whose numbers alone don't say what they measure)."""
    if not data.strip():
        raise UnknownFormat("the file is empty", where="line 1")
    for module in PARSERS:
        if module.sniff(data):
            return module
    raise UnknownFormat(
        "not a recognised benchmark log (fio, CrystalDiskMark, KDiskMark, bonnie++, dd)", where="line 1"
    )


def parse(data: bytes, filename: str | None = None, progress: ProgressFn | None = None) -> BenchResult:
    """Detect the format of ``data`` and parse it; raises :class:`ParseError` on bad input,
    including a negative or non-finite figure (no tool measures those)."""
    module = detect(data, filename)
    result: BenchResult = module.parse(data, filename=filename, progress=progress)
    check_figures(result, module.FORMAT)
    return result
