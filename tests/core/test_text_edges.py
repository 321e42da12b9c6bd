"""Text becomes a ``Version`` only where text comes in.

Inside the core a release is a :class:`~zfsplanner.core.versions.Version`: the design holds one
(``Design.openzfs_version``), and every rule takes one. ``Version.parse`` is called where text
arrives: the design document's ``openzfs_version``, ``zfs version`` output read by the importer,
and :mod:`zfsplanner.core.versions` itself (its text helpers for forms and the command line).
"""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "zfsplanner" / "core"
TEXT_ENTRIES = {
    "versions.py",  # the parser and the helpers that take what a user typed (unknown_version_message, modelled_as)
    "document/parse.py",  # the design document's openzfs_version
    "importers/builder.py",  # zfs version output (and the features zpool get lists)
}


def parse_calls(source: str) -> list[int]:
    """Lines of ``Version.parse(...)`` calls (and of ``parse`` taken off ``Version`` to call later)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr == "parse"
                and isinstance(node.value, ast.Name) and node.value.id == "Version"):
            lines.append(node.lineno)
    return lines


def test_the_scan_finds_a_call():
    assert sorted(parse_calls("from x import Version\nv = Version.parse('2.3')\nf = Version.parse\n")) == [2, 3]
    assert parse_calls("v = Version(2, 3)\nw = other.parse('2.3')\n") == []


def test_version_parse_is_called_only_where_text_comes_in():
    found = {
        f"{path.relative_to(CORE).as_posix()}:{line}"
        for path in CORE.rglob("*.py")
        for line in parse_calls(path.read_text())
        if path.relative_to(CORE).as_posix() not in TEXT_ENTRIES
    }
    assert found == set(), "a core module parses a version: take a Version instead (design.release)"


def test_every_text_entry_still_parses():
    """An allowlisted module that no longer parses leaves the list: it would hide a new call."""
    idle = {name for name in TEXT_ENTRIES if not parse_calls((CORE / name).read_text())}
    assert idle == set()
