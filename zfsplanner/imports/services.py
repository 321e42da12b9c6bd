"""The functions that touch the database around the importers and the histogram bucketing.

* ``create_pool_import(user, sources, pool)``: run the importer on pasted/uploaded outputs
  (the catalog from the database), keep the preview, errors and all;
* ``save_pool_import(pool_import, team, user, name)``: store the previewed design through
  ``plans.services.save_design_document`` (validated first, never half-saved);
* ``store_histogram(...)``: keep a listing byte for byte (streamed, hashed, size-checked) and
  queue it; ``claim_histogram`` / ``bucket_histogram`` / ``retry_histogram`` for the worker;
* ``apply_histogram(upload)``: put a finished histogram into its dataset's contents.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from zfsplanner import uploads
from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.importers.listings import HistogramError, HistogramResult, bucket_stream, merge_contents
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.build import PoolImport as ImportedPool
from zfsplanner.plans.models import CatalogDisk, PoolDesign
from zfsplanner.plans.services import planning_figures_changed, save_design_document

from .models import HistogramStatus, HistogramUpload, PoolImport, histogram_path
from .uploadhandlers import POLICY, discard

logger = logging.getLogger(__name__)

POOL_IMPORT_MAX_CHARS = 4 * 1024 * 1024
HEARTBEAT_SECONDS = 15.0  # a bucketing task proves it is alive at least this often (sweep_histograms)
READ_CHUNK = 1024 * 1024


# --------------------------------------------------------------------------- pool imports


def catalog_entries() -> list[CatalogEntry]:
    return [
        CatalogEntry(
            model=c.model,
            size_bytes=c.capacity_bytes,
            logical_sector_bytes=c.logical_sector_bytes,
            physical_sector_bytes=c.physical_sector_bytes,
            media=c.media,
            vendor=c.vendor,
            rpm=c.rpm,
            plp=c.plp,
        )
        for c in CatalogDisk.objects.all()
    ]


def run_import(sources: Sequence[tuple[str, str]], pool: str = "") -> ImportedPool:
    """The importer over ``(name, text)`` pairs, with the disk catalog; raises ``UnreadableOutput``."""
    total = sum(len(t) for _, t in sources)
    if total > POOL_IMPORT_MAX_CHARS:
        raise UnreadableOutput(None, f"{total:,} characters is more than the {POOL_IMPORT_MAX_CHARS:,} the import "
                                     "reads; paste the outputs of one pool")
    return import_pool(sources, pool=pool or None, catalog=catalog_entries())


def create_pool_import(user: Any, sources: Sequence[tuple[str, str]], pool: str = "") -> PoolImport:
    """Import and keep the preview; ``UnreadableOutput`` (naming the line) if the outputs cannot be read."""
    result = run_import(sources, pool)
    return PoolImport.objects.create(
        created_by=user, sources=[{"name": n, "text": t} for n, t in sources], pool=pool, document=result.document
    )


def save_pool_import(record: PoolImport, team: Team, user: Any, name: str | None = None) -> PoolDesign:
    """Store the imported design for ``team`` (``InvalidDesign`` if it does not validate)."""
    doc = dict(record.document)
    if name and name != doc["name"]:
        old = doc["name"]
        doc["name"] = name
        doc["datasets"] = [
            {**d, "name": name + d["name"][len(old) :]} if d["name"] == old or d["name"].startswith(old + "/") else d
            for d in doc.get("datasets") or []
        ]
    design = save_design_document(team, doc, user, summary="imported from the pool's own outputs")
    PoolImport.objects.filter(pk=record.pk).update(design=design)
    record.design = design
    return design


def attach_pool_import(record: PoolImport, design: PoolDesign) -> PoolImport:
    """Tie a preview to an existing design: the design page then sets the pool's figures against it."""
    PoolImport.objects.filter(pk=record.pk).update(design=design)
    record.design = design
    planning_figures_changed()  # the design's cached page shows the attached pool's figures
    return record


def attached_import(design: PoolDesign) -> PoolImport | None:
    """The newest import attached to (or saved as) ``design``, or None."""
    return PoolImport.objects.filter(design=design).order_by("-created", "-pk").first()


# --------------------------------------------------------------------------- histogram uploads


def store_histogram(
    *, design: PoolDesign, dataset: str, user: Any, file: Any, name: str, fmt: str = "auto"
) -> HistogramUpload:
    """Keep the listing and queue it for bucketing (``LookupError`` for a dataset the design lacks)."""
    if not design.datasets.filter(name=dataset).exists():
        discard_upload(file)
        raise LookupError(f"the design has no dataset named {dataset!r}")
    spooled = uploads.spool(file, POLICY)
    upload = HistogramUpload(
        team=design.team,
        design=design,
        dataset=dataset,
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
        original_name=(name or "listing").rsplit("/", 1)[-1][:255],
        size=spooled.size,
        sha256=spooled.sha256,
        format=fmt,
    )
    try:
        with transaction.atomic():
            upload.file.save(histogram_path(upload, upload.original_name), uploads.MovableFile(spooled.path, name),
                             save=False)
            upload.save()
    finally:
        discard(spooled.path)
    enqueue(upload.pk)
    return upload


def discard_upload(f: Any) -> None:
    path = getattr(f, "path", None)
    if isinstance(path, str):
        discard(path)


def enqueue(upload_id: int) -> None:
    """Queue bucketing once the row is committed; a broker outage never fails the upload."""
    transaction.on_commit(lambda: publish(upload_id))


# Shown on a pending listing whose message the broker did not take (cleared when it is sent).
QUEUE_DOWN_NOTE = (
    "The task queue is unavailable; the listing is kept and bucketing starts automatically once it is back."
)


def publish(upload_id: int) -> bool:
    """Send the bucketing message now; False when the broker cannot take it. The listing then
    carries :data:`QUEUE_DOWN_NOTE`, which makes the next sweep send it again."""
    from .tasks import bucket_histogram_task

    try:
        bucket_histogram_task.delay(upload_id)
    except Exception as exc:  # kombu/redis connection errors of every kind: the sweeper re-queues
        logger.warning("listing %s stays queued: the broker did not take the message (%s: %s)",
                       upload_id, type(exc).__name__, exc)
        try:
            HistogramUpload.objects.filter(pk=upload_id, status=HistogramStatus.PENDING).update(
                error=QUEUE_DOWN_NOTE, updated=timezone.now())
        except OperationalError:
            logger.warning("listing %s: the database is unreachable too; the sweeper finds it by age", upload_id)
        return False
    return True


def sweep_histograms() -> list[int]:
    """Queue again every listing nobody is bucketing (the beat sweep; the same rules as benchmark
    uploads, ``benchmarks.services.sweep_uploads``): pending ones the broker refused or that
    waited BENCHMARK_PENDING_TIMEOUT, and claims held by a dead worker (past the time limit, or
    silent for UPLOAD_CLAIM_TIMEOUT while no answering worker holds their task). The ids queued."""
    now = timezone.now()
    queued: list[int] = []
    unsent = Q(error=QUEUE_DOWN_NOTE) | Q(updated__lt=now - timedelta(seconds=settings.BENCHMARK_PENDING_TIMEOUT))
    for pk in HistogramUpload.objects.filter(unsent, status=HistogramStatus.PENDING).values_list("pk", flat=True)[:500]:
        if HistogramUpload.objects.filter(unsent, pk=pk, status=HistogramStatus.PENDING).update(
            error="", updated=now
        ) and publish(pk):
            queued.append(pk)
    parsing = HistogramUpload.objects.filter(status=HistogramStatus.PARSING)
    claims = list(parsing.filter(started__lt=now - _stuck_after()).values_list("pk", "task_id")[:500])
    silent = list(
        parsing.filter(updated__lt=now - timedelta(seconds=float(settings.UPLOAD_CLAIM_TIMEOUT)))
        .exclude(pk__in=[pk for pk, _ in claims]).values_list("pk", "task_id")[:500]
    )
    if silent:
        running = uploads.active_task_ids()  # None: no worker answers; wait for the time limit
        claims += [(pk, token) for pk, token in silent if running is not None and token not in running]
    for pk, token in claims:
        if HistogramUpload.objects.filter(pk=pk, status=HistogramStatus.PARSING, task_id=token).update(
            status=HistogramStatus.PENDING, progress=0, task_id="", updated=now
        ):
            logger.warning("listing %s: the task %s holding it is gone; queued again", pk, token)
            if publish(pk):
                queued.append(pk)
    return queued


def _stuck_after() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 600)) + 60)


def claim_histogram(upload_id: int, token: str) -> bool:
    """pending -> parsing for ``token`` (a redelivery of the same task may re-enter)."""
    claimed = (
        HistogramUpload.objects.filter(pk=upload_id)
        .filter(Q(status=HistogramStatus.PENDING) | Q(status=HistogramStatus.PARSING, task_id=token))
        .update(status=HistogramStatus.PARSING, task_id=token, progress=0, started=timezone.now(), error="",
                error_line=None, attempts=F("attempts") + 1, updated=timezone.now())
    )
    return claimed == 1


def retry_histogram(upload: HistogramUpload) -> bool:
    """Queue the stored bytes again: after a failure, to re-apply, or when a worker died mid-way."""
    stuck_before = timezone.now() - _stuck_after()
    reset = (
        HistogramUpload.objects.filter(pk=upload.pk)
        .filter(Q(status__in=[HistogramStatus.FAILED, HistogramStatus.DONE])
                | Q(status=HistogramStatus.PARSING, started__lt=stuck_before))
        .update(status=HistogramStatus.PENDING, progress=0, error="", error_line=None, task_id="", finished=None)
    )
    if reset:
        enqueue(upload.pk)
    upload.refresh_from_db()
    return bool(reset)


class _Progress:
    """Bytes read -> ``progress`` percent, written at most every 5 % and 0.25 s."""

    def __init__(self, upload: HistogramUpload) -> None:
        self.pk = upload.pk
        self.total = max(upload.size, 1)
        self.last_pct = 0
        self.last_time = time.monotonic()

    def __call__(self, consumed: int) -> None:
        pct = max(0, min(99, consumed * 100 // self.total))
        now = time.monotonic()
        moved = pct - self.last_pct >= 5 and now - self.last_time >= 0.25
        if moved or now - self.last_time >= HEARTBEAT_SECONDS:  # progress, or at least the heartbeat
            self.last_pct, self.last_time = max(pct, self.last_pct), now
            HistogramUpload.objects.filter(pk=self.pk, status=HistogramStatus.PARSING).update(
                progress=self.last_pct, updated=timezone.now())


def _chunks(upload: HistogramUpload) -> Iterator[bytes]:
    with upload.file.open("rb") as fh:
        while chunk := fh.read(READ_CHUNK):
            yield chunk


def fail_histogram(upload: HistogramUpload, message: str, line: int | None = None) -> None:
    HistogramUpload.objects.filter(pk=upload.pk).update(
        status=HistogramStatus.FAILED, error=message[:4000], error_line=line, finished=timezone.now()
    )


def bucket_histogram(upload: HistogramUpload) -> None:
    """Bucket a claimed upload's stored bytes, then apply the result; ends done or failed (message kept)."""
    try:
        result = bucket_stream(_chunks(upload), upload.format, progress=_Progress(upload))
    except FileNotFoundError:
        fail_histogram(upload, f"the stored file {upload.file.name} is missing from MEDIA_ROOT")
        return
    except HistogramError as exc:
        fail_histogram(upload, str(exc), exc.line)
        return
    except OperationalError:
        raise
    except Exception as exc:  # a bug must not leave the upload stuck in "parsing"
        logger.exception("bucketing upload %s crashed", upload.pk)
        fail_histogram(upload, f"bucketing stopped unexpectedly ({type(exc).__name__}: {exc}); retry after an update")
        return
    HistogramUpload.objects.filter(pk=upload.pk).update(result=result.to_document(), detected_format=result.format)
    try:
        revision = apply_histogram(upload, result)
    except (LookupError, InvalidDesign) as exc:
        fail_histogram(upload, f"bucketed, but not applied: {exc}")
        return
    HistogramUpload.objects.filter(pk=upload.pk).update(
        status=HistogramStatus.DONE, progress=100, applied_revision=revision, finished=timezone.now()
    )


def apply_histogram(upload: HistogramUpload, result: HistogramResult) -> int:
    """Put the histogram into the dataset's contents on the design as it is now; the new revision."""
    with transaction.atomic():
        design = PoolDesign.objects.select_for_update().get(pk=upload.design_id)
        doc = design.to_document()
        for ds in doc.get("datasets") or []:
            if ds.get("name") == upload.dataset:
                ds["contents"] = merge_contents(ds.get("contents"), result)
                summary = f"file-size histogram of {upload.dataset} from {upload.original_name}"
                saved = save_design_document(design.team, doc, upload.uploaded_by, instance=design, summary=summary)
                return saved.revision
    raise LookupError(f"the design no longer has a dataset named {upload.dataset!r}")
