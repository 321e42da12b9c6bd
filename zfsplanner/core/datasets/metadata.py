"""Metadata a dataset adds on top of its data: indirect blocks, dnode blocks and the objects
every new dataset starts with (directories: :mod:`.directories`).

What is exact and what is estimated:

* exact (from the on-disk format): how many indirect blocks and dnode blocks exist and
  their logical sizes (``include/sys/dnode.h``: 16 KiB dnode blocks, 128 KiB indirect
  blocks of 1024 block pointers; ``dnode_allocate()`` gives SA-bonus objects one block
  pointer, other objects three), how many copies each gets (``dmu.c``,
  ``dmu_write_policy()``), and that all of it is compressed with lz4 under the same
  acceptance and rounding rules as data (``compression.stored_block``);
* estimated: the compressed size of each metadata block, which depends on its contents.
  The byte costs below were fitted to real OpenZFS 2.3.2 (``shared/calibration``: files
  and zvols on a 5-wide raidz1 at ashift 9, where every 512 B sector shows), see
  docs/datasets.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..compression.rules import stored_block
from ..units import ceil_div
from ..versions import Version

DNODE_BLOCK_SIZE = 1 << 14  # DNODE_BLOCK_SHIFT
INDIRECT_BLOCK_SIZE = 1 << 17  # zfs_default_ibs / DN_MAX_INDBLKSHIFT
BLKPTR_SIZE = 1 << 7  # SPA_BLKPTRSHIFT
BPS_PER_INDIRECT = INDIRECT_BLOCK_SIZE // BLKPTR_SIZE  # 1024
DN_MAX_NBLKPTR = 3
DNODE_SHIFT = 9  # include/sys/dnode.h: slots are 512 B; object numbers count slots
DN_MAX_OBJECT_SHIFT = 48  # include/sys/dnode.h: DN_MAX_OBJECT = 2^48
SA_NBLKPTR = 1  # dnode_allocate(): "Maximize bonus space for SA"
META_DNODE_NBLKPTR = 3
LEGACY_DNODE_SIZE = 512

# Compressed sizes (lz4). Block pointers and dnodes: fitted to openzfs-2.3.2.json
# written_datasets. A filled block pointer costs its random checksum and first DVA (40 B
# with one DVA, the fit); a ditto DVA repeats the first one's vdev and asize word, so lz4
# pays only its offset and a sequence (8 B): 2-DVA pointers of the meta-dnode's L1 take
# 45 B or less each on the real pool (shared/calibration/openzfs-2.3.2-dirs-sample.json).
BP_COMPRESSED_BASE = 32  # bytes per filled block pointer, plus 8 B per DVA
BP_COMPRESSED_PER_DVA = 8
# A dnode of a file written with its data: 32 of them take 4 sectors of 512 B (1,537-2,048 B
# after lz4, 48-62 B each): 2,048 files of 4 KiB or 12 KiB, 1,000 per directory, on raidz1-5
# ashift 9 (openzfs-2.3.2.json written_datasets), whose metadata is 150,528 B of psize (the
# growth of logicalused less the data: ZFS counts a metadata block's psize there) in 864
# sectors. Its block pointer's checksum and DVA offset are random; the core fields and the SA
# attributes of files created together repeat from one dnode to the next.
DNODE_COMPRESSED = 56  # bytes per allocated dnode in a dnode block
LZ4_FRAME = 64  # fitted fixed cost per metadata block (frame, last literals)

# Objects of a new, empty ZPL filesystem: master node, SA master, SA registration, SA
# layouts, delete queue, root directory (object 34, so dnode blocks 0 and 1 exist), shares
# directory. Eleven metadata blocks of about 1 KiB each after lz4 (calibration: an empty
# dataset charges 88 sectors = 11 blocks x 2 copies x 4 sectors on raidz1-5 ashift 9,
# logicalused 12 KiB): the objset block, dnode blocks 0 and 1, the meta-dnode's five
# indirect blocks (computed, see meta_dnode_indirects) and three ZAP blocks (master node,
# SA registration, SA layouts; the empty directories and queues are embedded in their
# block pointers).
EMPTY_FILESYSTEM_FIXED_BLOCKS = (1536, 1536, 1024) + (1024,) * 3
EMPTY_FILESYSTEM_DNODE_BLOCKS = 2
EMPTY_FILESYSTEM_OBJECTS = 8
# A new zvol: objset, meta-dnode block 0, the zvol property ZAP.
EMPTY_VOLUME_BLOCKS = (1536, 1536, 1024)
EMPTY_VOLUME_OBJECTS = 3


def meta_dnode_levels(nblkptr: int = DN_MAX_NBLKPTR) -> int:
    """Levels of a dataset's meta-dnode, fixed when the dataset is created.

    ``dmu_objset_create_impl()`` (``module/zfs/dmu_objset.c``) gives the meta-dnode of
    every dataset (not the MOS) enough levels to address ``DN_MAX_OBJECT`` dnodes at once,
    "because then we could do it in quiescing context": the smallest ``levels`` with
    ``nblkptr << (DNODE_BLOCK_SHIFT - DNODE_SHIFT + (levels - 1) * 10) >= 2^48``, i.e. 6
    (L0 dnode blocks and five indirect levels) with 16 KiB dnode blocks and 128 KiB
    indirect blocks. So an empty dataset already has one indirect block per level, and
    adding objects only fills them (a new L1 every 1024 dnode blocks).
    """
    levels = 1
    per_indirect_shift = (INDIRECT_BLOCK_SIZE // BLKPTR_SIZE).bit_length() - 1
    block_shift = DNODE_BLOCK_SIZE.bit_length() - 1
    while nblkptr << (block_shift - DNODE_SHIFT + (levels - 1) * per_indirect_shift) < 1 << DN_MAX_OBJECT_SHIFT:
        levels += 1
    return levels


META_DNODE_LEVELS = meta_dnode_levels()  # 6


class RedundantMetadata(StrEnum):
    ALL = "all"
    MOST = "most"
    SOME = "some"
    NONE = "none"


class MetaKind(StrEnum):
    """Which rule of ``dmu_write_policy()`` decides a block's extra copy."""

    FILE_L1 = "file-l1"  # level-1 indirect of file/zvol data (not a metadata type)
    FILE_L2 = "file-l2+"  # level >= 2 indirect of file/zvol data
    DNODE = "dnode"  # dnode blocks and the meta-dnode's indirects: critical metadata
    ZAP = "zap"  # directories and other ZAP objects


SPA_DVAS_PER_BP = 3


def metadata_copies(copies: int, redundant: RedundantMetadata, kind: MetaKind) -> int:
    """DVAs of a metadata block (``dmu_write_policy()`` in ``module/zfs/dmu.c``).

    ``all`` (the default) adds one copy to all metadata, file indirect blocks included;
    ``most`` skips level-1 indirects of file/zvol data
    (``zfs_redundant_metadata_most_ditto_level`` = 2); ``some`` keeps the extra copy
    only for critical metadata (dnodes); ``none`` adds nothing. At most 3 DVAs
    (``spa_max_replication``).
    """
    extra = 0
    if redundant == RedundantMetadata.ALL:
        extra = 1
    elif redundant == RedundantMetadata.MOST:
        extra = 0 if kind == MetaKind.FILE_L1 else 1
    elif redundant == RedundantMetadata.SOME:
        extra = 1 if kind == MetaKind.DNODE else 0
    return min(copies + extra, SPA_DVAS_PER_BP)


@dataclass(frozen=True)
class MetaBlock:
    """``count`` metadata blocks of one physical size, each stored ``dvas`` times."""

    kind: MetaKind
    psize: int
    dvas: int
    count: float


def metadata_block_psize(compressed: int, lsize: int, version: Version, min_alloc: int, gcd_alloc: int) -> int:
    """Physical size of a metadata block whose lz4 output is ``compressed`` bytes."""
    sb = stored_block(
        lsize, compressed, algorithm="lz4", version=version, min_alloc=min_alloc, gcd_alloc=gcd_alloc, embeddable=False
    )
    return sb.psize


@lru_cache(maxsize=16384)
def indirect_block_psize(filled: int, child_dvas: int, version: Version, min_alloc: int, gcd_alloc: int) -> int:
    """Physical size of a 128 KiB indirect block holding ``filled`` block pointers.

    Estimate: lz4 codes the empty slots at one byte per 255 and each filled block
    pointer (checksum, DVA offsets, birth txg) at about 24 B plus 16 B per DVA it
    carries. Fitted to OpenZFS 2.3.2: 3/8/16/32/64/128/256/1024 pointers of
    single-DVA data stored as 2/2/3/4/7/12/21/81 sectors of 512 B; openzfs/zfs#10042
    shows 256 pointers in 12 KiB at ashift 12.
    """
    per_bp = BP_COMPRESSED_BASE + BP_COMPRESSED_PER_DVA * child_dvas
    empty = INDIRECT_BLOCK_SIZE - filled * BLKPTR_SIZE
    compressed = LZ4_FRAME + ceil_div(empty, 255) + int(filled * per_bp + 0.5)
    return metadata_block_psize(compressed, INDIRECT_BLOCK_SIZE, version, min_alloc, gcd_alloc)


def indirect_levels(nblocks: int, nblkptr: int) -> list[tuple[int, int]]:
    """Indirect blocks above ``nblocks`` level-0 blocks of one object.

    Returns one ``(blocks, pointers_in_last_block)`` per level from level 1 up; the
    other blocks of a level are full (1024 pointers). An object whose blocks fit in
    the dnode's ``nblkptr`` pointers has none (``dnode_increase_indirection``/
    ``dnode_next_offset``: nlevels grows until the top level fits in the dnode).
    """
    levels: list[tuple[int, int]] = []
    n = nblocks
    while n > nblkptr:
        upper = ceil_div(n, BPS_PER_INDIRECT)
        last = n - (upper - 1) * BPS_PER_INDIRECT
        levels.append((upper, last))
        n = upper
    return levels


def object_indirects(
    nblocks: float,
    nblkptr: int,
    data_dvas: int,
    copies: int,
    redundant: RedundantMetadata,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
    *,
    level1_kind: MetaKind = MetaKind.FILE_L1,
    upper_kind: MetaKind = MetaKind.FILE_L2,
    weight: float = 1.0,
) -> tuple[MetaBlock, ...]:
    """Indirect blocks of ``weight`` objects with ``nblocks`` data blocks each."""
    out: list[MetaBlock] = []
    n = int(nblocks)
    if n <= nblkptr:
        return ()
    child_dvas = data_dvas
    for depth, (count, last) in enumerate(indirect_levels(n, nblkptr)):
        kind = level1_kind if depth == 0 else upper_kind
        dvas = metadata_copies(copies, redundant, kind)
        if count > 1:
            psize = indirect_block_psize(BPS_PER_INDIRECT, child_dvas, version, min_alloc, gcd_alloc)
            out.append(MetaBlock(kind, psize, dvas, (count - 1) * weight))
        psize = indirect_block_psize(last, child_dvas, version, min_alloc, gcd_alloc)
        out.append(MetaBlock(kind, psize, dvas, weight))
        child_dvas = dvas
    return tuple(out)


@lru_cache(maxsize=4096)
def dnode_block_psize(dnodes: int, dnodesize: int, version: Version, min_alloc: int, gcd_alloc: int) -> int:
    """Physical size of a 16 KiB dnode block holding ``dnodes`` allocated dnodes.

    Estimate: :data:`DNODE_COMPRESSED` (56 B) per dnode after lz4 (the block pointer's
    checksum and DVA are random; core fields, SA attributes of files created together and
    the zero padding compress away). Fitted to OpenZFS 2.3.2: 32 dnodes of files written
    with their data take 4 sectors of 512 B.
    """
    empty = DNODE_BLOCK_SIZE - dnodes * dnodesize
    compressed = LZ4_FRAME + ceil_div(max(empty, 0), 255) + dnodes * DNODE_COMPRESSED
    return metadata_block_psize(compressed, DNODE_BLOCK_SIZE, version, min_alloc, gcd_alloc)


def dnode_block_count(objects: int, dnodesize: int) -> int:
    """Dnode blocks (level 0 of the meta-dnode) that ``objects`` objects fill, object 0 included."""
    return ceil_div(objects, DNODE_BLOCK_SIZE // dnodesize)


def dnode_blocks(
    objects: int,
    dnodesize: int,
    copies: int,
    redundant: RedundantMetadata,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
    *,
    already: int = 0,
) -> list[MetaBlock]:
    """Dnode blocks for ``objects`` objects, less the first ``already`` dnode blocks, which
    the empty dataset has. The meta-dnode's indirect blocks are not here: every dataset has
    them from the start (:func:`meta_dnode_indirects`, counted with the empty dataset).

    ``dmu_object_alloc_impl()`` hands out objects in order, in chunks of 128 per CPU
    (``dmu_object_alloc_chunk_shift``), so the blocks are full but the last; a creator
    that moves between CPUs can leave a chunk partly used (one more block now and then,
    not modelled).
    """
    per_block = DNODE_BLOCK_SIZE // dnodesize
    nblocks = dnode_block_count(objects, dnodesize)
    dvas = metadata_copies(copies, redundant, MetaKind.DNODE)
    out: list[MetaBlock] = []
    full = objects // per_block
    rem = objects - full * per_block
    new_full = max(full - already, 0)
    if new_full:
        out.append(
            MetaBlock(
                MetaKind.DNODE, dnode_block_psize(per_block, dnodesize, version, min_alloc, gcd_alloc), dvas, new_full
            )
        )
    if rem and nblocks > already:
        out.append(MetaBlock(MetaKind.DNODE, dnode_block_psize(rem, dnodesize, version, min_alloc, gcd_alloc), dvas, 1))
    return out


def meta_dnode_indirects(
    dnode_block_total: int,
    copies: int,
    redundant: RedundantMetadata,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
) -> list[MetaBlock]:
    """The meta-dnode's indirect blocks (levels 1 to 5) above ``dnode_block_total`` dnode blocks.

    The tree is as deep as :func:`meta_dnode_levels` from the dataset's creation: one block
    per level with a single pointer in an empty dataset (two at level 1: dnode blocks 0 and
    1), a new level-1 block for every 1024 dnode blocks (32,768 legacy dnodes), a new
    level-2 block for every 1024 of those. Their pointers carry the children's DVAs
    (dnode blocks have the extra metadata copy).
    """
    dvas = metadata_copies(copies, redundant, MetaKind.DNODE)
    out: list[MetaBlock] = []
    n = max(dnode_block_total, 1)
    for _level in range(1, META_DNODE_LEVELS):
        count = ceil_div(n, BPS_PER_INDIRECT)
        last = n - (count - 1) * BPS_PER_INDIRECT
        if count > 1:
            full = indirect_block_psize(BPS_PER_INDIRECT, dvas, version, min_alloc, gcd_alloc)
            out.append(MetaBlock(MetaKind.DNODE, full, dvas, count - 1))
        out.append(MetaBlock(MetaKind.DNODE, indirect_block_psize(last, dvas, version, min_alloc, gcd_alloc), dvas, 1))
        n = count
    return out


@lru_cache(maxsize=4096)  # twice per dataset of every estimate, from a few distinct arguments
def empty_dataset_blocks(
    volume: bool,
    copies: int,
    redundant: RedundantMetadata,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
    *,
    dnode_block_total: int = EMPTY_FILESYSTEM_DNODE_BLOCKS,
) -> tuple[MetaBlock, ...]:
    """Metadata of a freshly created dataset (before any contents are written).

    For a filesystem, ``dnode_block_total`` sizes the meta-dnode's indirect blocks: the
    empty dataset's two dnode blocks by default; with contents, the dataset's final count
    (the same blocks, fuller: they are rewritten, not added).
    """
    dvas = metadata_copies(copies, redundant, MetaKind.DNODE)
    out: list[MetaBlock] = []
    if volume:
        sizes: tuple[int, ...] = EMPTY_VOLUME_BLOCKS
    else:
        sizes = EMPTY_FILESYSTEM_FIXED_BLOCKS
        out.extend(meta_dnode_indirects(dnode_block_total, copies, redundant, version, min_alloc, gcd_alloc))
    for s in sizes:
        psize = metadata_block_psize(s, max(s * 2, DNODE_BLOCK_SIZE), version, min_alloc, gcd_alloc)
        out.append(MetaBlock(MetaKind.DNODE, psize, dvas, 1))
    return tuple(out)
