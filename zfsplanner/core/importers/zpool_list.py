"""``zpool list [-v] [-p] [-H] [-o ...] [POOL]``: pool and vdev sizes.

``list_callback()`` / ``collect_list_stats()`` in ``cmd/zpool/zpool_main.c``: a header of
column names (``NAME SIZE ALLOC FREE CKPOINT EXPANDSZ FRAG CAP DEDUP HEALTH ALTROOT``;
``CKPOINT`` since 0.8), one row per pool and, with ``-v``, one row per vdev indented two
spaces per level, with the classes as ``dedup``/``special``/``logs``/``cache``/``spare``
rows of dashes. ``-p`` prints exact bytes, otherwise sizes are rounded powers of 1024
(``21.8T``). ``-H`` drops the header and separates fields by tabs (vdev rows then start with
a tab and lose their depth). A leaf's SIZE is its physical size (``vs_pspace``, the
partition or file ZFS uses) from OpenZFS 2.2; before that leaves print ``-``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .common import Lines, Size, UnreadableOutput, parse_size

DEFAULT_COLUMNS = ("name", "size", "allocated", "free", "checkpoint", "expandsize", "fragmentation", "capacity",
                   "dedupratio", "health", "altroot")
HEADER_NAMES = {
    "NAME": "name", "SIZE": "size", "ALLOC": "allocated", "FREE": "free", "CKPOINT": "checkpoint",
    "EXPANDSZ": "expandsize", "FRAG": "fragmentation", "CAP": "capacity", "DEDUP": "dedupratio",
    "HEALTH": "health", "ALTROOT": "altroot", "GUID": "guid", "ASHIFT": "ashift", "FREEING": "freeing",
    "LEAKED": "leaked", "VERSION": "version", "BOOTFS": "bootfs",
}
# -o takes property names; these are their short spellings.
PROPERTY_ALIASES = {"alloc": "allocated", "cap": "capacity", "frag": "fragmentation", "dedup": "dedupratio",
                    "expandsz": "expandsize", "ckpoint": "checkpoint"}
SECTION_WORDS = {"dedup": "dedup", "special": "special", "logs": "log", "cache": "cache", "spare": "spare",
                 "spares": "spare"}
HEALTH = ("ONLINE", "DEGRADED", "FAULTED", "OFFLINE", "UNAVAIL", "REMOVED", "AVAIL", "INUSE", "SUSPENDED")


class ZpoolListError(UnreadableOutput):
    format = "zpool list"


@dataclass(frozen=True)
class ListRow:
    """A vdev row of ``zpool list -v``; ``depth`` is 1 for top-level vdevs (None with -H)."""

    name: str
    depth: int | None
    section: str  # data, dedup, special, log, cache, spare
    size: Size | None
    allocated: Size | None
    line: int


@dataclass(frozen=True)
class PoolList:
    name: str
    size: Size | None
    allocated: Size | None
    free: Size | None
    health: str | None
    line: int
    vdevs: tuple[ListRow, ...] = field(default_factory=tuple)

    @property
    def exact(self) -> bool:
        return self.size is not None and self.size.exact


def columns_from_option(value: str) -> tuple[str, ...]:
    """``-o name,size,alloc`` -> property names."""
    cols = tuple(PROPERTY_ALIASES.get(c.strip().lower(), c.strip().lower()) for c in value.split(",") if c.strip())
    return cols


def _size(n: int, col: str, value: str | None) -> Size | None:
    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError:
        raise ZpoolListError(n, f"{col.upper()} {value!r} is not a size") from None


def parse(lines: Lines, *, columns: tuple[str, ...] | None = None, scripted: bool = False) -> list[PoolList]:
    """Pools (with their vdev rows) of one ``zpool list`` output."""
    body = [(n, t) for n, t in lines if t.strip()]
    if not body:
        raise ZpoolListError(lines[0][0] if lines else None, "the output is empty")
    n0, first = body[0]
    words = first.split()
    if words and words[0] == "NAME" and not scripted:
        try:
            cols = tuple(HEADER_NAMES[w] for w in words)
        except KeyError as exc:
            raise ZpoolListError(n0, f"unknown column {exc.args[0]!r} in the header") from None
        body = body[1:]
    elif scripted or "\t" in first:
        cols = columns or DEFAULT_COLUMNS
        scripted = True
    elif first.strip() == "no pools available":
        raise ZpoolListError(n0, "zpool list found no pools")
    else:
        raise ZpoolListError(n0, f"expected the NAME SIZE ALLOC ... header, got {first.strip()!r}")
    if "name" not in cols:
        raise ZpoolListError(n0, "the NAME column is needed to tell pools from vdevs")
    pools: list[PoolList] = []
    section = "data"
    current: dict[str, object] | None = None
    rows: list[ListRow] = []

    def close() -> None:
        if current is not None:
            pools.append(PoolList(vdevs=tuple(rows), **current))  # type: ignore[arg-type]

    for n, text in body:
        if scripted:
            fields = text.split("\t")
            lead = text.startswith("\t")
            if lead:
                fields = fields[1:]
            depth: int | None = None
            indent = 1 if lead else 0
        else:
            fields = text.split()
            indent = len(text.expandtabs(8)) - len(text.expandtabs(8).lstrip(" "))
            depth = indent // 2
        if not fields or not fields[0]:
            raise ZpoolListError(n, "a row without a name")
        if len(fields) > len(cols):
            raise ZpoolListError(n, f"{len(fields)} fields but the header has {len(cols)} columns")
        values = {c: (v if v != "-" else None) for c, v in zip(cols, fields, strict=False)}
        name = fields[0]
        if name in SECTION_WORDS and all(v == "-" for v in fields[1:]) and (indent == 0 or scripted):
            if current is None:
                raise ZpoolListError(n, f"the {name!r} section comes before any pool")
            section = SECTION_WORDS[name]
            continue
        if indent == 0:
            close()
            health = values.get("health")
            if health is not None and health not in HEALTH:
                raise ZpoolListError(n, f"HEALTH {health!r} is not a pool state")
            current = {
                "name": name,
                "size": _size(n, "size", values.get("size")),
                "allocated": _size(n, "alloc", values.get("allocated")),
                "free": _size(n, "free", values.get("free")),
                "health": health,
                "line": n,
            }
            rows = []
            section = "data"
            continue
        if current is None:
            raise ZpoolListError(n, f"vdev row {name!r} comes before any pool row")
        rows.append(
            ListRow(
                name=name,
                depth=depth,
                section=section,
                size=_size(n, "size", values.get("size")),
                allocated=_size(n, "alloc", values.get("allocated")),
                line=n,
            )
        )
    close()
    if not pools:
        raise ZpoolListError(n0, "no pool rows")
    return pools
