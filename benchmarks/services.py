"""The functions that touch the database around the parsers.

``store_upload`` keeps the bytes first (streamed to disk, hashed, size-checked), then
queues parsing; the lifecycle (claim, progress, retry, sweep) is :mod:`zfsplanner.uploads`,
kind ``BENCHMARK_LOGS``. ``parse_upload`` reads the stored bytes of a claimed upload through
``zfsplanner.parsers.parse`` and writes the run, its result rows and its series with
``update_or_create`` on (run, index), so parsing the same upload again gives the same rows.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from zfsplanner.accounts.models import Team
from zfsplanner.parsers import ParseError, parse
from zfsplanner.parsers.fio_log import downsample
from zfsplanner.parsers.types import BenchResult as ParsedResult
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import discard, spool

from .models import (
    BENCHMARK_LOGS,
    CHECK_REASON_MAX_LENGTH,
    BenchResult,
    BenchRun,
    BenchSeries,
    BenchUpload,
    UploadStatus,
    upload_path,
)

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
    spooled = spool(file, BENCHMARK_LOGS)
    name = (getattr(file, "name", None) or "upload").rsplit("/", 1)[-1][:255]
    existing = BenchUpload.objects.filter(team=team, sha256=spooled.sha256).first()
    if existing is not None:
        discard(spooled.path)
        if existing.status == UploadStatus.PENDING:
            lifecycle.enqueue(BENCHMARK_LOGS, existing.pk)  # its message may have been lost; a second one is harmless
        return Stored(existing, duplicate=True)
    upload = BenchUpload(team=team, uploaded_by=user, original_name=name, size=spooled.size, sha256=spooled.sha256)
    fields = {k: v for k, v in (run_fields or {}).items() if k in RUN_FIELDS and v is not None}
    try:
        lifecycle.keep(
            BENCHMARK_LOGS,
            upload,
            spooled,
            upload_path(upload, name),
            also=lambda u: BenchRun.objects.create(upload=u, team=team, **fields),
        )
    except IntegrityError:
        # The same bytes arrived concurrently and the other request won the unique (team, sha256).
        return Stored(BenchUpload.objects.get(team=team, sha256=spooled.sha256), duplicate=True)
    return Stored(upload, duplicate=False)


def fail_upload(upload: BenchUpload, message: str, detected_format: str = "") -> None:
    lifecycle.fail(BENCHMARK_LOGS, upload.pk, message, detected_format=detected_format[:40])


def parse_upload(upload: BenchUpload) -> None:
    """Parse a claimed upload's stored bytes; the upload ends up done or partial (rows written, a
    partial run with warnings saying what the log lacks) or failed (message kept)."""
    try:
        with upload.file.open("rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        fail_upload(upload, f"the stored file {upload.file.name} is missing from the upload storage")
        return
    progress = lifecycle.Progress(BENCHMARK_LOGS, upload.pk)
    try:
        parsed = parse(data, filename=upload.original_name, progress=progress.fraction)
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
    lifecycle.finish(
        BENCHMARK_LOGS,
        upload.pk,
        UploadStatus.PARTIAL if parsed.partial else UploadStatus.DONE,
        detected_format=parsed.source.tool[:40],
    )
    return run


class RunBusy(Exception):
    """The run's upload is being parsed by a live task right now; try again once it has finished."""


def delete_run(run: BenchRun) -> None:
    """Delete a run with its upload, results, series and stored bytes; refused while a worker parses it."""
    upload = run.upload
    if lifecycle.is_running(BENCHMARK_LOGS, upload):
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
        if lifecycle.retry(BENCHMARK_LOGS, upload):
            queued += 1
        else:
            busy += 1
    return Reparsed(queued=queued, busy=busy)


class CheckRefused(ValueError):
    """A validity check that cannot be recorded (no reason given, or one too long)."""


def mark_validity_checked(run: BenchRun, user: Any, reason: str) -> None:
    """A person looked at the run's validity warnings and says why its figures stand."""
    reason = (reason or "").strip()
    if not reason:
        raise CheckRefused("say why the figures stand despite the warnings (a reason is required)")
    if len(reason) > CHECK_REASON_MAX_LENGTH:
        raise CheckRefused(f"the reason may be at most {CHECK_REASON_MAX_LENGTH} characters")
    run.validity_checked_by = user
    run.validity_checked_at = timezone.now()
    run.validity_check_reason = reason
    run.save(update_fields=["validity_checked_by", "validity_checked_at", "validity_check_reason", "updated"])


def clear_validity_check(run: BenchRun) -> None:
    """The warnings count again (the run was re-judged, or marked by mistake)."""
    run.validity_checked_by = None
    run.validity_checked_at = None
    run.validity_check_reason = ""
    run.save(update_fields=["validity_checked_by", "validity_checked_at", "validity_check_reason", "updated"])
