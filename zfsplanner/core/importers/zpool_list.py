"""``zpool list [-v] [-p] [-H] [-o ...] [POOL]``: pool and vdev sizes.

What ``cmd/zpool/zpool_main.c`` prints (OpenZFS 2.3.2 line numbers; the same shape from 0.8):

* the header (``print_header()``), unless ``-H``: the ``-o`` columns, by default
  ``NAME SIZE ALLOC FREE CKPOINT EXPANDSZ FRAG CAP DEDUP HEALTH ALTROOT`` (``CKPOINT`` since 0.8);
* one row per pool (``collect_pool()``, l. 6817): the ``-o`` columns, separated by two spaces
  or, with ``-H``, by one tab;
* with ``-v``, one row per vdev (``collect_list_stats()``, l. 7000): before 2.4 **always** the name and
  the nine fixed fields ``SIZE ALLOC FREE CKPOINT EXPANDSZ FRAG CAP DEDUP HEALTH``, whatever
  ``-o`` asked for (the source says "not compatible with '-o' <proplist> option"). OpenZFS 0.7
  printed six (``SIZE ALLOC FREE EXPANDSZ FRAG CAP``). The name is indented two spaces per
  level (top-level vdevs by 2); with ``-H`` it is ``"\\t%s"``, so every field, the name too,
  follows a tab and the depth is lost;
* the classes as ``dedup``/``special``/``logs``/``cache``/``spare`` rows of dashes, printed
  with ``printf(dashes, namewidth, class)`` even with ``-H`` (spaces, no tab).

ALLOC, FREE, FRAG and CAP are printed only for top-level vdevs (``toplevel = vs_space != 0``;
``-`` otherwise), so with ``-H`` a row with ALLOC or FREE is a top-level vdev and the rows
below it without them are its members. ``-p`` prints exact bytes, otherwise sizes are rounded
powers of 1024 (``21.8T``).

A leaf's SIZE is its physical size (``vs_pspace``, the partition or file ZFS uses: ``vdev_psize``,
filled in for leaves by ``vdev_get_stats_ex()`` in ``module/zfs/vdev.c``) from OpenZFS 2.2 and
2.1.6 (commit 1282274f33); before that a leaf below a mirror, raidz or dRAID prints ``-``. A
disk that is itself a top-level vdev (a stripe member, a single-disk pool, a single special,
dedup or log disk, a cache device) is a leaf **and** accounts space: its SIZE is its physical
size while its ALLOC + FREE is the vdev's allocatable space (``vs_space``), as for every other
top-level vdev (:func:`size_is_physical`). A hot spare accounts no space: only its SIZE.

OpenZFS 2.4 prints each vdev row with the ``-o`` columns (commit c4ad5e2938, "zpool: fix
conflict with -v and -o options"), not the fixed nine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Lines, Size, UnreadableOutput, parse_size, rounding_bytes

DEFAULT_COLUMNS = ("name", "size", "allocated", "free", "checkpoint", "expandsize", "fragmentation", "capacity",
                   "dedupratio", "health", "altroot")
DEFAULT_COLUMNS_07 = tuple(c for c in DEFAULT_COLUMNS if c != "checkpoint")
# What every vdev row holds whatever -o says (collect_list_stats()); 0.7 printed fewer.
VDEV_COLUMNS = DEFAULT_COLUMNS[:-1]
VDEV_COLUMNS_07 = ("name", "size", "allocated", "free", "expandsize", "fragmentation", "capacity")
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
_GROUP_RE = re.compile(r"^(?:replacing|spare)-[0-9]+$")
HEALTH = ("ONLINE", "DEGRADED", "FAULTED", "OFFLINE", "UNAVAIL", "REMOVED", "AVAIL", "INUSE", "SUSPENDED", "UNKNOWN")


class ZpoolListError(UnreadableOutput):
    format = "zpool list"


@dataclass(frozen=True)
class ListRow:
    """A vdev row of ``zpool list -v``; ``depth`` is 1 for top-level vdevs, 2 for their members.

    With ``-H`` the depth is inferred: top-level rows carry ALLOC/FREE, the rows below them
    do not, and a ``replacing-N``/``spare-N`` group holds the next two rows.
    """

    name: str
    depth: int | None
    section: str  # data, dedup, special, log, cache, spare
    size: Size | None
    allocated: Size | None
    line: int
    free: Size | None = None
    # what SIZE is when the output says so (JSON of OpenZFS 2.3+: a leaf's SIZE is physical); None: read the row
    size_physical: bool | None = None

    @property
    def allocatable(self) -> Size | None:
        """The vdev's allocatable space (``vs_space``): ALLOC + FREE, printed for top-level vdevs only."""
        if self.free is None:
            return None
        used = self.allocated or Size(0, True)
        return Size(used.bytes + self.free.bytes, used.exact and self.free.exact)


@dataclass(frozen=True)
class PoolList:
    name: str
    size: Size | None
    allocated: Size | None
    free: Size | None
    health: str | None
    line: int
    vdevs: tuple[ListRow, ...] = field(default_factory=tuple)
    from_status: bool = False  # the sizes zpool status -j carries, not a zpool list
    dedupratio: str | None = None  # DEDUP as printed ("2.00x", or "2.00" with -p)

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


_PERCENT_RE = re.compile(r"^[0-9]+(?:\.[0-9]+)?%?$")


def _plausible(values: dict[str, str | None]) -> bool:
    """Whether each field reads as what its column holds (a state, a size, a percentage, a ratio)."""
    for col, v in values.items():
        if v is None or col in ("name", "altroot"):
            continue
        if col == "health":
            ok = v in HEALTH
        elif col in ("fragmentation", "capacity"):
            ok = bool(_PERCENT_RE.match(v))
        elif col == "dedupratio":
            ok = bool(re.match(r"^[0-9]+\.[0-9]+x?$", v))
        else:
            try:
                parse_size(v)
                ok = True
            except ValueError:
                ok = False
        if not ok:
            return False
    return True


def _vdev_values(n: int, fields: list[str], cols: tuple[str, ...] | None) -> dict[str, str | None]:
    """A vdev row's fields: by the fixed columns zpool prints for vdevs before 2.4, by the ``-o``
    columns from 2.4 (a row with as many fields as the pool rows). Ten or eleven ``-o`` columns in
    another order than the fixed ones could be either: the fixed reading is taken when its fields
    read as what those columns hold."""
    if cols is not None and len(fields) == len(cols):
        fixed = dict(zip(VDEV_COLUMNS, fields, strict=False))
        if len(fields) not in (len(VDEV_COLUMNS), len(VDEV_COLUMNS) + 1) or not _plausible(
                {c: (v if v != "-" else None) for c, v in fixed.items()}):
            return {c: (v if v != "-" else None) for c, v in zip(cols, fields, strict=True)}
    if len(fields) == len(VDEV_COLUMNS) + 1 and fields[-1] == "-":
        fields = fields[:-1]  # ALTROOT: 2.4 prints it, or a table squared up by hand
    if len(fields) > len(VDEV_COLUMNS):
        raise ZpoolListError(n, f"a vdev row has {len(fields)} fields; zpool list prints {len(VDEV_COLUMNS)} "
                                "for a vdev (the name and SIZE ALLOC FREE CKPOINT EXPANDSZ FRAG CAP DEDUP HEALTH)")
    # 0.7 rows have 7 fields; shortened rows (as in the man pages) keep NAME SIZE ALLOC FREE first.
    cols = VDEV_COLUMNS_07 if len(fields) == len(VDEV_COLUMNS_07) else VDEV_COLUMNS
    return {c: (v if v != "-" else None) for c, v in zip(cols, fields, strict=False)}


def size_is_physical(row: ListRow) -> bool | None:
    """Whether a top-level vdev's SIZE is the physical size of a disk (``vs_pspace``) rather than the
    vdev's allocatable space (``vs_space``); None when the row cannot tell.

    ``collect_list_stats()`` (``cmd/zpool/zpool_main.c``, OpenZFS 2.1.6+) prints ``vs_pspace`` as SIZE
    whenever the vdev reports one, which only leaves do, and ``vs_space`` otherwise; ALLOC and FREE
    are ``vs_alloc`` and ``vs_space - vs_alloc``. A leaf's physical size always exceeds its
    allocatable space (the 4.5 MiB of labels are never allocated), so with exact figures (``-p``)
    SIZE = ALLOC + FREE means SIZE is ``vs_space`` (a mirror, raidz or dRAID, or a leaf of a kernel
    before 2.1.6) and any other SIZE is physical. Rounded figures tell only when they differ by
    more than their rounding. A hot spare accounts no space (``vs_space`` = 0), so a SIZE it prints
    is physical.
    """
    if row.size is None:
        return None
    if row.size_physical is not None:
        return row.size_physical
    if row.section == "spare":
        return True
    space = row.allocatable
    if space is None:
        return None
    if row.size.exact and space.exact:
        return row.size.bytes != space.bytes
    slack = rounding_bytes(row.size) + rounding_bytes(space)
    return True if abs(row.size.bytes - space.bytes) > slack else None


def _is_heading(fields: list[str]) -> bool:
    return len(fields) > 1 and fields[0] in SECTION_WORDS and all(v == "-" for v in fields[1:])


def parse(lines: Lines, *, columns: tuple[str, ...] | None = None, scripted: bool = False) -> list[PoolList]:
    """Pools (with their vdev rows) of one ``zpool list`` output.

    ``columns`` are the ``-o`` properties (for the pool rows: vdev rows always have their own
    fixed fields); ``scripted`` is ``-H``. Each row is read by what it is: a pool row (no
    indent, no leading tab), a vdev row (indented, or after a tab) or a class heading.
    """
    body = [(n, t) for n, t in lines if t.strip()]
    if not body:
        raise ZpoolListError(lines[0][0] if lines else None, "the output is empty")
    n0, first = body[0]
    words = first.split()
    cols: tuple[str, ...] | None
    if words and words[0] == "NAME" and not scripted:
        try:
            cols = tuple(HEADER_NAMES[w] for w in words)
        except KeyError as exc:
            raise ZpoolListError(n0, f"unknown column {exc.args[0]!r} in the header") from None
        body = body[1:]
    elif scripted or "\t" in first:
        cols = columns
        scripted = True
    elif first.strip() == "no pools available":
        raise ZpoolListError(n0, "zpool list found no pools")
    else:
        raise ZpoolListError(n0, f"expected the NAME SIZE ALLOC ... header, got {first.strip()!r}")
    if cols is not None and "name" not in cols:
        raise ZpoolListError(n0, "the NAME column is needed to tell pools from vdevs")
    pools: list[PoolList] = []
    section = "data"
    current: dict[str, object] | None = None
    rows: list[ListRow] = []
    group_left = 0  # -H: members still to come of a replacing-N / spare-N group

    def close() -> None:
        if current is not None:
            pools.append(PoolList(vdevs=tuple(rows), **current))  # type: ignore[arg-type]

    for n, text in body:
        if scripted and "\t" not in text:
            fields = text.split()  # a class heading: printed with spaces even with -H
            vdev = False
            if not _is_heading(fields):
                fields = [text.strip()]
        elif scripted:
            fields = text.split("\t")
            vdev = text.startswith("\t")
            if vdev:
                fields = fields[1:]
        else:
            fields = text.split()
            indent = len(text.expandtabs(8)) - len(text.expandtabs(8).lstrip(" "))
            vdev = indent > 0
        if not fields or not fields[0]:
            raise ZpoolListError(n, "a row without a name")
        name = fields[0]
        # 2.4 prints a heading's dashes per -o column: with -o name alone, the class word by itself
        alone = len(fields) == 1 and name in SECTION_WORDS and cols is not None and len(cols) == 1 and bool(rows)
        if not vdev and (_is_heading(fields) or alone):
            if current is None:
                raise ZpoolListError(n, f"the {name!r} section comes before any pool")
            section = SECTION_WORDS[name]
            group_left = 0
            continue
        if not vdev:
            close()
            if cols is None:
                pool_cols = DEFAULT_COLUMNS_07 if len(fields) == len(DEFAULT_COLUMNS_07) else DEFAULT_COLUMNS
            else:
                pool_cols = cols
            if len(fields) > len(pool_cols):
                raise ZpoolListError(n, f"{len(fields)} fields but the pool rows have {len(pool_cols)} columns")
            values = {c: (v if v != "-" else None) for c, v in zip(pool_cols, fields, strict=False)}
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
                "dedupratio": values.get("dedupratio"),
            }
            rows = []
            section = "data"
            group_left = 0
            continue
        if current is None:
            raise ZpoolListError(n, f"vdev row {name!r} comes before any pool row")
        values = _vdev_values(n, fields, cols)
        health = values.get("health")
        if health is not None and health not in HEALTH:
            raise ZpoolListError(n, f"HEALTH {health!r} is not a vdev state")
        size = _size(n, "size", values.get("size"))
        allocated = _size(n, "alloc", values.get("allocated"))
        free = _size(n, "free", values.get("free"))
        if scripted:
            top = section in ("cache", "spare") or allocated is not None or free is not None
            if top:
                depth, group_left = 1, 0
            elif group_left:
                depth, group_left = 3, group_left - 1
            else:
                depth = 2
                if _GROUP_RE.match(name):
                    group_left = 2  # zpool pairs a member with its replacement or hot spare
        else:
            depth = indent // 2
        rows.append(ListRow(name=name, depth=depth, section=section, size=size, allocated=allocated, line=n,
                            free=free))
    close()
    if not pools:
        raise ZpoolListError(n0, "no pool rows")
    return pools
