"""Celery application (the standard Django layout).

Without CELERY_BROKER_URL the settings turn on ``task_always_eager`` and tasks run
in-process, which is what the two-command setup uses.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")

app = Celery("zfsplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
