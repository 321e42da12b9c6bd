"""``manage.py sweep_uploads``: what beat runs, and ``--partial-files`` for a web machine without a worker."""

from __future__ import annotations

import io
import os
import time

import pytest
from django.core.management import call_command

from benchmarks.models import BENCHMARK_LOGS, BenchUpload
from tests.factories import BenchRunFactory


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _dead_partial_file():
    dead = BENCHMARK_LOGS.spool_dir() / f"{BENCHMARK_LOGS.prefix}killed"
    dead.write_bytes(b"x" * 100)
    old = time.time() - 2 * 3600
    os.utime(dead, (old, old))
    return dead


def _sweep(*args):
    out = io.StringIO()
    call_command("sweep_uploads", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_command_removes_partial_files_too(media):
    dead = _dead_partial_file()
    assert "partial upload files removed: 1" in _sweep("--pending-after", "0")
    assert not dead.exists()


@pytest.mark.django_db
def test_partial_files_only_removes_them_and_queues_nothing(media):
    run = BenchRunFactory()
    BenchUpload.objects.filter(pk=run.upload_id).update(status="pending")
    dead = _dead_partial_file()
    output = _sweep("--partial-files", "--pending-after", "0")
    assert output.strip() == "partial upload files removed: 1"
    assert not dead.exists()
    assert BenchUpload.objects.get(pk=run.upload_id).status == "pending"  # not queued, not parsed
