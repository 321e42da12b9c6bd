"""A dataset's inputs as the estimate reads them: defaults, properties kept in its extra
keys, its files as size buckets and the compressed fraction of its data.

Step 1-2 of the dataset pipeline (:mod:`zfsplanner.core.datasets.usage`).
"""

from __future__ import annotations

from functools import lru_cache

from ..compression.profiles import PROFILES
from ..compression.rules import CompressionError, resolve_algorithm
from ..design.types import Dataset
from ..versions import NEWEST_RELEASE
from .directories import FILES_PER_DIRECTORY
from .metadata import RedundantMetadata


class DatasetError(ValueError):
    """The dataset cannot be estimated with the given inputs."""


def dnodesize_of(ds: Dataset) -> int:
    """``dnodesize`` from the dataset's extra keys: legacy (512 B, the default), auto
    (1 KiB, ``dmu_objset.c``) or 1k..16k."""
    value = str(ds.extra.get("dnodesize", "legacy")).lower()
    sizes = {"legacy": 512, "auto": 1024, "1k": 1024, "2k": 2048, "4k": 4096, "8k": 8192, "16k": 16384}
    if value not in sizes:
        raise DatasetError(f"{ds.name}: dnodesize {value!r} is not one of {', '.join(sizes)}")
    return sizes[value]


def files_per_directory_of(ds: Dataset) -> int | None:
    """``contents.files_per_directory`` (the design format's field), else the dataset key of the
    same name older documents used, else the documented default (``directories.FILES_PER_DIRECTORY``)."""
    if ds.contents is not None and ds.contents.files_per_directory is not None:
        return ds.contents.files_per_directory
    value = ds.extra.get("files_per_directory", FILES_PER_DIRECTORY)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DatasetError(f"{ds.name}: files_per_directory must be a positive integer")
    return int(value)


def redundant_metadata_of(ds: Dataset) -> RedundantMetadata:
    value = str(ds.extra.get("redundant_metadata", "all")).lower()
    try:
        return RedundantMetadata(value)
    except ValueError as exc:
        raise DatasetError(f"{ds.name}: redundant_metadata {value!r} is not all, most, some or none") from exc


def file_buckets(ds: Dataset, notes: list[str]) -> tuple[tuple[tuple[int, float], ...], bool]:
    """(size, count) buckets of files, and whether the contents are one unnamed stream
    of large files (no file count given)."""
    c = ds.contents
    if c is None:
        return (), False
    buckets, stream, said = _buckets(c.file_size_histogram, c.logical_bytes, c.file_count)
    notes.extend(said)
    return buckets, stream


# The same buckets, the same tuple: what is computed from them is kept by the tuple's identity (blocks.py).
@lru_cache(maxsize=64)
def _buckets(
    histogram: tuple[tuple[int, int], ...] | None, logical: int | None, file_count: int | None
) -> tuple[tuple[tuple[int, float], ...], bool, tuple[str, ...]]:
    notes: list[str] = []
    if histogram:
        hist = [(s, float(n)) for s, n in histogram if n > 0]
        total = sum(s * n for s, n in hist)
        files = sum(n for _, n in hist)
        if logical is not None and total > 0 and abs(total - logical) > 0.01 * logical:
            scale = logical / total
            hist = [(s, n * scale) for s, n in hist]
            notes.append(
                f"file_size_histogram adds up to {total:.0f} bytes, not logical_bytes {logical}: "
                f"counts scaled by {scale:.3f}"
            )
        elif logical is None and file_count and files and abs(files - file_count) > 0.01 * file_count:
            scale = file_count / files
            hist = [(s, n * scale) for s, n in hist]
            notes.append(f"file_size_histogram has {files:.0f} files, not file_count {file_count}: counts scaled")
        return tuple(hist), False, tuple(notes)
    if file_count:
        if not logical:
            return ((0, float(file_count)),), False, ()
        q, r = divmod(logical, file_count)
        buckets = [(q, float(file_count - r))]
        if r:
            buckets.append((q + 1, float(r)))
        notes.append(f"no file_size_histogram: {file_count} files of about {q} bytes assumed")
        return tuple(buckets), False, tuple(notes)
    if logical:
        notes.append("no file count: contents treated as large files of whole records")
        return ((logical, 1.0),), True, tuple(notes)
    return (), False, ()


def compressed_fraction(ds: Dataset, algorithm: str, notes: list[str]) -> tuple[float, bool]:
    """Compressed fraction of the data (compressor output / input) and all-zero flag."""
    comp = ds.contents.compressibility if ds.contents else None
    if comp is None:
        notes.append("no compressibility given: data assumed incompressible")
        return 1.0, False
    if comp.ratio is not None:
        if comp.algorithm and algorithm != "off":
            try:
                measured_with = resolve_algorithm(comp.algorithm, NEWEST_RELEASE)
            except CompressionError:
                measured_with = comp.algorithm
            if measured_with != algorithm:
                notes.append(f"ratio {comp.ratio} was measured with {comp.algorithm}, dataset uses {algorithm}")
        return 1.0 / comp.ratio, False
    if comp.profile is not None:
        profile = PROFILES[comp.profile]
        lo, hi = profile.ratio_range(algorithm) if algorithm != "off" else (1.0, 1.0)
        if algorithm != "off" and not profile.all_zero:
            notes.append(
                f"profile {profile.name!r} with {algorithm}: about {profile.ratio(algorithm):.2f}x "
                f"(estimate, {lo:.2f}-{hi:.2f}x)"
            )
        return profile.fraction(algorithm), profile.all_zero
    return 1.0, False
