"""The functions that touch the database around the parsers.

``store_upload`` keeps the bytes first (streamed to disk, hashed, size-checked), then
queues parsing. ``parse_upload`` reads the stored bytes of a claimed upload through
``zfsplanner.parsers.parse`` and writes the run, its result rows and its series with
``update_or_create`` on (run, index), so parsing the same upload again gives the same rows.
"""

from __future__ import annotations

import logging
import time
from dataclasses import astuple, dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from zfsplanner import uploads
from zfsplanner.accounts.models import Team
from zfsplanner.parsers import ParseError, parse
from zfsplanner.parsers.fio_log import downsample
from zfsplanner.parsers.types import BenchResult as ParsedResult
from zfsplanner.uploads import active_task_ids

from .models import BenchResult, BenchRun, BenchSeries, BenchUpload, UploadStatus, upload_path
from .uploadhandlers import POLICY, discard

logger = logging.getLogger(__name__)

# Points kept per stored series; the chart endpoint downsamples further on request.
SERIES_STORED_POINTS = 5000
RUN_FIELDS = ("label", "catalog_disk", "design", "target_kind", "target", "settings", "notes")


@dataclass(frozen=True)
class Stored:
    upload: BenchUpload
    duplicate: bool

    @property
    def message(self) -> str:
        if self.duplicate:
            return (
                f"{self.upload.original_name}: the same file (sha256 {self.upload.sha256[:12]}…) was already "
                f"uploaded as #{self.upload.pk}; that upload is used, nothing new was stored."
            )
        return f"{self.upload.original_name}: stored ({self.upload.size:,} bytes), queued for parsing."


def store_upload(*, team: Team, user: Any, file: Any, run_fields: dict[str, Any] | None = None) -> Stored:
    """Keep the file byte for byte and queue it for parsing; the same bytes twice in a team are one upload."""
    path, sha256, size = astuple(uploads.spool(file, POLICY))
    name = (getattr(file, "name", None) or "upload").rsplit("/", 1)[-1][:255]
    existing = BenchUpload.objects.filter(team=team, sha256=sha256).first()
    if existing is not None:
        discard(path)
        if existing.status == UploadStatus.PENDING:
            enqueue_parse(existing.pk)  # its message may have been lost; a second one is harmless
        return Stored(existing, duplicate=True)
    upload = BenchUpload(team=team, uploaded_by=user, original_name=name, size=size, sha256=sha256)
    fields = {k: v for k, v in (run_fields or {}).items() if k in RUN_FIELDS and v is not None}
    try:
        with transaction.atomic():
            upload.file.save(upload_path(upload, name), uploads.MovableFile(path, name), save=False)
            upload.save()
            BenchRun.objects.create(upload=upload, team=team, **fields)
    except IntegrityError:
        # The same bytes arrived concurrently and the other request won the unique (team, sha256).
        if upload.file.name:
            upload.file.storage.delete(upload.file.name)
        discard(path)
        return Stored(BenchUpload.objects.get(team=team, sha256=sha256), duplicate=True)
    finally:
        discard(path)
    enqueue_parse(upload.pk)
    return Stored(upload, duplicate=False)


def enqueue_parse(upload_id: int) -> None:
    """Queue parsing once the current transaction commits (the worker must see the row).

    A broker outage never undoes or fails the upload: the bytes and the row are kept as
    ``pending`` and :func:`sweep_uploads` queues them again once the broker is back.
    """
    transaction.on_commit(lambda: publish_parse(upload_id))


# Shown on a pending upload whose message the broker did not take (cleared when it is sent).
QUEUE_DOWN_NOTE = "The task queue is unavailable; the upload is kept and parsing starts automatically once it is back."


def publish_parse(upload_id: int) -> bool:
    """Send the parse message now; False when the broker cannot take it.

    Then the pending upload carries :data:`QUEUE_DOWN_NOTE` (the user sees why it waits),
    which is also what makes the next sweep send it again without waiting for the timeout.
    """
    from .tasks import parse_upload_task

    try:
        parse_upload_task.delay(upload_id)
    except Exception as exc:  # kombu/redis connection errors of every kind: the sweeper re-queues
        logger.warning(
            "upload %s stays queued: the broker did not take the message (%s: %s); the sweeper sends it again",
            upload_id,
            type(exc).__name__,
            exc,
        )
        try:
            BenchUpload.objects.filter(pk=upload_id, status=UploadStatus.PENDING).update(error=QUEUE_DOWN_NOTE)
        except OperationalError:
            logger.warning("upload %s: the database is unreachable too; the sweeper finds it by age", upload_id)
        return False
    return True


def claim_upload(upload_id: int, token: str) -> bool:
    """Move an upload from pending to parsing for ``token``; a redelivered task with the same token may re-enter."""
    claimed = (
        BenchUpload.objects.filter(pk=upload_id)
        .filter(Q(status=UploadStatus.PENDING) | Q(status=UploadStatus.PARSING, task_id=token))
        .update(
            status=UploadStatus.PARSING,
            task_id=token,
            progress=0,
            started=timezone.now(),
            updated=timezone.now(),
            error="",
            attempts=F("attempts") + 1,
        )
    )
    return claimed == 1


def stuck_after() -> timedelta:
    """A claim older than this is dead: the task's hard time limit has killed whatever held it."""
    return timedelta(seconds=int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 600)) + 60)


def claim_timeout() -> timedelta:
    """A parse writes its heartbeat (``updated``) at least every HEARTBEAT_SECONDS; a claim whose
    heartbeat is older than this (UPLOAD_CLAIM_TIMEOUT) and whose task no answering worker holds
    is taken back without waiting for the hard time limit: its worker was killed."""
    return timedelta(seconds=float(getattr(settings, "UPLOAD_CLAIM_TIMEOUT", 45)))


# How often a running parse proves it is alive, at most (written with its progress).
HEARTBEAT_SECONDS = 15.0


def parse_is_running(upload: BenchUpload) -> bool:
    """True while a live task holds the upload's parsing claim.

    A claim older than the hard time limit is dead. A younger one is alive only if a worker
    reports its task as running or reserved (a killed worker reports nothing). With tasks
    run in-process there is no worker to ask, and a young claim counts as running.
    """
    from zfsplanner.celery import app

    if upload.status != UploadStatus.PARSING:
        return False
    if upload.started is None or upload.started < timezone.now() - stuck_after():
        return False
    if app.conf.task_always_eager:
        return True
    active = active_task_ids()
    return active is not None and upload.task_id in active


def retry_upload(upload: BenchUpload) -> bool:
    """Queue the stored bytes for parsing again, from any state but a running parse.

    Failed and done uploads are parsed again (after a parser update); a pending one is
    queued once more; one left ``parsing`` by a worker that died is taken back. False
    when a live task is parsing it right now.
    """
    upload.refresh_from_db()
    if parse_is_running(upload):
        return False
    reset = (
        BenchUpload.objects.filter(pk=upload.pk, status=upload.status, task_id=upload.task_id)
        .update(status=UploadStatus.PENDING, progress=0, error="", task_id="", finished=None, updated=timezone.now())
    )
    if reset:
        enqueue_parse(upload.pk)
    upload.refresh_from_db()
    return bool(reset)


@dataclass(frozen=True)
class SweepReport:
    requeued_pending: list[int]
    reclaimed_parsing: list[int]

    def __str__(self) -> str:
        return (
            f"queued again: {len(self.requeued_pending)} pending upload(s) {self.requeued_pending}; "
            f"taken back from dead workers: {len(self.reclaimed_parsing)} upload(s) {self.reclaimed_parsing}"
        )


SWEEP_BATCH = 500


def sweep_uploads(
    *, pending_after: timedelta | None = None, parsing_after: timedelta | None = None
) -> SweepReport:
    """Queue again every upload nobody is parsing: the safety net under the broker and the workers.

    * ``pending`` whose message the broker refused (:data:`QUEUE_DOWN_NOTE`), or untouched
      for ``pending_after`` (BENCHMARK_PENDING_TIMEOUT): its message was lost (retries
      exhausted during a database outage, a broker that lost its data). It is queued
      again; a duplicate message finds it claimed and does nothing.
    * ``parsing`` claimed longer ago than ``parsing_after`` (the task time limit + 60 s):
      the worker holding it died. It goes back to ``pending`` and is queued.
    * ``parsing`` whose heartbeat is older than :func:`claim_timeout` (60 s) while the workers
      that answer (``inspect``) hold no such task: its worker was killed (the whole worker,
      or its machine). Taken back the same way, within a minute or two instead of 11.

    At most ``SWEEP_BATCH`` of each per call, oldest first.
    """
    now = timezone.now()
    pending_after = pending_after or timedelta(seconds=settings.BENCHMARK_PENDING_TIMEOUT)
    parsing_after = parsing_after or stuck_after()
    requeued: list[int] = []
    unsent = Q(updated__lt=now - pending_after) | Q(error=QUEUE_DOWN_NOTE)
    stale = BenchUpload.objects.filter(unsent, status=UploadStatus.PENDING)
    for pk in stale.order_by("updated").values_list("pk", flat=True)[:SWEEP_BATCH]:
        touched = BenchUpload.objects.filter(unsent, pk=pk, status=UploadStatus.PENDING).update(updated=now, error="")
        if touched and publish_parse(pk):
            requeued.append(pk)
    reclaimed: list[int] = []
    dead = BenchUpload.objects.filter(status=UploadStatus.PARSING, started__lt=now - parsing_after)
    claims = list(dead.order_by("started").values_list("pk", "task_id")[:SWEEP_BATCH])
    # Younger claims whose heartbeat stopped: dead if the workers that answer do not hold them.
    silent = BenchUpload.objects.filter(status=UploadStatus.PARSING, updated__lt=now - claim_timeout()).exclude(
        pk__in=[pk for pk, _ in claims]
    )
    candidates = list(silent.order_by("updated").values_list("pk", "task_id")[:SWEEP_BATCH])
    if candidates:
        running = active_task_ids()  # None: no worker answers, so nobody can tell; wait for the time limit
        claims += [(pk, token) for pk, token in candidates if running is not None and token not in running]
    for pk, token in claims:
        reset = BenchUpload.objects.filter(pk=pk, status=UploadStatus.PARSING, task_id=token).update(
            status=UploadStatus.PENDING, progress=0, task_id="", updated=now
        )
        if reset:
            logger.warning("upload %s: the task %s holding it for parsing is gone; queued again", pk, token)
            if publish_parse(pk):
                reclaimed.append(pk)
    if requeued or reclaimed:
        logger.info("upload sweep: %s", SweepReport(requeued, reclaimed))
    return SweepReport(requeued, reclaimed)


class _Progress:
    """Parser progress callback (fraction 0..1) -> upload.progress, written at most every few percent."""

    def __init__(self, upload_id: int) -> None:
        self.upload_id = upload_id
        self.last_pct = 0
        self.last_time = time.monotonic()

    def __call__(self, fraction: float) -> None:
        pct = max(0, min(99, int(fraction * 100)))
        now = time.monotonic()
        moved = pct - self.last_pct >= 5 and now - self.last_time >= 0.25
        if moved or now - self.last_time >= HEARTBEAT_SECONDS:  # progress, or at least the heartbeat
            self.last_pct, self.last_time = max(pct, self.last_pct), now
            BenchUpload.objects.filter(pk=self.upload_id, status=UploadStatus.PARSING).update(
                progress=self.last_pct, updated=timezone.now()
            )


def fail_upload(upload: BenchUpload, message: str, detected_format: str = "") -> None:
    with transaction.atomic():
        BenchUpload.objects.filter(pk=upload.pk).update(
            status=UploadStatus.FAILED,
            error=message[:4000],
            detected_format=detected_format[:40],
            finished=timezone.now(),
            updated=timezone.now(),
        )
        # A failed parse has no figures: rows of an earlier parse of the same bytes would be stale.
        BenchResult.objects.filter(run__upload_id=upload.pk).delete()
        BenchSeries.objects.filter(run__upload_id=upload.pk).delete()
        BenchRun.objects.filter(upload_id=upload.pk).update(warnings=[], result=None, updated=timezone.now())


def parse_upload(upload: BenchUpload) -> None:
    """Parse a claimed upload's stored bytes; the upload ends up done or partial (rows written, a
    partial run with warnings saying what the log lacks) or failed (message kept)."""
    try:
        with upload.file.open("rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        fail_upload(upload, f"the stored file {upload.file.name} is missing from MEDIA_ROOT")
        return
    try:
        parsed = parse(data, filename=upload.original_name, progress=_Progress(upload.pk))
    except ParseError as exc:
        fail_upload(upload, exc.describe(), exc.format)
        return
    except OperationalError:
        raise
    except Exception as exc:  # a parser bug must not leave the upload stuck in "parsing"
        logger.exception("parser crashed on upload %s", upload.pk)
        fail_upload(upload, f"the parser stopped unexpectedly ({type(exc).__name__}: {exc}); retry after an update")
        return
    save_result(upload, parsed)


def _result_document(parsed: ParsedResult) -> dict[str, Any]:
    """The normalized document; series are summarised (their points live in BenchSeries)."""
    doc = parsed.to_dict()
    doc["series"] = [
        {k: v for k, v in s.items() if k != "points"} | {"point_count": len(s["points"])} for s in doc["series"]
    ]
    return doc


@transaction.atomic
def save_result(upload: BenchUpload, parsed: ParsedResult) -> BenchRun:
    run, _ = BenchRun.objects.get_or_create(upload=upload, defaults={"team": upload.team})
    run.tool = parsed.source.tool[:40]
    run.tool_version = (parsed.source.tool_version or "")[:40]
    run.meta = dict(parsed.meta)
    run.result = _result_document(parsed)
    run.warnings = list(parsed.warnings)
    run.save(update_fields=["tool", "tool_version", "meta", "result", "warnings", "updated"])
    for index, r in enumerate(parsed.results):
        BenchResult.objects.update_or_create(
            run=run,
            index=index,
            defaults={
                "name": r.name[:120],
                "op": r.op[:40],
                "pattern": r.pattern or "",
                "block_size_bytes": r.block_size_bytes,
                "queue_depth": r.queue_depth,
                "threads": r.threads,
                "bandwidth_bytes_per_s": r.bandwidth_bytes_per_s,
                "iops": r.iops,
                "latency_mean_us": r.latency_mean_us,
                "latency_max_us": r.latency_max_us,
                "percentiles": dict(r.latency_percentiles_us),
                "ops_per_s": r.ops_per_s,
            },
        )
    run.results.filter(index__gte=len(parsed.results)).delete()
    for index, s in enumerate(parsed.series):
        points = list(s.points)
        kept = downsample(points, SERIES_STORED_POINTS) if len(points) > SERIES_STORED_POINTS else points
        BenchSeries.objects.update_or_create(
            run=run,
            index=index,
            defaults={
                "name": s.name[:200],
                "metric": s.metric,
                "unit": s.unit,
                "direction": s.direction,
                "block_size_bytes": s.block_size_bytes,
                "points": [[t, v] for t, v in kept],
                "point_count": len(points),
            },
        )
    run.series.filter(index__gte=len(parsed.series)).delete()
    BenchUpload.objects.filter(pk=upload.pk).update(
        status=UploadStatus.PARTIAL if parsed.partial else UploadStatus.DONE,
        progress=100,
        error="",
        detected_format=parsed.source.tool[:40],
        finished=timezone.now(),
        updated=timezone.now(),
    )
    return run


class RunBusy(Exception):
    """The run's upload is being parsed by a live task right now; try again once it has finished."""


def delete_run(run: BenchRun) -> None:
    """Delete a run with its upload, results, series and stored bytes; refused while a worker parses it."""
    upload = run.upload
    if parse_is_running(upload):
        raise RunBusy(f"{upload.original_name} is being parsed right now; delete it once that has finished")
    name, storage = upload.file.name, upload.file.storage
    with transaction.atomic():
        upload.delete()  # cascades to the run, its results and series
        if name:
            transaction.on_commit(lambda: storage.delete(name))


@dataclass(frozen=True)
class Reparsed:
    queued: int
    busy: int


def reparse_uploads(uploads: Any) -> Reparsed:
    """Queue every upload of ``uploads`` for parsing again (after a parser upgrade), skipping the ones
    a live task is parsing right now. Their stored bytes are read again; results are rewritten."""
    queued = busy = 0
    for upload in uploads.iterator():
        if retry_upload(upload):
            queued += 1
        else:
            busy += 1
    return Reparsed(queued=queued, busy=busy)
