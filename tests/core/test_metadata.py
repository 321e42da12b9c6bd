"""Metadata: copies, indirect trees, dnode blocks, directories."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.compression.compressors import zfs_compressed_size
from zfsplanner.core.datasets.metadata import (
    EMPTY_FILESYSTEM_FIXED_BLOCKS,
    META_DNODE_LEVELS,
    MZAP_MAX_ENTRIES,
    ZAP_LEAF_CHUNKS,
    ZAP_LEAF_ENTRIES,
    MetaKind,
    RedundantMetadata,
    directory_blocks,
    directory_tree,
    dnode_block_psize,
    dnode_blocks,
    empty_dataset_blocks,
    fat_zap_leaf_compressed,
    indirect_block_psize,
    indirect_levels,
    meta_dnode_indirects,
    metadata_copies,
    object_indirects,
    zap_leaves,
)

ALL = RedundantMetadata.ALL


def test_redundant_metadata_all_adds_one_copy_to_everything():
    assert metadata_copies(1, ALL, MetaKind.FILE_L1) == 2
    assert metadata_copies(1, ALL, MetaKind.ZAP) == 2
    assert metadata_copies(3, ALL, MetaKind.DNODE) == 3  # spa_max_replication


def test_most_skips_level_one_file_indirects():
    assert metadata_copies(1, RedundantMetadata.MOST, MetaKind.FILE_L1) == 1
    assert metadata_copies(1, RedundantMetadata.MOST, MetaKind.FILE_L2) == 2
    assert metadata_copies(1, RedundantMetadata.MOST, MetaKind.ZAP) == 2


def test_some_and_none():
    assert metadata_copies(1, RedundantMetadata.SOME, MetaKind.DNODE) == 2
    assert metadata_copies(1, RedundantMetadata.SOME, MetaKind.ZAP) == 1
    assert metadata_copies(2, RedundantMetadata.NONE, MetaKind.DNODE) == 2


def test_indirect_levels_follow_the_reference_examples():
    # §5.2: 1 GiB at 128K = 8192 blocks: 8 L1 + 1 L2; 129 KiB: 2 blocks, 1 L1
    assert indirect_levels(8192, 1) == [(8, 1024), (1, 8)]
    assert indirect_levels(2, 1) == [(1, 2)]
    assert indirect_levels(1, 1) == []
    # zvol objects have three block pointers in the dnode
    assert indirect_levels(3, 3) == []
    assert indirect_levels(32768, 3) == [(32, 1024), (1, 32)]


# Fitted against OpenZFS 2.3.2 (calibration logicalused deltas at ashift 9).
@pytest.mark.parametrize(
    "filled, sectors", [(2, 2), (3, 2), (8, 2), (16, 3), (32, 4), (64, 7), (128, 12), (256, 21), (1024, 81)]
)
def test_indirect_block_sizes_match_the_calibration(filled, sectors):
    assert indirect_block_psize(filled, 1, "2.3", 512, 512) == sectors * 512


def test_a_full_indirect_block_fits_in_twelve_kib_at_ashift_12_for_256_pointers():
    # openzfs/zfs#10042: 256 pointers stored as 12K at ashift 12
    assert indirect_block_psize(256, 1, "2.3", 4096, 4096) == 12288


def test_object_indirects_count_copies():
    blocks = object_indirects(8192, 1, 1, 1, ALL, "2.3", 4096, 4096)
    assert sum(b.count for b in blocks if b.kind == MetaKind.FILE_L1) == 8
    assert sum(b.count for b in blocks if b.kind == MetaKind.FILE_L2) == 1
    assert all(b.dvas == 2 for b in blocks)


def test_dnode_blocks_hold_32_legacy_dnodes():
    # 72 objects: blocks 0..2; blocks 0 and 1 exist already (the root directory is object 34)
    blocks = dnode_blocks(72, 512, 1, ALL, "2.3", 512, 512, already=2)
    assert sum(b.count for b in blocks) == 1
    # 200 objects: 6 full blocks + 1 partial, less the two of the empty dataset
    blocks = dnode_blocks(200, 512, 1, ALL, "2.3", 512, 512, already=2)
    assert sum(b.count for b in blocks) == 4 + 1
    assert all(b.dvas == 2 and b.kind == MetaKind.DNODE for b in blocks)
    # 32 dnodes of files written with their data: 4 sectors of 512 B (written_datasets, 1,000 per directory)
    assert dnode_block_psize(32, 512, "2.3", 512, 512) == 2048


def test_the_meta_dnode_has_six_levels_from_the_start():
    # dmu_objset_create_impl(): 3 pointers << (14 - 9 + (levels - 1) * 10) >= 2^48
    assert META_DNODE_LEVELS == 6
    empty = meta_dnode_indirects(2, 1, ALL, "2.3", 4096, 4096)
    assert sum(b.count for b in empty) == 5  # one block per indirect level
    # 1024 dnode blocks still fit one L1; the 1025th adds a second L1, nothing above changes
    assert sum(b.count for b in meta_dnode_indirects(1024, 1, ALL, "2.3", 4096, 4096)) == 5
    assert sum(b.count for b in meta_dnode_indirects(1025, 1, ALL, "2.3", 4096, 4096)) == 6
    # the L1 grows as it fills: 626 pointers take more than the empty dataset's 2
    full = max(b.psize for b in meta_dnode_indirects(626, 1, ALL, "2.3", 4096, 4096))
    assert full > max(b.psize for b in empty)


def test_large_dnodes_fill_blocks_faster():
    small = sum(b.count for b in dnode_blocks(3200, 512, 1, ALL, "2.3", 4096, 4096) if b.psize)
    large = sum(b.count for b in dnode_blocks(3200, 1024, 1, ALL, "2.3", 4096, 4096) if b.psize)
    assert large > small


def test_small_directories_are_one_microzap_block():
    blocks = directory_blocks(100, 1, ALL, "2.3", 4096, 4096)
    assert len(blocks) == 1 and blocks[0].dvas == 2 and blocks[0].psize == 4096
    # 1000 short names: 64,512 B of chunks in 3 sectors after lz4 (real pool, dirs sample)
    assert directory_blocks(1000, 1, ALL, "2.3", 4096, 4096)[0].psize == 12288


def test_a_directory_of_a_few_entries_is_embedded_in_its_block_pointer():
    # a 512 B microzap with one entry compresses to about 55 B (<= 112 B): zdb shows dsize 0
    assert directory_blocks(1, 1, ALL, "2.3", 4096, 4096) == []
    # 20 entries: 1,536 B that lz4 cannot shrink by a whole 4 KiB sector, so stored as is
    # (2.3 budget); one sector per copy on the pool, as the root of the 20-directory case
    assert directory_blocks(20, 1, ALL, "2.3", 4096, 4096)[0].psize == 1536


def test_fat_zap_leaves_double_in_steps():
    assert zap_leaves(ZAP_LEAF_ENTRIES) == 1.0
    # 20,000 names: 128 leaves (the real pool's zdb), not 20,000 / (212 x ln 2) = 137
    assert round(zap_leaves(20_000)) == 128
    assert round(zap_leaves(72_208)) == 512
    counts = [zap_leaves(n) for n in range(2048, 200_000, 997)]
    assert counts == sorted(counts)


def _fresh_leaf(entries: int) -> bytes:
    """A 16 KiB fat ZAP leaf as zap_leaf_init() and zap_entry_create() write it (zap_leaf.h,
    zap_leaf.c): a 48 B header, 512 two-byte hash slots (CHAIN_END when empty), then 638
    chunks of 24 B; each entry takes the next three free chunks (entry, name, value) and the
    rest keep the free list's next pointers."""
    rng = random.Random(entries)
    header = struct.pack("<QQQIHHHHB11x", 1 << 63, 0, 0, 0x2AB1EAF, ZAP_LEAF_CHUNKS - 3 * entries, entries, 0, 0, 1)
    slots = [0xFFFF] * 512
    chunks = b""
    for i in range(entries):
        h = rng.getrandbits(28) << 36  # zap_hash(): the top 28 bits
        slots[(h >> (64 - 9)) & 511] = 3 * i
        chunks += struct.pack("<BBHHHHHIQ", 252, 8, 0xFFFF, 3 * i + 1, 11, 3 * i + 2, 1, 0, h)
        chunks += b"\xfb" + b"file%06d\0" % i + bytes(10) + b"\xff\xff"
        chunks += b"\xfb" + struct.pack(">Q", 8 << 60 | (1000 + i)) + bytes(13) + b"\xff\xff"
    for c in range(3 * entries, ZAP_LEAF_CHUNKS):
        chunks += b"\xfd" + bytes(21) + struct.pack("<H", c + 1 if c + 1 < ZAP_LEAF_CHUNKS else 0xFFFF)
    block = header + struct.pack("<512H", *slots) + chunks
    assert len(block) == 16384
    return block


@pytest.mark.parametrize("entries", [0, 64, 128, 156, 200])
def test_a_fat_zap_leaf_compresses_as_laid_out_by_zap_leaf_c(entries):
    # OpenZFS's lz4 on the leaf itself: the free chunks' list is not free (3,239 B empty)
    real = zfs_compressed_size(_fresh_leaf(entries), "lz4", 16384)
    assert real is not None
    assert fat_zap_leaf_compressed(entries) == pytest.approx(real, rel=0.10)


def test_a_leaf_of_128_names_takes_two_4k_sectors():
    # 2,048 names: 16 leaves of 128; 4,097-8,192 B each, as the real pool's 831,488 B showed
    assert 4096 < fat_zap_leaf_compressed(128) <= 8192
    assert 4096 < fat_zap_leaf_compressed(156.25) <= 8192  # 20,000 names, 128 leaves (zdb)


def test_one_file_per_directory_builds_a_finite_tree():
    tree, dirs = directory_tree(2048, 1)
    assert sum(entries * count for entries, count in tree) == 2048 + dirs - 1
    assert dict(tree)[1] >= 2048


def test_big_directories_become_fatzaps_with_an_indirect_block():
    blocks = directory_blocks(MZAP_MAX_ENTRIES + 1, 1, ALL, "2.3", 512, 512)
    assert len(blocks) > 1
    assert sum(b.count for b in blocks) > 10


def test_huge_directories_get_a_separate_pointer_table():
    small = directory_blocks(100_000, 1, ALL, "2.3", 4096, 4096)
    huge = directory_blocks(1_000_000, 1, ALL, "2.3", 4096, 4096)
    assert len(huge) > len(small)


def test_the_empty_filesystem_has_eleven_blocks_of_twelve_kib():
    blocks = empty_dataset_blocks(False, 1, ALL, "2.3", 512, 512)
    assert len(blocks) == len(EMPTY_FILESYSTEM_FIXED_BLOCKS) + META_DNODE_LEVELS - 1 == 11
    assert sum(b.psize for b in blocks) == 12288


@given(filled=st.integers(1, 1024), dvas=st.integers(1, 3), ashift=st.integers(9, 13))
def test_indirect_blocks_are_whole_sectors_and_grow_with_pointers(filled, dvas, ashift):
    unit = 1 << ashift
    p = indirect_block_psize(filled, dvas, "2.3", unit, unit)
    assert p % unit == 0 and 0 < p <= 128 * 1024
    if filled < 1024:
        assert indirect_block_psize(filled + 1, dvas, "2.3", unit, unit) >= p
