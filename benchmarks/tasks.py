"""Celery tasks: take an id, claim the row, call one service, return nothing important.

State lives in ``BenchUpload.status`` (pending -> parsing -> done/failed), not in a result
backend. Nothing here may leave an upload stuck:

* the message is acknowledged only after the task ends (``acks_late``), and a task whose
  worker process died is put back on the queue (``reject_on_worker_lost``); the redelivered
  task re-enters its own claim;
* a database error is retried with doubling delays (BENCHMARK_PARSE_RETRY_BACKOFF up to
  BENCHMARK_PARSE_RETRY_BACKOFF_MAX, BENCHMARK_PARSE_RETRIES times), long enough to ride
  out a database restart; past that the upload is left to the sweeper;
* :func:`sweep_uploads_task` (Celery beat) queues again whatever is left pending or held
  by a dead worker.

A ``ParseError`` is an answer, not an error: it is kept as the upload's message and the
user retries after fixing the file or the parser.
"""

from __future__ import annotations

import logging
import random
import uuid
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from zfsplanner import uploads

from . import services
from .models import BenchUpload

logger = logging.getLogger(__name__)

TIME_LIMIT = int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 600))
# A file whose parse the worker never survives (the OOM killer each time) is failed after
# this many starts instead of being redelivered for ever.
MAX_ATTEMPTS = 5


def retry_delay(retries: int) -> float:
    """Seconds before retry number ``retries + 1``: doubling from the backoff, capped, with jitter.

    The jitter only shortens a delay by up to a quarter, so the whole retry budget stays
    predictable: sum(retry_delay(n) for n in range(RETRIES)) * 0.75 at least.
    """
    base = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF)
    cap = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF_MAX)
    delay = min(cap, base * 2**retries)
    return delay * random.uniform(0.75, 1.0)


def retry_budget() -> float:
    """The shortest time the retries of one task cover (seconds): a database outage longer than
    this is left to the sweeper."""
    base = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF)
    cap = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF_MAX)
    return sum(min(cap, base * 2**n) for n in range(settings.BENCHMARK_PARSE_RETRIES)) * 0.75


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,  # counted against BENCHMARK_PARSE_RETRIES below
    time_limit=TIME_LIMIT,
    soft_time_limit=max(TIME_LIMIT - 30, 30),
)
def parse_upload_task(self: Any, upload_id: int) -> str:
    try:
        return _parse(self, upload_id)
    except OperationalError as exc:
        if self.request.retries >= settings.BENCHMARK_PARSE_RETRIES:
            logger.error(
                "upload %s: the database is still unreachable after %d retries (%s); the sweeper will queue it again",
                upload_id,
                self.request.retries,
                exc,
            )
            return "gave up"
        delay = retry_delay(self.request.retries)
        logger.warning("upload %s: database unreachable (%s); retry in %.1f s", upload_id, exc, delay)
        raise self.retry(exc=exc, countdown=delay) from exc


def _parse(task: Any, upload_id: int) -> str:
    # The task id is the claim token: a retry or a redelivery of this same message may
    # re-enter an upload it left in "parsing"; any other task finds it taken and stops.
    token = task.request.id or f"direct-{uuid.uuid4()}"
    if not services.claim_upload(upload_id, token):
        logger.info("upload %s is not pending (or is claimed by another task); nothing to do", upload_id)
        return "skipped"
    upload = BenchUpload.objects.select_related("team").filter(pk=upload_id).first()
    if upload is None:
        logger.warning("upload %s disappeared before parsing", upload_id)
        return "missing"
    redelivered = bool((task.request.delivery_info or {}).get("redelivered"))
    if redelivered and upload.attempts >= MAX_ATTEMPTS:
        services.fail_upload(
            upload,
            f"parsing was started {upload.attempts} times and the worker stopped each time "
            "(out of memory, or killed); the file is kept: retry after the worker has more memory",
        )
        return "failed"
    try:
        services.parse_upload(upload)
    except SoftTimeLimitExceeded:
        services.fail_upload(upload, f"parsing took longer than the {TIME_LIMIT - 30} s limit")
        return "failed"
    return "parsed"


@shared_task(ignore_result=True)
def sweep_uploads_task() -> str:
    """Queue again uploads left pending or held by a dead worker, and remove the partial files
    killed requests left in every upload kind's spool folder (run by Celery beat)."""
    removed = uploads.sweep_spool_files()
    return f"{services.sweep_uploads()}; partial files removed: {len(removed)}"
