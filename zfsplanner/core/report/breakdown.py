"""Where the raw capacity goes: every byte of the pool's disks in one part, the parts by what ZFS
does with them.

The categories (:class:`Category`): the **data** the plan writes; the **redundancy** each vdev group
keeps (a mirror's extra copies, RAIDZ and dRAID parity and padding, dRAID distributed spares), one
part per group; the **slop** ZFS keeps back; the **pool metadata** (what a new pool writes, and the
disk space no allocation class gets: partitions, labels, the boot region, the end of a disk that is
not a whole metaslab); the **log and cache** devices (and the metaslab a big vdev gives the ZIL); and
what stays **free**. The parts add up to the raw disks (hot spares apart, as in ``raw_bytes``).

The one home of this split: the design page, the quick planner, the comparison chart and the report
read :func:`capacity_breakdown`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..design.types import Layout, Role
from ..estimate import Estimate
from ..estimate.figures import VdevFigures
from ..geometry.draid import draid_child_asize
from ..geometry.metaslab import deflated
from ..naming import describe_shape, group_label


class Category(StrEnum):
    DATA = "data"
    REDUNDANCY = "redundancy"
    SLOP = "slop"
    METADATA = "metadata"
    LOG_CACHE = "log_cache"
    FREE = "free"


CATEGORY_LABELS: dict[Category, str] = {
    Category.DATA: "Data",
    Category.REDUNDANCY: "Redundancy",
    Category.SLOP: "Slop",
    Category.METADATA: "Pool metadata",
    Category.LOG_CACHE: "Log and cache devices",
    Category.FREE: "Free",
}


@dataclass(frozen=True)
class Part:
    """One part of the raw capacity: ``key`` is stable (``redundancy-1`` is the first vdev group's)."""

    key: str
    category: Category
    label: str
    bytes: int
    explain: str

    @property
    def category_label(self) -> str:
        return CATEGORY_LABELS[self.category]


@dataclass(frozen=True)
class CapacityBreakdown:
    raw_bytes: int
    parts: tuple[Part, ...]  # only the parts that are not 0, in category order

    def total(self, category: Category) -> int:
        return sum(p.bytes for p in self.parts if p.category == category)

    def fraction(self, category: Category) -> float:
        return self.total(category) / self.raw_bytes if self.raw_bytes else 0.0


@dataclass(frozen=True)
class _GroupSpace:
    """One vdev group's raw bytes split: redundancy, layout loss (partitions, labels, rounding), the rest."""

    redundancy: int
    draid_spares: int
    layout_loss: int


def mirror_copies_bytes(width: int, size: int) -> int:
    """The extra copies of an n-way mirror: every child holds the whole vdev, whose size
    (``zpool list -v``) is one child's worth of metaslabs (``vdev_mirror_open()`` takes the
    smallest child's asize, ``module/zfs/vdev_mirror.c``), so n − 1 children's worth is redundancy."""
    return (width - 1) * size


def parity_and_padding_bytes(size: int, deflate_ratio: int) -> int:
    """What RAIDZ/dRAID parity and padding take of a vdev's SIZE: SIZE less its deflated space
    (``vdev_deflated_space()``, ``module/zfs/vdev.c``; the ratio from ``vdev_set_deflate_ratio()``)."""
    return size - deflated(size, deflate_ratio)


def _vdev_space(v: VdevFigures) -> _GroupSpace:
    size = v.zpool_size_bytes
    spares = 0
    if v.layout == Layout.MIRROR.value:
        redundancy = mirror_copies_bytes(v.width, size)
        used = v.width * size
    else:
        redundancy = parity_and_padding_bytes(size, v.deflate_ratio)
        used = size
        if v.draid is not None and v.draid.spares:
            spares = v.draid.spares * draid_child_asize(v.leaf_asize_bytes)  # vdev_draid_open()
    return _GroupSpace(redundancy, spares, max(0, v.raw_bytes - used - spares))


def _group_name(vdevs: list[VdevFigures]) -> str:
    v = vdevs[0]
    count = len(vdevs)
    return group_label(
        v.group_index + 1, v.role, v.layout, v.width, count, describe_shape(v.layout, v.width, count)
    )


def _redundancy_parts(estimate: Estimate) -> tuple[list[Part], int]:
    """One redundancy part per allocating vdev group, and the groups' layout loss."""
    groups: dict[int, list[VdevFigures]] = {}
    for v in estimate.vdevs:
        if v.role in (Role.DATA.value, Role.SPECIAL.value, Role.DEDUP.value):
            groups.setdefault(v.group_index, []).append(v)
    parts: list[Part] = []
    loss = 0
    for gi, members in groups.items():
        spaces = [_vdev_space(v) for v in members]
        loss += sum(s.layout_loss for s in spaces)
        redundancy = sum(s.redundancy + s.draid_spares for s in spaces)
        if not redundancy:
            continue
        v = members[0]
        name = _group_name(members)
        if v.layout == Layout.MIRROR.value:
            label, why = "Mirror copies", f"the {v.width - 1} extra cop{'y' if v.width == 2 else 'ies'} of every block"
        elif v.draid is not None:
            label, why = "Parity, padding and distributed spares", "dRAID parity, padding and the distributed spares"
        else:
            label, why = "Parity and padding", "RAIDZ parity and the padding that rounds each block to whole rows"
        parts.append(Part(f"redundancy-{gi + 1}", Category.REDUNDANCY, f"{label}: {name}", redundancy,
                          f"Redundancy of {name}: {why}."))
    return parts, loss


def capacity_breakdown(estimate: Estimate) -> CapacityBreakdown:
    """Where the raw capacity of ``estimate``'s pool goes, part by part."""
    pool = estimate.pool
    reservations = 0
    for ds in estimate.datasets:
        if ds.refreservation_bytes is not None:
            reservations += max(0, min(ds.refreservation_bytes, ds.zfs_used_bytes) - ds.referenced_bytes)
    special_class = sum(v.dspace_bytes for v in estimate.vdevs if v.role in (Role.SPECIAL.value, Role.DEDUP.value))
    special_used = min(pool.special_allocated_bytes, special_class)
    raw_of = {r: sum(v.raw_bytes for v in estimate.vdevs if v.role == r.value) for r in (Role.LOG, Role.CACHE)}
    redundancy, layout_loss = _redundancy_parts(estimate)
    # The normal class's deflated space, split as AVAIL accounts it (capacity.pool.avail_charge): slop,
    # what the new pool's metadata takes from AVAIL (from 2.4.1/2.3.7 none when it sits on a special
    # class), what the planned contents take (after what dedup and block cloning save), and the rest free.
    metadata = max(0, pool.normal_dspace_bytes - pool.slop_bytes - pool.zfs_avail_bytes)
    free = min(pool.zfs_avail_after_bytes, pool.zfs_avail_bytes)
    reservations = min(reservations, pool.zfs_avail_bytes - free)
    data = max(0, pool.zfs_avail_bytes - free - reservations)
    parts = [
        Part("data", Category.DATA, "Planned data", data,
             "What the datasets you planned take from the pool's space (zfs list USED, less what dedup and "
             "block cloning save)."),
        Part("reservations", Category.DATA, "Reservations", reservations,
             "Space zvols reserve beyond what is written (refreservation)."),
        Part("special_used", Category.DATA, "Special class, used", special_used,
             "Metadata and small blocks placed on the special vdevs."),
        *redundancy,
        Part("slop", Category.SLOP, "Slop space", pool.slop_bytes,
             "Kept back by ZFS so a full pool can still delete files (1/32 of the pool, capped)."),
        Part("pool_metadata", Category.METADATA, "Metadata of the new pool", metadata,
             "What a new, empty pool already takes from its space (zfs list USED of the empty pool)."),
        Part("layout", Category.METADATA, "Partitions, labels, rounding", layout_loss,
             "Disk space no allocation class gets: partitions, the four labels and boot region of every disk, "
             "the end of a disk that is not a whole metaslab, the part of a bigger disk a mirror or RAIDZ "
             "does not use."),
        Part("embedded_log", Category.LOG_CACHE, "ZIL metaslab", pool.embedded_log_dspace_bytes,
             "One metaslab of a big vdev that ZFS keeps for the ZIL (intent log) when there is no log device."),
        Part("log", Category.LOG_CACHE, "Log devices (SLOG)", raw_of[Role.LOG],
             "Separate log devices: hold sync writes briefly, never usable space."),
        Part("cache", Category.LOG_CACHE, "Cache devices (L2ARC)", raw_of[Role.CACHE],
             "Cache devices: read cache, never usable space."),
        Part("free", Category.FREE, "Free", free,
             "Left for more data after the planned contents (zfs list AVAIL)."),
        Part("special_free", Category.FREE, "Special class, free", special_class - special_used,
             "Special vdev space still free."),
    ]
    return CapacityBreakdown(raw_bytes=pool.raw_bytes, parts=tuple(p for p in parts if p.bytes > 0))
