"""A sample measured by a worker is stored and answered 202 while the broker is down, and the
sweep measures it once the broker is back."""

from __future__ import annotations

import pytest

from tests.benchmarks.test_recovery import dead_broker  # noqa: F401 (a fixture)
from tests.compression.test_api import MEASURE, text_sample, upload
from zfsplanner.celery import app
from zfsplanner.compression.models import COMPRESSION_SAMPLES, CompressionSample, SampleStatus
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.tasks import sweep_uploads_task


@pytest.mark.django_db(transaction=True)
def test_a_large_sample_while_the_broker_is_down_is_kept_and_measured_by_the_next_sweep(
    dead_broker, alice, client_for, settings, tmp_path  # noqa: F811
):
    settings.MEDIA_ROOT = tmp_path
    settings.COMPRESSION_INLINE_MAX_BYTES = 100_000
    r = client_for(alice).post(MEASURE, {"file": upload(text_sample(250_000)), "algorithms": "lz4"})
    assert r.status_code == 202, r.content
    sample = CompressionSample.objects.get()
    assert sample.status == SampleStatus.PENDING and sample.error == COMPRESSION_SAMPLES.queue_down_note
    app.conf.CELERY_TASK_ALWAYS_EAGER = True  # the broker is back (tasks run in-process here)
    assert f"compression samples: queued again: 1 pending sample(s) [{sample.pk}]" in sweep_uploads_task()
    sample.refresh_from_db()
    assert sample.status == SampleStatus.DONE and sample.attempts == 1 and sample.error == ""
    assert lifecycle.sweep(COMPRESSION_SAMPLES).queued == []


def test_the_beat_schedule_sweeps_samples_too():
    assert app.conf.beat_schedule["sweep-uploads"]["task"] == sweep_uploads_task.name
    assert COMPRESSION_SAMPLES in lifecycle.KINDS
