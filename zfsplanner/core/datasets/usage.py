"""What a dataset costs once its contents are written: ``zfs list -p -o used``, the
bytes allocated on each allocation class, and the compression ratio.

The pipeline per block (``shared/reference/zfs-space-accounting.md`` §0):

1. logical blocks from the contents: a file no larger than the recordsize is one block
   of ``roundup(size, 512)``; a larger file is whole records, its last record full-size
   too (only compression trims its zero tail) (``zfs_vnops.c``, ``zfs_write()``); a
   zvol is ``volblocksize`` blocks;
2. ``psize`` under the compression rules of the OpenZFS version (``compression.py``);
3. the allocation class (``spa_misc.c``, ``spa_preferred_class()``): metadata and file
   indirect blocks to special when there is one, level-0 data with
   ``psize <= special_small_blocks`` to special while the class is under 75 % full;
4. per DVA (``copies`` for data, one more for metadata) ``asize`` on the vdev it lands
   on, parity and padding included (``alloc.block_asize``);
5. USED = sum over DVAs of ``asize / 512 * deflate_ratio`` of that vdev
   (``dva_get_dsize_sync``), special allocations included (all released versions).

Histograms are handled per bucket, never per file, and ``asize`` is computed once per
distinct (vdev geometry, psize).

The steps have their own modules: :mod:`zfsplanner.core.datasets.inputs` (defaults, files and
compressed fraction), :mod:`zfsplanner.core.datasets.blocks` (steps 1 and 2 added up, a histogram's
once), :mod:`zfsplanner.core.capacity.placement` (vdev targets and the cost of a DVA),
:mod:`zfsplanner.core.capacity.zvol` (a zvol's refreservation); this one runs the pipeline.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..capacity.placement import AllocTarget, Totals, group_targets, place
from ..capacity.zvol import (
    zvol_volsize_to_reservation,
)
from ..compression.rules import (
    SPA_MINBLOCKSIZE,
    CompressionError,
    compressratio,
    resolve_algorithm,
)
from ..design.types import Dataset, DatasetType
from ..properties.resolve import block_size_of
from ..properties.zfsprops import PROPERTIES
from ..units import MIB, ceil_div, is_power_of_two
from ..versions import Version
from . import blockhist
from .blocks import BlockRules, Tally, file_tally, indirects
from .directories import directory_blocks, directory_tree
from .inputs import (
    DatasetError,
    compressed_fraction,
    dnodesize_of,
    file_buckets,
    files_per_directory_of,
    redundant_metadata_of,
)
from .metadata import (
    DN_MAX_NBLKPTR,
    EMPTY_FILESYSTEM_DNODE_BLOCKS,
    EMPTY_FILESYSTEM_OBJECTS,
    LEGACY_DNODE_SIZE,
    dnode_block_count,
    dnode_blocks,
    empty_dataset_blocks,
)

__all__ = ["SPECIAL_SMALL_MAX_BEFORE_2_4", "SPECIAL_SMALL_RESERVE_PCT", "DatasetUsage", "dataset_usage"]

SPECIAL_SMALL_RESERVE_PCT = 25  # zfs_special_class_metadata_reserve_pct
SPECIAL_SMALL_MAX_BEFORE_2_4 = 1 * MIB


# Why USED can be below the data written (vdev.c, vdev_set_deflate_ratio(): the ratio is set once, for a
# 128 KiB block; dva_get_dsize_sync() charges every block by it).
USED_BELOW_WRITTEN = (
    "USED is below the data written: zfs list charges each block on RAIDZ/dRAID at the parity and padding "
    "share of a 128 KiB block, and larger blocks need less padding than that, so they are charged less than "
    "their size (the pool's ALLOC counts them in full)"
)
# Below 1 %, the difference is the 128 KiB block's own rounding and not worth a note.
NOTABLE_SHORTFALL = 0.01


@dataclass(frozen=True)
class DatasetUsage:
    """Estimated space of one dataset after its contents are written.

    * ``logical_bytes``: the contents' own size (sum of file sizes, or bytes written to
      the zvol);
    * ``logicalused_bytes``: what ``zfs get logicalused`` would print (data ``lsize``,
      full-size tail records included, plus metadata ``psize``);
    * ``data_allocated_bytes`` / ``metadata_allocated_bytes``: raw bytes allocated on
      the vdevs (``zpool list`` ALLOC: parity, padding and every copy included);
      ``special_allocated_bytes`` + ``normal_allocated_bytes`` is their sum split by
      class;
    * ``referenced_bytes``: deflated charge of the dataset's blocks (``zfs get
      referenced``); ``zfs_used_bytes``: ``zfs list -o used`` (the same, or the
      refreservation of a non-sparse zvol when larger); ``empty_used_bytes``: USED of
      the dataset before anything is written;
    * ``raidz_overhead_fraction``: parity and padding sectors over all allocated
      sectors, i.e. ``1 - sum(roundup(psize, sector)) / sum(asize)`` over every DVA;
      compare with ``nominal_parity_fraction`` (``p/N`` of the vdevs the bytes went to,
      weighted by allocated bytes); the difference is RAIDZ padding plus partial rows.
    """

    name: str
    logical_bytes: int
    logicalused_bytes: int
    compressratio: float
    block_size_bytes: int
    compression: str
    copies: int
    data_blocks: int
    data_allocated_bytes: int
    metadata_allocated_bytes: int
    special_allocated_bytes: int
    normal_allocated_bytes: int
    referenced_bytes: int
    zfs_used_bytes: int
    empty_used_bytes: int
    refreservation_bytes: int | None
    raidz_overhead_fraction: float
    nominal_parity_fraction: float
    psize_histogram: tuple[tuple[int, int], ...]
    notes: tuple[str, ...]
    # What the special-class sizing (``special.py``) needs: the data blocks' DVAs by
    # allocated psize, the metadata's DVAs by psize, and whether level-0 data blocks of
    # this dataset may go to the special class at all (filesystems; zvols from 2.4).
    data_dvas: tuple[tuple[int, float], ...] = ()
    metadata_dvas: tuple[tuple[int, float], ...] = ()
    small_blocks_allowed: bool = True
    metadata_psize_bytes: int = 0  # one copy of every metadata block, as the ARC caches it
    data_referenced_bytes: int = 0  # the data blocks' part of referenced_bytes (what dedup and clones save)
    # the part of referenced_bytes charged for blocks on the special class (deflated, as
    # metaslab_class_get_dalloc() counts them): what no longer lowers AVAIL from 2.4.1/2.3.7
    special_used_bytes: int = 0


def dataset_usage(
    ds: Dataset,
    *,
    version: Version,
    normal: Sequence[AllocTarget],
    special: Sequence[AllocTarget] = (),
    spa_min_alloc: int,
    spa_gcd_alloc: int,
    special_usable_bytes: int | None = None,
    special_allocated_before: int = 0,
) -> DatasetUsage:
    """Estimate ``ds`` once its contents are written.

    ``normal``/``special`` are the vdevs of each class; ``spa_min_alloc`` and
    ``spa_gcd_alloc`` are the pool's allocation units (``vdev_spa_set_alloc()``: one
    sector, or ``D`` sectors with dRAID). ``special_usable_bytes`` is the special
    class's size as ``metaslab_class_get_space()`` counts it (raw, like ``zpool list``
    SIZE; None = unlimited) and ``special_allocated_before`` what other datasets already
    put there; small blocks stop going to special at 75 % of it, metadata at 100 %.
    """
    if not normal:
        raise DatasetError("the pool needs at least one normal-class vdev")
    notes: list[str] = []
    release = version
    # zvols accept special_small_blocks from 2.4 (zfsprops: the property table)
    zvol_ssb = DatasetType.VOLUME in PROPERTIES["special_small_blocks"].types_for(release)
    volume = ds.type == DatasetType.VOLUME
    bs = block_size_of(ds, release)
    copies = ds.copies or 1
    try:
        algorithm = resolve_algorithm(ds.compression, version)
    except CompressionError as exc:
        raise DatasetError(f"{ds.name}: {exc}") from exc
    redundant = redundant_metadata_of(ds)
    dnodesize = LEGACY_DNODE_SIZE if volume else dnodesize_of(ds)
    fraction, all_zero = compressed_fraction(ds, algorithm, notes)
    ssb = ds.special_small_blocks or 0
    if ssb and special and not zvol_ssb:
        if volume:
            notes.append(f"special_small_blocks applies to zvols only from OpenZFS 2.4 (design says {version.name})")
        elif ssb > SPECIAL_SMALL_MAX_BEFORE_2_4 or not is_power_of_two(ssb) or ssb < SPA_MINBLOCKSIZE:
            notes.append(f"OpenZFS {version.name} accepts special_small_blocks only as a power of two from 512 to 1M")
    small_ok = bool(special) and ssb > 0 and (not volume or zvol_ssb)
    if ssb and small_ok and ssb >= bs:
        notes.append("special_small_blocks >= block size: every data block qualifies for the special class")

    rules = BlockRules(bs, copies, redundant, algorithm, fraction, all_zero, release, spa_min_alloc, spa_gcd_alloc)
    refreservation: int | None = None
    dnode_block_total = EMPTY_FILESYSTEM_DNODE_BLOCKS
    if volume:
        t = Tally(rules)
        written = ds.contents.logical_bytes if ds.contents and ds.contents.logical_bytes else 0
        if ds.volsize is not None and written > ds.volsize:
            notes.append(f"contents ({written} B) exceed volsize ({ds.volsize} B): capped at volsize")
            written = ds.volsize
        t.content_bytes = written
        nblocks = ceil_div(written, bs)
        if nblocks:
            full, tail = divmod(written, bs)
            t.add_blocks(t.stored(bs, bs), full)
            if tail:
                t.add_blocks(t.stored(bs, tail), 1)
            t.add_meta(
                indirects(nblocks, DN_MAX_NBLKPTR, copies, copies, redundant, release, spa_min_alloc, spa_gcd_alloc),
                1.0,
            )
        if ds.volsize is not None and not ds.extra.get("sparse", False):
            refreservation = zvol_volsize_to_reservation(ds.volsize, bs, copies, [*normal, *special])
    else:
        buckets, stream = file_buckets(ds, notes)
        t = file_tally(buckets, rules)
        if stream:
            t.nfiles = 1.0
        files = int(round(t.nfiles))
        if files:
            tree, dirs = directory_tree(files, files_per_directory_of(ds))
            objects = EMPTY_FILESYSTEM_OBJECTS + files + dirs - 1  # the root directory is already there
            dnode_block_total = max(dnode_block_count(objects, dnodesize), EMPTY_FILESYSTEM_DNODE_BLOCKS)
            t.add_meta(
                dnode_blocks(
                    objects,
                    dnodesize,
                    copies,
                    redundant,
                    release,
                    spa_min_alloc,
                    spa_gcd_alloc,
                    already=EMPTY_FILESYSTEM_DNODE_BLOCKS,
                ),
                1.0,
            )
            for entries, count in tree:
                t.add_meta(
                    directory_blocks(
                        entries, copies, redundant, release, spa_min_alloc, spa_gcd_alloc, weight=float(count)
                    ),
                    1.0,
                )

    try:
        measured = blockhist.read(ds.contents.extra) if ds.contents is not None else None
    except blockhist.BlockHistogramError as exc:
        raise DatasetError(f"{ds.name}: {exc}") from exc
    if measured is not None and algorithm != "off":
        # a measured per-block size histogram replaces the single ratio (blockhist.py)
        alloc = blockhist.allocate(measured, t.blocks_total, bs, copies, release, spa_min_alloc, spa_gcd_alloc)
        if not t.blocks_total:
            t.logical_data = alloc.blocks * bs
            t.content_bytes = t.content_bytes or int(t.logical_data)
        t.data_demand = defaultdict(float, alloc.demand)
        t.hist = defaultdict(float, alloc.stored)
        t.physical_data = alloc.physical_bytes
        t.blocks_total = alloc.blocks
        notes.append(f"data blocks allocated as measured: {len(measured)} block sizes (block_size_histogram)")

    # The empty dataset's blocks; its meta-dnode indirect blocks are rewritten fuller as
    # dnode blocks are added (the count of the empty dataset for its own USED).
    t.add_meta(
        empty_dataset_blocks(
            volume, copies, redundant, release, spa_min_alloc, spa_gcd_alloc, dnode_block_total=dnode_block_total
        ),
        1.0,
    )
    base = empty_dataset_blocks(volume, copies, redundant, release, spa_min_alloc, spa_gcd_alloc)
    base_demand: dict[int, float] = defaultdict(float)
    for mb in base:
        base_demand[mb.psize] += mb.count * mb.dvas

    # On a RAIDZ vdev widened by zpool attach, what was written before keeps its old cost
    written_before = ds.contents.logical_bytes_written_before if ds.contents is not None else None
    before = min(written_before / t.content_bytes, 1.0) if written_before and t.content_bytes else 0.0
    normal_groups = group_targets(normal, before)
    special_groups = group_targets(special, before) if special else []

    # Split data blocks into special-eligible small blocks and the rest.
    small_demand: dict[int, float] = {}
    big_demand: dict[int, float] = {}
    for psize, dvas in t.data_demand.items():
        if small_ok and psize <= ssb:
            small_demand[psize] = dvas
        else:
            big_demand[psize] = dvas

    normal_tot = place(big_demand, normal_groups)
    special_tot = Totals()
    meta_tot = Totals()
    data_tot = Totals()
    data_tot.add(normal_tot)
    if special_groups:
        meta_on_special = place(t.meta_demand, special_groups)
        small_on_special = place(small_demand, special_groups)
        cap = special_usable_bytes
        f_meta = f_small = 1.0
        if cap is not None:
            room = max(cap - special_allocated_before, 0)
            if meta_on_special.raw > room:
                f_meta = room / meta_on_special.raw if meta_on_special.raw else 1.0
                notes.append("the special class fills up: the rest of the metadata spills to the normal class")
            limit = cap * (100 - SPECIAL_SMALL_RESERVE_PCT) / 100 - special_allocated_before - meta_on_special.raw
            if small_on_special.raw > 0 and limit < small_on_special.raw:
                f_small = max(limit, 0.0) / small_on_special.raw
                notes.append(
                    f"the special class reaches {100 - SPECIAL_SMALL_RESERVE_PCT} %: "
                    f"{(1 - f_small) * 100:.0f} % of the small blocks go to the normal class"
                )
        meta_tot.add(meta_on_special, f_meta)
        special_tot.add(meta_on_special, f_meta)
        if f_meta < 1.0:
            spill = place(t.meta_demand, normal_groups)
            meta_tot.add(spill, 1 - f_meta)
            normal_tot.add(spill, 1 - f_meta)
        data_tot.add(small_on_special, f_small)
        special_tot.add(small_on_special, f_small)
        if f_small < 1.0:
            spill = place(small_demand, normal_groups)
            data_tot.add(spill, 1 - f_small)
            normal_tot.add(spill, 1 - f_small)
        base_tot = place(base_demand, special_groups)
    else:
        m = place(t.meta_demand, normal_groups)
        s = place(small_demand, normal_groups)
        meta_tot.add(m)
        normal_tot.add(m)
        normal_tot.add(s)
        data_tot.add(s)
        base_tot = place(base_demand, normal_groups)

    referenced = int(round(data_tot.used + meta_tot.used))
    used = referenced if refreservation is None else max(referenced, refreservation)
    raw = data_tot.raw + meta_tot.raw
    overhead = 1 - (data_tot.data_sectors + meta_tot.data_sectors) / raw if raw else 0.0
    nominal = (
        (data_tot.nominal_weighted + meta_tot.nominal_weighted) / raw
        if raw
        else sum(g.nominal * s for g, s in normal_groups)
    )
    logicalused = t.logical_data + t.meta_psize
    if referenced < (1 - NOTABLE_SHORTFALL) * (t.physical_data + t.meta_psize):
        notes.append(USED_BELOW_WRITTEN)
    return DatasetUsage(
        name=ds.name,
        logical_bytes=t.content_bytes,
        logicalused_bytes=int(round(logicalused)),
        compressratio=compressratio(int(round(logicalused)), int(round(t.physical_data + t.meta_psize))),
        block_size_bytes=bs,
        compression=algorithm,
        copies=copies,
        data_blocks=int(round(t.blocks_total)),
        data_allocated_bytes=int(round(data_tot.raw)),
        metadata_allocated_bytes=int(round(meta_tot.raw)),
        special_allocated_bytes=int(round(special_tot.raw)),
        normal_allocated_bytes=int(round(normal_tot.raw)),
        referenced_bytes=referenced,
        zfs_used_bytes=used,
        empty_used_bytes=int(round(base_tot.used)),
        refreservation_bytes=refreservation,
        raidz_overhead_fraction=overhead,
        nominal_parity_fraction=nominal,
        psize_histogram=tuple(sorted((p, int(round(n))) for p, n in t.hist.items())),
        notes=tuple(notes),
        data_dvas=tuple(sorted(t.data_demand.items())),
        metadata_dvas=tuple(sorted(t.meta_demand.items())),
        small_blocks_allowed=not volume or zvol_ssb,
        metadata_psize_bytes=int(round(t.meta_psize)),
        data_referenced_bytes=int(round(data_tot.used)),
        special_used_bytes=int(round(special_tot.used)),
    )
