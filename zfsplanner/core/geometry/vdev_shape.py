"""One group of top-level vdevs: its ashift, leaves, asize, metaslabs and class space.

Steps 2-5 of the capacity pipeline (:mod:`zfsplanner.core.capacity.pool`) for what every vdev of a
design's group has in common: leaves -> top-level asize (mirror = smallest child, raidz =
width x smallest child, dRAID per ``vdev_draid_open()``) -> metaslabs -> deflated space,
one metaslab of a big normal vdev going to the embedded log class; and whether
``zpool remove`` would accept the group's vdevs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..design.types import Design, InvalidDesign, Layout, Partitioning, Role, VdevGroup
from ..versions import supports
from . import ashift as ashift_rules
from .alloc import deflate_ratio, min_alloc
from .draid import (
    draid_child_asize,
    draid_default_data,
    draid_groups,
    draid_metaslab_bytes,
    draid_metaslab_total,
    draid_vdev_asize,
)
from .metaslab import ZFS_EMBEDDED_SLOG_MIN_MS, deflated, metaslab_shift
from .partitioning import SPA_MINDEVSIZE, leaf_asize, member_osize

# module/zfs/arc.c: the persistent L2ARC device header takes one sector at the start
L2ARC_DEV_HDR_SIZE = 512

METASLAB_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)
ALLOCATING_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)


def _disk_path(gi: int, group: VdevGroup, di: int) -> str:
    return f"vdevs[{gi}].disk.size_bytes" if group.single_disk else f"vdevs[{gi}].disks[{di}].size_bytes"


def _leaf_sizes(design: Design, gi: int, group: VdevGroup) -> list[int]:
    """Leaf asize of each member; raises :class:`InvalidDesign` for a disk that is too small."""
    leaves, errors = _leaves(design, gi, group)
    if errors:
        raise InvalidDesign(errors)
    return leaves


def shape_errors(design: Design) -> list[tuple[str, str]]:
    """What :func:`group_shape` refuses, for every group, without computing a shape: an ashift
    zpool would refuse, a member too small for ZFS. ``parse_design`` reports them, so that a
    document it accepts can be estimated."""
    errors: list[tuple[str, str]] = []
    for gi, group in enumerate(design.vdevs):
        fails = ashift_rules.resolve(group, design.release).fails
        if fails is not None:
            errors.append((f"vdevs[{gi}].ashift", fails))
        errors += _leaves(design, gi, group)[1]
    return errors


def _leaves(design: Design, gi: int, group: VdevGroup) -> tuple[list[int], list[tuple[str, str]]]:
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
    return leaves, list(dict.fromkeys(errors))


def fault_tolerance(group: VdevGroup) -> int:
    """Disks each vdev of the group can lose: mirror width − 1, raidz/dRAID parity, single disk 0;
    0 for cache and spare devices, which hold no pool data. The one home of this rule."""
    if group.role in (Role.CACHE, Role.SPARE):
        return 0
    if group.layout == Layout.MIRROR:
        return group.width - 1
    return group.parity


@dataclass(frozen=True)
class VdevShape:
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
) -> VdevShape:
    """A spare or cache device: no metaslabs, no class space; ``size`` is what ``zpool list -v`` shows."""
    return VdevShape(
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


def group_shape(design: Design, gi: int, group: VdevGroup) -> VdevShape:
    choice = ashift_rules.resolve(group, design.release)
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
            if original_width is not None and not supports(design.release, "raidz_expansion"):
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
        embedded = count > ZFS_EMBEDDED_SLOG_MIN_MS and supports(design.release, "embedded_log")
    elif group.role == Role.SPECIAL:
        embedded = count > ZFS_EMBEDDED_SLOG_MIN_MS and supports(design.release, "special_embedded_log")
    elog_size = first_ms if embedded else 0
    elog_dspace = deflated(elog_size, ratio)
    class_dspace = deflated(size, ratio) - elog_dspace
    if embedded:
        cls = "embedded log" if group.role == Role.DATA else "special embedded log"
        notes.append(f"one of {count} metaslabs is reserved for the ZIL ({cls} class)")
    lost = asize - size
    if lost > 0:
        notes.append(f"{lost} B at the end are not a whole metaslab and stay unused")
    return VdevShape(
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
