"""Compression, the exact ZFS rules: default algorithm per version, the acceptance budget, the
rounding of the stored size, embedded block pointers and holes (``module/zfs/zio.c``,
``module/zfs/zio_compress.c``; ``shared/reference/zfs-space-accounting.md`` §6).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..properties.resolve import default
from ..units import ceil_div, roundup
from ..versions import Version, supports

SPA_MINBLOCKSIZE = 512
BPE_PAYLOAD_SIZE = 112  # include/sys/spa.h: payload of an embedded block pointer
LZ4_HEADER = 4  # module/zfs/lz4_zfs.c: big-endian compressed length before the LZ4 block
ZSTD_HEADER = 8  # module/zstd/zfs_zstd.c: zfs_zstdhdr_t (c_len, version/level)
ZSTD_MAGIC = 4  # ZFS writes magicless zstd frames (ZSTD_f_zstd1_magicless)
ALLOC_ROUNDUP_SINCE = Version(2, 2)  # zio_roundup_alloc_size() (roundup_alloc_size below)


class CompressionError(ValueError):
    """An algorithm name ZFS does not know, or one that cannot be measured here."""


class BlockKind(StrEnum):
    HOLE = "hole"  # all zeros with compression on: no block at all (zio_write_compress)
    EMBEDDED = "embedded"  # compressed to <= 112 B: stored inside the block pointer
    COMPRESSED = "compressed"
    UNCOMPRESSED = "uncompressed"


@dataclass(frozen=True)
class StoredBlock:
    """What ``zio_write_compress`` makes of one logical block.

    ``psize`` is the block pointer's physical size (what ``compressratio`` divides by);
    ``alloc_psize`` is what gets allocated on a vdev (0 for holes and embedded blocks).
    """

    kind: BlockKind
    lsize: int
    psize: int
    alloc_psize: int


# --------------------------------------------------------------------------- versions


def default_compression(version: Version) -> str:
    """The ``compression`` a dataset gets when nobody sets it: :func:`properties.default`
    (``off`` up to 2.1, ``on`` from 2.2.0, PR #13078)."""
    return str(default("compression", version))


def resolve_algorithm(setting: str | None, version: Version) -> str:
    """The algorithm actually used, spelled with its level: ``off``, ``lz4``, ``gzip-6``,
    ``zstd-3``, ``zstd-fast-1``, ``zle``, ``lzjb``.

    ``on`` means lz4 when the ``lz4_compress`` feature is enabled (always on a pool
    created by 2.x) (``zio_compress_select``); ``gzip`` is gzip-6, ``zstd`` is zstd-3
    and ``zstd-fast`` is zstd-fast-1 (man ``zfsprops.7``; ``ZIO_ZSTD_LEVEL_DEFAULT``).
    """
    s = (setting or default_compression(version)).lower()
    if s == "on":
        return "lz4"
    if s == "gzip":
        return "gzip-6"
    if s == "zstd":
        return "zstd-3"
    if s == "zstd-fast":
        return "zstd-fast-1"
    if s in ("off", "lz4", "lzjb", "zle", "empty"):
        return s
    family, level = split_level(s)
    if family == "gzip" and 1 <= level <= 9:
        return s
    if family == "zstd" and 1 <= level <= 19:
        return s
    if family == "zstd-fast" and (1 <= level <= 10 or level in (20, 30, 40, 50, 60, 70, 80, 90, 100, 500, 1000)):
        return s
    raise CompressionError(f"{setting!r} is not a ZFS compression value")


def split_level(name: str) -> tuple[str, int]:
    head, _, tail = name.rpartition("-")
    if not head or not tail.isdigit():
        raise CompressionError(f"{name!r} is not a ZFS compression value")
    return head, int(tail)


@lru_cache(maxsize=256)
def algorithm_family(algorithm: str) -> str:
    """``gzip-6`` -> ``gzip``, ``zstd-fast-10`` -> ``zstd-fast``, ``lz4`` -> ``lz4``."""
    if algorithm.startswith("zstd-fast"):
        return "zstd-fast"
    return algorithm.split("-")[0]


# --------------------------------------------------------------------------- ZFS rules


def compression_budget(lsize: int, algorithm: str, version: Version, min_alloc: int, gcd_alloc: int) -> int:
    """Largest compressor output ZFS accepts for an ``lsize`` block.

    Up to 2.2, ``zio_compress_data()`` gives the compressor ``lsize - lsize/8`` (it must
    save 12.5 %). From 2.3, ``zio_get_compression_max_size()`` (commit 522f2629, PR #9416)
    also rounds that budget down to whole ``spa_gcd_alloc`` units (except for zle), and
    when the result is smaller than ``spa_min_alloc`` only an embedded block pointer
    (``BPE_PAYLOAD_SIZE`` = 112 B) can succeed.
    """
    d_len = lsize - (lsize >> 3)
    if not supports(version, "compression_budget_sectors"):
        return d_len
    if algorithm != "zle":
        d_len -= d_len % gcd_alloc
    if d_len < min_alloc:
        return BPE_PAYLOAD_SIZE
    return d_len


def roundup_alloc_size(size: int, version: Version, min_alloc: int, gcd_alloc: int) -> int:
    """Stored size of a compressed block: a whole number of allocation units.

    2.2+: ``zio_roundup_alloc_size()``: sizes above ``spa_min_alloc`` round up to
    ``spa_gcd_alloc``, smaller ones become ``spa_min_alloc``. 2.1 rounds up to
    ``spa_min_alloc`` (``zio_write_compress``); with one ashift and no dRAID the
    three are the same sector.
    """
    if version < ALLOC_ROUNDUP_SINCE:
        return roundup(size, min_alloc)
    if size > min_alloc:
        return roundup(size, gcd_alloc)
    return min_alloc


def stored_block(
    lsize: int,
    compressed: int | None,
    *,
    algorithm: str,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
    all_zero: bool = False,
    embeddable: bool = True,
) -> StoredBlock:
    """Apply ``zio_write_compress()`` to one block.

    ``compressed`` is the compressor's output size in bytes (ZFS header included), or
    None when it did not fit (or compression is off). Order of the checks, as in the
    source: all-zero data becomes a hole when compression is on; output over the budget
    or not smaller than ``lsize`` is stored uncompressed; output of at most 112 B is
    embedded in the block pointer (level-0 data only, ``embedded_data`` feature);
    otherwise the size is rounded (:func:`roundup_alloc_size`) and kept only if still
    smaller than ``lsize``.
    """
    if algorithm == "off":
        return StoredBlock(BlockKind.UNCOMPRESSED, lsize, lsize, lsize)
    if all_zero:
        return StoredBlock(BlockKind.HOLE, 0, 0, 0)
    budget = compression_budget(lsize, algorithm, version, min_alloc, gcd_alloc)
    if compressed is None or compressed > budget or compressed >= lsize:
        return StoredBlock(BlockKind.UNCOMPRESSED, lsize, lsize, lsize)
    if compressed <= BPE_PAYLOAD_SIZE and embeddable:
        return StoredBlock(BlockKind.EMBEDDED, lsize, compressed, 0)
    rounded = roundup_alloc_size(compressed, version, min_alloc, gcd_alloc)
    if rounded >= lsize:
        return StoredBlock(BlockKind.UNCOMPRESSED, lsize, lsize, lsize)
    return StoredBlock(BlockKind.COMPRESSED, lsize, rounded, rounded)


def compressratio(logical: int, physical: int) -> float:
    """``compressratio`` as ``zfs get`` prints it: uncompressed/compressed, truncated to
    hundredths (``dsl_dataset_stats``: ``uncompressed * 100 / compressed``), 1.00 when
    nothing is stored."""
    if physical <= 0:
        return 1.0
    return (logical * 100 // physical) / 100


# --------------------------------------------------------------------------- estimated output size


def zero_run_cost(nbytes: int, algorithm: str) -> int:
    """Approximate compressor output for ``nbytes`` of zeros inside a block.

    lz4 encodes a long match with one length byte per 255 bytes; zstd and gzip code long
    runs almost for free. Measured with python-lz4/zstandard/zlib on 128 KiB of zeros:
    lz4 524 B, gzip-6 149 B, zstd-3 22 B.
    """
    fam = algorithm_family(algorithm)
    if nbytes <= 0:
        return 0
    if fam in ("lz4", "lzjb"):
        return ceil_div(nbytes, 255) + 8
    if fam == "zle":
        return ceil_div(nbytes, 192)
    if fam == "gzip":
        return ceil_div(nbytes, 1000) + 16
    return ceil_div(nbytes, 8192) + 8


def header_bytes(algorithm: str) -> int:
    """Bytes ZFS adds around the compressor's output (lz4 length word, zstd header, zlib
    stream header and Adler-32)."""
    fam = algorithm_family(algorithm)
    if fam == "lz4":
        return LZ4_HEADER
    if fam in ("zstd", "zstd-fast"):
        return ZSTD_HEADER - ZSTD_MAGIC + 12
    if fam == "gzip":
        return 6
    return 0


def estimated_compressed_size(content_bytes: int, zero_bytes: int, fraction: float, algorithm: str) -> int:
    """Estimated compressor output for a block holding ``content_bytes`` of data that
    compresses to ``fraction`` of its size, followed by ``zero_bytes`` of zeros (the
    unused tail of a file's last record)."""
    body = ceil_div(int(content_bytes * fraction * 1_000_000), 1_000_000) if content_bytes else 0
    if fraction >= 1.0 and content_bytes:
        body = content_bytes + ceil_div(content_bytes, 255)  # literal-run overhead
    return body + zero_run_cost(zero_bytes, algorithm) + header_bytes(algorithm)
