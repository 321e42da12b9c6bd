"""Directories: micro ZAPs, fat ZAPs (leaves, splits, what a leaf compresses to), the tree."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.compression.compressors import zfs_compressed_size
from zfsplanner.core.datasets.directories import (
    MZAP_MAX_ENTRIES,
    ZAP_LEAF_CHUNKS,
    ZAP_LEAF_ENTRIES,
    directory_blocks,
    directory_tree,
    fat_zap_header_compressed,
    fat_zap_leaf_compressed,
    zap_leaves,
)
from zfsplanner.core.datasets.metadata import RedundantMetadata
from zfsplanner.core.versions import Version

ALL = RedundantMetadata.ALL


def test_small_directories_are_one_microzap_block():
    blocks = directory_blocks(100, 1, ALL, Version.parse("2.3"), 4096, 4096)
    assert len(blocks) == 1 and blocks[0].dvas == 2 and blocks[0].psize == 4096
    # 1000 short names: 64,512 B of chunks in 3 sectors after lz4 (real pool, dirs sample)
    assert directory_blocks(1000, 1, ALL, Version.parse("2.3"), 4096, 4096)[0].psize == 12288


def test_a_directory_of_a_few_entries_is_embedded_in_its_block_pointer():
    # a 512 B microzap with one entry compresses to about 55 B (<= 112 B): zdb shows dsize 0
    assert directory_blocks(1, 1, ALL, Version.parse("2.3"), 4096, 4096) == []
    # 20 entries: 1,536 B that lz4 cannot shrink by a whole 4 KiB sector, so stored as is
    # (2.3 budget); one sector per copy on the pool, as the root of the 20-directory case
    assert directory_blocks(20, 1, ALL, Version.parse("2.3"), 4096, 4096)[0].psize == 1536


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


@given(per=st.integers(1, 8), files=st.integers(1, 2000))
def test_more_files_never_mean_fewer_directories(per, files):
    assert directory_tree(files + 1, per)[1] >= directory_tree(files, per)[1]


def test_one_file_per_directory_builds_a_finite_tree():
    tree, dirs = directory_tree(2048, 1)
    assert sum(entries * count for entries, count in tree) == 2048 + dirs - 1
    assert dict(tree)[1] >= 2048


def test_big_directories_become_fatzaps_with_an_indirect_block():
    blocks = directory_blocks(MZAP_MAX_ENTRIES + 1, 1, ALL, Version.parse("2.3"), 512, 512)
    assert len(blocks) > 1
    assert sum(b.count for b in blocks) > 10


def test_huge_directories_get_a_separate_pointer_table():
    small = directory_blocks(100_000, 1, ALL, Version.parse("2.3"), 4096, 4096)
    huge = directory_blocks(1_000_000, 1, ALL, Version.parse("2.3"), 4096, 4096)
    assert len(huge) > len(small)


def _header(leaves: int) -> bytes:
    """A fat ZAP header as fzap_upgrade() and the splits leave it (zap_impl.h): zap_phys_t's
    fields, zeros, and from the block's middle 1,024 pointers, one run per leaf (leaves of
    equal depth), numbered as the splits created them."""
    rng = random.Random(leaves)
    ids = list(range(1, leaves + 1))
    rng.shuffle(ids)
    fields = struct.pack(
        "<13Q", (1 << 63) + 1, 0x2F52AB2AB, 0, 0, 10, 0, 0, leaves + 1, leaves, 0, 1 | rng.getrandbits(64), 0, 0
    )
    table = [ids[i * leaves // 1024] for i in range(1024)]
    return fields.ljust(8192, b"\0") + struct.pack("<1024Q", *table)


@pytest.mark.parametrize("leaves", [16, 128, 512])
def test_a_fat_zap_header_compresses_as_its_pointer_table_runs(leaves):
    real = zfs_compressed_size(_header(leaves), "lz4", 16384)
    assert real is not None
    assert fat_zap_header_compressed(leaves) == pytest.approx(real, rel=0.15)
    # 72,208 names (512 leaves): still one 4 KiB sector (the real growth matches the estimate)
    assert fat_zap_header_compressed(512) <= 4096
