"""File-size histograms from listings of any length, in constant memory.

Reads a stream of byte chunks in one of four formats and buckets it as it goes, so a
listing of tens of millions of files never becomes millions of rows:

* ``sizes``: one size in bytes per line (``find DIR -type f -printf '%s\\n'``);
* ``du``: a size, whitespace and a path per line (``find DIR -type f -printf '%s %p\\n'``,
  ``du -ab DIR``). ``du`` lists each directory after its contents, so a line whose path
  is the parent of the line before it is a directory: it is skipped and counted. Without
  directory lines (``find``), the directories are the distinct parents of the files
  (counted exactly up to 65,536, estimated with a HyperLogLog sketch beyond). Either way
  ``files_per_directory`` = files / directories;
* ``csv``: ``size,count`` rows (a header row is allowed);
* ``zdb``: the "Block Size Histogram" of ``zdb -Lbbbs POOL`` (see
  :mod:`zfsplanner.core.importers.zdb`): block counts per stored size and the measured
  compression ratio, no file counts.

Buckets are 1/16 of a power of two wide (sizes below 32 bytes exactly), so at most
about 60 × 16 of them exist; each bucket is reported as ``[mean size, count]`` of the
files in it, which keeps ``logical_bytes`` exact and puts every file within 6.25 % of
its bucket's size. Bucket edges are powers of two, so no bucket straddles a record size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from ..document.limits import MAX_BYTES, MAX_FILES
from .common import numbered
from .size_buckets import DirectoryCounter, HistogramError, HistogramResult, SizeBuckets
from .zdb import BlockHistogram, ZdbError
from .zdb import parse as parse_zdb

FORMATS = ("sizes", "du", "csv", "zdb")
MAX_SIZE_DIGITS = 18  # below 10**18 bytes (~888 PiB): fits int64 with room for sums
ZDB_MAX_BYTES = 256 * 1024**2
_ALLOWED = np.zeros(256, dtype=bool)
_ALLOWED[ord("0") : ord("9") + 1] = True
_ALLOWED[[ord("\n"), ord("\r")]] = True
_ZDB_MARKERS = (b"Block Size Histogram", b"Traversing all blocks", b"bp count:", b"Blocks  LSIZE")


def detect_format(head: bytes) -> str:
    """The format of a listing from its first bytes; :class:`HistogramError` if none fits."""
    if any(m in head for m in _ZDB_MARKERS):
        return "zdb"
    for n, raw in enumerate(head.split(b"\n")[:50], start=1):
        line = raw.strip()
        if not line:
            continue
        if b"," in line or b";" in line:
            return "csv"
        if line.isdigit():
            return "sizes"
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].isdigit():
            return "du"
        raise HistogramError("auto", n, f"cannot tell the format from {line[:60].decode('utf-8', 'replace')!r} "
                                        "(expected sizes, 'size path', 'size,count' or zdb -Lbbbs output)")
    raise HistogramError("auto", None, "the input is empty")


def _lines_of(chunks: Iterable[bytes]) -> Iterator[tuple[bytes, int]]:
    """Whole-line blocks of the stream and the number of input bytes consumed so far."""
    carry = b""
    seen = 0
    for chunk in chunks:
        seen += len(chunk)
        buf = carry + chunk if carry else chunk
        cut = buf.rfind(b"\n") + 1
        if cut:
            yield buf[:cut], seen - (len(buf) - cut)
            carry = buf[cut:]
        else:
            carry = buf
    if carry:
        yield carry + b"\n", seen


def _checked(fmt: str, buckets: SizeBuckets, lines: int) -> SizeBuckets:
    """The buckets of a whole listing, refused when no line gave a file (nothing to apply: a
    header alone, comments, empty lines) or when the totals are beyond what a dataset holds."""
    if buckets.file_count == 0:
        raise HistogramError(fmt, None, f"no file sizes in {lines:,} line(s); nothing was applied")
    if buckets.file_count > MAX_FILES:
        raise HistogramError(fmt, None, f"{buckets.file_count:,} files is more than a dataset can hold "
                                        "(2^48, ZFS's object numbers per dataset)")
    if buckets.logical_bytes > MAX_BYTES:
        raise HistogramError(fmt, None, f"{buckets.logical_bytes:,} bytes in all is beyond what ZFS can address "
                                        "(2^64 − 1 = 16 EiB)")
    return buckets


def _sizes_only(fmt: str, buckets: SizeBuckets, lines: int) -> HistogramResult:
    """The result of a listing that gives sizes and no directories (checked as :func:`_checked`)."""
    _checked(fmt, buckets, lines)
    return HistogramResult(fmt, buckets.file_count, buckets.logical_bytes, tuple(buckets.pairs()), None, lines=lines)


def _sizes(blocks: Iterable[tuple[bytes, int]], progress: Callable[[int], None] | None) -> HistogramResult:
    buckets = SizeBuckets()
    line = 0
    for block, consumed in blocks:
        arr = np.frombuffer(block, dtype=np.uint8)
        if not block.strip():
            pass  # empty lines only (numpy would read a block of them as one size 0)
        elif _ALLOWED[arr].all():
            values = np.fromstring(block.decode("ascii"), dtype=np.int64, sep="\n")
            if values.size and int(values.max()) >= 10**MAX_SIZE_DIGITS:
                _slow_sizes(block, line, SizeBuckets())
            buckets.add_array(values)
        else:
            _slow_sizes(block, line, buckets)
        line += block.count(b"\n")
        if progress is not None:
            progress(consumed)
    return _sizes_only("sizes", buckets, line)


def _size_of(token: bytes, n: int, fmt: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise HistogramError(fmt, n, f"{token[:40].decode('utf-8', 'replace')!r} is not a size in bytes")
    if len(token) > MAX_SIZE_DIGITS:
        raise HistogramError(fmt, n, f"a {len(token)}-digit size ({token[:12].decode()}…) is larger than any file")
    return int(token)


def _slow_sizes(block: bytes, first: int, buckets: SizeBuckets) -> None:
    """Line by line, for a block with spaces, tabs or something that is not a size."""
    values = []
    for i, raw in enumerate(block.split(b"\n")[:-1], start=first + 1):
        token = raw.strip()
        if token:
            values.append(_size_of(token, i, "sizes"))
    buckets.add_array(np.array(values, dtype=np.int64))


def _du(blocks: Iterable[tuple[bytes, int]], progress: Callable[[int], None] | None) -> HistogramResult:
    buckets = SizeBuckets()
    dirs = DirectoryCounter()
    dir_lines = 0
    prev = b""
    last_parent: bytes | None = None
    line = 0
    pending: list[int] = []
    for block, consumed in blocks:
        for raw in block.split(b"\n")[:-1]:
            line += 1
            text = raw.rstrip(b"\r")
            if not text.strip():
                continue
            parts = text.split(None, 1)
            if len(parts) != 2:
                raise HistogramError("du", line, "expected a size and a path ('size path', as find -printf "
                                                 "'%s %p\\n' or du -ab print)")
            size = _size_of(parts[0], line, "du")
            path = parts[1].rstrip(b"/") or b"/"
            if prev.startswith(path + b"/"):
                dir_lines += 1  # du prints a directory after its contents
            else:
                pending.append(size)
                parent = path.rpartition(b"/")[0]
                if parent != last_parent:  # files of one directory come together: count it once
                    dirs.add(parent)
                    last_parent = parent
            prev = path
        buckets.add_array(np.array(pending, dtype=np.int64))
        pending = []
        if progress is not None:
            progress(consumed)
    files = _checked("du", buckets, line).file_count
    directories = dir_lines or dirs.count()
    estimated = not dir_lines and dirs.estimated
    fpd = max(1, round(files / directories)) if files and directories else None
    return HistogramResult("du", files, buckets.logical_bytes, tuple(buckets.pairs()), fpd, None, directories,
                           estimated, lines=line)


def _is_header(cells: list[bytes]) -> bool:
    """A header row names its columns ("size,count", "bytes;files"): letters and no digit at all.
    A row with a digit anywhere is data and must read as data (``-4096,10`` is not a header)."""
    return any(c.isalpha() for cell in cells for c in cell.decode("latin-1")) and not any(
        ch in b"0123456789" for cell in cells for ch in cell
    )


def _csv(blocks: Iterable[tuple[bytes, int]], progress: Callable[[int], None] | None) -> HistogramResult:
    buckets = SizeBuckets()
    line = 0
    seen_data = False
    files = 0
    total = 0
    for block, consumed in blocks:
        for raw in block.split(b"\n")[:-1]:
            line += 1
            text = raw.strip()
            if not text or text.startswith(b"#"):
                continue
            cells = [c.strip().strip(b'"') for c in text.replace(b";", b",").split(b",")]
            if len(cells) != 2:
                raise HistogramError("csv", line, f"expected 'size,count', got {len(cells)} fields")
            if not seen_data and _is_header(cells):
                seen_data = True  # a header row, before any data
                continue
            seen_data = True
            size = _size_of(cells[0], line, "csv")
            count = _count_of(cells[1], line)
            files += count
            total += size * count
            if files > MAX_FILES:
                raise HistogramError("csv", line, f"{files:,} files so far is more than a dataset can hold "
                                                  "(2^48, ZFS's object numbers per dataset)")
            if total > MAX_BYTES:
                raise HistogramError("csv", line, f"{total:,} bytes so far is beyond what ZFS can address "
                                                  "(2^64 − 1 = 16 EiB)")
            buckets.add(size, count)
        if progress is not None:
            progress(consumed)
    return _sizes_only("csv", buckets, line)


def _count_of(token: bytes, n: int) -> int:
    """A file count: ASCII digits, at most what one dataset can hold (checked on the text first)."""
    if not token.isdigit() or not token.isascii():
        raise HistogramError("csv", n, f"count {token[:40].decode('utf-8', 'replace')!r} is not a whole number")
    if len(token) > len(str(MAX_FILES)) or int(token) > MAX_FILES:
        raise HistogramError("csv", n, f"a count of {token[:20].decode()} files is more than a dataset can hold "
                                       "(2^48, ZFS's object numbers per dataset)")
    return int(token)


def from_zdb(hist: BlockHistogram) -> HistogramResult:
    """Stored block sizes (mean psize of each row) and the compression ratio zdb measured."""
    if hist.binned_by in (None, "psize"):
        source = hist.psize
    else:
        source = hist.psize  # binned by lsize/asize: the psize column still sums each row's stored bytes
    blocks = tuple(((total + count // 2) // count, count) for _, count, total in source if count)
    logical = hist.bp_logical if hist.bp_logical else sum(b for _, _, b in hist.lsize)
    return HistogramResult(
        "zdb",
        None,
        logical,
        None,
        None,
        blocks,
        compressratio=hist.compressratio,
        compressratio_by_block_size=hist.ratio_by_block_size(),
        lines=0,
    )


def _zdb(chunks: Iterable[bytes], progress: Callable[[int], None] | None) -> HistogramResult:
    data = bytearray()
    for chunk in chunks:
        data += chunk
        if len(data) > ZDB_MAX_BYTES:
            raise HistogramError("zdb", None, f"more than {ZDB_MAX_BYTES >> 20} MiB: not zdb -Lbbbs output")
        if progress is not None:
            progress(len(data))
    text = data.decode("utf-8", "replace")
    try:
        return from_zdb(parse_zdb(numbered(text)))
    except ZdbError as exc:
        raise HistogramError("zdb", exc.line, exc.message) from None


def bucket_stream(
    chunks: Iterable[bytes], fmt: str = "auto", progress: Callable[[int], None] | None = None
) -> HistogramResult:
    """Bucket a listing given as byte chunks. ``progress(bytes read)`` is called after each block."""
    it = iter(chunks)
    head = b""
    first: list[bytes] = []
    for chunk in it:
        first.append(chunk)
        head += chunk
        if len(head) >= 64 * 1024:
            break
    if fmt == "auto":
        fmt = detect_format(head)
    if fmt not in FORMATS:
        raise HistogramError(fmt, None, f"unknown format (use auto, {', '.join(FORMATS)})")

    def stream() -> Iterator[bytes]:
        yield from first
        yield from it

    if fmt == "zdb":
        return _zdb(stream(), progress)
    blocks = _lines_of(_rechunk(stream()))
    if fmt == "sizes":
        return _sizes(blocks, progress)
    if fmt == "du":
        return _du(blocks, progress)
    return _csv(blocks, progress)


def _rechunk(chunks: Iterable[bytes], size: int = 1 << 20) -> Iterator[bytes]:
    """Chunks of about ``size`` bytes: large enough to be fast, small enough to keep memory flat."""
    pending: list[bytes] = []
    held = 0
    for chunk in chunks:
        if len(chunk) > 2 * size:
            if pending:
                yield b"".join(pending)
                pending, held = [], 0
            view = memoryview(chunk)
            for i in range(0, len(chunk), size):
                yield bytes(view[i : i + size])
            continue
        pending.append(chunk)
        held += len(chunk)
        if held >= size:
            yield b"".join(pending)
            pending, held = [], 0
    if pending:
        yield b"".join(pending)


def bucket_bytes(data: bytes, fmt: str = "auto") -> HistogramResult:
    return bucket_stream([data], fmt)
