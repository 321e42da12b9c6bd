"""Celery application (the standard Django layout).

Without CELERY_BROKER_URL the settings turn on ``task_always_eager`` and tasks run
in-process, which is what the two-command setup uses.

A worker sweeps the upload queue once when it starts (uploads queued while no worker or
no broker was up are sent again); Celery beat (``celery worker -B``, or ``celery beat``)
repeats the sweep every BENCHMARK_SWEEP_INTERVAL seconds (CELERY_BEAT_SCHEDULE).
"""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")

app = Celery("zfsplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def sweep_on_start(sender: Any = None, **kwargs: Any) -> None:
    try:
        app.send_task("zfsplanner.uploads.tasks.sweep_uploads_task")
    except Exception as exc:  # the broker went away again: beat's next tick sweeps
        logger.warning("could not queue the start-up sweep (%s: %s)", type(exc).__name__, exc)


worker_ready.connect(sweep_on_start)
