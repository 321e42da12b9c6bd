"""Celery task: take an id, claim the row, call one service; state lives in ``HistogramUpload``.

Only a transient database error is retried; an unreadable listing is an answer (kept as
the upload's message, naming the line) and the user retries after fixing it. A listing the
broker did not take, or whose worker died, is queued again by :func:`sweep_histograms_task`
(Celery beat, every BENCHMARK_SWEEP_INTERVAL seconds).
"""

from __future__ import annotations

import logging
import uuid

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from . import services
from .models import HistogramUpload

logger = logging.getLogger(__name__)

TIME_LIMIT = int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 600))


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_jitter=True,
    max_retries=5,
    acks_late=True,
    time_limit=TIME_LIMIT,
    soft_time_limit=max(TIME_LIMIT - 30, 30),
)
def bucket_histogram_task(self, upload_id: int) -> str:
    token = self.request.id or f"direct-{uuid.uuid4()}"
    if not services.claim_histogram(upload_id, token):
        logger.info("histogram upload %s is not pending (or is claimed by another task)", upload_id)
        return "skipped"
    upload = HistogramUpload.objects.select_related("design", "uploaded_by").filter(pk=upload_id).first()
    if upload is None:
        logger.warning("histogram upload %s disappeared before bucketing", upload_id)
        return "missing"
    try:
        services.bucket_histogram(upload)
    except SoftTimeLimitExceeded:
        services.fail_histogram(upload, f"bucketing took longer than the {TIME_LIMIT - 30} s limit")
        return "failed"
    return "bucketed"


@shared_task(ignore_result=True)
def sweep_histograms_task() -> str:
    """Queue again listings left pending or held by a dead worker (run by Celery beat)."""
    return f"listings queued again: {services.sweep_histograms()}"
