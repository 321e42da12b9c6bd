import pytest
from benchmarks.tasks import parse_upload_task
from zfsplanner.celery import app as celery_app
from celery import current_app
def test_dbg():
    print("SAME", parse_upload_task.app is celery_app, current_app._get_current_object() is celery_app, celery_app.conf.task_always_eager, parse_upload_task.app.conf.task_always_eager)
