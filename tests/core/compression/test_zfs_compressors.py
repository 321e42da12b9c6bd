"""ZFS's own compressors give the block sizes OpenZFS records.

The vectors in ``data/zfs_compressor_vectors.json`` were produced by OpenZFS's own code for
the inputs of ``compressor_inputs.py`` (lz4_zfs.c, zle.c, lzjb.c and module/zstd/lib at
zfs-2.3.2; see the file's ``about``). The extension must give the same bytes (lz4) and the
same sizes (zstd, zle, lzjb), including where the budget makes the compressor give up.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import lz4.block
import pytest
import zstandard

from tests.core.compressor_inputs import make
from zfsplanner.core.compression import compressors
from zfsplanner.core.compression.compressors import NATIVE, zfs_compressed_size
from zfsplanner.core.datasets.measure import Setting, measure_bytes
from zfsplanner.core.datasets.metadata import indirect_block_psize
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

VECTOR_FILE = Path(__file__).resolve().parents[1] / "data" / "zfs_compressor_vectors.json"
VECTORS = json.loads(VECTOR_FILE.read_text())["vectors"]
IDS = [f"{v['kind']}-{v['size']}-{v['seed']}-{v['fill']}" for v in VECTORS]

needs_native = pytest.mark.skipif(NATIVE is None, reason="the compiled compressors are not built (make native)")


def block_of(v):
    return make(v["kind"], v["size"], v["seed"], v["fill"])


def test_the_extension_is_built_and_links_zstd_1_4_5():
    assert NATIVE is not None, "run `make native`: the measurements are approximate without it"
    assert NATIVE.zstd_version() == "1.4.5"


@needs_native
@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_lz4_output_is_byte_identical_to_lz4_zfs_c(v):
    block = block_of(v)
    for budget, expected in v["lz4"].items():
        out = NATIVE.compress(NATIVE.LZ4, block, int(budget))
        if expected is None:
            assert out is None
        else:
            assert [len(out), hashlib.sha256(out).hexdigest()] == expected
            # and it is a valid LZ4 block behind ZFS's 4-byte big-endian length
            assert int.from_bytes(out[:4], "big") == len(out) - 4
            assert lz4.block.decompress(out[4:], uncompressed_size=len(block)) == block


@needs_native
@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_zstd_zle_and_lzjb_sizes_equal_openzfs(v):
    block = block_of(v)
    legacy = len(block) - len(block) // 8
    for level, expected in v["zstd"].items():
        assert NATIVE.compressed_size(NATIVE.ZSTD, block, legacy, int(level)) == expected
    for budget, expected in v["zle"].items():
        assert NATIVE.compressed_size(NATIVE.ZLE, block, int(budget), 64) == expected
    for budget, expected in v["lzjb"].items():
        assert NATIVE.compressed_size(NATIVE.LZJB, block, int(budget)) == expected


@needs_native
def test_zstd_frames_are_magicless_and_decode():
    block = make("text", 131072, 7)
    out = NATIVE.compress(NATIVE.ZSTD, block, len(block), 3)
    params = zstandard.ZstdCompressionParameters(format=zstandard.FORMAT_ZSTD1_MAGICLESS)
    dctx = zstandard.ZstdDecompressor(format=zstandard.FORMAT_ZSTD1_MAGICLESS)
    assert params is not None
    assert dctx.decompress(out[8:], max_output_size=len(block)) == block


@needs_native
def test_zstd_early_abort_from_2_2_stores_what_lz4_and_zstd_1_both_refuse():
    # a record of noise with a compressible tail: lz4 and zstd-1 cannot fit the budget, so
    # 2.2+ stores it uncompressed without trying zstd-19; 2.1 tries zstd-19 itself.
    block = make("noise", 131072, 3, fill=131072)
    budget = 131072 - 131072 // 8
    assert zfs_compressed_size(block, "zstd-19", budget, V("2.1")) is None
    assert zfs_compressed_size(block, "zstd-19", budget, V("2.2")) is None
    text = make("text", 131072, 3)
    on_22 = zfs_compressed_size(text, "zstd-19", budget, V("2.2"))
    assert on_22 == zfs_compressed_size(text, "zstd-19", budget, V("2.1"))


def test_without_the_extension_lz4_and_zstd_are_approximate(monkeypatch):
    monkeypatch.setattr(compressors, "NATIVE", None)
    assert compressors.method("lz4") == compressors.APPROXIMATE
    assert compressors.method("zstd-3") == compressors.APPROXIMATE
    assert compressors.method("zle") == compressors.EXACT
    block = make("text", 131072, 1)
    assert zfs_compressed_size(block, "lz4", 114688) is not None
    m = measure_bytes(block, Setting("lz4", "lz4", 131072), 12, V("2.3"))
    assert m.document()["method"] == "approximate"
    # the Python zle gives the same sizes as OpenZFS's zle.c
    v = next(v for v in VECTORS if v["kind"] == "mixed" and v["size"] == 65536)
    blk = block_of(v)
    for budget, expected in v["zle"].items():
        assert compressors._zle_python(blk, int(budget)) == expected


def test_gzip_is_zlib_deflate_with_the_kernel_window_and_memory_level():
    import zlib

    block = make("records", 131072, 2)
    expected = len(zlib.compress(block, 9))  # deflateInit(level): window 15, memLevel 8, as zlib_deflateInit
    assert zfs_compressed_size(block, "gzip-9", 131072) == expected
    assert zfs_compressed_size(block, "gzip-9", expected - 1) is None


@needs_native
def test_du_counts_data_indirect_blocks_and_the_dnode():
    # 1 MiB of noise at 128K records, ashift 12: 8 records stored as they are, one L1 indirect
    # block holding 8 pointers, two copies of it (redundant_metadata=all), plus the dnode slot.
    data = make("noise", 1 << 20, 9)
    t = measure_bytes(data, Setting("lz4", "lz4", 131072), 12, V("2.3"))
    l1 = indirect_block_psize(8, 1, V("2.3"), 4096, 4096)
    used = 8 * 131072 + 2 * ((l1 + 4095) // 4096 * 4096)
    assert t.stored_bytes == (((used + 256) >> 9) + 1) * 512
    doc = t.document()
    assert doc["compressratio"] == 1.0 if l1 >= 131072 else doc["compressratio"] >= 1.0
    assert doc["block_size_histogram"] == [[131072, 8]]


@needs_native
def test_a_small_text_file_is_one_compressed_block():
    data = make("text", 3000, 4)
    doc = measure_bytes(data, Setting("lz4", "lz4", 131072), 9, V("2.3")).document()
    assert doc["data_blocks"] == 1 and doc["compressed_blocks"] == 1
    (psize, n), = doc["block_size_histogram"]
    assert n == 1 and psize % 512 == 0 and psize < 3072
    assert doc["stored_bytes"] == psize + 512
