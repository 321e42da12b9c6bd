"""Compression: which algorithm a dataset uses, when ZFS keeps a compressed block, how
big it is on disk, and how well typical data compresses.

Three parts:

* the ZFS rules (exact): the default ``compression`` per OpenZFS version, the
  acceptance budget (``zio_compress_data`` / ``zio_get_compression_max_size``), the
  rounding of the stored size (``zio_write_compress`` / ``zio_roundup_alloc_size``),
  embedded block pointers and holes. Source: openzfs/zfs ``module/zfs/zio.c`` and
  ``module/zfs/zio_compress.c``; summary in ``shared/reference/zfs-space-accounting.md`` §6;
* named compressibility profiles (estimates with error bars, see ``PROFILES``);
* :func:`measure_compression`, which runs the real compressors (lz4, zstd, zlib) over a
  sample block by block under the ZFS rules and reports what ``zfs get compressratio``
  would print.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .compressors import CompressorError, zfs_compressed_size
from .units import ceil_div, roundup
from .versions import Version, VersionError

SPA_MINBLOCKSIZE = 512
BPE_PAYLOAD_SIZE = 112  # include/sys/spa.h: payload of an embedded block pointer
LZ4_HEADER = 4  # module/zfs/lz4_zfs.c: big-endian compressed length before the LZ4 block
ZSTD_HEADER = 8  # module/zstd/zfs_zstd.c: zfs_zstdhdr_t (c_len, version/level)
ZSTD_MAGIC = 4  # ZFS writes magicless zstd frames (ZSTD_f_zstd1_magicless)


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


@functools.lru_cache(maxsize=128)
def version_tuple(version: str) -> tuple[int, int]:
    """``"2.3"`` -> ``(2, 3)``; ``"2.3.2"`` -> ``(2, 3)`` (see :class:`versions.Version` for patch levels)."""
    try:
        v = Version.parse(version)
    except VersionError as exc:
        raise CompressionError(str(exc)) from exc
    return v.major, v.minor


def default_compression(version: str) -> str:
    """The ``compression`` a dataset gets when nobody sets it.

    ``off`` up to 2.1; ``on`` (lz4 on any pool with the ``lz4_compress`` feature) from
    2.2.0: openzfs/zfs PR #13078 "Default to ON for compression" (merged February 2022,
    after the 2.1 branch) registers ``ZFS_PROP_COMPRESS`` with ``ZIO_COMPRESS_ON`` in
    ``module/zcommon/zfs_prop.c``; man ``zfsprops.7`` says "The default value is on".
    """
    return "off" if version_tuple(version) < (2, 2) else "on"


def resolve_algorithm(setting: str | None, version: str) -> str:
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
    family, level = _split_level(s)
    if family == "gzip" and 1 <= level <= 9:
        return s
    if family == "zstd" and 1 <= level <= 19:
        return s
    if family == "zstd-fast" and (1 <= level <= 10 or level in (20, 30, 40, 50, 60, 70, 80, 90, 100, 500, 1000)):
        return s
    raise CompressionError(f"{setting!r} is not a ZFS compression value")


def _split_level(name: str) -> tuple[str, int]:
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


def compression_budget(lsize: int, algorithm: str, version: str, min_alloc: int, gcd_alloc: int) -> int:
    """Largest compressor output ZFS accepts for an ``lsize`` block.

    Up to 2.2, ``zio_compress_data()`` gives the compressor ``lsize - lsize/8`` (it must
    save 12.5 %). From 2.3, ``zio_get_compression_max_size()`` (commit 522f2629, PR #9416)
    also rounds that budget down to whole ``spa_gcd_alloc`` units (except for zle), and
    when the result is smaller than ``spa_min_alloc`` only an embedded block pointer
    (``BPE_PAYLOAD_SIZE`` = 112 B) can succeed.
    """
    d_len = lsize - (lsize >> 3)
    if version_tuple(version) < (2, 3):
        return d_len
    if algorithm != "zle":
        d_len -= d_len % gcd_alloc
    if d_len < min_alloc:
        return BPE_PAYLOAD_SIZE
    return d_len


def roundup_alloc_size(size: int, version: str, min_alloc: int, gcd_alloc: int) -> int:
    """Stored size of a compressed block: a whole number of allocation units.

    2.2+: ``zio_roundup_alloc_size()``: sizes above ``spa_min_alloc`` round up to
    ``spa_gcd_alloc``, smaller ones become ``spa_min_alloc``. 2.1 rounds up to
    ``spa_min_alloc`` (``zio_write_compress``); with one ashift and no dRAID the
    three are the same sector.
    """
    if version_tuple(version) < (2, 2):
        return roundup(size, min_alloc)
    if size > min_alloc:
        return roundup(size, gcd_alloc)
    return min_alloc


def stored_block(
    lsize: int,
    compressed: int | None,
    *,
    algorithm: str,
    version: str,
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


# --------------------------------------------------------------------------- profiles


@dataclass(frozen=True)
class CompressibilityProfile:
    """How well a kind of data compresses, per algorithm.

    ``fractions`` maps an algorithm (with level) to compressor output / input for
    full 128 KiB records *before* ZFS rounds to sectors; ``low``/``high`` bound the
    fraction (so the ratio's error bars are 1/high .. 1/low). These are estimates:
    real data of the same kind varies by more than the difference between algorithms.
    """

    name: str
    fractions: Mapping[str, float]
    low: Mapping[str, float]
    high: Mapping[str, float]
    all_zero: bool
    basis: str

    def fraction(self, algorithm: str) -> float:
        return _lookup(self.fractions, algorithm)

    def ratio(self, algorithm: str) -> float:
        f = self.fraction(algorithm)
        return 1.0 if f >= 1.0 or f <= 0 else 1.0 / f

    def ratio_range(self, algorithm: str) -> tuple[float, float]:
        lo, hi = _lookup(self.high, algorithm), _lookup(self.low, algorithm)
        return (1.0 / lo if 0 < lo < 1 else 1.0, 1.0 / hi if 0 < hi < 1 else 1.0)


def _lookup(table: Mapping[str, float], algorithm: str) -> float:
    """Value for ``algorithm``, falling back to the nearest level of the same family."""
    if algorithm in table:
        return table[algorithm]
    fam = algorithm_family(algorithm)
    if fam == "lzjb" or fam == "zle":
        return table.get(fam, table["lz4"])
    level = _split_level(algorithm)[1] if "-" in algorithm else 0
    same = [(abs(_split_level(k)[1] - level), k) for k in table if "-" in k and algorithm_family(k) == fam]
    if same:
        return table[min(same)[1]]
    return table["lz4"]


def _p(fr: dict[str, float], spread: float) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    low = {k: max(0.0001, v * (1 - spread)) for k, v in fr.items()}
    high = {k: min(1.0, v * (1 + spread)) for k, v in fr.items()}
    return fr, low, high


def _profile(
    name: str, fr: dict[str, float], spread: float, basis: str, all_zero: bool = False
) -> CompressibilityProfile:
    f, lo, hi = _p(fr, spread)
    return CompressibilityProfile(name, f, lo, hi, all_zero, basis)


# Measured with measure_compression() (python-lz4 4.4, zstandard 0.25, zlib) on 128 KiB
# records of real files on a Debian 12 system, before sector rounding; see docs/datasets.md
# ("Compressibility profiles") for the samples and the published figures they agree with.
PROFILES: Mapping[str, CompressibilityProfile] = {
    p.name: p
    for p in (
        _profile(
            "incompressible",
            {"lz4": 1.0, "lzjb": 1.0, "zle": 1.0, "gzip-6": 1.0, "zstd-3": 1.0, "zstd-fast-1": 1.0},
            0.0,
            "random bytes (os.urandom): every compressor gives up; exact",
        ),
        _profile(
            "already-compressed",
            {
                "lz4": 0.97,
                "lzjb": 0.99,
                "zle": 1.0,
                "gzip-1": 0.97,
                "gzip-6": 0.97,
                "gzip-9": 0.97,
                "zstd-1": 0.95,
                "zstd-3": 0.94,
                "zstd-9": 0.944,
                "zstd-19": 0.938,
                "zstd-fast-1": 0.95,
            },
            0.03,
            "measured: 8 MiB of .gz/.png/.xz files under /usr/share (Debian 12): 3-6 % saved on "
            "average, so most records fail the 12.5 % rule and are stored as they are "
            "(compressratio 1.02-1.05x at 128K, ashift 12)",
        ),
        _profile(
            "mixed",
            {
                "lz4": 0.69,
                "lzjb": 0.74,
                "zle": 0.92,
                "gzip-1": 0.64,
                "gzip-6": 0.63,
                "gzip-9": 0.63,
                "zstd-1": 0.63,
                "zstd-3": 0.62,
                "zstd-9": 0.61,
                "zstd-19": 0.6,
                "zstd-fast-1": 0.65,
            },
            0.3,
            "half already-compressed media, half executables/libraries: measured 8 MiB of ELF "
            "files from /usr/bin and /usr/lib (lz4 0.41, zstd-3 0.30) averaged with the "
            "already-compressed sample; a general file share",
        ),
        _profile(
            "text",
            {
                "lz4": 0.392,
                "lzjb": 0.5,
                "zle": 0.99,
                "gzip-1": 0.297,
                "gzip-6": 0.244,
                "gzip-9": 0.242,
                "zstd-1": 0.275,
                "zstd-3": 0.26,
                "zstd-9": 0.234,
                "zstd-19": 0.228,
                "zstd-fast-1": 0.326,
            },
            0.25,
            "measured: 8 MiB of Python 3.11 standard-library sources: lz4 2.44x, zstd-3 3.62x, "
            "gzip-6 3.84x compressratio at 128K records, ashift 12",
        ),
        _profile(
            "logs",
            {
                "lz4": 0.19,
                "lzjb": 0.28,
                "zle": 0.99,
                "gzip-1": 0.137,
                "gzip-6": 0.115,
                "gzip-9": 0.113,
                "zstd-1": 0.123,
                "zstd-3": 0.119,
                "zstd-9": 0.108,
                "zstd-19": 0.098,
                "zstd-fast-1": 0.139,
            },
            0.4,
            "measured: 1.5 MiB of dpkg/apt/alternatives logs from /var/log: lz4 4.9x, zstd-3 7.5x "
            "at 128K records; other log formats vary widely (4-10x)",
        ),
        _profile(
            "database",
            {
                "lz4": 0.5,
                "lzjb": 0.6,
                "zle": 0.8,
                "gzip-1": 0.38,
                "gzip-6": 0.34,
                "gzip-9": 0.335,
                "zstd-1": 0.36,
                "zstd-3": 0.33,
                "zstd-9": 0.3,
                "zstd-19": 0.27,
                "zstd-fast-1": 0.44,
            },
            0.35,
            "SQLite/PostgreSQL-style pages (row data plus free space in each page); 2-3x with lz4 "
            "is the commonly reported figure for OLTP databases on ZFS, much less for "
            "pre-compressed columns",
        ),
        _profile(
            "vm-images",
            {
                "lz4": 0.6,
                "lzjb": 0.66,
                "zle": 0.8,
                "gzip-1": 0.5,
                "gzip-6": 0.47,
                "gzip-9": 0.465,
                "zstd-1": 0.48,
                "zstd-3": 0.46,
                "zstd-9": 0.43,
                "zstd-19": 0.4,
                "zstd-fast-1": 0.55,
            },
            0.35,
            "guest disks holding an OS plus applications (binaries, text, free space that is "
            "not zero); all-zero blocks become holes and are not counted here",
        ),
        _profile(
            "zeros",
            {"lz4": 0.0, "lzjb": 0.0, "zle": 0.0, "gzip-6": 0.0, "zstd-3": 0.0, "zstd-fast-1": 0.0},
            0.0,
            "all-zero blocks: with any compression they become holes and take no space "
            "(zio_write_compress); with compression=off they are written out in full",
            all_zero=True,
        ),
    )
}


# --------------------------------------------------------------------------- real compressors


def compressed_size(block: bytes, algorithm: str) -> int:
    """Bytes the ZFS compressor would produce for ``block`` (ZFS header included), with the whole
    block as its budget; ``len(block)`` when it cannot shrink it (:mod:`.compressors`)."""
    try:
        size = zfs_compressed_size(block, algorithm, len(block))
    except CompressorError as exc:
        raise CompressionError(str(exc)) from exc
    return len(block) if size is None else size


@dataclass(frozen=True)
class MeasuredCompression:
    """Result of compressing a sample the way ZFS would.

    ``compressratio`` is computed as ``zfs get compressratio`` does, from the rounded
    ``psize`` of each block; ``psize_histogram`` gives (psize, blocks) with psize 0 for
    holes and embedded blocks; ``raw_fraction`` is compressor output / input before any
    rounding (what :class:`CompressibilityProfile` stores).
    """

    algorithm: str
    recordsize: int
    ashift: int
    version: str
    sample_bytes: int
    blocks: int
    logical_bytes: int
    physical_bytes: int
    allocated_psize_bytes: int
    compressratio: float
    raw_fraction: float
    compressed_blocks: int
    uncompressed_blocks: int
    embedded_blocks: int
    hole_blocks: int
    psize_histogram: tuple[tuple[int, int], ...]


def measure_compression(data: bytes, algorithm: str, recordsize: int, ashift: int, version: str) -> MeasuredCompression:
    """Compress ``data`` as one file written to a dataset with ``recordsize`` and
    ``compression=algorithm`` on a pool whose allocation unit is ``2**ashift``.

    A sample no larger than the recordsize is one block of ``roundup(len, 512)``; a
    larger one is split into full records, the last one zero-padded to a full record
    (``zfs_write`` block-size rules). Each block then goes through :func:`stored_block`.
    """
    algo = resolve_algorithm(algorithm, version)
    unit = 1 << ashift
    size = len(data)
    if size <= recordsize:
        lsize = roundup(max(size, 1), SPA_MINBLOCKSIZE) if size else 0
        chunks = [data + bytes(lsize - size)] if size else []
    else:
        chunks = [data[i : i + recordsize] for i in range(0, size, recordsize)]
        if len(chunks[-1]) < recordsize:
            chunks[-1] = chunks[-1] + bytes(recordsize - len(chunks[-1]))
    hist: Counter[int] = Counter()
    counts: Counter[BlockKind] = Counter()
    logical = physical = alloc = raw_in = raw_out = 0
    for block in chunks:
        lsize = len(block)
        zero = algo != "off" and not any(block)
        comp = None
        if algo != "off" and not zero:
            budget = compression_budget(lsize, algo, version, unit, unit)
            c = zfs_compressed_size(block, algo, budget, version_tuple(version))
            raw_in += lsize
            raw_out += lsize if c is None else c
            comp = c
        sb = stored_block(lsize, comp, algorithm=algo, version=version, min_alloc=unit, gcd_alloc=unit, all_zero=zero)
        counts[sb.kind] += 1
        hist[sb.alloc_psize] += 1
        logical += sb.lsize
        physical += sb.psize
        alloc += sb.alloc_psize
    return MeasuredCompression(
        algorithm=algo,
        recordsize=recordsize,
        ashift=ashift,
        version=version,
        sample_bytes=size,
        blocks=len(chunks),
        logical_bytes=logical,
        physical_bytes=physical,
        allocated_psize_bytes=alloc,
        compressratio=compressratio(logical, physical),
        raw_fraction=(raw_out / raw_in) if raw_in else 1.0,
        compressed_blocks=counts[BlockKind.COMPRESSED],
        uncompressed_blocks=counts[BlockKind.UNCOMPRESSED],
        embedded_blocks=counts[BlockKind.EMBEDDED],
        hole_blocks=counts[BlockKind.HOLE],
        psize_histogram=tuple(sorted(hist.items())),
    )
