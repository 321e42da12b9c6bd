"""Sample outputs for the importer tests (tests/core/data/imports, see SOURCES.md there)."""

from __future__ import annotations

from pathlib import Path

from zfsplanner.core.importers.common import numbered
from zfsplanner.core.importers.sections import Section, split

SAMPLES = Path(__file__).resolve().parent / "data" / "imports"


def text(name: str) -> str:
    return (SAMPLES / name).read_text()


def section(name: str, command: str, index: int = 0) -> Section:
    """The ``index``-th output of ``command`` in a sample file."""
    found = [s for s in split(text(name)) if s.command == command]
    return found[index]


def lines(source: str) -> list[tuple[int, str]]:
    return numbered(source)
