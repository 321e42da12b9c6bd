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
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import blockhist
from .alloc import SPA_OLD_MAXBLOCKSIZE, block_asize, deflate, deflate_ratio
from .compression import (
    PROFILES,
    BlockKind,
    CompressionError,
    StoredBlock,
    compressratio,
    estimated_compressed_size,
    resolve_algorithm,
    stored_block,
    version_tuple,
)
from .design import DRAID_LAYOUTS, PARITY, RAIDZ_LAYOUTS, Dataset, DatasetType, Layout
from .metadata import (
    DN_MAX_NBLKPTR,
    EMPTY_FILESYSTEM_OBJECTS,
    FILES_PER_DIRECTORY,
    LEGACY_DNODE_SIZE,
    SA_NBLKPTR,
    MetaBlock,
    RedundantMetadata,
    directory_blocks,
    directory_tree,
    dnode_blocks,
    empty_dataset_blocks,
    object_indirects,
)
from .units import KIB, MIB, ceil_div, is_power_of_two, roundup

SPA_MINBLOCKSIZE = 512
DEFAULT_RECORDSIZE = 128 * KIB
SPECIAL_SMALL_RESERVE_PCT = 25  # zfs_special_class_metadata_reserve_pct
DNODES_PER_LEVEL = 1024  # libzfs: 1 << (DN_MAX_INDBLKSHIFT - SPA_BLKPTRSHIFT)
ZVOL_META_DNODE_LEVELS = 7  # libzfs: "start with metadnode L0-L6"
DN_MAX_INDBLKSHIFT = 17
SPA_DVAS_PER_BP = 3
SPECIAL_SMALL_MAX_BEFORE_2_4 = 1 * MIB


class DatasetError(ValueError):
    """The dataset cannot be estimated with the given inputs."""


@dataclass(frozen=True)
class AllocTarget:
    """A top-level vdev (or a group of identical ones) that receives blocks of a class.

    ``share`` is the fraction of the class's allocations landing here; with several
    vdevs, weight by free space (equal vdevs: equal shares). Shares of a class should
    sum to 1; they are normalised if they do not.
    """

    layout: Layout
    width: int
    ashift: int
    draid_data: int | None = None
    deflate_ratio: int = 512
    share: float = 1.0

    @property
    def sector(self) -> int:
        return 1 << self.ashift

    @property
    def nominal_parity_fraction(self) -> float:
        """Parity disks over all disks: ``p/N`` for raidz, ``p/(D+p)`` for dRAID, 0 for
        mirrors and single disks (a mirror's other copies are not in its ``asize``)."""
        p = PARITY[self.layout]
        if self.layout in RAIDZ_LAYOUTS:
            return p / self.width
        if self.layout in DRAID_LAYOUTS and self.draid_data:
            return p / (self.draid_data + p)
        return 0.0

    @classmethod
    def for_vdev(
        cls, layout: Layout, width: int, ashift: int, draid_data: int | None = None, share: float = 1.0
    ) -> AllocTarget:
        """A target with its deflate ratio computed from the geometry."""
        return cls(layout, width, ashift, draid_data, deflate_ratio(layout, width, ashift, draid_data), share)


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


# --------------------------------------------------------------------------- defaults


def default_volblocksize(version: str) -> int:
    """``ZVOL_DEFAULT_BLOCKSIZE`` (``include/sys/zvol.h``): 16 KiB from 2.2.0, 8 KiB before."""
    return 16 * KIB if version_tuple(version) >= (2, 2) else 8 * KIB


def effective_block_size(ds: Dataset, version: str) -> int:
    """The record size (filesystems) or volblocksize (volumes) in force."""
    if ds.type == DatasetType.VOLUME:
        return ds.volblocksize or default_volblocksize(version)
    return ds.recordsize or DEFAULT_RECORDSIZE


def _dnodesize(ds: Dataset) -> int:
    """``dnodesize`` from the dataset's extra keys: legacy (512 B, the default), auto
    (1 KiB, ``dmu_objset.c``) or 1k..16k."""
    value = str(ds.extra.get("dnodesize", "legacy")).lower()
    sizes = {"legacy": 512, "auto": 1024, "1k": 1024, "2k": 2048, "4k": 4096, "8k": 8192, "16k": 16384}
    if value not in sizes:
        raise DatasetError(f"{ds.name}: dnodesize {value!r} is not one of {', '.join(sizes)}")
    return sizes[value]


def _files_per_directory(ds: Dataset) -> int | None:
    """``contents.files_per_directory`` (the design format's field), else the dataset key of the
    same name older documents used, else the documented default (``metadata.FILES_PER_DIRECTORY``)."""
    if ds.contents is not None and ds.contents.files_per_directory is not None:
        return ds.contents.files_per_directory
    value = ds.extra.get("files_per_directory", FILES_PER_DIRECTORY)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DatasetError(f"{ds.name}: files_per_directory must be a positive integer")
    return int(value)


def _redundant(ds: Dataset) -> RedundantMetadata:
    value = str(ds.extra.get("redundant_metadata", "all")).lower()
    try:
        return RedundantMetadata(value)
    except ValueError as exc:
        raise DatasetError(f"{ds.name}: redundant_metadata {value!r} is not all, most, some or none") from exc


# --------------------------------------------------------------------------- zvol refreservation


def zvol_volsize_to_reservation(volsize: int, volblocksize: int, copies: int, targets: Sequence[AllocTarget]) -> int:
    """``refreservation`` that ``zfs create -V`` sets on a non-sparse zvol.

    ``lib/libzfs/libzfs_dataset.c``, ``zvol_volsize_to_reservation()`` and
    ``volsize_from_vdevs()``: the data blocks are scaled by the worst raidz/dRAID vdev's
    ``asize(volblocksize) / asize(128K) * 128K`` (mirrors and disks count as 1:1), and
    every indirect level plus 7 meta-dnode levels is budgeted as an uncompressed 128 KiB
    block with ``copies + 1`` DVAs.
    """
    nblocks = volsize // volblocksize
    data = 0
    for t in targets:
        if t.layout not in RAIDZ_LAYOUTS and t.layout not in DRAID_LAYOUTS:
            continue
        tsize = block_asize(t.layout, t.width, t.ashift, SPA_OLD_MAXBLOCKSIZE, t.draid_data)
        asize = block_asize(t.layout, t.width, t.ashift, volblocksize, t.draid_data)
        data = max(data, nblocks * asize * SPA_OLD_MAXBLOCKSIZE // tsize)
    if data == 0:
        data = nblocks * volblocksize
    numdb = ZVOL_META_DNODE_LEVELS
    n = nblocks
    while n > 1:
        n = (n + DNODES_PER_LEVEL - 1) // DNODES_PER_LEVEL
        numdb += n
    numdb *= min(SPA_DVAS_PER_BP, copies + 1)
    return data * copies + numdb * (1 << DN_MAX_INDBLKSHIFT)


# --------------------------------------------------------------------------- contents


def _file_buckets(ds: Dataset, notes: list[str]) -> tuple[list[tuple[int, float]], bool]:
    """(size, count) buckets of files, and whether the contents are one unnamed stream
    of large files (no file count given)."""
    c = ds.contents
    if c is None:
        return [], False
    logical = c.logical_bytes
    if c.file_size_histogram:
        hist = [(s, float(n)) for s, n in c.file_size_histogram if n > 0]
        total = sum(s * n for s, n in hist)
        files = sum(n for _, n in hist)
        if logical is not None and total > 0 and abs(total - logical) > 0.01 * logical:
            scale = logical / total
            hist = [(s, n * scale) for s, n in hist]
            notes.append(
                f"file_size_histogram adds up to {total:.0f} bytes, not logical_bytes {logical}: "
                f"counts scaled by {scale:.3f}"
            )
        elif logical is None and c.file_count and files and abs(files - c.file_count) > 0.01 * c.file_count:
            scale = c.file_count / files
            hist = [(s, n * scale) for s, n in hist]
            notes.append(f"file_size_histogram has {files:.0f} files, not file_count {c.file_count}: counts scaled")
        return hist, False
    if c.file_count:
        if not logical:
            return [(0, float(c.file_count))], False
        q, r = divmod(logical, c.file_count)
        buckets = [(q, float(c.file_count - r))]
        if r:
            buckets.append((q + 1, float(r)))
        notes.append(f"no file_size_histogram: {c.file_count} files of about {q} bytes assumed")
        return buckets, False
    if logical:
        notes.append("no file count: contents treated as large files of whole records")
        return [(logical, 1.0)], True
    return [], False


def _fraction(ds: Dataset, algorithm: str, notes: list[str]) -> tuple[float, bool]:
    """Compressed fraction of the data (compressor output / input) and all-zero flag."""
    comp = ds.contents.compressibility if ds.contents else None
    if comp is None:
        notes.append("no compressibility given: data assumed incompressible")
        return 1.0, False
    if comp.ratio is not None:
        if comp.algorithm and algorithm != "off":
            try:
                measured_with = resolve_algorithm(comp.algorithm, "2.3")
            except CompressionError:
                measured_with = comp.algorithm
            if measured_with != algorithm:
                notes.append(f"ratio {comp.ratio} was measured with {comp.algorithm}, dataset uses {algorithm}")
        return 1.0 / comp.ratio, False
    if comp.profile is not None:
        profile = PROFILES[comp.profile]
        lo, hi = profile.ratio_range(algorithm) if algorithm != "off" else (1.0, 1.0)
        if algorithm != "off" and not profile.all_zero:
            notes.append(
                f"profile {profile.name!r} with {algorithm}: about {profile.ratio(algorithm):.2f}x "
                f"(estimate, {lo:.2f}-{hi:.2f}x)"
            )
        return profile.fraction(algorithm), profile.all_zero
    return 1.0, False


# --------------------------------------------------------------------------- allocation


@dataclass(frozen=True)
class _Geometry:
    layout: Layout
    width: int
    ashift: int
    draid_data: int | None
    ratio: int

    @property
    def nominal(self) -> float:
        return AllocTarget(self.layout, self.width, self.ashift, self.draid_data).nominal_parity_fraction


def _group(targets: Sequence[AllocTarget]) -> list[tuple[_Geometry, float]]:
    """Merge identical vdevs and normalise shares."""
    acc: dict[_Geometry, float] = defaultdict(float)
    for t in targets:
        acc[_Geometry(t.layout, t.width, t.ashift, t.draid_data, t.deflate_ratio)] += max(t.share, 0.0)
    total = sum(acc.values())
    if total <= 0:
        n = len(acc)
        return [(g, 1.0 / n) for g in acc]
    return [(g, s / total) for g, s in acc.items()]


@lru_cache(maxsize=65536)
def _cost(g: _Geometry, psize: int) -> tuple[int, int, int]:
    """(asize, deflated charge, data-sector bytes) of one DVA of ``psize`` on ``g``."""
    asize = block_asize(g.layout, g.width, g.ashift, psize, g.draid_data)
    return asize, deflate(asize, g.ratio), roundup(psize, 1 << g.ashift)


@dataclass
class _Totals:
    raw: float = 0.0
    used: float = 0.0
    data_sectors: float = 0.0
    nominal_weighted: float = 0.0

    def add(self, other: _Totals, scale: float = 1.0) -> None:
        self.raw += other.raw * scale
        self.used += other.used * scale
        self.data_sectors += other.data_sectors * scale
        self.nominal_weighted += other.nominal_weighted * scale


def _place(demand: dict[int, float], groups: list[tuple[_Geometry, float]]) -> _Totals:
    """Cost of ``demand`` (psize -> number of DVAs) spread over ``groups``."""
    tot = _Totals()
    for psize, dvas in demand.items():
        if dvas <= 0 or psize <= 0:
            continue
        for g, share in groups:
            asize, used, sectors = _cost(g, psize)
            w = dvas * share
            tot.raw += asize * w
            tot.used += used * w
            tot.data_sectors += sectors * w
            tot.nominal_weighted += asize * w * g.nominal
    return tot


@lru_cache(maxsize=8192)
def _indirects(
    nblocks: int,
    nblkptr: int,
    data_dvas: int,
    copies: int,
    redundant: RedundantMetadata,
    version: str,
    min_alloc: int,
    gcd_alloc: int,
) -> tuple[MetaBlock, ...]:
    return tuple(object_indirects(nblocks, nblkptr, data_dvas, copies, redundant, version, min_alloc, gcd_alloc))


# --------------------------------------------------------------------------- the engine


def dataset_usage(
    ds: Dataset,
    *,
    version: str,
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
    v = version_tuple(version)
    volume = ds.type == DatasetType.VOLUME
    bs = effective_block_size(ds, version)
    copies = ds.copies or 1
    try:
        algorithm = resolve_algorithm(ds.compression, version)
    except CompressionError as exc:
        raise DatasetError(f"{ds.name}: {exc}") from exc
    redundant = _redundant(ds)
    dnodesize = LEGACY_DNODE_SIZE if volume else _dnodesize(ds)
    fraction, all_zero = _fraction(ds, algorithm, notes)
    ssb = ds.special_small_blocks or 0
    if ssb and special and v < (2, 4):
        if volume:
            notes.append(f"special_small_blocks applies to zvols only from OpenZFS 2.4 (design says {version})")
        elif ssb > SPECIAL_SMALL_MAX_BEFORE_2_4 or not is_power_of_two(ssb) or ssb < SPA_MINBLOCKSIZE:
            notes.append(f"OpenZFS {version} accepts special_small_blocks only as a power of two from 512 to 1M")
    small_ok = bool(special) and ssb > 0 and (not volume or v >= (2, 4))
    if ssb and small_ok and ssb >= bs:
        notes.append("special_small_blocks >= block size: every data block qualifies for the special class")

    def store(lsize: int, content: int) -> StoredBlock:
        if algorithm == "off":
            return stored_block(
                lsize, None, algorithm="off", version=version, min_alloc=spa_min_alloc, gcd_alloc=spa_gcd_alloc
            )
        if all_zero or content == 0:
            return stored_block(
                lsize,
                None,
                algorithm=algorithm,
                version=version,
                min_alloc=spa_min_alloc,
                gcd_alloc=spa_gcd_alloc,
                all_zero=True,
            )
        comp = estimated_compressed_size(content, lsize - content, fraction, algorithm)
        return stored_block(
            lsize, comp, algorithm=algorithm, version=version, min_alloc=spa_min_alloc, gcd_alloc=spa_gcd_alloc
        )

    block_cache: dict[tuple[int, int], StoredBlock] = {}

    def stored(lsize: int, content: int) -> StoredBlock:
        key = (lsize, content)
        sb = block_cache.get(key)
        if sb is None:
            sb = block_cache[key] = store(lsize, content)
        return sb

    data_demand: dict[int, float] = defaultdict(float)  # alloc psize -> DVAs
    blocks_total = 0.0
    logical_data = 0.0  # lsize of non-hole blocks
    physical_data = 0.0  # psize of non-hole blocks
    content_bytes = 0
    nfiles = 0.0
    hist: dict[int, float] = defaultdict(float)

    def add_blocks(sb: StoredBlock, count: float) -> None:
        nonlocal blocks_total, logical_data, physical_data
        if sb.kind == BlockKind.HOLE:
            return
        blocks_total += count
        logical_data += sb.lsize * count
        physical_data += sb.psize * count
        hist[sb.alloc_psize] += count
        if sb.alloc_psize:
            data_demand[sb.alloc_psize] += count * copies

    meta_demand: dict[int, float] = defaultdict(float)  # metadata psize -> DVAs
    meta_psize = 0.0

    def add_meta(blocks: Sequence[MetaBlock], scale: float) -> None:
        nonlocal meta_psize
        for mb in blocks:
            meta_demand[mb.psize] += mb.count * mb.dvas * scale
            meta_psize += mb.psize * mb.count * scale

    refreservation: int | None = None
    if volume:
        written = ds.contents.logical_bytes if ds.contents and ds.contents.logical_bytes else 0
        if ds.volsize is not None and written > ds.volsize:
            notes.append(f"contents ({written} B) exceed volsize ({ds.volsize} B): capped at volsize")
            written = ds.volsize
        content_bytes = written
        nblocks = ceil_div(written, bs)
        if nblocks:
            full, tail = divmod(written, bs)
            add_blocks(stored(bs, bs), full)
            if tail:
                add_blocks(stored(bs, tail), 1)
            add_meta(
                _indirects(nblocks, DN_MAX_NBLKPTR, copies, copies, redundant, version, spa_min_alloc, spa_gcd_alloc),
                1.0,
            )
        if ds.volsize is not None and not ds.extra.get("sparse", False):
            refreservation = zvol_volsize_to_reservation(ds.volsize, bs, copies, [*normal, *special])
    else:
        buckets, stream = _file_buckets(ds, notes)
        for size, count in buckets:
            if count <= 0:
                continue
            nfiles += count
            content_bytes += int(size * count)
            if size == 0:
                continue
            if size <= bs:
                add_blocks(stored(roundup(size, SPA_MINBLOCKSIZE), size), count)
                continue
            full, tail = divmod(size, bs)
            nblocks = full + (1 if tail else 0)
            add_blocks(stored(bs, bs), full * count)
            if tail:
                add_blocks(stored(bs, tail), count)
            add_meta(
                _indirects(nblocks, SA_NBLKPTR, copies, copies, redundant, version, spa_min_alloc, spa_gcd_alloc), count
            )
        if stream:
            nfiles = 1.0
        files = int(round(nfiles))
        if files:
            tree, dirs = directory_tree(files, _files_per_directory(ds))
            objects = EMPTY_FILESYSTEM_OBJECTS + files + dirs - 1  # the root directory is already there
            add_meta(
                dnode_blocks(objects, dnodesize, copies, redundant, version, spa_min_alloc, spa_gcd_alloc, already=1),
                1.0,
            )
            for entries, count in tree:
                add_meta(
                    directory_blocks(
                        entries, copies, redundant, version, spa_min_alloc, spa_gcd_alloc, weight=float(count)
                    ),
                    1.0,
                )

    try:
        measured = blockhist.read(ds.contents.extra) if ds.contents is not None else None
    except blockhist.BlockHistogramError as exc:
        raise DatasetError(f"{ds.name}: {exc}") from exc
    if measured is not None and algorithm != "off":
        # a measured per-block size histogram replaces the single ratio (blockhist.py)
        alloc = blockhist.allocate(measured, blocks_total, bs, copies, version, spa_min_alloc, spa_gcd_alloc)
        if not blocks_total:
            logical_data = alloc.blocks * bs
            content_bytes = content_bytes or int(logical_data)
        data_demand = defaultdict(float, alloc.demand)
        hist = defaultdict(float, alloc.stored)
        physical_data = alloc.physical_bytes
        blocks_total = alloc.blocks
        notes.append(f"data blocks allocated as measured: {len(measured)} block sizes (block_size_histogram)")

    base = empty_dataset_blocks(volume, copies, redundant, version, spa_min_alloc, spa_gcd_alloc)

    add_meta(base, 1.0)
    base_demand: dict[int, float] = defaultdict(float)
    for mb in base:
        base_demand[mb.psize] += mb.count * mb.dvas

    normal_groups = _group(normal)
    special_groups = _group(special) if special else []

    # Split data blocks into special-eligible small blocks and the rest.
    small_demand: dict[int, float] = {}
    big_demand: dict[int, float] = {}
    for psize, dvas in data_demand.items():
        if small_ok and psize <= ssb:
            small_demand[psize] = dvas
        else:
            big_demand[psize] = dvas

    normal_tot = _place(big_demand, normal_groups)
    special_tot = _Totals()
    meta_tot = _Totals()
    data_tot = _Totals()
    data_tot.add(normal_tot)
    if special_groups:
        meta_on_special = _place(meta_demand, special_groups)
        small_on_special = _place(small_demand, special_groups)
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
            spill = _place(meta_demand, normal_groups)
            meta_tot.add(spill, 1 - f_meta)
            normal_tot.add(spill, 1 - f_meta)
        data_tot.add(small_on_special, f_small)
        special_tot.add(small_on_special, f_small)
        if f_small < 1.0:
            spill = _place(small_demand, normal_groups)
            data_tot.add(spill, 1 - f_small)
            normal_tot.add(spill, 1 - f_small)
        base_tot = _place(base_demand, special_groups)
    else:
        m = _place(meta_demand, normal_groups)
        s = _place(small_demand, normal_groups)
        meta_tot.add(m)
        normal_tot.add(m)
        normal_tot.add(s)
        data_tot.add(s)
        base_tot = _place(base_demand, normal_groups)

    referenced = int(round(data_tot.used + meta_tot.used))
    used = referenced if refreservation is None else max(referenced, refreservation)
    raw = data_tot.raw + meta_tot.raw
    overhead = 1 - (data_tot.data_sectors + meta_tot.data_sectors) / raw if raw else 0.0
    nominal = (
        (data_tot.nominal_weighted + meta_tot.nominal_weighted) / raw
        if raw
        else sum(g.nominal * s for g, s in normal_groups)
    )
    logicalused = logical_data + meta_psize
    return DatasetUsage(
        name=ds.name,
        logical_bytes=content_bytes,
        logicalused_bytes=int(round(logicalused)),
        compressratio=compressratio(int(round(logicalused)), int(round(physical_data + meta_psize))),
        block_size_bytes=bs,
        compression=algorithm,
        copies=copies,
        data_blocks=int(round(blocks_total)),
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
        psize_histogram=tuple(sorted((p, int(round(n))) for p, n in hist.items())),
        notes=tuple(notes),
        data_dvas=tuple(sorted(data_demand.items())),
        metadata_dvas=tuple(sorted(meta_demand.items())),
        small_blocks_allowed=not volume or v >= (2, 4),
        metadata_psize_bytes=int(round(meta_psize)),
    )
