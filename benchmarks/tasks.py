"""Celery tasks: take an id, claim the row, call one service, return nothing important.

State lives in ``BenchUpload.status`` (pending -> parsing -> done/failed), not in a result
backend. Only a transient database error is retried; a ``ParseError`` is an answer, kept
as the upload's message, and the user retries after fixing the file or the parser.
"""

from __future__ import annotations

import logging
import uuid

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from . import services
from .models import BenchUpload

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
def parse_upload_task(self, upload_id: int) -> str:
    # The task id is the claim token: a retry or a redelivery of this same message may
    # re-enter an upload it left in "parsing"; any other task finds it taken and stops.
    token = self.request.id or f"direct-{uuid.uuid4()}"
    if not services.claim_upload(upload_id, token):
        logger.info("upload %s is not pending (or is claimed by another task); nothing to do", upload_id)
        return "skipped"
    upload = BenchUpload.objects.select_related("team").filter(pk=upload_id).first()
    if upload is None:
        logger.warning("upload %s disappeared before parsing", upload_id)
        return "missing"
    try:
        services.parse_upload(upload)
    except SoftTimeLimitExceeded:
        services.fail_upload(upload, f"parsing took longer than the {TIME_LIMIT - 30} s limit")
        return "failed"
    return "parsed"
