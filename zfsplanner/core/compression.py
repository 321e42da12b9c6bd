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

The three parts are modules of their own (:mod:`compression_rules`,
:mod:`compression_profiles`, :mod:`compression_measure`), re-exported here.
"""

from .compression_measure import (
    MeasuredCompression,
    compressed_size,
    measure_compression,
)
from .compression_profiles import (
    PROFILES,
    CompressibilityProfile,
    _lookup,
    _p,
    _profile,
)
from .compression_rules import (
    BPE_PAYLOAD_SIZE,
    LZ4_HEADER,
    SPA_MINBLOCKSIZE,
    ZSTD_HEADER,
    ZSTD_MAGIC,
    BlockKind,
    CompressionError,
    StoredBlock,
    algorithm_family,
    compression_budget,
    compressratio,
    default_compression,
    estimated_compressed_size,
    header_bytes,
    resolve_algorithm,
    roundup_alloc_size,
    split_level,
    stored_block,
    zero_run_cost,
)

__all__ = [
    "_lookup",
    "_p",
    "_profile",
    "split_level",
    "algorithm_family",
    "BlockKind",
    "BPE_PAYLOAD_SIZE",
    "compressed_size",
    "CompressibilityProfile",
    "compression_budget",
    "CompressionError",
    "compressratio",
    "default_compression",
    "estimated_compressed_size",
    "header_bytes",
    "LZ4_HEADER",
    "measure_compression",
    "MeasuredCompression",
    "PROFILES",
    "resolve_algorithm",
    "roundup_alloc_size",
    "SPA_MINBLOCKSIZE",
    "stored_block",
    "StoredBlock",
    "zero_run_cost",
    "ZSTD_HEADER",
    "ZSTD_MAGIC",
]
