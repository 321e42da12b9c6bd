"""The tasks of every upload kind: one retry policy, one sweep.

A kind's task is declared with :func:`upload_task` over the one service function that reads
an upload; the task takes an id, claims the row (the task id is the claim token), calls
that function, and returns a word. Nothing may leave an upload stuck:

* the message is acknowledged only after the task ends (``acks_late``), and a task whose
  worker process died is put back on the queue (``reject_on_worker_lost``); the redelivered
  task re-enters its own claim, and an upload whose worker stopped ``MAX_ATTEMPTS`` times is
  failed with a message saying so;
* a database error is retried with doubling delays (BENCHMARK_PARSE_RETRY_BACKOFF up to
  BENCHMARK_PARSE_RETRY_BACKOFF_MAX, BENCHMARK_PARSE_RETRIES times), long enough to ride
  out a database restart; past that the upload is left to the sweeper;
* :func:`sweep_uploads_task` (Celery beat, every kind) queues again whatever is left pending
  or held by a dead worker, and removes what killed requests left in the spool folders.

An unreadable file is an answer, not an error: the service keeps it as the upload's message
and the user retries after fixing the file or the parser.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from . import lifecycle
from .handler import sweep_spool_files
from .kinds import UploadKind

logger = logging.getLogger(__name__)

# A file whose reading the worker never survives (the OOM killer each time) is failed after
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
    return delay * random.uniform(0.75, 1.0)  # noqa: S311 (jitter, not a secret)


def retry_budget() -> float:
    """The shortest time the retries of one task cover (seconds): a database outage longer than
    this is left to the sweeper."""
    base = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF)
    cap = float(settings.BENCHMARK_PARSE_RETRY_BACKOFF_MAX)
    return sum(min(cap, base * 2**n) for n in range(settings.BENCHMARK_PARSE_RETRIES)) * 0.75


def upload_task(kind: UploadKind) -> Callable[[Callable[[Any], None]], Any]:
    """Declare the task that reads one upload of ``kind`` with ``work(upload)`` (a service function
    that ends the upload done or failed), named after ``work`` and registered with the kind."""

    def declare(work: Callable[[Any], None]) -> Any:
        limit = kind.task_time_limit()

        @shared_task(
            name=f"{work.__module__}.{work.__name__}",
            bind=True,
            acks_late=True,
            reject_on_worker_lost=True,
            max_retries=None,  # counted against BENCHMARK_PARSE_RETRIES in run_task
            time_limit=limit,
            soft_time_limit=max(limit - 30, 30),
        )
        def task(self: Any, upload_id: int) -> str:
            return run_task(self, kind, work, upload_id)

        task.__doc__ = work.__doc__
        kind.register_task(task)
        return task

    return declare


def run_task(task: Any, kind: UploadKind, work: Callable[[Any], None], upload_id: int) -> str:
    try:
        return _run(task, kind, work, upload_id)
    except OperationalError as exc:
        if task.request.retries >= settings.BENCHMARK_PARSE_RETRIES:
            logger.error(
                "%s %s: the database is still unreachable after %d retries (%s); the sweeper will queue it again",
                kind.noun, upload_id, task.request.retries, exc,
            )
            return "gave up"
        delay = retry_delay(task.request.retries)
        logger.warning("%s %s: database unreachable (%s); retry in %.1f s", kind.noun, upload_id, exc, delay)
        raise task.retry(exc=exc, countdown=delay) from exc


def _run(task: Any, kind: UploadKind, work: Callable[[Any], None], upload_id: int) -> str:
    # The task id is the claim token: a retry or a redelivery of this same message may
    # re-enter an upload it left running; any other task finds it taken and stops.
    token = task.request.id or f"direct-{uuid.uuid4()}"
    if not lifecycle.claim(kind, upload_id, token):
        logger.info("%s %s is not pending (or is claimed by another task); nothing to do", kind.noun, upload_id)
        return "skipped"
    upload = kind.model.objects.filter(pk=upload_id).first()  # type: ignore[attr-defined]
    if upload is None:
        logger.warning("%s %s disappeared before %s", kind.noun, upload_id, kind.verb)
        return "missing"
    redelivered = bool((task.request.delivery_info or {}).get("redelivered"))
    if redelivered and upload.attempts >= MAX_ATTEMPTS:
        lifecycle.fail(
            kind, upload_id,
            f"{kind.verb} was started {upload.attempts} times and the worker stopped each time "
            "(out of memory, or killed); the file is kept: retry after the worker has more memory",
        )
        return "failed"
    try:
        work(upload)
    except SoftTimeLimitExceeded:
        lifecycle.fail(kind, upload_id, f"{kind.verb} took longer than the {kind.task_time_limit() - 30} s limit")
        return "failed"
    return kind.done


@shared_task(name="zfsplanner.uploads.tasks.sweep_uploads_task", ignore_result=True)
def sweep_uploads_task() -> str:
    """Queue again uploads of every kind left pending or held by a dead worker, and remove the
    partial files killed requests left in every kind's spool folder (run by Celery beat)."""
    reports = lifecycle.sweep_all()
    removed = sweep_spool_files()
    return "; ".join(str(r) for r in reports) + f"; partial files removed: {len(removed)}"
