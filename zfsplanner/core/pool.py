"""Pool-level capacity: what ``zpool list -p`` SIZE and an empty pool's ``zfs list -p`` AVAIL say.

The pipeline, per top-level vdev, follows OpenZFS step by step (see
``shared/reference/zfs-space-accounting.md`` §0-§3):

1. disk bytes -> partition ZFS is given (``lib/libzfs/os/linux/libzfs_pool_os.c``,
   ``zpool_label_disk()``, for Linux whole disks; the size as is otherwise);
2. partition -> leaf asize: whole 256 KiB label units less 4.5 MiB of labels and boot
   area (``module/zfs/vdev.c``, ``vdev_open()``);
3. leaves -> top-level asize: mirror = smallest child, raidz = width x smallest child
   (``vdev_mirror_open()``, ``vdev_raidz_open()``), dRAID per ``vdev_draid_open()``;
4. asize -> metaslab shift and count (``vdev_metaslab_set_size()``,
   ``vdev_metaslab_init()``); SIZE = whole metaslabs only;
5. metaslabs -> deflated space (``vdev_deflated_space()``) per allocation class; one
   metaslab per big normal vdev goes to the embedded log class;
6. normal-class deflated space -> less slop (``spa_get_slop_space()``) -> less the
   metadata a new pool writes -> ``zfs list`` AVAIL of the pool's root dataset.

Steps 1-6 except the very last subtraction are deterministic and reproduce real
OpenZFS to the byte. The metadata of a fresh pool (100-250 KB on 512 B sectors) is
modelled from measurements (:func:`initial_root_used`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from math import gcd

from . import ashift as ashift_rules
from .alloc import block_asize, deflate_ratio, min_alloc
from .design import DEFAULT_OPENZFS_VERSION, Design, Disk, InvalidDesign, Layout, Partitioning, Role, VdevGroup
from .units import GIB, KIB, MIB, ceil_div, highbit, rounddown, roundup
from .versions import Version, supports

# --------------------------------------------------------------------------- constants

VDEV_LABEL_SIZE = 256 * KIB  # sizeof (vdev_label_t), include/sys/vdev_impl.h
VDEV_LABEL_START_SIZE = 2 * VDEV_LABEL_SIZE + 3584 * KIB  # two labels + VDEV_BOOT_SIZE (3.5 MiB)
VDEV_LABEL_END_SIZE = 2 * VDEV_LABEL_SIZE
SPA_MINDEVSIZE = 64 * MIB  # include/sys/fs/zfs.h
SPA_MINBLOCKSHIFT = 9
SPA_MAXBLOCKSHIFT = 24

# lib/libefi/rdwr_efi.c, include/sys/efi_partition.h, include/sys/vdev_disk.h (all in logical blocks)
EFI_NUMPAR = 9
EFI_GPE_SIZE = 128
EFI_MIN_ARRAY_SIZE = 16 * KIB
EFI_MIN_RESV_SIZE = 16 * 1024
NEW_START_BLOCK = 2048
PARTITION_END_ALIGNMENT = 2048

# module/zfs/vdev.c tunables (man zfs.4)
ZFS_VDEV_DEFAULT_MS_COUNT = 200
ZFS_VDEV_MIN_MS_COUNT = 16
ZFS_VDEV_MS_COUNT_LIMIT = 1 << 17
ZFS_VDEV_DEFAULT_MS_SHIFT = 29
ZFS_VDEV_MAX_MS_SHIFT = 34
ZFS_EMBEDDED_SLOG_MIN_MS = 64
LEGACY_METASLABS_PER_VDEV = 200  # zfs-0.7 and earlier

# include/sys/vdev_draid.h
VDEV_DRAID_ROWHEIGHT = 16 * MIB
VDEV_DRAID_REFLOW_RESERVE = 2 * VDEV_DRAID_ROWHEIGHT

# module/zfs/spa_misc.c
SPA_SLOP_SHIFT = 5
SPA_MIN_SLOP = 128 * MIB
SPA_MAX_SLOP = 128 * GIB

# module/zfs/arc.c: the persistent L2ARC device header takes one sector at the start
L2ARC_DEV_HDR_SIZE = 512

ASHIFT_MIN = 9
ASHIFT_MAX = 16

METASLAB_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)
ALLOCATING_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)

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


# --------------------------------------------------------------------------- results


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
    spa_min_alloc: int
    spa_gcd_alloc: int
    openzfs_version: str
    notes: tuple[str, ...] = ()

    @property
    def usable_bytes(self) -> int:
        """USED + AVAIL of the empty pool: normal deflated space less slop."""
        return self.zfs_avail_bytes + self.initial_used_bytes


@dataclass(frozen=True)
class ExpansionReport:
    """Before and after ``zpool attach POOL raidzP-N NEWDISK`` (RAIDZ expansion, 2.3+)."""

    group_index: int
    parity: int
    original_width: int
    new_width: int
    recordsize: int
    size_before_bytes: int
    size_after_bytes: int
    avail_before_bytes: int  # empty pool at the original width
    avail_after_bytes: int  # empty pool after expansion (original deflate ratio)
    fresh_avail_bytes: int  # empty pool built at the new width from the start
    deflate_ratio_original: int
    deflate_ratio_fresh: int
    old_logical_bytes: int
    old_allocated_bytes: int  # raw, at the old data:parity ratio
    old_allocated_if_fresh_bytes: int  # the same data written at the new width
    lost_to_old_ratio_bytes: int  # raw difference of the two
    avail_after_with_old_data_bytes: int
    fresh_avail_with_old_data_bytes: int
    avail_shortfall_bytes: int  # fresh_avail_with_old_data - avail_after_with_old_data
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- rounding rules


def gpt_label_blocks(logical_sector: int) -> int:
    """Logical blocks one GPT copy takes besides the header block (``efi_alloc_and_init()``).

    ``NBLOCKS(9, lbs)`` = 1 + the entry array for ``EFI_NUMPAR`` (9) entries of 128 B, but at
    least ``EFI_MIN_ARRAY_SIZE`` (16 KiB) + one block: 33 blocks at 512 B, 5 at 4 KiB
    (``lib/libefi/rdwr_efi.c``).
    """
    lbs = logical_sector
    nblocks = 1 + ceil_div(EFI_NUMPAR * EFI_GPE_SIZE, lbs)
    if nblocks * lbs < EFI_MIN_ARRAY_SIZE + lbs:
        nblocks = EFI_MIN_ARRAY_SIZE // lbs + 1
    return nblocks


def linux_whole_disk_partition_bytes(size_bytes: int, logical_sector: int = 512) -> int:
    """Bytes of partition 1 when ``zpool create`` is given a whole disk on Linux.

    ``zpool_label_disk()`` (``lib/libzfs/os/linux/libzfs_pool_os.c``): the last usable
    block is ``capacity - 1 - gpt_label_blocks`` (backup GPT at the end); partition 1
    starts at block ``NEW_START_BLOCK`` (2048), partition 9 (``EFI_MIN_RESV_SIZE``, 16384
    blocks) follows it, and partition 1's length is rounded down to
    ``PARTITION_END_ALIGNMENT`` (2048) blocks. All three constants are in the disk's
    *logical* blocks (``include/sys/vdev_disk.h``: "When the block size is larger by a
    power of 2 we will still be 1m aligned"), so a 4Kn disk gives up 8x more (8 MiB
    before, 64 MiB reserved) than a 512e disk (1 MiB, 8 MiB). Returns 0 if nothing is left.
    """
    lbs = logical_sector
    capacity = size_bytes // lbs
    last_usable_lba = capacity - 1 - gpt_label_blocks(lbs)
    slice_blocks = last_usable_lba + 1 - EFI_MIN_RESV_SIZE - NEW_START_BLOCK
    slice_blocks = rounddown(slice_blocks, PARTITION_END_ALIGNMENT)
    return max(slice_blocks, 0) * lbs


def leaf_asize(osize: int) -> int:
    """Allocatable bytes of a leaf device of ``osize`` bytes.

    ``vdev_open()`` (``module/zfs/vdev.c``): ``P2ALIGN(osize, sizeof (vdev_label_t))``
    (256 KiB), less ``VDEV_LABEL_START_SIZE`` (two labels + 3.5 MiB boot area = 4 MiB)
    and ``VDEV_LABEL_END_SIZE`` (two labels = 512 KiB).
    """
    return rounddown(osize, VDEV_LABEL_SIZE) - VDEV_LABEL_START_SIZE - VDEV_LABEL_END_SIZE


def metaslab_shift(asize: int, *, legacy: bool = False) -> int:
    """log2 of the metaslab size of a top-level vdev of ``asize`` bytes.

    ``vdev_metaslab_set_size()`` (``module/zfs/vdev.c``, zfs-0.8 to master): aim for 200
    metaslabs of 512 MiB to 16 GiB, at least 16 and at most 131 072 of them. With
    ``legacy=True`` the zfs-0.7-and-earlier rule: ``max(highbit(asize / 200), 24)``.
    """
    if legacy:
        return max(highbit(asize // LEGACY_METASLABS_PER_VDEV), SPA_MAXBLOCKSHIFT)
    count = asize >> ZFS_VDEV_DEFAULT_MS_SHIFT
    if count < ZFS_VDEV_MIN_MS_COUNT:
        shift = highbit(asize // ZFS_VDEV_MIN_MS_COUNT)
    elif count > ZFS_VDEV_DEFAULT_MS_COUNT:
        shift = highbit(asize // ZFS_VDEV_DEFAULT_MS_COUNT)
    else:
        shift = ZFS_VDEV_DEFAULT_MS_SHIFT
    if shift < SPA_MAXBLOCKSHIFT:
        shift = SPA_MAXBLOCKSHIFT
    elif shift > ZFS_VDEV_MAX_MS_SHIFT:
        shift = ZFS_VDEV_MAX_MS_SHIFT
        if (asize >> shift) > ZFS_VDEV_MS_COUNT_LIMIT:
            shift = highbit(asize // ZFS_VDEV_MS_COUNT_LIMIT)
    return shift


def draid_default_data(children: int, spares: int, parity: int) -> int:
    """Data disks per dRAID group when ``:Nd`` is omitted (``cmd/zpool/zpool_vdev.c``)."""
    return min(children - spares - parity, 8)


def draid_groups(children: int, spares: int, data: int, parity: int) -> int:
    """Smallest group count that fills whole rows (``draid_config_by_type()``).

    ``ngroups`` is the smallest n with ``n x (D + p)`` a multiple of ``children - spares``.
    """
    ndisks = children - spares
    width = data + parity
    return ndisks // gcd(width, ndisks)


def draid_child_asize(leaf: int) -> int:
    """Usable bytes per dRAID child: less the 32 MiB reflow reserve, whole 16 MiB rows.

    ``vdev_draid_open()`` (``module/zfs/vdev_draid.c``), ``VDEV_DRAID_REFLOW_RESERVE`` and
    ``VDEV_DRAID_ROWHEIGHT`` (``include/sys/vdev_draid.h``).
    """
    return rounddown(leaf - VDEV_DRAID_REFLOW_RESERVE, VDEV_DRAID_ROWHEIGHT)


def draid_vdev_asize(child_asize: int, ndisks: int, group_width: int) -> int:
    """dRAID top-level asize: all non-spare children, rounded down to whole groups.

    ``vdev_draid_open()``: ``((child_asize x ndisks) / groupsz) x groupsz`` with
    ``groupsz = (D + p) x 16 MiB``.
    """
    groupsz = group_width * VDEV_DRAID_ROWHEIGHT
    return rounddown(child_asize * ndisks, groupsz)


def draid_metaslab_bytes(ms_index: int, ms_shift: int, group_width: int, ashift: int) -> int:
    """Usable bytes of dRAID metaslab ``ms_index``.

    ``vdev_draid_metaslab_init()``: the start is rounded up to a multiple of
    ``(D + p) << ashift`` and the size rounded down to one, since dRAID only writes
    whole stripes.
    """
    sz = group_width << ashift
    start = ms_index << ms_shift
    astart = roundup(start, sz)
    return rounddown((1 << ms_shift) - (astart - start), sz)


def draid_metaslab_total(ms_count: int, ms_shift: int, group_width: int, ashift: int) -> int:
    """Sum of :func:`draid_metaslab_bytes` over ``ms_count`` metaslabs without a full loop.

    The start offset modulo ``(D + p) << ashift`` repeats with a period of the odd part of
    ``D + p`` (at most 255), so one period is summed and multiplied out.
    """
    sz = group_width << ashift
    period = sz // gcd(1 << ms_shift, sz)
    full, rest = divmod(ms_count, period)
    one_period = [draid_metaslab_bytes(m, ms_shift, group_width, ashift) for m in range(min(period, ms_count))]
    return full * sum(one_period) + sum(one_period[:rest])


def deflated(raw: int, ratio: int) -> int:
    """``vdev_deflated_space()``: ``(raw >> SPA_MINBLOCKSHIFT) x deflate_ratio``."""
    return (raw >> SPA_MINBLOCKSHIFT) * ratio


def _version_key(version: str) -> tuple[int, ...]:
    return Version.parse(version).key


def slop_space(dspace: int, elog_dspace: int = 0, version: str = DEFAULT_OPENZFS_VERSION) -> int:
    """Space ``zfs`` keeps back from AVAIL (``spa_get_slop_space()``, ``module/zfs/spa_misc.c``).

    * 2.1 and later: ``min(dspace/32, 128 GiB)``, less the embedded-log metaslabs (at
      most half of that), but at least ``min(dspace/2, 128 MiB)``. From 2.4 the embedded
      log includes the special class's embedded log (the caller adds it).
    * 2.0.6 - 2.0.7: the 128 GiB cap but no embedded log.
    * 0.7.0 - 2.0.5: ``max(dspace/32, min(dspace/2, 128 MiB))`` without a cap.
    * 0.6.5: ``max(dspace/32, 32 MiB)``; 0.6.4 and earlier: ``max(dspace/64, 32 MiB)``
      (``dsl_pool_adjustedsize()``).

    ``dspace`` is the normal class's deflated space of an empty pool (no dedup or block
    cloning savings).
    """
    v = _version_key(version)
    if v <= (0, 6, 4):
        return max(dspace >> 6, SPA_MINDEVSIZE >> 1)
    if v < (0, 7):
        return max(dspace >> SPA_SLOP_SHIFT, SPA_MINDEVSIZE >> 1)
    if v <= (2, 0, 5):
        return max(dspace >> SPA_SLOP_SHIFT, min(dspace >> 1, SPA_MIN_SLOP))
    slop = min(dspace >> SPA_SLOP_SHIFT, SPA_MAX_SLOP)
    if v >= (2, 1):
        slop -= min(elog_dspace, slop >> 1)
    return max(slop, min(dspace >> 1, SPA_MIN_SLOP))


def max_auto_ashift(version: str) -> int:
    """``zfs_vdev_max_auto_ashift`` of the version (:func:`ashift.max_auto_ashift`)."""
    return ashift_rules.max_auto_ashift(version)


def auto_ashift(group: VdevGroup, version: str = DEFAULT_OPENZFS_VERSION) -> tuple[int, str]:
    """The ashift ``zpool create`` picks without ``-o ashift`` (:func:`ashift.automatic`)."""
    return ashift_rules.automatic(group, version)


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


# --------------------------------------------------------------------------- per vdev


def _disk_path(gi: int, group: VdevGroup, di: int) -> str:
    return f"vdevs[{gi}].disk.size_bytes" if group.single_disk else f"vdevs[{gi}].disks[{di}].size_bytes"


def member_osize(design: Design, group: VdevGroup, disk: Disk) -> int:
    """Bytes of one member disk that ZFS opens: after the Linux whole-disk partitioning
    (when the design uses it) and the user's own reserved partition."""
    if design.partitioning_of(group) == Partitioning.LINUX_WHOLE_DISK:
        osize = linux_whole_disk_partition_bytes(disk.size_bytes, disk.logical_sector)
    else:
        osize = disk.size_bytes
    return osize - (group.reserved_per_disk_bytes or 0)


def _leaf_sizes(design: Design, gi: int, group: VdevGroup) -> list[int]:
    """Leaf asize of each member; raises :class:`InvalidDesign` for a disk that is too small."""
    partitioning = design.partitioning_of(group)
    reserved = group.reserved_per_disk_bytes or 0
    errors: list[tuple[str, str]] = []
    leaves: list[int] = []
    for di, disk in enumerate(group.disks):
        osize = member_osize(design, group, disk)
        if osize < SPA_MINDEVSIZE:
            if reserved and osize + reserved >= SPA_MINDEVSIZE:
                path = f"vdevs[{gi}].reserved_per_disk_bytes"
                msg = f"{reserved} B leaves {max(osize, 0)} B of a {disk.size_bytes} B disk for ZFS"
            else:
                path = _disk_path(gi, group, di)
                msg = f"{disk.size_bytes} B"
                if partitioning == Partitioning.LINUX_WHOLE_DISK:
                    msg += f" leaves {max(osize, 0)} B for ZFS after partitioning"
            errors.append((path, f"{msg}; ZFS needs at least {SPA_MINDEVSIZE} B (64 MiB, SPA_MINDEVSIZE)"))
            if group.single_disk:
                break
            continue
        leaves.append(leaf_asize(osize))
    if errors:
        raise InvalidDesign(list(dict.fromkeys(errors)))
    return leaves


def _fault_tolerance(group: VdevGroup) -> int:
    if group.role in (Role.CACHE, Role.SPARE):
        return 0
    if group.layout == Layout.MIRROR:
        return group.width - 1
    return group.parity


@dataclass(frozen=True)
class _Shape:
    """What every vdev of one group has in common."""

    ashift: int
    ashift_source: str
    draid_data: int | None
    draid_spares: int | None
    draid_groups: int | None
    raw_bytes: int
    leaf_asize: int
    asize: int
    ms_shift: int
    ms_count: int
    size: int
    ratio: int
    class_dspace: int
    embedded_log: bool
    elog_size: int
    elog_dspace: int
    min_alloc: int
    original_width: int | None
    notes: tuple[str, ...]


def _outside_pool_shape(
    ashift: int, source: str, raw: int, leaf: int, size: int, malloc: int, notes: list[str]
) -> _Shape:
    """A spare or cache device: no metaslabs, no class space; ``size`` is what ``zpool list -v`` shows."""
    return _Shape(
        ashift=ashift,
        ashift_source=source,
        draid_data=None,
        draid_spares=None,
        draid_groups=None,
        raw_bytes=raw,
        leaf_asize=leaf,
        asize=leaf,
        ms_shift=0,
        ms_count=0,
        size=size,
        ratio=512,
        class_dspace=0,
        embedded_log=False,
        elog_size=0,
        elog_dspace=0,
        min_alloc=malloc,
        original_width=None,
        notes=tuple(notes),
    )


def _group_shape(design: Design, gi: int, group: VdevGroup, version: tuple[int, ...]) -> _Shape:
    choice = ashift_rules.resolve(group, design.version)
    ashift = choice.used
    source = choice.source
    notes: list[str] = list(choice.notes)
    if choice.fails is not None:
        raise InvalidDesign([(f"vdevs[{gi}].ashift", choice.fails)])
    leaves = _leaf_sizes(design, gi, group)
    leaf = min(leaves)
    if len(set(d.size_bytes for d in group.disks)) > 1:
        notes.append("members differ in size: every member is used only up to the smallest one")
    raw = sum(d.size_bytes for d in group.disks)
    draid_data = draid_spares = ngroups = None
    original_width: int | None = None
    ratio = 512
    malloc = 1 << ashift

    if group.role == Role.SPARE:
        notes.append("hot spares are not part of SIZE or AVAIL until they replace a disk")
        return _outside_pool_shape(ashift, source, raw, leaf, 0, malloc, notes)
    if group.role == Role.CACHE:
        notes.append("cache (L2ARC) devices are not part of SIZE or AVAIL")
        size = leaf - max(L2ARC_DEV_HDR_SIZE, 1 << ashift)
        return _outside_pool_shape(ashift, source, raw, leaf, size, malloc, notes)

    if group.is_draid:
        spares = group.draid_spares or 0
        data = group.draid_data or draid_default_data(group.width, spares, group.parity)
        draid_data, draid_spares = data, spares
        ngroups = draid_groups(group.width, spares, data, group.parity)
        gwidth = data + group.parity
        asize = draid_vdev_asize(draid_child_asize(leaf), group.width - spares, gwidth)
        shift = metaslab_shift(asize)
        count = asize >> shift
        size = draid_metaslab_total(count, shift, gwidth, ashift)
        first_ms = draid_metaslab_bytes(0, shift, gwidth, ashift) if count else 0
        ratio = deflate_ratio(group.layout, group.width, ashift, data)
        malloc = min_alloc(group.layout, ashift, data)
        notes.append(
            f"dRAID {group.layout.value}:{data}d:{group.width}c:{spares}s: {ngroups} groups of {gwidth}, "
            f"32 MiB reflow reserve and 16 MiB rows per child, metaslabs trimmed to whole {gwidth}-sector stripes"
        )
        if spares:
            notes.append(f"{spares} distributed spare(s) take {spares} disk(s) worth of space from every child")
    else:
        if group.is_raidz:
            original_width = group.expanded_from_width
            if original_width is not None and not supports(design.version, "raidz_expansion"):
                raise InvalidDesign(
                    [
                        (
                            f"vdevs[{gi}].expanded_from_width",
                            f"RAIDZ expansion (zpool attach to a raidz vdev) needs OpenZFS 2.3 or later, "
                            f"not {design.version}",
                        )
                    ]
                )
            shift_width = original_width or group.width
            asize = group.width * leaf
            shift = metaslab_shift(shift_width * leaf)
            ratio = deflate_ratio(group.layout, shift_width, ashift)
            if original_width is not None:
                notes.append(
                    f"expanded from {original_width} to {group.width} disks: new metaslabs keep the original "
                    f"{1 << shift >> 20} MiB size and AVAIL keeps the {original_width}-wide deflate ratio "
                    f"{ratio}/512 (vdev_set_deflate_ratio uses txg 0)"
                )
        else:
            asize = leaf
            shift = metaslab_shift(asize)
        count = asize >> shift
        size = count << shift
        first_ms = 1 << shift if count else 0

    embedded = False
    if group.role == Role.DATA:
        embedded = count > ZFS_EMBEDDED_SLOG_MIN_MS and supports(design.version, "embedded_log")
    elif group.role == Role.SPECIAL:
        embedded = count > ZFS_EMBEDDED_SLOG_MIN_MS and supports(design.version, "special_embedded_log")
    elog_size = first_ms if embedded else 0
    elog_dspace = deflated(elog_size, ratio)
    class_dspace = deflated(size, ratio) - elog_dspace
    if embedded:
        cls = "embedded log" if group.role == Role.DATA else "special embedded log"
        notes.append(f"one of {count} metaslabs is reserved for the ZIL ({cls} class)")
    lost = asize - size
    if lost > 0:
        notes.append(f"{lost} B at the end are not a whole metaslab and stay unused")
    return _Shape(
        ashift,
        source,
        draid_data,
        draid_spares,
        ngroups,
        raw,
        leaf,
        asize,
        shift,
        count,
        size,
        ratio,
        class_dspace,
        embedded,
        elog_size,
        elog_dspace,
        malloc,
        original_width,
        tuple(notes),
    )


@dataclass(frozen=True)
class _RemovalContext:
    """The pool-wide facts ``spa_vdev_remove_top_check()`` looks at."""

    has_parity: bool
    normal_ashifts: frozenset[int]
    class_ashifts: dict[Role, frozenset[int]]
    data_vdevs: int


def _removal_context(design: Design, shapes: Sequence[_Shape]) -> _RemovalContext:
    alloc = [(g, s) for g, s in zip(design.vdevs, shapes, strict=True) if g.role in ALLOCATING_ROLES]
    return _RemovalContext(
        has_parity=any(g.is_raidz or g.is_draid for g, _ in alloc),
        normal_ashifts=frozenset(s.ashift for g, s in alloc if g.role == Role.DATA),
        class_ashifts={r: frozenset(s.ashift for g, s in alloc if g.role == r) for r in (Role.SPECIAL, Role.DEDUP)},
        data_vdevs=sum(g.count for g, _ in alloc if g.role == Role.DATA),
    )


def _removal_blockers(group: VdevGroup, ctx: _RemovalContext) -> list[str]:
    """Why ``zpool remove`` would refuse this group's vdevs.

    ``spa_vdev_remove_top_check()`` (``module/zfs/vdev_removal.c``): no raidz or dRAID
    top-level vdev anywhere, one ashift for the whole normal class, special/dedup vdevs at
    that ashift too, and somewhere to evacuate to. Log, cache and spare devices can
    always be removed (man ``zpool-remove.8``).
    """
    if group.role not in ALLOCATING_ROLES:
        return []
    reasons: list[str] = []
    if ctx.has_parity:
        reasons.append("the pool has a raidz or dRAID top-level vdev")
    if len(ctx.normal_ashifts) > 1:
        reasons.append("the data vdevs do not all have the same ashift")
    if group.role in (Role.SPECIAL, Role.DEDUP):
        peers = ctx.class_ashifts[group.role]
        if len(peers) > 1 or not peers <= ctx.normal_ashifts:
            reasons.append(f"its ashift differs from the data vdevs' or from the other {group.role.value} vdevs'")
    if group.role == Role.DATA and ctx.data_vdevs == 1:
        reasons.append("it is the only data vdev, so there is nowhere to evacuate its data")
    return reasons


# --------------------------------------------------------------------------- the pool


def pool_capacity(design: Design) -> PoolCapacity:
    """Compute SIZE, AVAIL and every intermediate figure for ``design`` (raises ``InvalidDesign``)."""
    version_s = design.version
    version = _version_key(version_s)
    shapes = [_group_shape(design, gi, g, version) for gi, g in enumerate(design.vdevs)]
    removal = _removal_context(design, shapes)

    vdevs: list[VdevCapacity] = []
    index = 0
    for gi, (group, shape) in enumerate(zip(design.vdevs, shapes, strict=True)):
        blockers = _removal_blockers(group, removal)
        vdev_notes = shape.notes + tuple(f"not removable: {r}" for r in blockers)
        proto = VdevCapacity(
            role=group.role,
            group_index=gi,
            index=index,
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
            fault_tolerance=_fault_tolerance(group),
            removable=not blockers,
            min_alloc=shape.min_alloc,
            original_width=shape.original_width,
            notes=vdev_notes,
        )
        vdevs.append(proto)
        vdevs.extend(replace(proto, index=index + i) for i in range(1, group.count))
        index += group.count

    def total(attr: str, *roles: Role) -> int:
        return sum(getattr(v, attr) for v in vdevs if v.role in roles)

    normal_size = total("zpool_size_bytes", Role.DATA)
    special_size = total("zpool_size_bytes", Role.SPECIAL, Role.DEDUP)
    normal_dspace = total("dspace_bytes", Role.DATA)
    elog_dspace = total("elog_dspace_bytes", Role.DATA)
    if supports(version_s, "special_embedded_log"):
        elog_dspace += total("elog_dspace_bytes", Role.SPECIAL)
    slop = slop_space(normal_dspace, elog_dspace, version_s)

    normal = [v for v in vdevs if v.role == Role.DATA]
    min_allocs = [v.min_alloc for v in normal]
    gcd_alloc = 0
    for m in min_allocs:
        gcd_alloc = gcd(gcd_alloc, m)

    # The first blocks are metadata: they go to the special class when there is one.
    meta_class = [v for v in vdevs if v.role == Role.SPECIAL] or normal
    extra = sum(1 for v in vdevs if v.role in ALLOCATING_ROLES) - 1
    used_each = [initial_root_used(v.ashift, v.layout, v.width, v.draid_data, extra) for v in meta_class]
    initial_used = sum(used_each) // len(used_each)
    avail = max(normal_dspace - slop - initial_used, 0)

    notes: list[str] = [
        "SIZE counts parity and padding (zpool list); AVAIL is after parity, RAIDZ padding, slop and "
        "the metadata a new pool writes (zfs list)",
    ]
    if special_size:
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
        spa_min_alloc=min(min_allocs),
        spa_gcd_alloc=gcd_alloc,
        openzfs_version=version_s,
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------- RAIDZ expansion


def expansion_report(design: Design, group_index: int, recordsize: int = 128 * KIB) -> ExpansionReport:
    """Model a RAIDZ vdev group widened from ``expanded_from_width`` to ``width`` disks.

    The data written before the expansion (``logical_bytes_written_before``, assumed
    incompressible ``recordsize`` records) keeps its old data:parity ratio; AVAIL keeps
    the original width's deflate ratio (``vdev_set_deflate_ratio()`` at txg 0,
    ``vdev_raidz.c`` big theory statement; man ``zpool-attach.8``).
    """
    path = f"vdevs[{group_index}]"
    if not 0 <= group_index < len(design.vdevs):
        raise InvalidDesign([("vdevs", f"there is no vdev group {group_index}")])
    group = design.vdevs[group_index]
    w0 = group.expanded_from_width
    if not group.is_raidz or w0 is None:
        raise InvalidDesign([(f"{path}.expanded_from_width", "is needed on a raidz group to model an expansion")])
    if recordsize <= 0:
        raise InvalidDesign([("recordsize", f"must be positive (got {recordsize})")])

    def with_group(g: VdevGroup) -> Design:
        groups = list(design.vdevs)
        groups[group_index] = g
        return replace(design, vdevs=tuple(groups))

    before_group = replace(
        group,
        width=w0,
        disks=group.disks[:w0],
        expanded_from_width=None,
        logical_bytes_written_before=None,
        single_disk=group.single_disk,
    )
    fresh_group = replace(group, expanded_from_width=None, logical_bytes_written_before=None)
    before = pool_capacity(with_group(before_group))
    after = pool_capacity(design)
    fresh = pool_capacity(with_group(fresh_group))

    vdev = next(v for v in after.vdevs if v.group_index == group_index)
    fresh_vdev = next(v for v in fresh.vdevs if v.group_index == group_index)
    ashift = vdev.ashift
    n_logical = group.logical_bytes_written_before or 0
    records = ceil_div(n_logical, recordsize)
    asize_old = block_asize(group.layout, w0, ashift, recordsize)
    asize_new = block_asize(group.layout, group.width, ashift, recordsize)
    old_alloc = records * asize_old
    fresh_alloc = records * asize_new
    charged_old = records * deflated(asize_old, vdev.deflate_ratio)
    charged_fresh = records * deflated(asize_new, fresh_vdev.deflate_ratio)
    avail_after_data = max(after.zfs_avail_bytes - charged_old, 0)
    fresh_avail_data = max(fresh.zfs_avail_bytes - charged_fresh, 0)
    notes = (
        f"old data: {records} records of {recordsize} B, each {asize_old} B raw at {w0} wide vs "
        f"{asize_new} B at {group.width} wide",
        "zfs rewrite (or send/receive) converts old blocks to the new ratio, but AVAIL keeps the "
        "original deflate ratio in every released OpenZFS",
    )
    return ExpansionReport(
        group_index=group_index,
        parity=group.parity,
        original_width=w0,
        new_width=group.width,
        recordsize=recordsize,
        size_before_bytes=before.zpool_size_bytes,
        size_after_bytes=after.zpool_size_bytes,
        avail_before_bytes=before.zfs_avail_bytes,
        avail_after_bytes=after.zfs_avail_bytes,
        fresh_avail_bytes=fresh.zfs_avail_bytes,
        deflate_ratio_original=vdev.deflate_ratio,
        deflate_ratio_fresh=fresh_vdev.deflate_ratio,
        old_logical_bytes=n_logical,
        old_allocated_bytes=old_alloc,
        old_allocated_if_fresh_bytes=fresh_alloc,
        lost_to_old_ratio_bytes=old_alloc - fresh_alloc,
        avail_after_with_old_data_bytes=avail_after_data,
        fresh_avail_with_old_data_bytes=fresh_avail_data,
        avail_shortfall_bytes=fresh_avail_data - avail_after_data,
        notes=notes,
    )
