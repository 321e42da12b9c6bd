"""Pool capacity: the vdev groups assembled into ``zpool list -p`` SIZE and ``zfs list -p`` AVAIL.

Step 6 of the capacity pipeline (:mod:`zfsplanner.core.capacity.pool`): every group's shape
(:mod:`zfsplanner.core.geometry.vdev_shape`) summed per allocation class; the normal class's
deflated space less slop (:mod:`zfsplanner.core.geometry.slop`) less the metadata a new pool writes
(:func:`initial_root_used`, modelled from measurements) is the empty pool's AVAIL; from 2.4.1 and
2.3.7 only the part of USED on the normal class lowers it (:func:`avail_charge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd

from ..design.types import Design, Layout, Role, VdevGroup
from ..geometry.alloc import block_asize, deflate_ratio
from ..geometry.metaslab import deflated
from ..geometry.removal import RemovalBlocker, removal_blockers, removal_context
from ..geometry.slop import slop_space
from ..geometry.vdev_shape import ALLOCATING_ROLES, VdevShape, fault_tolerance, group_shape
from ..memo import copy_with
from ..versions import Version, supports

# Blocks a freshly created pool has written by the time ``zfs list`` first runs:
# (physical size in bytes, number of block copies). Fitted to the 42 empty pools of the
# OpenZFS 2.3.2 calibration set (512 B sectors; every layout within 10 %, most within
# 4 %, of the measured USED, which itself varies by about 5 % between identical pools).
INITIAL_METADATA_BLOCKS: tuple[tuple[int, int], ...] = (
    (512, 31),
    (1024, 44),
    (1536, 4),
    (2048, 9),
    (3072, 3),
    (4096, 2),
    (6144, 1),
)
# Each further top-level vdev adds its own small MOS objects (vdev ZAP, metaslab array).
INITIAL_METADATA_PER_EXTRA_VDEV: tuple[tuple[int, int], ...] = ((1024, 4),)


@dataclass(frozen=True)
class VdevCapacity:
    """One top-level vdev (or cache/spare device) and where its bytes go."""

    role: Role
    group_index: int  # index into design.vdevs
    index: int  # 0-based over all expanded top-level vdevs in document order
    layout: Layout
    width: int
    parity: int
    ashift: int
    ashift_source: str  # "design" or "physical sector of <model>"
    draid_data: int | None
    draid_spares: int | None
    draid_groups: int | None
    raw_bytes: int  # sum of the member disks' sizes
    leaf_asize: int  # smallest child after partitioning and labels
    asize: int
    ms_shift: int
    ms_count: int
    zpool_size_bytes: int  # what zpool list -v shows for this vdev
    deflate_ratio: int  # out of 512
    dspace_bytes: int  # deflated space in the vdev's own class (embedded log excluded)
    embedded_log: bool
    elog_size_bytes: int  # raw size of the embedded-log metaslab (0 if none)
    elog_dspace_bytes: int
    fault_tolerance: int
    removable: bool
    min_alloc: int
    original_width: int | None = None  # set after a RAIDZ expansion
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PoolCapacity:
    """The pool as ``zpool list -p`` and an empty pool's ``zfs list -p`` see it."""

    vdevs: tuple[VdevCapacity, ...]
    raw_bytes: int  # every pool disk except hot spares (data, special, dedup, log, cache)
    spare_raw_bytes: int
    allocating_raw_bytes: int  # data, special and dedup disks only
    zpool_size_bytes: int  # normal + special + dedup (+ embedded log) classes
    normal_size_bytes: int  # data vdevs, embedded-log metaslabs included
    special_size_bytes: int  # special and dedup vdevs
    log_size_bytes: int
    cache_size_bytes: int
    normal_dspace_bytes: int
    elog_dspace_bytes: int  # embedded log (and, from 2.4, special embedded log)
    slop_bytes: int
    initial_used_bytes: int  # modelled USED of the new pool's root dataset
    zfs_avail_bytes: int  # empty pool
    initial_fast_class_bytes: int  # the part of initial_used_bytes allocated on the special class
    spa_min_alloc: int
    spa_gcd_alloc: int
    openzfs_version: str
    notes: tuple[str, ...] = ()

    @property
    def usable_bytes(self) -> int:
        """USED + AVAIL of the empty pool: normal deflated space less slop (plus, from 2.4.1 and
        2.3.7, the initial metadata on the special class: :func:`avail_charge`)."""
        return self.zfs_avail_bytes + self.initial_used_bytes


def fast_class_space_in_avail(version: Version) -> bool:
    """Does AVAIL count what the special and dedup classes hold (2.4.1 and 2.3.7 on)?

    ``spa_update_dspace()`` (``module/zfs/spa_misc.c``) adds
    ``metaslab_class_get_dalloc()`` of the special and dedup classes to ``spa_dspace``, the
    base of every dataset's AVAIL, since openzfs/zfs#18222 (3dcd071b51 in 2.4.1, ba53ba5a01 in
    2.3.7); before, ``spa_dspace`` was the normal class's deflated space alone."""
    return supports(version, "special_dalloc_in_avail")


def avail_charge(used_bytes: int, fast_class_bytes: int, version: Version) -> int:
    """What ``used_bytes`` of USED takes from AVAIL, ``fast_class_bytes`` of it (deflated, as
    USED charges it) allocated on the special or dedup class.

    AVAIL is ``spa_dspace - slop - USED`` (``dsl_dir_space_available()``). Before 2.4.1/2.3.7
    ``spa_dspace`` is the normal class's space, so all of USED lowers AVAIL, special blocks
    included. From then ``spa_dspace`` also holds the deflated space allocated on the special
    and dedup classes (``metaslab_class_get_dalloc()``, the same ``dva_get_dsize_sync()``
    charge USED counts), so blocks there cancel out: only the normal class's part lowers AVAIL
    (:func:`fast_class_space_in_avail`)."""
    if fast_class_space_in_avail(version):
        return used_bytes - min(fast_class_bytes, used_bytes)
    return used_bytes


def initial_root_used(ashift: int, layout: Layout, width: int, draid_data: int | None, extra_vdevs: int) -> int:
    """Modelled USED of a brand-new pool's root dataset (MOS, root objset, ZAPs).

    Every block in :data:`INITIAL_METADATA_BLOCKS` is allocated on a vdev like the
    given one and charged ``asize/512 x deflate ratio`` (``dva_get_dsize_sync()``),
    which is why raidz and dRAID pools show a larger USED than mirrors. Fitted to real
    OpenZFS 2.3.2 pools; the real figure varies by a few KB from pool to pool.
    """
    ratio = deflate_ratio(layout, width, ashift, draid_data)
    blocks = INITIAL_METADATA_BLOCKS + tuple((p, n * extra_vdevs) for p, n in INITIAL_METADATA_PER_EXTRA_VDEV)
    return sum(n * deflated(block_asize(layout, width, ashift, p, draid_data), ratio) for p, n in blocks)


def _group_vdevs(
    gi: int, first: int, group: VdevGroup, shape: VdevShape, blockers: Sequence[RemovalBlocker]
) -> list[VdevCapacity]:
    """The ``count`` vdevs of one group, numbered from ``first``: all alike but their index."""
    vdev_notes = shape.notes + tuple(f"not removable: {r}" for r in blockers)
    one = VdevCapacity(
        index=first,
        role=group.role,
        group_index=gi,
        layout=group.layout,
        width=group.width,
        parity=group.parity,
        ashift=shape.ashift,
        ashift_source=shape.ashift_source,
        draid_data=shape.draid_data,
        draid_spares=shape.draid_spares,
        draid_groups=shape.draid_groups,
        raw_bytes=shape.raw_bytes,
        leaf_asize=shape.leaf_asize,
        asize=shape.asize,
        ms_shift=shape.ms_shift,
        ms_count=shape.ms_count,
        zpool_size_bytes=shape.size,
        deflate_ratio=shape.ratio,
        dspace_bytes=shape.class_dspace,
        embedded_log=shape.embedded_log,
        elog_size_bytes=shape.elog_size,
        elog_dspace_bytes=shape.elog_dspace,
        fault_tolerance=fault_tolerance(group),
        removable=not blockers,
        min_alloc=shape.min_alloc,
        original_width=shape.original_width,
        notes=vdev_notes,
    )
    return [one, *(copy_with(one, index=first + i) for i in range(1, group.count))]


def pool_capacity(design: Design) -> PoolCapacity:
    """Compute SIZE, AVAIL and every intermediate figure for ``design`` (raises ``InvalidDesign``)."""
    version_s = design.version
    shapes = [group_shape(design, gi, g) for gi, g in enumerate(design.vdevs)]
    removal = removal_context(design, [s.ashift for s in shapes])

    vdevs: list[VdevCapacity] = []
    index = 0
    for gi, (group, shape) in enumerate(zip(design.vdevs, shapes, strict=True)):
        blockers = removal_blockers(group, removal)
        vdevs.extend(_group_vdevs(gi, index, group, shape, blockers))
        index += group.count

    def total(attr: str, *roles: Role) -> int:
        return sum(getattr(v, attr) for v in vdevs if v.role in roles)

    normal_size = total("zpool_size_bytes", Role.DATA)
    special_size = total("zpool_size_bytes", Role.SPECIAL, Role.DEDUP)
    normal_dspace = total("dspace_bytes", Role.DATA)
    elog_dspace = total("elog_dspace_bytes", Role.DATA)
    if supports(design.release, "special_embedded_log"):
        elog_dspace += total("elog_dspace_bytes", Role.SPECIAL)
    slop = slop_space(normal_dspace, elog_dspace, design.release)

    normal = [v for v in vdevs if v.role == Role.DATA]
    min_allocs = [v.min_alloc for v in normal]
    gcd_alloc = 0
    for m in min_allocs:
        gcd_alloc = gcd(gcd_alloc, m)

    # The first blocks are metadata: they go to the special class when there is one.
    specials = [v for v in vdevs if v.role == Role.SPECIAL]
    meta_class = specials or normal
    extra = sum(1 for v in vdevs if v.role in ALLOCATING_ROLES) - 1
    used_each = [initial_root_used(v.ashift, v.layout, v.width, v.draid_data, extra) for v in meta_class]
    initial_used = sum(used_each) // len(used_each)
    initial_fast = initial_used if specials else 0
    avail = max(normal_dspace - slop - avail_charge(initial_used, initial_fast, design.release), 0)

    notes: list[str] = [
        "SIZE counts parity and padding (zpool list); AVAIL is after parity, RAIDZ padding, slop and "
        "the metadata a new pool writes (zfs list)",
    ]
    if special_size and fast_class_space_in_avail(design.release):
        notes.append(
            "special/dedup space is in SIZE; AVAIL is the normal class's, and what the special and dedup "
            "vdevs hold does not lower it (OpenZFS 2.4.1 and 2.3.7 on)"
        )
    elif special_size:
        notes.append("special/dedup space is in SIZE but never in AVAIL")
    if total("zpool_size_bytes", Role.LOG, Role.CACHE):
        notes.append("log and cache devices are in neither SIZE nor AVAIL")
    if any(v.original_width for v in vdevs):
        notes.append("AVAIL is for an empty pool; data written before the expansion keeps its old ratio")

    return PoolCapacity(
        vdevs=tuple(vdevs),
        raw_bytes=sum(v.raw_bytes for v in vdevs if v.role != Role.SPARE),
        spare_raw_bytes=total("raw_bytes", Role.SPARE),
        allocating_raw_bytes=total("raw_bytes", *ALLOCATING_ROLES),
        zpool_size_bytes=normal_size + special_size,
        normal_size_bytes=normal_size,
        special_size_bytes=special_size,
        log_size_bytes=total("zpool_size_bytes", Role.LOG),
        cache_size_bytes=total("zpool_size_bytes", Role.CACHE),
        normal_dspace_bytes=normal_dspace,
        elog_dspace_bytes=elog_dspace,
        slop_bytes=slop,
        initial_used_bytes=initial_used,
        zfs_avail_bytes=avail,
        initial_fast_class_bytes=initial_fast,
        spa_min_alloc=min(min_allocs),
        spa_gcd_alloc=gcd_alloc,
        openzfs_version=version_s,
        notes=tuple(notes),
    )
