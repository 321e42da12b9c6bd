"""RAIDZ expansion: a raidz group before and after ``zpool attach POOL raidzP-N NEWDISK`` (2.3+)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..design.types import Design, InvalidDesign, VdevGroup
from ..geometry.alloc import block_asize
from ..geometry.metaslab import deflated
from ..properties.resolve import DEFAULT_RECORDSIZE
from ..units import ceil_div
from .pool import pool_capacity


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


def expansion_report(design: Design, group_index: int, recordsize: int = DEFAULT_RECORDSIZE) -> ExpansionReport:
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
    n_logical = group.logical_bytes_written_before
    if n_logical is None and sum(g.expanded_from_width is not None for g in design.vdevs) == 1:
        # the one widened vdev: what the datasets say they wrote before it was widened
        n_logical = sum(
            ds.contents.logical_bytes_written_before or 0 for ds in design.datasets if ds.contents is not None
        )
    n_logical = n_logical or 0
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
