"""Metadata: copies, indirect trees, dnode blocks, the empty dataset."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.datasets.metadata import (
    EMPTY_FILESYSTEM_FIXED_BLOCKS,
    META_DNODE_LEVELS,
    MetaKind,
    RedundantMetadata,
    dnode_block_psize,
    dnode_blocks,
    empty_dataset_blocks,
    indirect_block_psize,
    indirect_levels,
    meta_dnode_indirects,
    metadata_copies,
    object_indirects,
)
from zfsplanner.core.versions import Version

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
    assert indirect_block_psize(filled, 1, Version.parse("2.3"), 512, 512) == sectors * 512


def test_a_full_indirect_block_fits_in_twelve_kib_at_ashift_12_for_256_pointers():
    # openzfs/zfs#10042: 256 pointers stored as 12K at ashift 12
    assert indirect_block_psize(256, 1, Version.parse("2.3"), 4096, 4096) == 12288


def test_object_indirects_count_copies():
    blocks = object_indirects(8192, 1, 1, 1, ALL, Version.parse("2.3"), 4096, 4096)
    assert sum(b.count for b in blocks if b.kind == MetaKind.FILE_L1) == 8
    assert sum(b.count for b in blocks if b.kind == MetaKind.FILE_L2) == 1
    assert all(b.dvas == 2 for b in blocks)


def test_dnode_blocks_hold_32_legacy_dnodes():
    # 72 objects: blocks 0..2; blocks 0 and 1 exist already (the root directory is object 34)
    blocks = dnode_blocks(72, 512, 1, ALL, Version.parse("2.3"), 512, 512, already=2)
    assert sum(b.count for b in blocks) == 1
    # 200 objects: 6 full blocks + 1 partial, less the two of the empty dataset
    blocks = dnode_blocks(200, 512, 1, ALL, Version.parse("2.3"), 512, 512, already=2)
    assert sum(b.count for b in blocks) == 4 + 1
    assert all(b.dvas == 2 and b.kind == MetaKind.DNODE for b in blocks)
    # 32 dnodes of files written with their data: 4 sectors of 512 B (written_datasets, 1,000 per directory)
    assert dnode_block_psize(32, 512, Version.parse("2.3"), 512, 512) == 2048


def test_the_meta_dnode_has_six_levels_from_the_start():
    # dmu_objset_create_impl(): 3 pointers << (14 - 9 + (levels - 1) * 10) >= 2^48
    assert META_DNODE_LEVELS == 6
    empty = meta_dnode_indirects(2, 1, ALL, Version.parse("2.3"), 4096, 4096)
    assert sum(b.count for b in empty) == 5  # one block per indirect level
    # 1024 dnode blocks still fit one L1; the 1025th adds a second L1, nothing above changes
    assert sum(b.count for b in meta_dnode_indirects(1024, 1, ALL, Version.parse("2.3"), 4096, 4096)) == 5
    assert sum(b.count for b in meta_dnode_indirects(1025, 1, ALL, Version.parse("2.3"), 4096, 4096)) == 6
    # the L1 grows as it fills: 626 pointers take more than the empty dataset's 2
    full = max(b.psize for b in meta_dnode_indirects(626, 1, ALL, Version.parse("2.3"), 4096, 4096))
    assert full > max(b.psize for b in empty)


def test_large_dnodes_fill_blocks_faster():
    small = sum(b.count for b in dnode_blocks(3200, 512, 1, ALL, Version.parse("2.3"), 4096, 4096) if b.psize)
    large = sum(b.count for b in dnode_blocks(3200, 1024, 1, ALL, Version.parse("2.3"), 4096, 4096) if b.psize)
    assert large > small


def test_the_empty_filesystem_has_eleven_blocks_of_twelve_kib():
    blocks = empty_dataset_blocks(False, 1, ALL, Version.parse("2.3"), 512, 512)
    assert len(blocks) == len(EMPTY_FILESYSTEM_FIXED_BLOCKS) + META_DNODE_LEVELS - 1 == 11
    assert sum(b.psize for b in blocks) == 12288


@given(filled=st.integers(1, 1024), dvas=st.integers(1, 3), ashift=st.integers(9, 13))
def test_indirect_blocks_are_whole_sectors_and_grow_with_pointers(filled, dvas, ashift):
    unit = 1 << ashift
    p = indirect_block_psize(filled, dvas, Version.parse("2.3"), unit, unit)
    assert p % unit == 0 and 0 < p <= 128 * 1024
    if filled < 1024:
        assert indirect_block_psize(filled + 1, dvas, Version.parse("2.3"), unit, unit) >= p
