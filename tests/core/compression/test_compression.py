"""Compression rules (shared/reference/zfs-space-accounting.md §6) and measured ratios."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.compression.measured import measure_compression
from zfsplanner.core.compression.profiles import PROFILES
from zfsplanner.core.compression.rules import (
    BPE_PAYLOAD_SIZE,
    BlockKind,
    CompressionError,
    compression_budget,
    compressratio,
    default_compression,
    resolve_algorithm,
    roundup_alloc_size,
    stored_block,
)
from zfsplanner.core.design.types import COMPRESSIBILITY_PROFILES, COMPRESSION_VALUES
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

K = 1024


# Reference §6.1 table: maximum accepted psize on 2.3+ by lsize and sector size.
@pytest.mark.parametrize(
    "lsize, sector, expected",
    [
        (4 * K, 512, 3584),
        (4 * K, 4096, BPE_PAYLOAD_SIZE),
        (4 * K, 8192, BPE_PAYLOAD_SIZE),
        (8 * K, 512, 7168),
        (8 * K, 4096, 4096),
        (8 * K, 8192, BPE_PAYLOAD_SIZE),
        (16 * K, 512, 14336),
        (16 * K, 4096, 12288),
        (16 * K, 8192, 8192),
        (32 * K, 4096, 28672),
        (32 * K, 8192, 24576),
        (128 * K, 4096, 114688),
        (1024 * K, 8192, 917504),
    ],
)
def test_it_rounds_the_budget_to_whole_sectors_from_2_3(lsize, sector, expected):
    assert compression_budget(lsize, "lz4", V("2.3"), sector, sector) == expected


def test_the_budget_before_2_3_is_just_twelve_and_a_half_percent():
    assert compression_budget(16 * K, "lz4", V("2.2"), 4096, 4096) == 14336
    assert compression_budget(4 * K, "lz4", V("2.1"), 4096, 4096) == 3584


def test_zle_budget_is_not_rounded():
    assert compression_budget(16 * K, "zle", V("2.3"), 4096, 4096) == 14336


def test_recordsize_16k_with_4k_sectors_needs_25_percent_on_2_3():
    # man zfsprops.7 (master): "compression needs to save at least 25%"
    saves_20 = stored_block(16 * K, int(16 * K * 0.8), algorithm="lz4", version=V("2.3"), min_alloc=4096,
                            gcd_alloc=4096)
    saves_25 = stored_block(16 * K, 12 * K, algorithm="lz4", version=V("2.3"), min_alloc=4096, gcd_alloc=4096)
    assert saves_20.kind == BlockKind.UNCOMPRESSED and saves_20.psize == 16 * K
    assert saves_25.kind == BlockKind.COMPRESSED and saves_25.psize == 12 * K


def test_on_2_2_a_block_passing_the_budget_can_still_round_back_to_lsize():
    sb = stored_block(16 * K, 13000, algorithm="lz4", version=V("2.2"), min_alloc=4096, gcd_alloc=4096)
    assert sb.kind == BlockKind.UNCOMPRESSED and sb.alloc_psize == 16 * K


def test_psize_rounds_up_to_the_allocation_unit():
    sb = stored_block(128 * K, 50_001, algorithm="zstd-3", version=V("2.3"), min_alloc=4096, gcd_alloc=4096)
    assert sb.psize == 53248 and sb.kind == BlockKind.COMPRESSED


def test_small_output_is_embedded_in_the_block_pointer():
    sb = stored_block(4 * K, 100, algorithm="lz4", version=V("2.3"), min_alloc=4096, gcd_alloc=4096)
    assert sb.kind == BlockKind.EMBEDDED and sb.alloc_psize == 0 and sb.psize == 100


def test_metadata_is_never_embedded():
    sb = stored_block(16 * K, 100, algorithm="lz4", version=V("2.3"), min_alloc=512, gcd_alloc=512, embeddable=False)
    assert sb.kind == BlockKind.COMPRESSED and sb.psize == 512


def test_zero_blocks_become_holes_only_with_compression():
    assert (
        stored_block(128 * K, None, algorithm="lz4", version=V("2.3"), min_alloc=4096, gcd_alloc=4096,
                     all_zero=True).kind
        == BlockKind.HOLE
    )
    off = stored_block(128 * K, None, algorithm="off", version=V("2.3"), min_alloc=4096, gcd_alloc=4096, all_zero=True)
    assert off.kind == BlockKind.UNCOMPRESSED and off.alloc_psize == 128 * K


def test_draid_min_alloc_keeps_small_records_uncompressed():
    # draid with 8 data disks at 4K: min_alloc 32K; a 32K record cannot shrink
    sb = stored_block(32 * K, 5000, algorithm="lz4", version=V("2.2"), min_alloc=32 * K, gcd_alloc=4096)
    assert sb.kind == BlockKind.UNCOMPRESSED


def test_roundup_alloc_size_versions():
    assert roundup_alloc_size(5000, V("2.2"), 32 * K, 4096) == 32 * K
    assert roundup_alloc_size(40000, V("2.2"), 32 * K, 4096) == 40960
    assert roundup_alloc_size(40000, V("2.1"), 32 * K, 4096) == 64 * K


def test_default_compression_is_on_from_2_2():
    assert default_compression(V("2.1")) == "off"
    assert default_compression(V("2.2")) == "on"
    assert resolve_algorithm(None, V("2.3")) == "lz4"
    assert resolve_algorithm(None, V("2.1")) == "off"


@pytest.mark.parametrize("value", COMPRESSION_VALUES)
def test_every_design_compression_value_resolves(value):
    assert resolve_algorithm(value, V("2.3"))


def test_it_spells_out_default_levels():
    assert resolve_algorithm("gzip", V("2.3")) == "gzip-6"
    assert resolve_algorithm("zstd", V("2.3")) == "zstd-3"
    assert resolve_algorithm("zstd-fast", V("2.3")) == "zstd-fast-1"


def test_it_rejects_unknown_algorithms():
    with pytest.raises(CompressionError):
        resolve_algorithm("brotli", V("2.3"))
    with pytest.raises(CompressionError):
        resolve_algorithm("zstd-25", V("2.3"))


def test_compressratio_is_truncated_to_hundredths():
    assert compressratio(300, 200) == 1.5
    assert compressratio(1999, 1000) == 1.99
    assert compressratio(0, 0) == 1.0


@pytest.mark.parametrize("name", COMPRESSIBILITY_PROFILES)
def test_every_design_profile_has_ratios_with_error_bars(name):
    p = PROFILES[name]
    for algo in ("lz4", "gzip-6", "zstd-3", "zstd-12", "zstd-fast-5", "gzip-2"):
        lo, hi = p.ratio_range(algo)
        assert 1.0 <= lo <= p.ratio(algo) <= hi
    assert p.basis


def test_profiles_rank_as_expected_for_lz4():
    r = {n: PROFILES[n].ratio("lz4") for n in PROFILES if n != "zeros"}
    assert r["incompressible"] == 1.0
    assert r["already-compressed"] < r["mixed"] < r["text"] < r["logs"]
    assert PROFILES["text"].ratio("zstd-3") > PROFILES["text"].ratio("lz4")


def test_measuring_zeros_gives_holes():
    m = measure_compression(bytes(1 << 20), "lz4", 128 * K, 12, V("2.3"))
    assert m.hole_blocks == 8 and m.allocated_psize_bytes == 0 and m.compressratio == 1.0


def test_measuring_random_data_keeps_every_block_uncompressed():
    m = measure_compression(os.urandom(1 << 20), "zstd", 128 * K, 12, V("2.3"))
    assert m.uncompressed_blocks == 8 and m.compressratio == 1.0
    assert m.psize_histogram == ((128 * K, 8),)


def _text(n: int) -> bytes:
    rng = random.Random(4)
    words = [
        "pool",
        "vdev",
        "raidz",
        "mirror",
        "special",
        "dataset",
        "record",
        "block",
        "parity",
        "sector",
        "metaslab",
        "compression",
        "snapshot",
        "the",
        "a",
        "of",
        "and",
        "is",
        "to",
        "with",
    ]
    out = []
    size = 0
    while size < n:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(5, 14))) + ".\n"
        out.append(line)
        size += len(line)
    return "".join(out).encode()[:n]


def test_measuring_text_compresses_and_rounds_to_sectors():
    data = _text(1 << 20)
    lz4 = measure_compression(data, "lz4", 128 * K, 12, V("2.3"))
    gz = measure_compression(data, "gzip-9", 128 * K, 12, V("2.3"))
    assert 2.0 < lz4.compressratio < gz.compressratio
    assert all(p % 4096 == 0 for p, _ in lz4.psize_histogram)
    assert lz4.compressed_blocks == 8


def test_the_last_partial_record_is_full_size_and_trimmed_by_compression():
    data = os.urandom(128 * K + 1000)
    m = measure_compression(data, "lz4", 128 * K, 12, V("2.3"))
    assert m.logical_bytes == 256 * K
    assert dict(m.psize_histogram) == {4096: 1, 128 * K: 1}
    off = measure_compression(data, "off", 128 * K, 12, V("2.3"))
    assert off.allocated_psize_bytes == 256 * K


def test_a_small_sample_is_one_block_of_whole_512_byte_units():
    m = measure_compression(os.urandom(3000), "off", 128 * K, 12, V("2.3"))
    assert m.blocks == 1 and m.logical_bytes == 3072


def test_tiny_compressible_files_are_embedded():
    m = measure_compression(b"hello world\n" * 5, "lz4", 128 * K, 12, V("2.3"))
    assert m.embedded_blocks == 1 and m.allocated_psize_bytes == 0


def test_zle_only_removes_zero_runs():
    data = os.urandom(1000) + bytes(127 * K) + os.urandom(24)
    m = measure_compression(data, "zle", 128 * K, 12, V("2.3"))
    assert m.compressed_blocks == 1 and m.allocated_psize_bytes == 4096


def test_lzjb_is_measured_with_the_compiled_compressors():
    m = measure_compression(b"x" * 10000, "lzjb", 128 * K, 12, V("2.3"))
    assert m.compressed_blocks == 1 and m.allocated_psize_bytes == 4096


@given(
    lsize_shift=st.integers(9, 24),
    fraction=st.floats(0.0, 1.2),
    ashift=st.integers(9, 16),
    version=st.sampled_from(["2.1", "2.2", "2.3", "2.4"]).map(Version.parse),
)
def test_stored_blocks_never_grow_and_are_whole_units(lsize_shift, fraction, ashift, version):
    lsize = 1 << lsize_shift
    unit = 1 << ashift
    sb = stored_block(lsize, int(lsize * fraction), algorithm="lz4", version=version, min_alloc=unit, gcd_alloc=unit)
    assert 0 <= sb.psize <= lsize
    if sb.kind == BlockKind.COMPRESSED:
        assert sb.alloc_psize % unit == 0 and sb.alloc_psize < lsize
        assert sb.alloc_psize <= lsize - lsize // 8 or version < "2.3" and sb.alloc_psize < lsize
