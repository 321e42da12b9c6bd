"""Metadata a dataset adds on top of its data: indirect blocks, dnode blocks, directory
ZAPs and the objects every new dataset starts with.

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

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..compression.rules import BlockKind, stored_block
from ..units import ceil_div
from .ddt import leaf_chunks

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
MZAP_ENT_LEN = 64  # include/sys/zap_impl.h
MZAP_MAX_ENTRIES = (128 * 1024) // MZAP_ENT_LEN - 1  # zap_micro_max_size 128 KiB: 2047 entries
FZAP_BLOCK_SHIFT = 14  # fzap_default_block_shift (zap.c): 16 KiB header, leaf and pointer-table blocks
FZAP_BLOCK_SIZE = 1 << FZAP_BLOCK_SHIFT
ZAP_LEAF_CHUNKS = leaf_chunks(FZAP_BLOCK_SHIFT)  # 638: (16384 - 2 x 512) / 24 - 2
ZAP_CHUNKS_PER_ENTRY = 3  # entry + name (names < 21 B) + value
ZAP_LEAF_ENTRIES = ZAP_LEAF_CHUNKS // ZAP_CHUNKS_PER_ENTRY  # 212: zap_entry_create() splits past this
# Files per directory when the design does not say (``contents.files_per_directory``): a
# tree of directories of 64 entries each (see directory_tree). Real trees (photo albums,
# source code, home directories, backups) hold tens to a few hundred files per directory;
# "every file in one directory" is the rare case (a mail spool, a cache), and it is the one
# that makes a directory a fat ZAP once it passes 2,047 entries (MZAP_MAX_ENTRIES).
FILES_PER_DIRECTORY: int | None = 64
ZAP_EMBEDDED_PTRTBL = 1024  # pointers held in the fatzap header block (zap_impl.h)
ZAP_PTRTBL_PER_BLOCK = FZAP_BLOCK_SIZE // 8
ZAP_PTR_COMPRESSED = 4  # bytes per pointer-table entry after lz4 (runs of equal leaf ids)

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
# A microzap entry is a 64 B chunk written in creation order (mzap_addent() takes the next
# free chunk): its 8 B value differs from the previous chunk's in the low byte(s) of the
# object number, the name in its last characters, the rest (cd, pad, the zero tail of the
# 50 B name) repeats. lz4 codes that as two sequences (token, 2 B offset, a literal byte or
# two, one extra length byte for the run of zeros): about 10 B per entry for names that
# share a prefix with their neighbour (file000123, IMG_1234.JPG: 9-10 B measured with lz4
# on blocks laid out as zap_micro.c does); names with nothing in common cost up to 22 B.
# The 64 B header (block type, random salt) and the frame: 44 B.
MZAP_ENTRY_COMPRESSED = 10
MZAP_HEADER_COMPRESSED = 44
# A fat ZAP leaf after lz4 (zap_leaf.c). zap_leaf_init() makes each of its 638 chunks a free
# chunk (type 253, 21 zero bytes) whose 2 B lf_next points at the next one: lz4 repeats the 22 B
# and pays the pointer, 5 B a chunk, so a leaf costs about 3.2 KiB before it holds anything. An
# entry's three chunks (the entry with its random 28-bit hash and chunk numbers, the name, the
# big-endian object number) and its slot in the 512-entry hash table cost 32 B; the header and
# the hash table's runs of CHAIN_END, 362 B. Measured with OpenZFS's lz4 on leaves laid out as
# zap_leaf.c does (entries added, leaves split by zap_leaf_split(), freed chunks zeroed) for
# 2,048 to 20,000 names like file000123: 5,700 B for 128 names, 6,200 B for 156, within 150 B
# per leaf. Names with nothing in common cost about 11 B more each.
FZAP_LEAF_FIXED_COMPRESSED = 362
FZAP_FREE_CHUNK_COMPRESSED = 5
FZAP_ENTRY_COMPRESSED = 32
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


def _stored(compressed: int, lsize: int, version: str, min_alloc: int, gcd_alloc: int) -> int:
    """Physical size of a metadata block whose lz4 output is ``compressed`` bytes."""
    sb = stored_block(
        lsize, compressed, algorithm="lz4", version=version, min_alloc=min_alloc, gcd_alloc=gcd_alloc, embeddable=False
    )
    return sb.psize


@lru_cache(maxsize=16384)
def indirect_block_psize(filled: int, child_dvas: int, version: str, min_alloc: int, gcd_alloc: int) -> int:
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
    return _stored(compressed, INDIRECT_BLOCK_SIZE, version, min_alloc, gcd_alloc)


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
    version: str,
    min_alloc: int,
    gcd_alloc: int,
    *,
    level1_kind: MetaKind = MetaKind.FILE_L1,
    upper_kind: MetaKind = MetaKind.FILE_L2,
    weight: float = 1.0,
) -> list[MetaBlock]:
    """Indirect blocks of ``weight`` objects with ``nblocks`` data blocks each."""
    out: list[MetaBlock] = []
    n = int(nblocks)
    if n <= nblkptr:
        return out
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
    return out


@lru_cache(maxsize=4096)
def dnode_block_psize(dnodes: int, dnodesize: int, version: str, min_alloc: int, gcd_alloc: int) -> int:
    """Physical size of a 16 KiB dnode block holding ``dnodes`` allocated dnodes.

    Estimate: :data:`DNODE_COMPRESSED` (56 B) per dnode after lz4 (the block pointer's
    checksum and DVA are random; core fields, SA attributes of files created together and
    the zero padding compress away). Fitted to OpenZFS 2.3.2: 32 dnodes of files written
    with their data take 4 sectors of 512 B.
    """
    empty = DNODE_BLOCK_SIZE - dnodes * dnodesize
    compressed = LZ4_FRAME + ceil_div(max(empty, 0), 255) + dnodes * DNODE_COMPRESSED
    return _stored(compressed, DNODE_BLOCK_SIZE, version, min_alloc, gcd_alloc)


def dnode_block_count(objects: int, dnodesize: int) -> int:
    """Dnode blocks (level 0 of the meta-dnode) that ``objects`` objects fill, object 0 included."""
    return ceil_div(objects, DNODE_BLOCK_SIZE // dnodesize)


def dnode_blocks(
    objects: int,
    dnodesize: int,
    copies: int,
    redundant: RedundantMetadata,
    version: str,
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
    version: str,
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


def directory_tree(files: int, per_directory: int | None) -> tuple[list[tuple[int, int]], int]:
    """Directories holding ``files`` files, ``per_directory`` entries each: ``([(entries,
    directories)], directories in all)``, the dataset's root directory included.

    Files fill leaf directories of ``per_directory`` entries (the last one partly); those
    directories are entries of the level above, filled the same way, up to one directory,
    the root. Adding files only fills the last directory or starts a new one, so the
    metadata never shrinks as files are added. ``None``: every file in the root.
    """
    if files <= 0:
        return [], 1
    if per_directory is None or files <= per_directory:
        return [(files, 1)], 1
    # the levels above hold directories, at least two each (one a directory would never end)
    fanout = max(per_directory, 2)
    groups: dict[int, int] = {}
    total = 0
    n = files
    width = per_directory
    while True:
        full, rest = divmod(n, width)
        if full:
            groups[width] = groups.get(width, 0) + full
        if rest:
            groups[rest] = groups.get(rest, 0) + 1
        dirs = full + (1 if rest else 0)
        total += dirs
        if dirs <= 1:
            break
        n = dirs
        width = fanout
    return sorted(groups.items()), total


def _poisson_above(lam: float, k: int) -> float:
    """P(X > k) for X ~ Poisson(lam)."""
    if lam <= 0:
        return 0.0
    if lam > 4 * k + 100:
        return 1.0
    log_lam = math.log(lam)
    cdf = sum(math.exp(-lam + i * log_lam - math.lgamma(i + 1)) for i in range(k + 1))
    return max(0.0, 1.0 - cdf)


def fat_zap_leaf_compressed(entries: float) -> int:
    """Bytes lz4 makes of a 16 KiB fat ZAP leaf holding ``entries`` short names (estimate).

    The leaf's chunks that hold no entry keep the free-list layout ``zap_leaf_init()`` gave
    them (``module/zfs/zap_leaf.c``: ``lf_type = ZAP_CHUNK_FREE``, ``lf_next = i + 1``) or
    the one ``zap_leaf_chunk_free()`` gives a freed chunk (its pad zeroed "to help it to
    compress"), so they cost :data:`FZAP_FREE_CHUNK_COMPRESSED` each rather than nothing;
    each entry takes ``ZAP_CHUNKS_PER_ENTRY`` chunks (``zap_entry_create()``).
    """
    free = max(ZAP_LEAF_CHUNKS - entries * ZAP_CHUNKS_PER_ENTRY, 0.0)
    return int(
        math.ceil(
            FZAP_LEAF_FIXED_COMPRESSED + free * FZAP_FREE_CHUNK_COMPRESSED + entries * FZAP_ENTRY_COMPRESSED
        )
    )


@lru_cache(maxsize=4096)
def zap_leaves(entries: int, per_leaf: int = ZAP_LEAF_ENTRIES) -> float:
    """Expected number of leaves of a fat ZAP holding ``entries`` short names.

    ``zap_entry_create()`` refuses an entry when its leaf has fewer free chunks than the
    entry needs, and ``zap_expand_leaf()`` splits that leaf in two on one more bit of the
    64-bit name hash (``zap.c``, ``zap_leaf.c``). The hash spreads names evenly, so the
    entries under a hash prefix of ``d`` bits are about Poisson(``entries / 2**d``), and
    that prefix was split iff it holds more than a leaf's ``per_leaf`` entries (212 short
    names: 638 chunks, 3 per name). Leaves = 1 + the expected number of split prefixes, so
    the count doubles in steps (20,000 names: 128 leaves, 73 % full) rather than growing
    smoothly at the average fill.
    """
    if entries <= per_leaf:
        return 1.0
    leaves = 1.0
    depth = 0
    while True:
        nodes = 1 << depth
        p = _poisson_above(entries / nodes, per_leaf)
        if p < 1e-9:
            break
        leaves += nodes * p
        depth += 1
    return leaves


def directory_blocks(
    entries: int,
    copies: int,
    redundant: RedundantMetadata,
    version: str,
    min_alloc: int,
    gcd_alloc: int,
    *,
    weight: float = 1.0,
) -> list[MetaBlock]:
    """ZAP blocks of ``weight`` directories holding ``entries`` entries each.

    Up to 2047 short names a directory is a microzap: one block of 64 B chunks, grown
    512 B at a time (``zap_micro.c``), embedded in its block pointer while it compresses
    to 112 B or less (up to about 6 entries). Beyond that it is a fatzap (``zap.c``): a
    16 KiB header block plus 16 KiB leaves (:func:`zap_leaves`), and an indirect block
    above them. ``mzap_upgrade()`` (``zap_micro.c``) makes the switch when the 2,048th
    entry does not fit a 128 KiB micro ZAP (``zap_micro_max_size``): the block becomes the
    header, with its 1,024-entry pointer table embedded in its second half, and every entry
    is added again to a first leaf that splits as it fills. Compressed sizes are estimates
    (10 B per microzap entry; a leaf as :func:`fat_zap_leaf_compressed`).
    """
    dvas = metadata_copies(copies, redundant, MetaKind.ZAP)
    if entries <= MZAP_MAX_ENTRIES:
        lsize = ((entries + 1) * MZAP_ENT_LEN + 511) // 512 * 512
        empty = lsize - (entries + 1) * MZAP_ENT_LEN
        compressed = MZAP_HEADER_COMPRESSED + entries * MZAP_ENTRY_COMPRESSED + ceil_div(empty, 255)
        # A level-0 ZAP block of at most 112 B after lz4 is embedded in its block pointer
        # (zio_write_compress(): level 0, a type without fill counts): no allocation.
        sb = stored_block(lsize, compressed, algorithm="lz4", version=version, min_alloc=min_alloc, gcd_alloc=gcd_alloc)
        if sb.kind == BlockKind.EMBEDDED:
            return []
        return [MetaBlock(MetaKind.ZAP, sb.alloc_psize, dvas, weight)]
    leaves = max(int(round(zap_leaves(entries))), 1)
    leaf_comp = fat_zap_leaf_compressed(entries / leaves)
    header_comp = LZ4_FRAME + 256 + ceil_div(FZAP_BLOCK_SIZE, 255)
    out = [
        MetaBlock(
            MetaKind.ZAP, _stored(leaf_comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc), dvas, leaves * weight
        ),
        MetaBlock(MetaKind.ZAP, _stored(header_comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc), dvas, weight),
    ]
    ptr_blocks = 0
    if leaves > ZAP_EMBEDDED_PTRTBL:
        # The pointer table moves out of the header into its own blocks, sized to the next
        # power of two of the leaf count (zap.c, zap_grow_ptrtbl).
        ptrs = 1 << (leaves - 1).bit_length()
        ptr_blocks = ceil_div(ptrs, ZAP_PTRTBL_PER_BLOCK)
        comp = LZ4_FRAME + ZAP_PTRTBL_PER_BLOCK * ZAP_PTR_COMPRESSED
        out.append(
            MetaBlock(
                MetaKind.ZAP, _stored(comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc), dvas, ptr_blocks * weight
            )
        )
    out.extend(
        object_indirects(
            leaves + 1 + ptr_blocks,
            SA_NBLKPTR,
            dvas,
            copies,
            redundant,
            version,
            min_alloc,
            gcd_alloc,
            level1_kind=MetaKind.ZAP,
            upper_kind=MetaKind.ZAP,
            weight=weight,
        )
    )
    return out


def empty_dataset_blocks(
    volume: bool,
    copies: int,
    redundant: RedundantMetadata,
    version: str,
    min_alloc: int,
    gcd_alloc: int,
    *,
    dnode_block_total: int = EMPTY_FILESYSTEM_DNODE_BLOCKS,
) -> list[MetaBlock]:
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
        psize = _stored(s, max(s * 2, DNODE_BLOCK_SIZE), version, min_alloc, gcd_alloc)
        out.append(MetaBlock(MetaKind.DNODE, psize, dvas, 1))
    return out
