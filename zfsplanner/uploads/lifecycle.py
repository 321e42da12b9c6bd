"""One lifecycle for every upload kind: store, queue, claim, progress, fail or finish, retry, sweep.

An upload is stored (bytes on disk, row committed) before anything reads it; its status goes
``pending -> <kind.running> -> done/failed``. What keeps it moving, whatever the kind:

* :func:`enqueue` sends the task once the row is committed; a broker that does not take the
  message leaves the upload ``pending`` with the kind's ``queue_down_note`` (:func:`publish`);
* :func:`claim` is a conditional update (``pending -> running`` for a claim token, the task
  id); a redelivery of the same task may re-enter its own claim, any other task stops;
* :class:`Progress` writes the progress and, at least every ``HEARTBEAT_SECONDS``, the
  heartbeat (``updated``) of a running task;
* :func:`fail` keeps a message, :func:`finish` the result;
* :func:`retry` queues the stored bytes again from every state but a running task;
* :func:`sweep` (Celery beat, every kind) queues again what nobody reads: pending uploads the
  broker refused or that waited too long, and claims whose worker died.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from .handler import MovableFile, Spooled, discard
from .kinds import KINDS, UploadKind
from .models import UploadLifecycle

logger = logging.getLogger(__name__)

PENDING = "pending"
DONE = "done"
FAILED = "failed"
# How often a running task proves it is alive, at most (written with its progress).
HEARTBEAT_SECONDS = 15.0
SWEEP_BATCH = 500
ERROR_MAX_CHARS = 4000


# --------------------------------------------------------------------------- store and queue


def keep(
    kind: UploadKind, upload: UploadLifecycle, spooled: Spooled, name: str,
    also: Callable[[UploadLifecycle], Any] | None = None, queue: bool = True,
) -> None:
    """Move the spooled bytes into storage and save the row (and whatever ``also`` writes) in one
    transaction, then queue it once committed (unless ``queue`` is false: read while the request
    waits). The spooled file is gone afterwards whatever happens; the stored copy too if the row
    was not saved."""
    try:
        with transaction.atomic():
            upload.file.save(name, MovableFile(spooled.path, name), save=False)  # type: ignore[attr-defined]
            upload.save()
            if also is not None:
                also(upload)
    except Exception:
        if upload.file.name:  # type: ignore[attr-defined]
            upload.file.storage.delete(upload.file.name)  # type: ignore[attr-defined]
        raise
    finally:
        discard(spooled.path)
    if queue:
        enqueue(kind, upload.pk)


def enqueue(kind: UploadKind, upload_id: int) -> None:
    """Queue the upload once the current transaction commits (the worker must see the row).

    A broker outage never undoes or fails the upload: it stays ``pending`` and :func:`sweep`
    sends it again once the broker is back.
    """
    transaction.on_commit(lambda: publish(kind, upload_id))


def publish(kind: UploadKind, upload_id: int) -> bool:
    """Send the kind's task now; False when the broker cannot take it.

    The pending upload then carries the kind's ``queue_down_note`` (the user sees why it
    waits), which is also what makes the next sweep send it again without waiting.
    """
    try:
        kind.task.delay(upload_id)
    except Exception as exc:  # kombu/redis connection errors of every kind: the sweeper re-queues
        logger.warning(
            "%s %s stays queued: the broker did not take the message (%s: %s); the sweeper sends it again",
            kind.noun, upload_id, type(exc).__name__, exc,
        )
        try:
            kind.model.objects.filter(pk=upload_id, status=PENDING).update(  # type: ignore[attr-defined]
                error=kind.queue_down_note, updated=timezone.now()
            )
        except OperationalError:
            logger.warning("%s %s: the database is unreachable too; the sweeper finds it by age", kind.noun, upload_id)
        return False
    return True


# --------------------------------------------------------------------------- the worker's side


def claim(kind: UploadKind, upload_id: int, token: str) -> bool:
    """Move an upload from pending to running for ``token``; a redelivered task with the same token may re-enter."""
    now = timezone.now()
    claimed = (
        kind.model.objects.filter(pk=upload_id)  # type: ignore[attr-defined]
        .filter(Q(status=PENDING) | Q(status=kind.running, task_id=token))
        .update(
            status=kind.running, task_id=token, progress=0, started=now, updated=now, error="",
            attempts=F("attempts") + 1, **dict(kind.reset),
        )
    )
    return bool(claimed == 1)


class Progress:
    """Progress of a running task -> ``progress`` percent, written at most every 5 % and 0.25 s,
    and at least every HEARTBEAT_SECONDS (the heartbeat the sweep reads in ``updated``)."""

    def __init__(self, kind: UploadKind, upload_id: int) -> None:
        self.kind = kind
        self.upload_id = upload_id
        self.last_pct = 0
        self.last_time = time.monotonic()

    def fraction(self, value: float) -> None:
        self._write(int(value * 100))

    def part(self, done: int, total: int) -> None:
        self._write(done * 100 // max(total, 1))

    def _write(self, pct: int) -> None:
        pct = max(0, min(99, pct))
        now = time.monotonic()
        moved = pct - self.last_pct >= 5 and now - self.last_time >= 0.25
        if moved or now - self.last_time >= HEARTBEAT_SECONDS:  # progress, or at least the heartbeat
            self.last_pct, self.last_time = max(pct, self.last_pct), now
            self.kind.model.objects.filter(pk=self.upload_id, status=self.kind.running).update(  # type: ignore[attr-defined]
                progress=self.last_pct, updated=timezone.now()
            )


def _mine(kind: UploadKind, upload_id: int, token: str | None) -> Any:
    rows = kind.model.objects.filter(pk=upload_id)  # type: ignore[attr-defined]
    return rows if token is None else rows.filter(task_id=token)


def fail(kind: UploadKind, upload_id: int, message: str, token: str | None = None, **fields: Any) -> None:
    """The upload failed with ``message`` (kept for the user); the model drops what an earlier read
    left (:meth:`~.models.UploadLifecycle.failed`). With ``token``, only while that task holds it."""
    now = timezone.now()
    with transaction.atomic():
        if _mine(kind, upload_id, token).update(
            status=FAILED, error=message[:ERROR_MAX_CHARS], finished=now, updated=now, **fields
        ):
            kind.model.failed(upload_id)


def finish(kind: UploadKind, upload_id: int, status: str = DONE, token: str | None = None, **fields: Any) -> None:
    """The upload was read: ``status`` (done) with the result ``fields``."""
    now = timezone.now()
    _mine(kind, upload_id, token).update(status=status, progress=100, error="", finished=now, updated=now, **fields)


# --------------------------------------------------------------------------- dead workers, retry, sweep


def active_task_ids() -> set[str] | None:
    """Ids of the tasks the workers are running or hold right now; None when no worker answers."""
    from zfsplanner.celery import app  # the app's own settings (not imported at module level: a cycle)

    try:
        inspect = app.control.inspect(timeout=1.0)
        replies = [inspect.active() or {}, inspect.reserved() or {}]
    except Exception as exc:  # the broker is down: nobody can be asked
        logger.warning("cannot ask the workers what they run (%s: %s)", type(exc).__name__, exc)
        return None
    ids = {task.get("id") for reply in replies for tasks in reply.values() for task in tasks}
    return ids if any(replies) else None


def stuck_after(kind: UploadKind) -> timedelta:
    """A claim older than this is dead: the task's hard time limit has killed whatever held it."""
    return timedelta(seconds=kind.task_time_limit() + 60)


def claim_timeout() -> timedelta:
    """A running task writes its heartbeat (``updated``) at least every HEARTBEAT_SECONDS; a claim whose
    heartbeat is older than this (UPLOAD_CLAIM_TIMEOUT) and whose task no answering worker holds
    is taken back without waiting for the hard time limit: its worker was killed."""
    return timedelta(seconds=float(getattr(settings, "UPLOAD_CLAIM_TIMEOUT", 45)))


def is_running(kind: UploadKind, upload: UploadLifecycle) -> bool:
    """True while a live task holds the upload's claim.

    A claim older than the hard time limit is dead. A younger one is alive only if a worker
    reports its task as running or reserved (a killed worker reports nothing). With tasks
    run in-process there is no worker to ask, and a young claim counts as running.
    """
    from zfsplanner.celery import app

    if upload.status != kind.running:  # type: ignore[attr-defined]
        return False
    if upload.started is None or upload.started < timezone.now() - stuck_after(kind):
        return False
    if app.conf.task_always_eager:
        return True
    active = active_task_ids()
    return active is not None and upload.task_id in active


def retry(kind: UploadKind, upload: UploadLifecycle, queue: bool = True) -> bool:
    """Queue the stored bytes again, from any state but a running task.

    Failed and done uploads are read again (after a parser update); a pending one is queued
    once more; one left running by a worker that died is taken back. False when a live task
    holds it right now. With ``queue`` false the upload is only put back to pending, for the
    caller to claim and read while its request waits (as :func:`keep` does).
    """
    upload.refresh_from_db()
    if is_running(kind, upload):
        return False
    held = kind.model.objects.filter(  # type: ignore[attr-defined]
        pk=upload.pk, status=upload.status, task_id=upload.task_id  # type: ignore[attr-defined]
    )
    reset = held.update(
        status=PENDING, progress=0, error="", task_id="", finished=None, updated=timezone.now(), **dict(kind.reset)
    )
    if reset and queue:
        enqueue(kind, upload.pk)
    upload.refresh_from_db()
    return bool(reset)


@dataclass(frozen=True)
class SweepReport:
    kind: UploadKind
    requeued_pending: list[int]
    reclaimed_parsing: list[int]

    @property
    def queued(self) -> list[int]:
        return self.requeued_pending + self.reclaimed_parsing

    def __str__(self) -> str:
        noun = self.kind.noun
        return (
            f"{self.kind.name}: queued again: {len(self.requeued_pending)} pending {noun}(s) "
            f"{self.requeued_pending}; taken back from dead workers: {len(self.reclaimed_parsing)} "
            f"{noun}(s) {self.reclaimed_parsing}"
        )


def sweep(
    kind: UploadKind, *, pending_after: timedelta | None = None, parsing_after: timedelta | None = None
) -> SweepReport:
    """Queue again every upload of ``kind`` nobody is reading: the safety net under the broker and the workers.

    * ``pending`` whose message the broker refused (``queue_down_note``), or untouched for
      ``pending_after`` (BENCHMARK_PENDING_TIMEOUT): its message was lost (retries exhausted
      during a database outage, a broker that lost its data). It is queued again; a duplicate
      message finds it claimed and does nothing.
    * running, claimed longer ago than ``parsing_after`` (the task time limit + 60 s): the
      worker holding it died. It goes back to ``pending`` and is queued.
    * running, whose heartbeat is older than :func:`claim_timeout` while the workers that
      answer (``inspect``) hold no such task: its worker was killed (the whole worker, or its
      machine). Taken back the same way, within a minute or two instead of 11.

    At most ``SWEEP_BATCH`` of each per call, oldest first.
    """
    objects = kind.model.objects  # type: ignore[attr-defined]
    now = timezone.now()
    pending_after = pending_after or timedelta(seconds=settings.BENCHMARK_PENDING_TIMEOUT)
    parsing_after = parsing_after or stuck_after(kind)
    requeued: list[int] = []
    unsent = Q(updated__lt=now - pending_after) | Q(error=kind.queue_down_note)
    stale = objects.filter(unsent, status=PENDING)
    for pk in stale.order_by("updated").values_list("pk", flat=True)[:SWEEP_BATCH]:
        touched = objects.filter(unsent, pk=pk, status=PENDING).update(updated=now, error="")
        if touched and publish(kind, pk):
            requeued.append(pk)
    reclaimed: list[int] = []
    dead = objects.filter(status=kind.running, started__lt=now - parsing_after)
    claims = list(dead.order_by("started").values_list("pk", "task_id")[:SWEEP_BATCH])
    # Younger claims whose heartbeat stopped: dead if the workers that answer do not hold them.
    silent = objects.filter(status=kind.running, updated__lt=now - claim_timeout()).exclude(
        pk__in=[pk for pk, _ in claims]
    )
    candidates = list(silent.order_by("updated").values_list("pk", "task_id")[:SWEEP_BATCH])
    if candidates:
        running = active_task_ids()  # None: no worker answers, so nobody can tell; wait for the time limit
        claims += [(pk, token) for pk, token in candidates if running is not None and token not in running]
    for pk, token in claims:
        reset = objects.filter(pk=pk, status=kind.running, task_id=token).update(
            status=PENDING, progress=0, task_id="", updated=now
        )
        if reset:
            logger.warning("%s %s: the task %s holding it is gone; queued again", kind.noun, pk, token)
            if publish(kind, pk):
                reclaimed.append(pk)
    report = SweepReport(kind, requeued, reclaimed)
    if requeued or reclaimed:
        logger.info("upload sweep: %s", report)
    return report


def sweep_all(*, pending_after: timedelta | None = None, parsing_after: timedelta | None = None) -> list[SweepReport]:
    """:func:`sweep` for every kind (what beat runs)."""
    return [sweep(kind, pending_after=pending_after, parsing_after=parsing_after) for kind in KINDS]
