"""Measured compression: the real compressors over a sample, block by block, under the ZFS rules."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..units import roundup
from ..versions import Version
from .compressors import CompressorError, zfs_compressed_size
from .rules import (
    SPA_MINBLOCKSIZE,
    BlockKind,
    CompressionError,
    StoredBlock,
    compression_budget,
    compressratio,
    resolve_algorithm,
    stored_block,
)


def compressed_size(block: bytes, algorithm: str) -> int:
    """Bytes the ZFS compressor would produce for ``block`` (ZFS header included), with the whole
    block as its budget; ``len(block)`` when it cannot shrink it (:mod:`.compressors`)."""
    try:
        size = zfs_compressed_size(block, algorithm, len(block))
    except CompressorError as exc:
        raise CompressionError(str(exc)) from exc
    return len(block) if size is None else size


def store_block(block: bytes, algorithm: str, version: Version, unit: int) -> tuple[StoredBlock, int | None]:
    """``block`` as ``zio_write_compress()`` stores it with the resolved ``algorithm`` on a pool whose
    allocation unit is ``unit``, and what the compressor made of it (``len(block)`` when it could not
    shrink it within the budget; None when it did not run: compression off, or a block of zeros)."""
    lsize = len(block)
    zero = algorithm != "off" and not any(block)
    comp = raw = None
    if algorithm != "off" and not zero:
        budget = compression_budget(lsize, algorithm, version, unit, unit)
        comp = zfs_compressed_size(block, algorithm, budget, version)
        raw = lsize if comp is None else comp
    sb = stored_block(lsize, comp, algorithm=algorithm, version=version, min_alloc=unit, gcd_alloc=unit, all_zero=zero)
    return sb, raw


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


def measure_compression(
    data: bytes, algorithm: str, recordsize: int, ashift: int, version: Version
) -> MeasuredCompression:
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
        sb, raw = store_block(block, algo, version, unit)
        if raw is not None:
            raw_in += len(block)
            raw_out += raw
        counts[sb.kind] += 1
        hist[sb.alloc_psize] += 1
        logical += sb.lsize
        physical += sb.psize
        alloc += sb.alloc_psize
    return MeasuredCompression(
        algorithm=algo,
        recordsize=recordsize,
        ashift=ashift,
        version=version.name,
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
