"""The pool configuration ``zdb -C POOL`` prints: each top-level vdev's ``ashift``.

``dump_config()`` in ``cmd/zdb/zdb.c`` prints ``MOS Configuration:`` and the pool's config nvlist
with ``dump_nvlist()`` (``lib/libnvpair/libnvpair.c``): one ``name: value`` per line (strings
quoted), a nested list as ``name:`` with its pairs 4 columns further in, an array of lists
as ``name[i]:``. The top-level vdevs are ``vdev_tree``'s ``children[i]``, each with ``type``,
``id`` (the number ``zpool status`` appends, ``raidz2-1``), ``ashift``, and for a disk or file
``path``. ``zdb -CC`` prints the cached configuration first in the same form; ``zdb`` with no
pool prints the cache file's pools (``dump_cachefile()``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import Lines, UnreadableOutput

_PAIR_RE = re.compile(r"^(?P<indent> *)(?P<name>[\w.:\[\]-]+?)(?:\[(?P<index>[0-9]+)\])?:(?: (?P<value>.*))?$")


class ZdbConfigError(UnreadableOutput):
    format = "zdb -C"


@dataclass(frozen=True)
class ConfigVdev:
    """A top-level vdev of the configuration."""

    id: int
    type: str
    ashift: int | None
    path: str | None
    line: int


@dataclass(frozen=True)
class PoolConfig:
    name: str | None
    vdevs: tuple[ConfigVdev, ...]
    line: int

    def ashift_of(self, name: str) -> int | None:
        """The ashift of the top-level vdev ``zpool status`` names ``name``: ``raidz2-1`` by its id, a
        single disk or file by its path (``ata-…`` for ``/dev/disk/by-id/ata-…-part1``)."""
        m = re.fullmatch(r"(?P<type>[a-z]+)[0-9]*(?::[0-9a-z:]+)?-(?P<id>[0-9]+)", name)
        for v in self.vdevs:
            if m and v.id == int(m.group("id")) and v.type == m.group("type"):
                return v.ashift
            if v.path and _same_device(v.path, name):
                return v.ashift
        return None


def _same_device(path: str, name: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    return path == name or base == name or base in (f"{name}-part1", f"{name}1", f"{name}p1")


def is_config(lines: Lines) -> bool:
    return any(t.strip() == "vdev_tree:" for _, t in lines)


def parse(lines: Lines) -> list[PoolConfig]:
    """Every configuration in ``lines`` (the MOS one and the cached one of ``-CC`` are both read)."""
    out: list[PoolConfig] = []
    name: str | None = None
    tree_indent: int | None = None
    current: dict[str, str] | None = None
    current_line = 0
    child_indent = -1
    vdevs: list[ConfigVdev] = []
    start = 0

    def close_child() -> None:
        nonlocal current
        if current is not None:
            vdevs.append(_vdev(current, current_line))
            current = None

    def close_tree() -> None:
        nonlocal tree_indent, vdevs
        close_child()
        if tree_indent is not None:
            out.append(PoolConfig(name, tuple(vdevs), start))
        tree_indent, vdevs = None, []

    for n, text in lines:
        if not text.strip():
            continue
        m = _PAIR_RE.match(text.rstrip())
        indent = len(text) - len(text.lstrip(" "))
        if m is None:  # a boolean pair prints its name alone; a heading (MOS Configuration:) starts at column 0
            if tree_indent is not None and indent <= tree_indent:
                close_tree()
            continue
        key, value = m.group("name"), m.group("value")
        if tree_indent is not None and indent <= tree_indent:
            close_tree()
        if key == "name" and value:
            name = value.strip("'")
        elif key == "vdev_tree" and value is None:
            tree_indent, start = indent, n
        elif tree_indent is not None and key == "children" and indent == tree_indent + 4:
            close_child()
            current, current_line, child_indent = {}, n, indent + 4
        elif current is not None and indent == child_indent and value is not None:
            current[key] = value.strip("'")
        elif current is not None and indent < child_indent:
            close_child()
    close_tree()
    return out


def _vdev(pairs: dict[str, str], line: int) -> ConfigVdev:
    def number(key: str) -> int | None:
        v = pairs.get(key)
        if v is None:
            return None
        if not (v.isascii() and v.isdigit()):
            raise ZdbConfigError(line, f"{key} {v!r} is not a number")
        return int(v)

    vid = number("id")
    if vid is None:
        raise ZdbConfigError(line, "a top-level vdev without an id")
    return ConfigVdev(vid, pairs.get("type", ""), number("ashift"), pairs.get("path"), line)
