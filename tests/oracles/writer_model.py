"""The pool as the ZFS tools print it: top-level vdevs and their leaves with names and sizes,
the rows of ``zpool list``, and ``zfs get`` / ``zpool get``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from zfsplanner.core.design.types import Dataset, DatasetType, Design, Disk, Media, Partitioning, Role, VdevGroup
from zfsplanner.core.estimate.figures import Estimate, VdevFigures
from zfsplanner.core.geometry.ashift import written_ashift
from zfsplanner.core.geometry.partitioning import leaf_psize, linux_whole_disk_partition_bytes
from zfsplanner.core.properties.resolve import resolve
from zfsplanner.core.versions import Version, supports

CLASS_HEADING = {Role.DEDUP: "dedup", Role.SPECIAL: "special", Role.LOG: "logs"}


@dataclass(frozen=True)
class Leaf:
    name: str  # as zpool status prints it
    kernel: str  # the kernel name lsblk prints
    disk: Disk
    partitioned: bool  # Linux whole disk: zpool made partitions 1 and 9
    osize: int  # the partition or file ZFS opens (lsblk's SIZE of it)
    psize: int  # what ZFS makes of it (leaf_psize()): zpool list -v SIZE of the leaf, zpool status -j phys_space
    serial: str


@dataclass(frozen=True)
class Top:
    group: VdevGroup
    vdev_id: int | None  # None for cache and spare devices
    name: str
    leaves: tuple[Leaf, ...]
    figures: VdevFigures  # the vdev as the estimate lays it out


def _letters(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


class _Names:
    def __init__(self) -> None:
        self.serial = 0
        self.sd = 0
        self.nvme = 0

    def leaf(self, design: Design, group: VdevGroup, disk: Disk) -> Leaf:
        self.serial += 1
        serial = f"ZP{self.serial:06d}"
        nvme = disk.media == Media.NVME
        if nvme:
            kernel = f"nvme{self.nvme}n1"
            self.nvme += 1
        else:
            kernel = f"sd{_letters(self.sd)}"
            self.sd += 1
        whole = design.partitioning_of(group) == Partitioning.LINUX_WHOLE_DISK
        if whole:
            osize = linux_whole_disk_partition_bytes(disk.size_bytes, disk.logical_sector)
        else:
            osize = disk.size_bytes
        if disk.model:
            bus = "nvme" if nvme else "ata"
            name = f"{bus}-{disk.model.replace(' ', '_')}_{serial}" + ("" if whole else "-part1")
        else:
            name = kernel if whole else (f"{kernel}p1" if nvme else f"{kernel}1")
        return Leaf(name, kernel, disk, whole, osize, leaf_psize(osize), serial)


def tops_of(design: Design, estimate: Estimate) -> list[Top]:
    names = _Names()
    vdevs = estimate.vdevs
    out: list[Top] = []
    index = 0
    vdev_id = 0
    for group in design.vdevs:
        for _ in range(group.count):
            est = vdevs[index]
            index += 1
            leaves = tuple(names.leaf(design, group, d) for d in group.disks)
            if group.role in (Role.CACHE, Role.SPARE):
                out.append(Top(group, None, leaves[0].name, leaves, est))
                continue
            if group.layout.value == "stripe":
                name = leaves[0].name
            elif group.is_draid:
                data, spares = (est.draid.data, est.draid.spares) if est.draid is not None else (None, None)
                name = f"{group.layout.value}:{data}d:{group.width}c:{spares}s-{vdev_id}"
            else:
                name = f"{group.layout.value}-{vdev_id}"
            out.append(Top(group, vdev_id, name, leaves, est))
            vdev_id += 1
    return out


def draid_spares(top: Top) -> list[str]:
    draid = top.figures.draid
    spares = (draid.spares or 0) if draid is not None else 0
    return [f"{top.group.layout.value}-{top.vdev_id}-{k}" for k in range(spares)]


def allocations(tops: list[Top], estimate: Estimate) -> dict[int, int]:
    """ALLOC per top-level vdev: the planned data spread by each vdev's share of its class."""
    pool = estimate.pool
    special_alloc = pool.special_allocated_bytes
    normal_alloc = max(pool.allocated_bytes - special_alloc, 0)
    out: dict[int, int] = {}
    for role, total in ((Role.DATA, normal_alloc), (Role.SPECIAL, special_alloc)):
        members = [t for t in tops if t.group.role == role]
        space = sum(t.figures.dspace_bytes for t in members) or 1
        for t in members:
            out[id(t)] = total * t.figures.dspace_bytes // space
    return out


# zprop_width() of the fixed vdev fields (column name, at least 5 for numbers, 8 for HEALTH): the
# widths collect_vdev_prop() pads to, and the dashes of a class heading.
VDEV_FIELDS = (("size", 5), ("allocated", 5), ("free", 5), ("checkpoint", 7), ("expandsize", 8),
               ("fragmentation", 5), ("capacity", 5), ("dedupratio", 5), ("health", 8))
POOL_PROPERTIES = {"name": "NAME", "size": "SIZE", "allocated": "ALLOC", "free": "FREE", "checkpoint": "CKPOINT",
                   "expandsize": "EXPANDSZ", "fragmentation": "FRAG", "capacity": "CAP", "dedupratio": "DEDUP",
                   "health": "HEALTH", "altroot": "ALTROOT"}
# zpool_prop_align_right(): string properties are left-aligned, numbers right-aligned, and HEALTH is
# registered as a number (zprop_register_number() in module/zcommon/zpool_prop.c)
LEFT_ALIGNED = ("name", "altroot")


def vdev_fields(design: Design, columns: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The fields of a ``zpool list -v`` vdev row, each with the width ``collect_vdev_prop()`` pads it to:
    the fixed nine before OpenZFS 2.4, the ``-o`` columns (but the name) from 2.4.0 (commit c4ad5e2938,
    "zpool: fix conflict with -v and -o options"; a column with nothing for a vdev prints ``-``)."""
    if design.release < Version(2, 4):
        return VDEV_FIELDS
    widths = dict(VDEV_FIELDS) | {"altroot": len(POOL_PROPERTIES["altroot"])}
    return tuple((c, widths.get(c, max(len(POOL_PROPERTIES.get(c, c)), 5))) for c in columns if c != "name")


def ratio_text(percent: int) -> str:
    """A ratio property (``dedupratio``, ``bcloneratio``) as ``zpool`` prints it with ``-p``:
    ``%llu.%02llu`` of the kernel's hundredths (``zpool_get_prop()``, ``lib/libzfs/libzfs_pool.c``)."""
    return f"{percent // 100}.{percent % 100:02d}"


def dedupratio_percent(estimate: Estimate) -> int:
    savings = estimate.pool.savings
    return savings.dedupratio_percent if savings is not None else 100


@dataclass(frozen=True)
class ListRow:
    kind: str  # "vdev" or "heading"
    depth: int
    name: str
    values: Mapping[str, str]


def list_rows(design: Design, estimate: Estimate) -> tuple[dict[str, str], list[ListRow]]:
    """The pool's ``-p`` values and its ``-v`` rows as ``collect_list_stats()`` fills them."""
    modern = design.release >= Version(2, 2)
    tops = tops_of(design, estimate)
    alloc = allocations(tops, estimate)
    pool_size = estimate.pool.zpool_size_bytes
    pool_alloc = sum(alloc.values())
    pool = {"name": design.name, "size": str(pool_size), "allocated": str(pool_alloc),
            "free": str(max(pool_size - pool_alloc, 0)), "checkpoint": "-", "expandsize": "-",
            "fragmentation": "0", "capacity": str(pool_alloc * 100 // pool_size if pool_size else 0),
            "dedupratio": ratio_text(dedupratio_percent(estimate)), "health": "ONLINE", "altroot": "-"}

    def values(space: int, pspace: int, used: int, health: str) -> dict[str, str]:
        toplevel = space != 0  # only top-level vdevs account space (vs_space)
        size = pspace or space
        out = {"size": str(size) if size else "-", "checkpoint": "-", "expandsize": "-", "dedupratio": "-",
               "health": health}
        for key, value in (("allocated", str(used)), ("free", str(max(space - used, 0))),
                           ("fragmentation", "0"), ("capacity", str(used * 100 // space if space else 0))):
            out[key] = value if toplevel else "-"
        return out

    rows: list[ListRow] = []

    def add(top: Top) -> None:
        size = top.figures.zpool_size_bytes
        used = alloc.get(id(top), 0)
        if top.group.layout.value == "stripe":  # a single-disk vdev is a leaf: its physical size (vs_pspace)
            rows.append(ListRow("vdev", 2, top.name, values(size, top.leaves[0].psize if modern else 0, used,
                                                             "ONLINE")))
            return
        name = top.name if modern else top.name.rsplit("-", 1)[0]
        rows.append(ListRow("vdev", 2, name, values(size, 0, used, "ONLINE")))
        rows.extend(ListRow("vdev", 4, leaf.name, values(0, leaf.psize if modern else 0, 0, "ONLINE"))
                    for leaf in top.leaves)

    for top in tops:
        if top.group.role == Role.DATA:
            add(top)
    for role in (Role.DEDUP, Role.SPECIAL, Role.LOG):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            rows.append(ListRow("heading", 0, CLASS_HEADING[role], {}))
            for top in chosen:
                add(top)
    # a cache device accounts its space (l2arc_add_vdev(): vdev_space_update() of the device less its header)
    # and prints ALLOC and FREE like a top-level vdev; a hot spare accounts none
    for role, heading, health in ((Role.CACHE, "cache", "ONLINE"), (Role.SPARE, "spare", "AVAIL")):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            rows.append(ListRow("heading", 0, heading, {}))
            rows.extend(ListRow("vdev", 2, t.name, values(t.figures.zpool_size_bytes if role == Role.CACHE else 0,
                                                          t.leaves[0].psize if modern else 0, 0, health))
                        for t in chosen)
    return pool, rows


SETTABLE_PRINTED = ("compression", "copies", "sync", "special_small_blocks", "dedup")
"""The settable properties :func:`zfs_get_text` prints for every dataset, after the type's own."""


def _zfs_text(value: object) -> object:
    """A resolved value as ``zfs get -p`` prints it (an enumeration by its ZFS word)."""
    return value.value if isinstance(value, Enum) else value


def zfs_get_text(design: Design, estimate: Estimate) -> str:
    """``zfs get -H -p -r type,used,available,... POOL``: the datasets with their contents written; every
    settable property's VALUE and SOURCE as :func:`properties.resolve` resolves it (set, inherited from
    a listed parent, or the release's default)."""
    pool = estimate.pool
    avail = pool.zfs_avail_after_bytes
    by_name = {d.name: d for d in estimate.datasets}
    lines: list[str] = []

    def put(name: str, prop: str, value: object, source: str = "-") -> None:
        lines.append(f"{name}\t{prop}\t{value}\t{source}")

    def put_resolved(ds: Dataset, prop: str) -> None:
        got = resolve(design, ds, prop)
        put(ds.name, prop, _zfs_text(got.value), got.source)

    names = [design.name] + [d.name for d in design.datasets if d.name != design.name]
    for name in names:
        ds = next((d for d in design.datasets if d.name == name), None)
        volume = ds is not None and ds.type == DatasetType.VOLUME
        put(name, "type", "volume" if volume else "filesystem")
        if name == design.name and ds is None:
            put(name, "used", pool.zfs_used_bytes + pool.initial_used_bytes)
            put(name, "available", avail)
            put(name, "referenced", pool.initial_used_bytes)
            put_resolved(Dataset(name=name), "compression")
            continue
        assert ds is not None
        est = by_name[name]  # the estimate has figures for every dataset of the design
        put(name, "used", est.zfs_used_bytes)
        put(name, "available", avail)
        put(name, "referenced", est.referenced_bytes or est.zfs_used_bytes)
        given = ds.contents.logical_bytes if ds.contents is not None else None
        put(name, "logicalreferenced", given if given is not None else est.logical_bytes)
        ratio = est.compressratio or 1.0
        put(name, "compressratio", f"{ratio:.2f}")
        put(name, "refcompressratio", f"{ratio:.2f}")
        if volume:
            put_resolved(ds, "volsize")
            put_resolved(ds, "volblocksize")
            refres = resolve(design, ds, "refreservation")  # the size zfs create sets is the estimate's
            put(name, "refreservation", est.refreservation_bytes if refres.source == "local" else refres.value,
                refres.source)
        else:
            put_resolved(ds, "recordsize")
            put_resolved(ds, "quota")
        for prop in SETTABLE_PRINTED:
            put_resolved(ds, prop)
    return "\n".join(lines) + "\n"


def zpool_get_properties(version: Version) -> tuple[str, ...]:
    """The properties :func:`zpool_get_text` prints: ``bclone*`` exist from 2.2 (``zpool_prop.c``)."""
    cloning = ("bcloneused", "bclonesaved", "bcloneratio") if supports(version, "block_cloning") else ()
    return ("ashift", "dedupratio", *cloning)


def zpool_get_text(design: Design, estimate: Estimate, *, requested: bool = True) -> str:
    """``zpool get -H -p ashift,dedupratio[,bcloneused,bclonesaved,bcloneratio] POOL`` of a pool built with the
    generated commands (``zpool create -o ashift=N``), or, not ``requested``, created without ``-o ashift`` (the
    property keeps its default, 0), its contents written: the ratios and sizes ``spa_prop_get_config()``
    (``module/zfs/spa.c``) reports; the block-cloning ones from 2.2."""
    first = next(g for g in design.vdevs if g.role == Role.DATA)
    name = design.name
    ashift = f"{name}\tashift\t{written_ashift(first, design.release)}\tlocal" if requested else (
        f"{name}\tashift\t0\tdefault")
    lines = [ashift,
             f"{name}\tdedupratio\t{ratio_text(dedupratio_percent(estimate))}\t-"]
    if "bclonesaved" in zpool_get_properties(design.release):
        s = estimate.pool.savings
        used, saved = (s.bclone_used_bytes, s.bclone_saved_bytes) if s is not None else (0, 0)
        ratio = s.bcloneratio_percent if s is not None else 100
        lines += [f"{name}\tbcloneused\t{used}\t-", f"{name}\tbclonesaved\t{saved}\t-",
                  f"{name}\tbcloneratio\t{ratio_text(ratio)}\t-"]
    return "\n".join(lines) + "\n"


def vdev_ashifts(design: Design, estimate: Estimate) -> list[tuple[str, int]]:
    """``(vdev name, ashift)`` in the order ``for_each_vdev_cb()`` (``lib/libzutil/zutil_import.c``) walks the
    tree: the root (``root-0``, ashift 0: ``vdev_root_open()``), its hot spares, its cache devices, then each
    top-level vdev and its leaves."""
    tops = tops_of(design, estimate)
    out = [("root-0", 0)]
    for role in (Role.SPARE, Role.CACHE):
        out += [(t.leaves[0].name, t.figures.ashift) for t in tops if t.group.role == role]
    for top in tops:
        if top.group.role in (Role.SPARE, Role.CACHE):
            continue
        if top.group.layout.value == "stripe":
            out.append((top.leaves[0].name, top.figures.ashift))
        else:
            out.append((top.name, top.figures.ashift))
            out += [(leaf.name, top.figures.ashift) for leaf in top.leaves]
    return out


def zpool_get_vdevs_text(design: Design, estimate: Estimate, *, scripted: bool = False) -> str:
    """``zpool get [-H] -p ashift POOL all-vdevs`` (OpenZFS 2.2+), as ``zprop_print_one_property()`` prints it:
    ``%-*s  `` per column with the widths ``zprop_print_headers()`` fixed when the first vdev (``root-0``) was
    printed, so a longer name of a later vdev pushes its row's columns right; with ``-H`` ``%s\t``."""
    rows = [(name, "ashift", str(a), "-") for name, a in vdev_ashifts(design, estimate)]
    if scripted:
        return "".join("\t".join(r) + "\n" for r in rows)
    name_w, prop_w, value_w = max(4, len("root-0")), max(8, len("ashift")), max(5, len(rows[0][2]))
    lines = [f"{'NAME':<{name_w}}  {'PROPERTY':<{prop_w}}  {'VALUE':<{value_w}}  SOURCE"]
    lines += [f"{n:<{name_w}}  {p:<{prop_w}}  {v:<{value_w}}  {src}" for n, p, v, src in rows]
    return "\n".join(lines) + "\n"
