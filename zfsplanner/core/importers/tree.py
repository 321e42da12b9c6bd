"""The vdev tree as zpool status or zpool list -v prints it: sections, layouts and sizes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..design.types import Layout
from . import zpool_list, zpool_status
from .common import Size, parse_size
from .members import CatalogEntry
from .pool_import import ImportProblem


def section_of(role: str) -> str:
    return role


def normalized_model(model: str) -> str:
    return re.sub(r"[\s_]+", "", model.upper())


def size_or_none(text: str) -> Size | None:
    try:
        return parse_size(text)
    except ValueError:
        return None


def layout_of(top: zpool_status.StatusVdev) -> tuple[Layout, int | None, int | None]:
    kind = top.kind
    if kind == "mirror":
        return Layout.MIRROR, None, None
    if kind == "raidz":
        return Layout(f"raidz{top.parity}"), None, None
    if kind == "draid":
        data, _children, spares = top.draid or (None, None, None)
        return Layout(f"draid{top.parity}"), data, spares
    return Layout.STRIPE, None, None


def tree_from_list(pool: zpool_list.PoolList) -> list[tuple[str, zpool_status.StatusVdev]]:
    """The vdev tree from ``zpool list -v`` rows (top-level at depth 1)."""
    out: list[tuple[str, zpool_status.StatusVdev]] = []
    stack: list[tuple[int, str, list[Any]]] = []
    tops: list[tuple[str, str, int, list[Any]]] = []
    for r in pool.vdevs:
        depth = r.depth or 1
        node: list[Any] = []
        if depth == 1:
            tops.append((r.section, r.name, r.line, node))
            stack = [(1, r.name, node)]
        else:
            while stack and stack[-1][0] >= depth:
                stack.pop()
            if not stack:
                raise ImportProblem(r.line, f"{r.name!r} is indented below no vdev")
            stack[-1][2].append((r.name, r.line, node))
            stack.append((depth, r.name, node))

    def freeze(name: str, line: int, kids: list[Any]) -> zpool_status.StatusVdev:
        return zpool_status.StatusVdev(name, "ONLINE", line, "", tuple(freeze(*k) for k in kids))

    for section, name, line, kids in tops:
        out.append((section, freeze(name, line, kids)))
    return out


def find_in_catalog(catalog: Sequence[CatalogEntry], model: str | None, size: int | None) -> CatalogEntry | None:
    """The catalog disk ``model`` names (``ST16000NM001G-2KK103`` is ``ST16000NM001G``), of ``size``
    within 0.1 % when the size is known."""
    if not model:
        return None
    norm = normalized_model(model)
    tokens = re.split(r"[\s_]+", model.upper())
    for entry in catalog:
        key = normalized_model(entry.model)
        if norm == key or any(t == key or t.startswith(key + "-") for t in tokens) or norm.startswith(key + "-"):
            if size is None or abs(size - entry.size_bytes) <= max(entry.size_bytes // 1000, 1 << 20):
                return entry
    return None
