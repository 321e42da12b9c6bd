"""Measuring uploaded samples: option checks, measuring in the request or in a Celery task.

One code path for the command, the API and the pages: :func:`zfsplanner.core.measure.measure_files`.
A sample up to ``COMPRESSION_INLINE_MAX_BYTES`` (4 MiB) is measured while the request waits;
a larger one (up to ``COMPRESSION_UPLOAD_MAX_BYTES``) is stored and measured by a worker that
reports its progress in ``CompressionSample.progress``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from zfsplanner.core.geometry.ashift import ASHIFT_RANGE
from zfsplanner.core.design.types import OPENZFS_VERSIONS
from zfsplanner.core.datasets.measure import MeasureError, Source, measure_files, settings_for
from zfsplanner.core.units import UnitError, parse_zfs_size

from .models import CompressionSample, SampleStatus

logger = logging.getLogger(__name__)

DEFAULT_ALGORITHMS = ("lz4", "zstd")
DEFAULT_RECORDSIZES = (128 * 1024,)


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
    openzfs_version: str


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
    v = str(version or "2.3").strip()
    if v not in OPENZFS_VERSIONS:
        raise OptionError("openzfs_version", f"{v!r} is not one of {', '.join(OPENZFS_VERSIONS)}")
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
        settings_for(names, sizes, v)
    except MeasureError as exc:
        field, _, message = str(exc).partition(": ")
        raise OptionError(field if field in ("algorithms", "recordsize") else "algorithms", message) from exc
    return Options(tuple(names), tuple(dict.fromkeys(sizes)), a, v)


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
    else by a worker once the transaction commits."""
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    sample = CompressionSample(
        owner=owner,
        original_name=(upload.name or "sample")[:255],
        size=upload.size or 0,
        sha256=digest.hexdigest(),
        algorithms=list(options.algorithms),
        recordsizes=list(options.recordsizes),
        ashift=options.ashift,
        openzfs_version=options.openzfs_version,
    )
    sample.file.save(str(sample.uid), upload, save=False)
    sample.save()
    if sample.size <= inline_limit():
        run(sample.pk, f"inline-{sample.uid.hex}")
    else:
        enqueue(sample)
    return sample


def enqueue(sample: CompressionSample) -> None:
    """Measure once the row is committed; a broker outage never fails the upload."""
    transaction.on_commit(lambda: publish(sample.pk))


# Shown on a pending sample whose message the broker did not take (cleared when it is sent).
QUEUE_DOWN_NOTE = (
    "The task queue is unavailable; the sample is kept and measuring starts automatically once it is back."
)


def publish(pk: int) -> bool:
    """Send the measuring message now; False when the broker cannot take it (the sample then
    carries :data:`QUEUE_DOWN_NOTE` and the next sweep sends it again)."""
    from .tasks import measure_sample

    try:
        measure_sample.delay(pk)
    except Exception as exc:  # kombu/redis connection errors of every kind: the sweeper re-queues
        logger.warning("compression sample %s stays queued: the broker did not take the message (%s: %s)",
                       pk, type(exc).__name__, exc)
        CompressionSample.objects.filter(pk=pk, status=SampleStatus.PENDING).update(error=QUEUE_DOWN_NOTE)
        return False
    return True


def sweep_samples() -> list[int]:
    """Queue again samples nobody is measuring (beat): pending ones the broker refused, and ones
    held by a task past its time limit + 60 s (its worker died). The ids queued."""
    from .tasks import TIME_LIMIT

    queued: list[int] = []
    unsent = CompressionSample.objects.filter(status=SampleStatus.PENDING, error=QUEUE_DOWN_NOTE)
    for pk in unsent.values_list("pk", flat=True)[:500]:
        if unsent.filter(pk=pk).update(error="") and publish(pk):
            queued.append(pk)
    stuck = CompressionSample.objects.filter(
        status=SampleStatus.MEASURING, started__lt=timezone.now() - timedelta(seconds=TIME_LIMIT + 60)
    )
    for pk, token in stuck.values_list("pk", "task_id")[:500]:
        reset = CompressionSample.objects.filter(pk=pk, status=SampleStatus.MEASURING, task_id=token)
        if reset.update(status=SampleStatus.PENDING, progress=0, task_id="") and publish(pk):
            queued.append(pk)
    return queued


def claim(pk: int, task_id: str) -> bool:
    """Take the sample for this task: pending (or a redelivery of the same task) -> measuring."""
    now = timezone.now()
    pending = CompressionSample.objects.filter(pk=pk, status=SampleStatus.PENDING)
    if pending.update(status=SampleStatus.MEASURING, task_id=task_id, started=now, progress=0) == 1:
        return True
    mine = CompressionSample.objects.filter(pk=pk, status=SampleStatus.MEASURING, task_id=task_id)
    return mine.update(started=now, progress=0) == 1


def run(pk: int, task_id: str) -> None:
    """Measure a stored sample, recording progress, then the result or the reason it failed."""
    if not claim(pk, task_id):
        logger.info("compression sample %s: not pending (or gone); nothing to do", pk)
        return
    sample = CompressionSample.objects.get(pk=pk)
    CompressionSample.objects.filter(pk=pk).update(attempts=sample.attempts + 1)
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = min(99, done * 100 // max(total, 1))
        if percent != last[0]:
            last[0] = percent
            CompressionSample.objects.filter(pk=pk, task_id=task_id).update(progress=percent)

    source = Source(sample.original_name, sample.size, lambda: sample.file.open("rb"))
    try:
        doc = measure_files(
            [source], sample.algorithms, sample.recordsizes, sample.ashift, sample.openzfs_version, progress=progress
        )
    except (MeasureError, OSError) as exc:
        CompressionSample.objects.filter(pk=pk, task_id=task_id).update(
            status=SampleStatus.FAILED, error=str(exc), finished=timezone.now()
        )
        return
    CompressionSample.objects.filter(pk=pk, task_id=task_id).update(
        status=SampleStatus.DONE, result=doc, progress=100, error="", finished=timezone.now()
    )


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
