"""The space dedup and block cloning save, and how the pool's USED + AVAIL grows by it.

A deduplicated or cloned block is allocated once but charged to every dataset that references it,
so USED counts it in full. OpenZFS gives the difference back by adding it to the pool's space
(``spa_update_dspace()``, ``module/zfs/spa_misc.c``)::

    spa_dspace = normal class dspace + ddt_get_dedup_dspace() + brt_get_dspace()

* ``ddt_get_dedup_dspace()`` (``module/zfs/ddt_stats.c``) is ``dds_ref_dsize - dds_dsize`` over the
  dedup table: for every entry, the deflated size of its DVAs (``dva_get_dsize_sync()``) times its
  references less one. ``zpool list`` DEDUP is ``dds_ref_dsize * 100 / dds_dsize``
  (``ddt_get_pool_dedup_ratio()``, two decimals, cut not rounded).
* ``brt_get_dspace()`` (``module/zfs/brt.c``, OpenZFS 2.2+) is ``bclonesaved``: each clone adds
  ``bp_get_dsize()`` of the block it copies (``brt_vdev_addref()``); ``bcloneused`` counts each
  cloned block once, ``bcloneratio`` is ``(used + saved) * 100 / used``. A block written with dedup
  is cloned through the dedup table instead (``brt_pending_apply()`` → ``ddt_addref()``).

So the root's USED + AVAIL is the normal class's space less slop, plus both savings; and slop
(``spa_get_slop_space()``) is taken from a space that depends on the release: with both savings
before 2.1.1 (2.0.6), with the clones' alone in 2.1.1–2.2, and from the normal class's own space
(``spa_rdspace``) from 2.3.

A dataset's ``contents.dedup_ratio`` (logical blocks over unique blocks) says how much of its data
the table saves, and ``contents.cloned_bytes`` how much of its ``logical_bytes`` are clones; each
saves that share of the dataset's data blocks as USED charges them (``data_referenced_bytes``) and
as ``zpool list`` ALLOC counts them (``data_allocated_bytes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..capacity.pool import PoolCapacity
from ..design.types import Dataset, Design
from ..geometry.slop import slop_space
from ..properties.resolve import dedup_on
from ..versions import Version, supports
from .ddt import unique_blocks
from .usage import DatasetUsage


@dataclass(frozen=True)
class DatasetSavings:
    """What one dataset's repeated and cloned data save (deflated, as USED counts; raw, as ALLOC)."""

    dedup_referenced_bytes: int  # its part of dds_ref_dsize (0 without dedup)
    dedup_saved_bytes: int
    clone_saved_bytes: int
    allocated_saved_bytes: int  # raw: what zpool list ALLOC does not count


@dataclass(frozen=True)
class SpaceSavings:
    """The pool's dedup and block-cloning savings and the USED + AVAIL that follows."""

    dedup_referenced_bytes: int  # dds_ref_dsize
    dedup_saved_bytes: int  # ddt_get_dedup_dspace()
    clone_used_bytes: int  # bcloneused
    clone_saved_bytes: int  # bcloneused / brt_get_dspace()
    allocated_saved_bytes: int  # raw bytes ALLOC does not count
    slop_bytes: int  # spa_get_slop_space() with the savings
    usable_bytes: int  # the root's USED + AVAIL
    notes: tuple[str, ...] = ()

    @property
    def dedupratio_percent(self) -> int:
        """``ddt_get_pool_dedup_ratio()``: ``dds_ref_dsize * 100 / dds_dsize``, 100 without dedup."""
        dsize = self.dedup_referenced_bytes - self.dedup_saved_bytes
        return self.dedup_referenced_bytes * 100 // dsize if dsize > 0 else 100

    @property
    def bcloneratio_percent(self) -> int:
        """``brt_get_ratio()``: ``(used + saved) * 100 / used``, 100 without clones."""
        used = self.clone_used_bytes
        return (used + self.clone_saved_bytes) * 100 // used if used else 100


def share_of_data(amount: int, part: int, whole: int) -> int:
    """``amount`` × ``part`` / ``whole``, cut to whole bytes: the share of a dataset's data blocks
    that repeat or are clones (the blocks are alike, so each saves the same charge)."""
    return amount * part // whole if whole > 0 else 0


def part_for_share(amount: int, share: int, whole: int) -> int:
    """The smallest ``part`` whose :func:`share_of_data` is at least ``share``: what an imported
    pool's exact saving asks of a dataset (exactly ``share`` when ``amount <= whole``)."""
    return -(-share * whole // amount) if amount > 0 else 0


def dataset_savings(design: Design, ds: Dataset, usage: DatasetUsage, notes: list[str]) -> DatasetSavings:
    """The savings of one dataset's data blocks: ``dedup_ratio`` when it writes with dedup, and
    ``cloned_bytes`` (from OpenZFS 2.2; through the dedup table on a dataset with dedup)."""
    contents = ds.contents
    blocks = usage.data_blocks
    dedup = dedup_on(design, ds)
    cloned = min(contents.cloned_bytes or 0, usage.logical_bytes) if contents is not None else 0
    if cloned and not supports(design.release, "block_cloning"):
        notes.append(f"{ds.name}: block cloning arrives in OpenZFS 2.2; on {design.version} a copy is written again")
        cloned = 0
    repeated = blocks - unique_blocks(blocks, contents) if dedup and blocks else 0
    dedup_saved = share_of_data(usage.data_referenced_bytes, repeated, blocks)
    alloc_saved = share_of_data(usage.data_allocated_bytes, repeated, blocks)
    clone_saved = share_of_data(usage.data_referenced_bytes, cloned, usage.logical_bytes)
    alloc_saved += share_of_data(usage.data_allocated_bytes, cloned, usage.logical_bytes)
    if dedup:
        return DatasetSavings(usage.data_referenced_bytes, dedup_saved + clone_saved, 0, alloc_saved)
    return DatasetSavings(0, 0, clone_saved, alloc_saved)


def savings_slop_base(normal_dspace: int, dedup_saved: int, clone_saved: int, version: Version) -> int:
    """The space ``spa_get_slop_space()`` (``module/zfs/spa_misc.c``) takes slop from: the normal
    class's ``spa_rdspace`` from 2.3; ``spa_get_dspace() - spa_dedup_dspace`` (the clones' savings in)
    from 2.1.1 and 2.0.6; ``spa_get_dspace()`` (both savings in) before."""
    if supports(version, "slop_without_clones"):
        return normal_dspace
    base = normal_dspace + clone_saved
    return base if supports(version, "slop_without_dedup") else base + dedup_saved


def space_savings(design: Design, pool: PoolCapacity, usages: Sequence[DatasetUsage]) -> SpaceSavings:
    """The pool's savings over every dataset, the slop they leave and the root's USED + AVAIL."""
    notes: list[str] = []
    parts = [dataset_savings(design, ds, u, notes) for ds, u in zip(design.datasets, usages, strict=True)]
    referenced = sum(p.dedup_referenced_bytes for p in parts)
    dedup_saved = sum(p.dedup_saved_bytes for p in parts)
    clone_saved = sum(p.clone_saved_bytes for p in parts)
    base = savings_slop_base(pool.normal_dspace_bytes, dedup_saved, clone_saved, design.release)
    slop = slop_space(base, pool.elog_dspace_bytes, design.release)
    usable = pool.usable_bytes + pool.slop_bytes - slop + dedup_saved + clone_saved
    return SpaceSavings(
        dedup_referenced_bytes=referenced,
        dedup_saved_bytes=dedup_saved,
        clone_used_bytes=clone_saved,  # every cloned block copied once
        clone_saved_bytes=clone_saved,
        allocated_saved_bytes=sum(p.allocated_saved_bytes for p in parts),
        slop_bytes=slop,
        usable_bytes=usable,
        notes=tuple(notes),
    )
