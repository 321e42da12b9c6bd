"""The compressors OpenZFS runs on a block, as the kernel module runs them: the one home of that rule.

:func:`zfs_compressed_size` answers "how many bytes does ZFS record for this block with
this algorithm, given the budget ``d_len``" (``zio_compress_data()``), or None when the
block is stored uncompressed. It calls the C extension ``_zfscomp`` (built by ``make
native`` from ``native/zfscomp.c``), which reproduces:

* **lz4**: the LZ4 variant in ``module/zfs/lz4_zfs.c`` (the r85-era LZ4 that OpenZFS has
  carried unchanged since 0.6.1; 4-byte length header), checked byte for byte;
* **zstd**: libzstd 1.4.5, the version in ``module/zstd/lib`` from 2.0 to 2.4, with the
  settings of ``zfs_zstd.c`` (magicless frame, no checksum, no content size, 8-byte ZFS
  header) and, from 2.2, its early-abort passes (lz4, then zstd-1, before zstd-3 and
  above on records of 128 KiB or more);
* **zle** (``zle.c``, n = 64) and **lzjb** (``lzjb.c``).

**gzip-N** is deflate at level N with a 32 KiB window and memory level 8 and the zlib
header and trailer (``z_compress_level()`` in ``module/os/linux/spl/spl-zlib.c``, calling the
Linux kernel's zlib). Python's ``zlib`` runs the same algorithm (the kernel's copy is zlib
1.1.3's deflate; the matcher, lazy-match table and block flushing rules are unchanged in
zlib 1.2/1.3); it is counted exact unless the interpreter links zlib-ng, whose deflate
differs.

Without the extension, lz4 and zstd fall back to the ``lz4`` (LZ4 1.9) and ``zstandard``
(zstd 1.5) packages, whose block sizes differ by a few per cent; :func:`method` says which
path an algorithm takes so results can say they are approximate.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from types import ModuleType

import lz4.block
import zstandard

from ..versions import NEWEST_RELEASE, Version, supports

try:  # the C extension; absent until `make native` has run
    from . import _zfscomp as _native

    NATIVE: ModuleType | None = _native
except ImportError:  # pragma: no cover - exercised when the extension is not built
    NATIVE = None

LZ4_HEADER = 4
ZSTD_HEADER = 8
ZSTD_MAGIC = 4
ZLE_N = 64  # zio_compress_table: zle's level
ZSTD_EARLY_ABORT_LEVEL = 3  # zstd_cutoff_level (ZIO_ZSTD_LEVEL_3)
ZSTD_EARLY_ABORT_SIZE = 128 * 1024  # zstd_abort_size

EXACT = "exact"
APPROXIMATE = "approximate"


class CompressorError(ValueError):
    """An algorithm that cannot be run here."""


def family_and_level(algorithm: str) -> tuple[str, int]:
    """``zstd-7`` -> ``("zstd", 7)``, ``zstd-fast-10`` -> ``("zstd", -10)``, ``gzip-9`` -> ``("gzip", 9)``,
    ``lz4`` -> ``("lz4", 0)``. The algorithm must already be resolved (``compression.resolve_algorithm``)."""
    if algorithm.startswith("zstd-fast-"):
        return "zstd", -int(algorithm.rsplit("-", 1)[1])
    if algorithm.startswith("zstd-") or algorithm.startswith("gzip-"):
        fam, level = algorithm.split("-", 1)
        return fam, int(level)
    if algorithm in ("lz4", "zle", "lzjb"):
        return algorithm, 0
    raise CompressorError(f"{algorithm!r} is not a compressor")


@lru_cache(maxsize=1)
def _zlib_is_classic() -> bool:
    return "ng" not in zlib.ZLIB_RUNTIME_VERSION.lower()


def method(algorithm: str) -> str:
    """:data:`EXACT` when the block sizes are those OpenZFS records, else :data:`APPROXIMATE`."""
    fam, _ = family_and_level(algorithm)
    if fam == "gzip":
        return EXACT if _zlib_is_classic() else APPROXIMATE
    if fam == "zle":
        return EXACT
    return EXACT if NATIVE is not None else APPROXIMATE


def describe(algorithm: str) -> str:
    """One line on how ``algorithm`` is measured here."""
    fam, _ = family_and_level(algorithm)
    exact = method(algorithm) == EXACT
    if fam == "lz4":
        return "OpenZFS lz4 (lz4_zfs.c)" if exact else "python lz4 (LZ4 1.9): approximate, build the extension"
    if fam == "zstd":
        return "zstd 1.4.5 as OpenZFS calls it" if exact else "python zstandard (zstd 1.5): approximate"
    if fam == "gzip":
        return "deflate (zlib)" if exact else f"{zlib.ZLIB_RUNTIME_VERSION}: approximate"
    return f"OpenZFS {fam}"


def _native_size(kind: int, block: bytes, d_len: int, level: int = 0) -> int | None:
    assert NATIVE is not None
    size: int | None = NATIVE.compressed_size(kind, block, d_len, level)
    return size


def _fits(size: int, lsize: int, d_len: int) -> int | None:
    return size if size <= d_len and size < lsize else None


def _lz4(block: bytes, d_len: int) -> int | None:
    if NATIVE is not None:
        return _native_size(NATIVE.LZ4, block, d_len)
    return _fits(LZ4_HEADER + len(lz4.block.compress(block, mode="default", store_size=False)), len(block), d_len)


def _zstd(block: bytes, d_len: int, level: int) -> int | None:
    if NATIVE is not None:
        return _native_size(NATIVE.ZSTD, block, d_len, level)
    frame = zstandard.ZstdCompressor(level=level, write_content_size=False).compress(block)
    return _fits(ZSTD_HEADER + len(frame) - ZSTD_MAGIC, len(block), d_len)


def _zle_python(block: bytes, d_len: int, n: int = ZLE_N) -> int | None:
    """``zfs_zle_compress_buf()`` in Python (the extension's fallback)."""
    size = len(block)
    src = 0
    dst = 0
    while src < size and dst < d_len - 1:
        dst += 1
        if block[src] == 0:
            stop = min(src + 256 - n, size)
            while src < stop and block[src] == 0:
                src += 1
        else:
            stop = min(src + n, size)
            if d_len - dst < n:
                break
            while src < stop - 1 and (block[src] or block[src + 1]):
                src += 1
                dst += 1
            if block[src]:
                src += 1
                dst += 1
    return _fits(dst, size, d_len) if src == size else None


def zfs_compressed_size(block: bytes, algorithm: str, d_len: int, version: Version | None = None) -> int | None:
    """Bytes ZFS records for ``block`` compressed with ``algorithm`` within ``d_len``; None if it stores
    the block as it is. ``version``: the OpenZFS release (zstd's early abort is 2.2+); none given, the
    newest release the planner knows (:data:`~zfsplanner.core.versions.NEWEST_RELEASE`)."""
    version = version or NEWEST_RELEASE
    lsize = len(block)
    d_len = min(d_len, lsize)
    fam, level = family_and_level(algorithm)
    if fam == "lz4":
        return _lz4(block, d_len)
    if fam == "zstd":
        if level >= ZSTD_EARLY_ABORT_LEVEL and supports(version, "zstd_early_abort"):
            # zfs_zstd_compress_buf(): a record lz4 cannot shrink gets one zstd-1 try first
            passed = _lz4(block, d_len)
            if passed is None or passed >= d_len:
                if _zstd(block, d_len, 1) is None:
                    return None
        return _zstd(block, d_len, level)
    if fam == "gzip":
        c = zlib.compressobj(level, zlib.DEFLATED, 15, 8)
        return _fits(len(c.compress(block) + c.flush()), lsize, d_len)
    if fam == "zle":
        if NATIVE is not None:
            return _native_size(NATIVE.ZLE, block, d_len, ZLE_N)
        return _zle_python(block, d_len)
    if fam == "lzjb":
        if NATIVE is None:
            raise CompressorError("lzjb needs the compiled extension (make native)")
        return _native_size(NATIVE.LZJB, block, d_len)
    raise CompressorError(f"{algorithm!r} is not a compressor")  # pragma: no cover
