"""Directories: the micro and fat ZAPs that hold a dataset's names, and the tree of directories
a design's ``files_per_directory`` builds.

Exact (from the on-disk format, ``zap_micro.c``, ``zap.c``, ``zap_leaf.c``): when a directory
is a micro ZAP and when a fat ZAP, the micro ZAP's block size, the fat ZAP's 16 KiB header,
leaves and pointer table, and how many leaves hash splits make. Estimated: what each block
compresses to with lz4 (see the constants' notes and docs/datasets.md).
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..compression.rules import BlockKind, stored_block
from ..units import ceil_div
from ..versions import Version
from .ddt import leaf_chunks
from .metadata import (
    LZ4_FRAME,
    SA_NBLKPTR,
    MetaBlock,
    MetaKind,
    RedundantMetadata,
    metadata_block_psize,
    metadata_copies,
    object_indirects,
)

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
# The header block after lz4: its fields and zeros, 120 B, and the embedded pointer table
# (its second half, 1,024 leaf block numbers of 8 B) in runs, one a leaf, each a match of the
# previous pointer and the new number's low bytes, 7 B (measured the same way: 235 B with 16
# leaves, 1,111 B with 128, 3,668 B with 512).
FZAP_HEADER_FIXED_COMPRESSED = 120
FZAP_PTR_RUN_COMPRESSED = 7


def directory_tree(files: int, per_directory: int | None) -> tuple[list[tuple[int, int]], int]:
    """Directories holding ``files`` files, ``per_directory`` entries each: ``([(entries,
    directories)], directories in all)``, the dataset's root directory included.

    Files fill leaf directories of ``per_directory`` entries (the last one partly); those
    directories are entries of the level above, filled the same way, up to one directory,
    the root. Adding files only fills the last directory or starts a new one, so the
    metadata never shrinks as files are added. ``None``: every file in the root. With one
    file per directory the levels above hold two directories each.
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
        math.ceil(FZAP_LEAF_FIXED_COMPRESSED + free * FZAP_FREE_CHUNK_COMPRESSED + entries * FZAP_ENTRY_COMPRESSED)
    )


def fat_zap_header_compressed(leaves: int) -> int:
    """Bytes lz4 makes of a fat ZAP's 16 KiB header block (estimate).

    ``fzap_upgrade()`` (``module/zfs/zap.c``) zeroes the block, fills the ``zap_phys_t``
    fields and points all 1,024 entries of the embedded pointer table
    (``ZAP_EMBEDDED_PTRTBL_ENT``, the block's second half) at leaf 1; each split then points
    the upper half of a leaf's range at the new leaf, so the table holds one run per leaf.
    """
    return FZAP_HEADER_FIXED_COMPRESSED + FZAP_PTR_RUN_COMPRESSED * min(leaves, ZAP_EMBEDDED_PTRTBL)


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
    version: Version,
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
    header_comp = fat_zap_header_compressed(leaves)
    out = [
        MetaBlock(
            MetaKind.ZAP,
            metadata_block_psize(leaf_comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc),
            dvas,
            leaves * weight,
        ),
        MetaBlock(
            MetaKind.ZAP,
            metadata_block_psize(header_comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc),
            dvas,
            weight,
        ),
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
                MetaKind.ZAP,
                metadata_block_psize(comp, FZAP_BLOCK_SIZE, version, min_alloc, gcd_alloc),
                dvas,
                ptr_blocks * weight,
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
