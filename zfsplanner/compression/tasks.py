"""The Celery task: take the sample's id, claim it, measure, record (``services.run``)."""

from __future__ import annotations

import uuid

from celery import shared_task
from django.db import OperationalError

from . import services

# A large sample takes a while: every recordsize reads the file once and every algorithm
# compresses every block (about 100 MB/s for lz4, 30-60 MB/s for zstd-3 per core).
TIME_LIMIT = 6 * 3600


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    retry_backoff_max=120,
    max_retries=8,
    time_limit=TIME_LIMIT,
)
def measure_sample(self: object, sample_id: int) -> None:
    task_id = getattr(getattr(self, "request", None), "id", None) or uuid.uuid4().hex
    services.run(sample_id, str(task_id))


@shared_task(ignore_result=True)
def sweep_samples_task() -> str:
    """Queue again samples the broker refused or a dead worker held (run by Celery beat)."""
    return f"samples queued again: {services.sweep_samples()}"
