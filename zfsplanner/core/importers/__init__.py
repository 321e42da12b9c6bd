"""Read what an existing pool's own tools print.

(The text a real pool of a design would print, the round trip's other half, is the tests' oracle:
``tests/oracles/writer.py``.)

* :func:`import_pool` turns pasted outputs (``zpool status``, ``zpool list -v -p``,
  ``zpool get``, ``zfs list``/``zfs get``, ``lsblk -b``, ``zfs version``, as text or as the
  JSON of ``-j``) into a ``zfsplanner.design/1`` document with what the pool reported kept
  for comparison; member sizes no output gives become questions (``imported.questions``)
  that :func:`answer_sizes` fills in;
* :mod:`.compare` sets those reported figures against the estimate;
* one parser module per output, each raising its own :class:`UnreadableOutput`
  subclass that names the line.
"""

from __future__ import annotations

from collections.abc import Sequence

from .answers import answer_sizes
from .build import build
from .common import UnknownOutput, UnreadableOutput
from .json_outputs import JsonOutputError
from .lsblk import LsblkError
from .members import CatalogEntry, disk_size_for_partition
from .outputs import Outputs, read_sections
from .pool_import import ImportProblem, PoolImport
from .props import PropertiesError, ZfsGetError, ZpoolGetError
from .sections import Section, split
from .zdb import ZdbError
from .zfs_list import ZfsListError
from .zpool_list import ZpoolListError
from .zpool_status import ZpoolStatusError

__all__ = [
    "CatalogEntry",
    "ImportProblem",
    "JsonOutputError",
    "LsblkError",
    "PoolImport",
    "PropertiesError",
    "UnknownOutput",
    "UnreadableOutput",
    "ZdbError",
    "ZfsGetError",
    "ZfsListError",
    "ZpoolGetError",
    "ZpoolListError",
    "ZpoolStatusError",
    "answer_sizes",
    "disk_size_for_partition",
    "import_pool",
]


def import_pool(
    texts: Sequence[tuple[str, str]], *, pool: str | None = None, catalog: Sequence[CatalogEntry] = ()
) -> PoolImport:
    """The design of the pool these outputs describe (:class:`UnreadableOutput` naming the line otherwise).

    ``texts`` are ``(source name, text)`` pairs: one per file or paste box; each may hold
    several outputs in any order. ``pool`` picks one pool when the outputs show several.
    """
    found = Outputs()
    where: list[tuple[str, Section]] = []
    for name, text in texts:
        try:
            sections = split(text)
            read_sections(sections, found)
        except UnreadableOutput as exc:
            raise exc.located(name) from None
        where += [(name, s) for s in sections]
    if not where:
        raise ImportProblem(None, "nothing to import: the text is empty")
    try:
        return build(found, pool=pool, catalog=catalog)
    except UnreadableOutput as exc:
        source = _source_of(where, exc.line) if exc.line is not None else None
        if source is None and len(texts) == 1:
            source = texts[0][0]
        if source and exc.source is None:
            raise exc.located(source) from None
        raise


def _source_of(located: list[tuple[str, Section]], line: int) -> str | None:
    """Which input a line number belongs to (ambiguous line numbers go to the first)."""
    for source, s in located:
        if any(n == line for n, _ in s.lines) or s.prompt_line == line:
            return source
    return None
