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

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..compression.rules import stored_block
from ..units import ceil_div

DNODE_BLOCK_SIZE = 1 << 14  # DNODE_BLOCK_SHIFT
INDIRECT_BLOCK_SIZE = 1 << 17  # zfs_default_ibs / DN_MAX_INDBLKSHIFT
BLKPTR_SIZE = 1 << 7  # SPA_BLKPTRSHIFT
BPS_PER_INDIRECT = INDIRECT_BLOCK_SIZE // BLKPTR_SIZE  # 1024
DN_MAX_NBLKPTR = 3
SA_NBLKPTR = 1  # dnode_allocate(): "Maximize bonus space for SA"
META_DNODE_NBLKPTR = 3
LEGACY_DNODE_SIZE = 512
MZAP_ENT_LEN = 64  # include/sys/zap_impl.h
MZAP_MAX_ENTRIES = (128 * 1024) // MZAP_ENT_LEN - 1  # zap_micro_max_size 128 KiB: 2047 entries
FZAP_BLOCK_SIZE = 1 << 14  # fzap_default_block_shift
ZAP_LEAF_CHUNKS = 638  # (16384 - 2*512) / 24 - 2
ZAP_CHUNKS_PER_ENTRY = 3  # entry + name (names < 21 B) + value
ZAP_LEAF_FILL = 0.69  # leaves split on hash prefixes: about ln 2 full on average
# Files per directory when the design does not say (``contents.files_per_directory``): a
# tree of directories of 64 entries each (see directory_tree). Real trees (photo albums,
# source code, home directories, backups) hold tens to a few hundred files per directory;
# "every file in one directory" is the rare case (a mail spool, a cache), and it is the one
# that makes a directory a fat ZAP once it passes 2,047 entries (MZAP_MAX_ENTRIES).
FILES_PER_DIRECTORY: int | None = 64
ZAP_EMBEDDED_PTRTBL = 1024  # pointers held in the fatzap header block (zap_impl.h)
ZAP_PTRTBL_PER_BLOCK = FZAP_BLOCK_SIZE // 8
ZAP_PTR_COMPRESSED = 4  # bytes per pointer-table entry after lz4 (runs of equal leaf ids)

# Fitted compressed sizes (lz4), calibration: openzfs-2.3.2.json written_datasets.
BP_COMPRESSED_BASE = 24  # bytes per filled block pointer, plus 16 B per DVA
BP_COMPRESSED_PER_DVA = 16
DNODE_COMPRESSED = 44  # bytes per allocated dnode in a dnode block
MZAP_ENTRY_COMPRESSED = 20  # bytes per microzap entry
FZAP_ENTRY_COMPRESSED = 26  # bytes per fatzap entry (8 B hash is random)
LZ4_FRAME = 64  # fitted fixed cost per metadata block (frame, last literals)

# Objects of a new, empty ZPL filesystem: master node, SA master, SA registration, SA
# layouts, delete queue, root directory, user/group/project accounting; plus the objset
# block and meta-dnode block 0. Eleven metadata blocks of about 1 KiB each after lz4
# (calibration: an empty dataset charges 88 sectors = 11 blocks x 2 copies x 4 sectors
# on raidz1-5 ashift 9, logicalused 12 KiB).
EMPTY_FILESYSTEM_BLOCKS = (1536, 1536) + (1024,) * 9
EMPTY_FILESYSTEM_OBJECTS = 8
# A new zvol: objset, meta-dnode block 0, the zvol property ZAP.
EMPTY_VOLUME_BLOCKS = (1536, 1536, 1024)
EMPTY_VOLUME_OBJECTS = 3


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

    Estimate: about 44 B per dnode after lz4 (the block pointer's checksum and DVA are
    random; core fields, SA attributes of files created together and the zero padding
    compress away). Fitted to OpenZFS 2.3.2: 32 file dnodes take 3 sectors of 512 B.
    """
    empty = DNODE_BLOCK_SIZE - dnodes * dnodesize
    compressed = LZ4_FRAME + ceil_div(max(empty, 0), 255) + dnodes * DNODE_COMPRESSED
    return _stored(compressed, DNODE_BLOCK_SIZE, version, min_alloc, gcd_alloc)


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
    """Dnode blocks (and the meta-dnode's indirect blocks) for ``objects`` objects,
    less the first ``already`` dnode blocks, which the empty dataset has."""
    per_block = DNODE_BLOCK_SIZE // dnodesize
    nblocks = ceil_div(objects, per_block)
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
    out.extend(
        object_indirects(
            nblocks,
            META_DNODE_NBLKPTR,
            dvas,
            copies,
            redundant,
            version,
            min_alloc,
            gcd_alloc,
            level1_kind=MetaKind.DNODE,
            upper_kind=MetaKind.DNODE,
        )
    )
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
    groups: dict[int, int] = {}
    total = 0
    n = files
    while True:
        full, rest = divmod(n, per_directory)
        if full:
            groups[per_directory] = groups.get(per_directory, 0) + full
        if rest:
            groups[rest] = groups.get(rest, 0) + 1
        dirs = full + (1 if rest else 0)
        total += dirs
        if dirs <= 1:
            break
        n = dirs
    return sorted(groups.items()), total


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
    512 B at a time (``zap_micro.c``). Beyond that it is a fatzap (``zap.c``): a 16 KiB
    header block plus 16 KiB leaves of 638 chunks, three chunks per short name, leaves
    about 69 % full after hash splits, and an indirect block above them. Compressed
    sizes are estimates (20 B per microzap entry, 26 B per fatzap entry).
    """
    dvas = metadata_copies(copies, redundant, MetaKind.ZAP)
    if entries <= MZAP_MAX_ENTRIES:
        lsize = ((entries + 1) * MZAP_ENT_LEN + 511) // 512 * 512
        empty = lsize - (entries + 1) * MZAP_ENT_LEN
        compressed = LZ4_FRAME + 64 + entries * MZAP_ENTRY_COMPRESSED + ceil_div(empty, 255)
        return [MetaBlock(MetaKind.ZAP, _stored(compressed, lsize, version, min_alloc, gcd_alloc), dvas, weight)]
    per_leaf = max(int(ZAP_LEAF_CHUNKS * ZAP_LEAF_FILL) // ZAP_CHUNKS_PER_ENTRY, 1)
    leaves = ceil_div(entries, per_leaf)
    per_leaf_actual = entries / leaves
    leaf_comp = int(
        LZ4_FRAME
        + 512
        + per_leaf_actual * FZAP_ENTRY_COMPRESSED
        + (FZAP_BLOCK_SIZE - per_leaf_actual * ZAP_CHUNKS_PER_ENTRY * 24) / 255
    )
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
    volume: bool, copies: int, redundant: RedundantMetadata, version: str, min_alloc: int, gcd_alloc: int
) -> list[MetaBlock]:
    """Metadata of a freshly created dataset (before any contents are written)."""
    sizes = EMPTY_VOLUME_BLOCKS if volume else EMPTY_FILESYSTEM_BLOCKS
    dvas = metadata_copies(copies, redundant, MetaKind.DNODE)
    out: list[MetaBlock] = []
    for s in sizes:
        psize = _stored(s, max(s * 2, DNODE_BLOCK_SIZE), version, min_alloc, gcd_alloc)
        out.append(MetaBlock(MetaKind.DNODE, psize, dvas, 1))
    return out
