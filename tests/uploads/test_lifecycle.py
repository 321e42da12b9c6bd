"""One upload lifecycle for every kind: the same claim, retry policy, retry and sweep for benchmark
logs, file listings, compression samples and pool outputs (zfsplanner/uploads). Tasks run in-process here; the
services suite (tests/*/test_services_worker.py, tests/benchmarks/test_faults.py) runs them on a
real worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from benchmarks.models import BENCHMARK_LOGS
from tests.benchmarks.conftest import CDM_WD
from tests.compression.conftest import text_sample, upload
from tests.core.import_samples import text
from tests.factories import BenchRunFactory, PoolDesignFactory, design_document
from zfsplanner.celery import app
from zfsplanner.compression import services as compression_services
from zfsplanner.compression.models import COMPRESSION_SAMPLES
from zfsplanner.imports import services as import_services
from zfsplanner.imports.models import FILE_LISTINGS, POOL_OUTPUTS, PoolImport
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.kinds import KINDS
from zfsplanner.uploads.tasks import sweep_uploads_task

ALL_KINDS = [BENCHMARK_LOGS, FILE_LISTINGS, COMPRESSION_SAMPLES, POOL_OUTPUTS]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.COMPRESSION_INLINE_MAX_BYTES = 1000  # samples here are measured by the task, not inline
    return tmp_path


def _stored(kind, team, user, django_capture_on_commit_callbacks):
    """One stored upload of ``kind``, left pending (its message not sent)."""
    with django_capture_on_commit_callbacks(execute=False):
        if kind is BENCHMARK_LOGS:
            return BenchRunFactory(upload__team=team, upload__data=CDM_WD.read_bytes()).upload
        if kind is FILE_LISTINGS:
            design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
            return import_services.store_histogram(
                design=design, dataset="tank/data", user=user, file=b"4096\n8192\n", name="sizes.txt"
            )
        if kind is POOL_OUTPUTS:  # stored by a request that died before reading them
            outputs = [{"name": "status.txt", "text": text("freebsd-2.2-raidz1-gptid.txt")}]
            return PoolImport.objects.create(created_by=user, sources=outputs)
        options = compression_services.parse_options("lz4")
        return compression_services.store_sample(user, upload(text_sample(5000)), options)


def _reload(upload):
    upload.refresh_from_db()
    return upload


def test_every_kind_is_read_by_one_task_with_the_same_policy():
    assert set(KINDS) == set(ALL_KINDS) and len(KINDS) == 4
    names = {k.task.name for k in KINDS}
    assert names == {
        "benchmarks.tasks.parse_upload_task",
        "zfsplanner.imports.tasks.bucket_histogram_task",
        "zfsplanner.compression.tasks.measure_sample",
        "zfsplanner.imports.tasks.read_pool_import_task",
    }
    for kind in KINDS:
        task = kind.task
        assert task.acks_late and task.reject_on_worker_lost and task.max_retries is None
        assert task.time_limit == kind.task_time_limit() and task.soft_time_limit == kind.task_time_limit() - 30
    assert COMPRESSION_SAMPLES.task.time_limit == 6 * 3600  # a large sample is measured for a while


def test_one_beat_entry_sweeps_every_kind():
    sweeps = [entry for entry in app.conf.beat_schedule.values() if "sweep" in entry["task"]]
    assert sweeps == [app.conf.beat_schedule["sweep-uploads"]]
    assert sweeps[0]["task"] == sweep_uploads_task.name


@pytest.mark.django_db
def test_the_one_sweep_reports_every_kind(media):
    report = sweep_uploads_task()
    for kind in ALL_KINDS:
        assert f"{kind.name}: queued again: 0 pending" in report
    assert report.endswith("partial files removed: 0")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.name)
def test_a_claim_is_held_by_one_task_and_reentered_only_by_its_own(
    kind, media, team, alice, django_capture_on_commit_callbacks
):
    stored = _stored(kind, team, alice, django_capture_on_commit_callbacks)
    assert lifecycle.claim(kind, stored.pk, "task-a")
    assert not lifecycle.claim(kind, stored.pk, "task-b")
    assert lifecycle.claim(kind, stored.pk, "task-a")  # a redelivery of the same message
    upload = _reload(stored)
    assert upload.status == kind.running and upload.task_id == "task-a" and upload.attempts == 2
    assert kind.task.apply(args=[stored.pk], task_id="task-b").get() == "skipped"
    assert kind.task.apply(args=[stored.pk], task_id="task-a").get() == kind.done
    assert _reload(stored).status == "done"


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.name)
def test_an_upload_whose_message_was_lost_is_read_by_the_next_sweep(
    kind, media, team, alice, django_capture_on_commit_callbacks
):
    stored = _stored(kind, team, alice, django_capture_on_commit_callbacks)
    assert lifecycle.sweep(kind).queued == []  # fresh: its message may still be on the way
    kind.model.objects.filter(pk=stored.pk).update(updated=timezone.now() - timedelta(minutes=6))
    assert lifecycle.sweep(kind).requeued_pending == [stored.pk]
    upload = _reload(stored)
    assert upload.status == "done" and upload.attempts == 1


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.name)
def test_an_upload_held_past_its_time_limit_is_taken_back_and_read_once(
    kind, media, team, alice, django_capture_on_commit_callbacks
):
    stored = _stored(kind, team, alice, django_capture_on_commit_callbacks)
    long_ago = timezone.now() - lifecycle.stuck_after(kind) - timedelta(seconds=1)
    kind.model.objects.filter(pk=stored.pk).update(
        status=kind.running, task_id="dead", started=long_ago, updated=long_ago, progress=40, attempts=1
    )
    assert lifecycle.sweep(kind).reclaimed_parsing == [stored.pk]
    upload = _reload(stored)
    assert upload.status == "done" and upload.task_id != "dead" and upload.attempts == 2


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.name)
def test_retry_reads_a_failed_upload_again_and_refuses_a_running_one(
    kind, media, team, alice, django_capture_on_commit_callbacks
):
    stored = _stored(kind, team, alice, django_capture_on_commit_callbacks)
    lifecycle.fail(kind, stored.pk, "the worker ran out of memory")
    upload = _reload(stored)
    assert upload.status == "failed" and upload.error == "the worker ran out of memory"
    with django_capture_on_commit_callbacks(execute=True):
        assert lifecycle.retry(kind, upload)
    assert _reload(stored).status == "done" and upload.error == ""
    kind.model.objects.filter(pk=stored.pk).update(status=kind.running, task_id="live", started=timezone.now())
    assert not lifecycle.retry(kind, upload)  # in-process there is no worker to ask: a young claim runs
    assert _reload(stored).task_id == "live"


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.name)
def test_progress_writes_the_heartbeat_only_while_the_task_holds_the_claim(
    kind, media, team, alice, django_capture_on_commit_callbacks
):
    stored = _stored(kind, team, alice, django_capture_on_commit_callbacks)
    long_ago = timezone.now() - timedelta(minutes=5)
    kind.model.objects.filter(pk=stored.pk).update(status=kind.running, task_id="t", updated=long_ago)
    progress = lifecycle.Progress(kind, stored.pk)
    progress.last_time -= lifecycle.HEARTBEAT_SECONDS  # the last write was a heartbeat ago
    progress.part(1, 4)
    upload = _reload(stored)
    assert upload.progress == 25 and upload.updated > long_ago
    kind.model.objects.filter(pk=stored.pk).update(status="failed", progress=0)
    progress.last_time -= lifecycle.HEARTBEAT_SECONDS
    progress.fraction(0.5)
    assert _reload(stored).progress == 0  # a finished upload is never written by a late heartbeat
