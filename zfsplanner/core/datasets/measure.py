"""Measure what files would take on ZFS: block by block with ZFS's own compressors.

One home for "what does this data compress to under ZFS". Each file is cut into blocks
as ``zfs_write()`` does (a file no larger than the recordsize is one block of
``roundup(size, 512)``; a larger one is whole records, the last one full-size and zero
padded), every block goes through ZFS's compressor (:mod:`.compressors`) within the
budget of the OpenZFS release (``compression.compression_budget``), then through
``zio_write_compress()``'s rules (holes, embedded block pointers, rounding to the
allocation unit; ``compression.stored_block``).

Per file and algorithm it reports what the tools would print:

* ``stored_bytes``: ``du -B1`` of the file on ZFS: ``st_blocks`` comes from
  ``dmu_object_size_from_db()``: the bytes the object's blocks use (``dn_used``: every
  DVA's allocated size, data and indirect blocks alike) in 512 B units rounded to the
  nearest, plus one unit per dnode slot. The vdev is taken as a single disk or mirror
  (allocated size = psize rounded up to the sector); on raidz it is deflated as
  :mod:`.usage` does. Indirect blocks are sized by :mod:`.metadata` (an estimate of
  their lz4 size, two copies with ``redundant_metadata=all``);
* ``compressratio``: what ``zfs get compressratio`` prints for a dataset holding just
  these files: logical over physical size of every block pointer (data and indirect),
  truncated to hundredths (``dsl_get_compressratio()``), and ``compressratio_exact``;
* ``block_size_histogram``: ``[[psize, blocks], ...]`` of the data blocks as stored
  (psize 0: a hole or an embedded block), for a design's ``contents.block_size_histogram``.

Pure: takes bytes or a binary file object; the command, the API and the Celery task
call :func:`measure_files`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from ..compression.compressors import CompressorError, describe, method, zfs_compressed_size
from ..compression.measured import store_block
from ..compression.rules import (
    BPE_PAYLOAD_SIZE,
    SPA_MINBLOCKSIZE,
    BlockKind,
    CompressionError,
    compressratio,
    resolve_algorithm,
)
from ..geometry.ashift import ASHIFT_RANGE
from ..units import is_power_of_two, roundup
from ..versions import Version, supports
from .metadata import INDIRECT_BLOCK_SIZE, LEGACY_DNODE_SIZE, SA_NBLKPTR, RedundantMetadata, object_indirects

MIN_RECORDSIZE = 512
MAX_RECORDSIZE = 16 * 1024 * 1024
READ_CHUNK = 1 << 20


class MeasureError(ValueError):
    """Bad settings (names the option) or an unreadable file (names the file)."""


@dataclass(frozen=True)
class Setting:
    """One algorithm at one recordsize: ``setting`` as given (``zstd``), ``algorithm`` resolved (``zstd-3``)."""

    setting: str
    algorithm: str
    recordsize: int


@dataclass
class Tally:
    """What a set of files adds up to under one :class:`Setting`."""

    setting: Setting
    ashift: int
    files: int = 0
    logical_bytes: int = 0  # the files' own sizes
    data_lsize: int = 0  # logical size of the data blocks that are not holes
    data_psize: int = 0  # their physical size (block pointer psize; embedded included)
    data_asize: int = 0  # allocated: psize rounded up to the sector, holes and embedded 0
    meta_lsize: int = 0
    meta_psize: int = 0
    meta_asize: int = 0  # every copy
    stored_bytes: int = 0  # sum of du -B1
    seconds: float = 0.0
    kinds: Counter[BlockKind] = field(default_factory=Counter)
    histogram: Counter[int] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.files += other.files
        self.logical_bytes += other.logical_bytes
        self.data_lsize += other.data_lsize
        self.data_psize += other.data_psize
        self.data_asize += other.data_asize
        self.meta_lsize += other.meta_lsize
        self.meta_psize += other.meta_psize
        self.meta_asize += other.meta_asize
        self.stored_bytes += other.stored_bytes
        self.seconds += other.seconds
        self.kinds.update(other.kinds)
        self.histogram.update(other.histogram)

    def document(self) -> dict[str, object]:
        lsize = self.data_lsize + self.meta_lsize
        psize = self.data_psize + self.meta_psize
        return {
            "algorithm": self.setting.algorithm,
            "setting": self.setting.setting,
            "recordsize": self.setting.recordsize,
            "logical_bytes": self.logical_bytes,
            "stored_bytes": self.stored_bytes,
            "compressratio": compressratio(lsize, psize),
            "compressratio_exact": lsize / psize if psize else 1.0,
            "throughput_bytes_per_s": int(self.logical_bytes / self.seconds) if self.seconds > 0 else None,
            "method": method(self.setting.algorithm) if self.setting.algorithm != "off" else "exact",
            "compressor": describe(self.setting.algorithm) if self.setting.algorithm != "off" else "none",
            "files": self.files,
            "data_blocks": sum(self.kinds.values()),
            "compressed_blocks": self.kinds[BlockKind.COMPRESSED],
            "uncompressed_blocks": self.kinds[BlockKind.UNCOMPRESSED],
            "embedded_blocks": self.kinds[BlockKind.EMBEDDED],
            "hole_blocks": self.kinds[BlockKind.HOLE],
            "logicalused_bytes": lsize,
            "allocated_bytes": self.data_asize + self.meta_asize,
            "block_size_histogram": [[p, n] for p, n in sorted(self.histogram.items())],
        }


# --------------------------------------------------------------------------- settings


def parse_recordsizes(values: Iterable[int]) -> list[int]:
    out = []
    for rs in values:
        if not (MIN_RECORDSIZE <= rs <= MAX_RECORDSIZE and is_power_of_two(rs)):
            raise MeasureError(f"recordsize: {rs} is not a power of two from 512 to 16M")
        out.append(rs)
    return list(dict.fromkeys(out))


def settings_for(algorithms: Sequence[str], recordsizes: Sequence[int], version: Version) -> list[Setting]:
    """Every (algorithm, recordsize) pair, algorithms resolved as ZFS does (``zstd`` -> ``zstd-3``)."""
    if not algorithms:
        raise MeasureError("algorithms: give at least one (e.g. lz4,zstd,gzip-9)")
    out: list[Setting] = []
    for name in algorithms:
        try:
            algo = resolve_algorithm(name.strip(), version)
            if algo != "off":
                zfs_compressed_size(b"x" * 512, algo, 448, version)
        except (CompressionError, CompressorError) as exc:
            raise MeasureError(f"algorithms: {exc}") from exc
        if algo.startswith("zstd") and not supports(version, "zstd"):
            raise MeasureError(f"algorithms: {name} needs OpenZFS 2.0 or later (zstd arrived in 2.0.0)")
        out.extend(Setting(name.strip(), algo, rs) for rs in parse_recordsizes(recordsizes))
    return out


# --------------------------------------------------------------------------- blocks


def file_blocks(read: Callable[[int], bytes], size: int, recordsize: int) -> Iterator[bytes]:
    """The logical blocks ``zfs_write()`` makes of a file of ``size`` bytes read through ``read``."""
    if size <= 0:
        return
    if size <= recordsize:
        data = _read_exactly(read, size)
        yield data + bytes(roundup(size, SPA_MINBLOCKSIZE) - size)
        return
    left = size
    while left > 0:
        chunk = _read_exactly(read, min(recordsize, left))
        left -= len(chunk)
        if len(chunk) < recordsize:
            chunk += bytes(recordsize - len(chunk))
        yield chunk


def _read_exactly(read: Callable[[int], bytes], n: int) -> bytes:
    parts = []
    got = 0
    while got < n:
        piece = read(min(n - got, max(READ_CHUNK, n - got)))
        if not piece:
            raise MeasureError(f"the file ended after {got} of {n} bytes (was it changed while being read?)")
        parts.append(piece)
        got += len(piece)
    return b"".join(parts)


class Meter:
    """Feeds one file's blocks through one setting; :meth:`finish` gives its :class:`Tally`."""

    def __init__(self, setting: Setting, ashift: int, version: Version, *, logical_bytes: int) -> None:
        self.unit = 1 << ashift
        self.version = version
        self.tally = Tally(setting, ashift, files=1, logical_bytes=logical_bytes)
        self.nblocks = 0

    def feed(self, block: bytes) -> None:
        t = self.tally
        algo = t.setting.algorithm
        unit = self.unit
        start = time.perf_counter()
        self.nblocks += 1
        sb, _ = store_block(block, algo, self.version, unit)
        t.kinds[sb.kind] += 1
        t.histogram[sb.alloc_psize] += 1
        if sb.kind != BlockKind.HOLE:
            t.data_lsize += sb.lsize
            t.data_psize += sb.psize
            t.data_asize += roundup(sb.alloc_psize, unit)
        t.seconds += time.perf_counter() - start

    def finish(self) -> Tally:
        t = self.tally
        unit = self.unit
        for mb in object_indirects(self.nblocks, SA_NBLKPTR, 1, 1, RedundantMetadata.ALL, self.version, unit, unit):
            count = int(mb.count)
            t.meta_lsize += INDIRECT_BLOCK_SIZE * count
            t.meta_psize += mb.psize * count
            t.meta_asize += roundup(mb.psize, unit) * mb.dvas * count
        used = t.data_asize + t.meta_asize
        slots = LEGACY_DNODE_SIZE // SPA_MINBLOCKSIZE  # dnodesize=legacy: one 512 B dnode slot
        t.stored_bytes = (((used + SPA_MINBLOCKSIZE // 2) >> 9) + slots) * SPA_MINBLOCKSIZE
        return t


def measure_blocks(
    blocks: Iterable[bytes], setting: Setting, ashift: int, version: Version, *, logical_bytes: int
) -> Tally:
    """One file's blocks under one setting (the caller gives the blocks of that recordsize)."""
    meter = Meter(setting, ashift, version, logical_bytes=logical_bytes)
    for block in blocks:
        meter.feed(block)
    return meter.finish()


def measure_bytes(data: bytes, setting: Setting, ashift: int, version: Version) -> Tally:
    pos = 0

    def read(n: int) -> bytes:
        nonlocal pos
        piece = data[pos : pos + n]
        pos += len(piece)
        return piece

    return measure_blocks(
        file_blocks(read, len(data), setting.recordsize), setting, ashift, version, logical_bytes=len(data)
    )


# --------------------------------------------------------------------------- many files


@dataclass(frozen=True)
class Source:
    """A file to measure: its name in the output, its size, and how to open it (binary, from the start)."""

    name: str
    size: int
    open: Callable[[], BinaryIO]


def measure_files(
    sources: Sequence[Source],
    algorithms: Sequence[str],
    recordsizes: Sequence[int],
    ashift: int,
    version: Version,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """The ``measure_compression`` document: per file and for all files, per algorithm and recordsize.

    ``progress(done_bytes, total_bytes)`` is called after each (file, recordsize) pass.
    """
    if ashift not in ASHIFT_RANGE:
        raise MeasureError(f"ashift: {ashift} is not between {ASHIFT_RANGE[0]} and {ASHIFT_RANGE[-1]}")
    settings = settings_for(algorithms, recordsizes, version)
    by_rs: dict[int, list[Setting]] = {}
    for s in settings:
        by_rs.setdefault(s.recordsize, []).append(s)
    total_work = sum(src.size for src in sources) * len(by_rs) or 1
    done = 0
    totals = {s: Tally(s, ashift, files=0) for s in settings}
    files_out = []
    for src in sources:
        results = []
        for rs, group in by_rs.items():
            tallies = _measure_source(src, rs, group, ashift, version)
            for s, t in zip(group, tallies, strict=True):
                totals[s].add(t)
            results.extend(tallies)
            done += src.size
            if progress is not None:
                progress(done, total_work)
        order = {s: i for i, s in enumerate(settings)}
        results.sort(key=lambda t: order[t.setting])
        files_out.append({"path": src.name, "size_bytes": src.size, "results": [t.document() for t in results]})
    return {
        "format": "zfsplanner.compression/1",
        "openzfs_version": version.name,
        "ashift": ashift,
        "files": files_out,
        "total": {"files": len(sources), "results": [totals[s].document() for s in settings]},
        "notes": _notes(settings),
    }


def _measure_source(
    src: Source, recordsize: int, group: Sequence[Setting], ashift: int, version: Version
) -> list[Tally]:
    """Read the file once at ``recordsize`` and run every algorithm of ``group`` on each block."""
    meters = [Meter(s, ashift, version, logical_bytes=src.size) for s in group]
    try:
        fh = src.open()
    except OSError as exc:
        raise MeasureError(f"{src.name}: cannot be read ({exc.strerror or exc})") from exc
    with fh:
        try:
            for block in _stream(fh, src.size, recordsize):
                for m in meters:
                    m.feed(block)
        except OSError as exc:
            raise MeasureError(f"{src.name}: cannot be read ({exc.strerror or exc})") from exc
    return [m.finish() for m in meters]


def _stream(fh: BinaryIO, size: int, recordsize: int) -> Iterator[bytes]:
    return file_blocks(fh.read, size, recordsize)


def _notes(settings: Sequence[Setting]) -> list[str]:
    notes = [
        "stored_bytes is du -B1 on a single-disk or mirror vdev: data blocks and indirect blocks (two copies) "
        "as allocated, plus the dnode; compressratio counts data and indirect block pointers as zfs does",
        f"blocks that compress to {BPE_PAYLOAD_SIZE} B or less are embedded in their block pointer and take no space",
    ]
    for algo in dict.fromkeys(s.algorithm for s in settings):
        if algo != "off" and method(algo) != "exact":
            notes.append(f"{algo}: {describe(algo)}")
    return notes
