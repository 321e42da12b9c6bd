"""Measuring uploaded samples: option checks, measuring in the request or in a Celery task.

One code path for the command, the API and the pages: :func:`zfsplanner.core.datasets.measure.measure_files`.
A sample up to ``COMPRESSION_INLINE_MAX_BYTES`` (4 MiB) is measured while the request waits;
a larger one (up to ``COMPRESSION_UPLOAD_MAX_BYTES``) is stored and measured by a worker that
reports its progress in ``CompressionSample.progress``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from zfsplanner.core.datasets.measure import MeasureError, Source, measure_files, settings_for
from zfsplanner.core.geometry.ashift import ASHIFT_RANGE
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE
from zfsplanner.core.units import UnitError, parse_zfs_size
from zfsplanner.core.versions import Version, default_version, unknown_version_message
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import spool

from .models import COMPRESSION_SAMPLES, CompressionSample

logger = logging.getLogger(__name__)

DEFAULT_ALGORITHMS = ("lz4", "zstd")
DEFAULT_RECORDSIZES = (DEFAULT_RECORDSIZE,)


class OptionError(ValueError):
    """A bad option; ``field`` names it (``algorithms``, ``recordsize``, ``ashift``, ``openzfs_version``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Options:
    algorithms: tuple[str, ...]
    recordsizes: tuple[int, ...]
    ashift: int
    openzfs_version: Version  # read from the text given (its spelling kept: Version.name)


def _split(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list | tuple) else [value]
    out: list[str] = []
    for item in items:
        out.extend(part.strip() for part in str(item).split(",") if part.strip())
    return out


def parse_options(algorithms: Any = None, recordsize: Any = None, ashift: Any = None, version: Any = None) -> Options:
    """Read the options as the command, the API and the form give them (comma lists or lists)."""
    v = str(version or default_version()).strip()
    problem = unknown_version_message(v)
    if problem is not None:
        raise OptionError("openzfs_version", problem)
    release = Version.parse(v)
    try:
        a = int(ashift) if ashift not in (None, "") else 12
    except (TypeError, ValueError) as exc:
        raise OptionError("ashift", f"{ashift!r} is not a number") from exc
    if a not in ASHIFT_RANGE:
        raise OptionError("ashift", f"{a} is not between {ASHIFT_RANGE[0]} and {ASHIFT_RANGE[-1]}")
    sizes: list[int] = []
    for text in _split(recordsize) or [str(s) for s in DEFAULT_RECORDSIZES]:
        try:
            sizes.append(parse_zfs_size(int(text) if text.isdigit() else text))
        except UnitError as exc:
            raise OptionError("recordsize", str(exc)) from exc
    names = _split(algorithms) or list(DEFAULT_ALGORITHMS)
    try:
        settings_for(names, sizes, release)
    except MeasureError as exc:
        field, _, message = str(exc).partition(": ")
        raise OptionError(field if field in ("algorithms", "recordsize") else "algorithms", message) from exc
    return Options(tuple(names), tuple(dict.fromkeys(sizes)), a, release)


def measure_uploads(files: Sequence[UploadedFile], options: Options) -> dict[str, Any]:
    """Measure uploaded files while the request waits."""
    sources = [Source(f.name or "sample", f.size or 0, _opener(f)) for f in files]
    return measure_files(sources, options.algorithms, options.recordsizes, options.ashift, options.openzfs_version)


def _opener(f: UploadedFile) -> Any:
    def open_() -> Any:
        f.seek(0)
        return _Unclosed(f)

    return open_


class _Unclosed:
    """The upload as a context manager that leaves it open (it is read once per recordsize)."""

    def __init__(self, f: UploadedFile) -> None:
        self.f = f

    def read(self, n: int = -1) -> bytes:
        data: bytes = self.f.read(n)
        return data

    def __enter__(self) -> _Unclosed:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def store_sample(owner: Any, upload: UploadedFile, options: Options) -> CompressionSample:
    """Keep the upload and measure it: now when it is small (``COMPRESSION_INLINE_MAX_BYTES``),
    else by a worker once the transaction commits (the lifecycle: :mod:`zfsplanner.uploads`,
    kind ``COMPRESSION_SAMPLES``)."""
    spooled = spool(upload, COMPRESSION_SAMPLES)
    sample = CompressionSample(
        owner=owner,
        original_name=(upload.name or "sample")[:255],
        size=spooled.size,
        sha256=spooled.sha256,
        algorithms=list(options.algorithms),
        recordsizes=list(options.recordsizes),
        ashift=options.ashift,
        openzfs_version=options.openzfs_version.name,
    )
    inline = sample.size <= inline_limit()
    lifecycle.keep(COMPRESSION_SAMPLES, sample, spooled, str(sample.uid), queue=not inline)
    if inline and lifecycle.claim(COMPRESSION_SAMPLES, sample.pk, f"inline-{sample.uid.hex}"):
        measure(CompressionSample.objects.get(pk=sample.pk))
    return sample


def measure(sample: CompressionSample) -> None:
    """Measure a claimed sample, recording progress, then the result or the reason it failed."""
    progress = lifecycle.Progress(COMPRESSION_SAMPLES, sample.pk)
    source = Source(sample.original_name, sample.size, lambda: sample.file.open("rb"))
    try:
        doc = measure_files(
            [source], sample.algorithms, sample.recordsizes, sample.ashift, Version.parse(sample.openzfs_version),
            progress=progress.part,
        )
    except (MeasureError, OSError) as exc:
        lifecycle.fail(COMPRESSION_SAMPLES, sample.pk, str(exc), token=sample.task_id)
        return
    lifecycle.finish(COMPRESSION_SAMPLES, sample.pk, token=sample.task_id, result=doc)


def inline_limit() -> int:
    return int(settings.COMPRESSION_INLINE_MAX_BYTES)


def upload_limit() -> int:
    return int(settings.COMPRESSION_UPLOAD_MAX_BYTES)


def total_size(files: Iterable[UploadedFile]) -> int:
    return sum(f.size or 0 for f in files)


def status_document(sample: CompressionSample, url: str) -> dict[str, Any]:
    """What the API returns for a stored sample."""
    return {
        "id": sample.pk,
        "url": url,
        "file": sample.original_name,
        "size_bytes": sample.size,
        "sha256": sample.sha256,
        "algorithms": sample.algorithms,
        "recordsizes": sample.recordsizes,
        "ashift": sample.ashift,
        "openzfs_version": sample.openzfs_version,
        "status": sample.status,
        "progress": sample.progress,
        "error": sample.error,
        "result": sample.result,
        "created": sample.created.isoformat(),
        "finished": sample.finished.isoformat() if sample.finished else None,
    }
