"""No upload is ever stuck: a broker that refuses the message, a worker that died holding a claim,
a lost message — the sweeper and Retry bring every one of them to an end without a human.

Tasks run in-process here; tests/benchmarks/test_faults.py does the same against a real
worker, broker and database.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from benchmarks import tasks
from benchmarks.models import BENCHMARK_LOGS, BenchUpload, UploadStatus
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD
from tests.factories import BenchRunFactory
from zfsplanner.celery import app
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.tasks import retry_budget, retry_delay, sweep_uploads_task

URL = "/api/benchmark-uploads/"


def _run_for(team, path=CDM_WD):
    return BenchRunFactory(upload__team=team, upload__data=path.read_bytes(), upload__original_name=path.name)


def _age(upload, **fields):
    """Make the upload look as if it was left in this state long ago."""
    BenchUpload.objects.filter(pk=upload.pk).update(**fields)
    upload.refresh_from_db()
    return upload


@pytest.fixture
def dead_broker(monkeypatch):
    """Point the app at a port where nothing listens: every publish fails as it does with Redis down."""
    old_url, old_eager = app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:9/0")  # Celery reads the variable first
    app.conf.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # discard port: connection refused
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app._after_fork()  # drop pooled connections to the real broker
    assert app.connection_for_write().as_uri() == "redis://127.0.0.1:9/0"
    yield
    app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER = old_url, old_eager
    app._after_fork()


@pytest.mark.django_db(transaction=True)
def test_an_upload_while_the_broker_is_down_is_stored_and_the_user_told_it_waits(dead_broker, client_for, alice):
    r = client_for(alice).post(URL, {"team": "alpha", "file": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())})
    assert r.status_code == 201, r.content
    assert "queued for parsing" in r.json()["uploads"][0]["message"]
    upload = BenchUpload.objects.get(pk=r.json()["uploads"][0]["id"])
    assert upload.status == UploadStatus.PENDING
    assert upload.file.size == CDM_WD.stat().st_size
    status = client_for(alice).get(f"{URL}{upload.pk}/").json()
    assert status["error"] == BENCHMARK_LOGS.queue_down_note


@pytest.mark.django_db(transaction=True)
def test_the_upload_page_does_not_fail_when_the_broker_is_down(dead_broker, alice):
    from django.test import Client

    c = Client()
    c.force_login(alice)
    r = c.post("/benchmarks/upload/", {"team": alice.memberships.get().team_id, "files": [
        SimpleUploadedFile("b.txt", CDM_CRUCIAL.read_bytes())
    ]})
    assert r.status_code == 302
    assert BenchUpload.objects.get().status == UploadStatus.PENDING


@pytest.mark.django_db(transaction=True)
def test_retrying_a_done_upload_while_the_broker_is_down_leaves_it_queued_not_stranded(team, dead_broker):
    run = _run_for(team)
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    tasks.parse_upload_task(run.upload.pk)
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    assert lifecycle.retry(BENCHMARK_LOGS, run.upload)
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.PENDING and run.upload.error == BENCHMARK_LOGS.queue_down_note
    # The broker is back: the next sweep sends it at once, without waiting for the timeout.
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    report = lifecycle.sweep(BENCHMARK_LOGS)
    assert report.requeued_pending == [run.upload.pk]
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.DONE and run.upload.error == ""


@pytest.mark.django_db
def test_the_sweeper_queues_an_upload_whose_message_was_lost(team):
    upload = _age(_run_for(team).upload, updated=timezone.now() - timedelta(hours=1))
    assert lifecycle.sweep(BENCHMARK_LOGS).requeued_pending == [upload.pk]
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.attempts == 1


@pytest.mark.django_db
def test_the_sweeper_leaves_a_freshly_queued_upload_alone(team):
    upload = _run_for(team).upload
    report = lifecycle.sweep(BENCHMARK_LOGS)
    assert report.requeued_pending == [] and report.reclaimed_parsing == []
    upload.refresh_from_db()
    assert upload.status == UploadStatus.PENDING


@pytest.mark.django_db
def test_the_sweeper_takes_back_an_upload_held_by_a_dead_worker(team):
    past_the_time_limit = timezone.now() - lifecycle.stuck_after(BENCHMARK_LOGS) - timedelta(seconds=1)
    upload = _age(
        _run_for(team).upload, status=UploadStatus.PARSING, task_id="dead-task", progress=99,
        started=past_the_time_limit, attempts=1,
    )
    assert lifecycle.sweep(BENCHMARK_LOGS).reclaimed_parsing == [upload.pk]
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.task_id != "dead-task" and upload.attempts == 2


@pytest.mark.django_db
def test_the_sweeper_leaves_a_parse_within_the_time_limit_alone(team):
    upload = _age(_run_for(team).upload, status=UploadStatus.PARSING, task_id="live-task", started=timezone.now())
    assert lifecycle.sweep(BENCHMARK_LOGS).reclaimed_parsing == []
    upload.refresh_from_db()
    assert upload.status == UploadStatus.PARSING and upload.task_id == "live-task"


@pytest.mark.django_db
def test_the_sweep_command_reports_what_it_queued(team, capsys):
    upload = _run_for(team).upload
    call_command("sweep_uploads", "--pending-after", "0")
    assert f"1 pending upload(s) [{upload.pk}]" in capsys.readouterr().out
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE


@pytest.mark.django_db
@pytest.mark.parametrize("state", [UploadStatus.PENDING, UploadStatus.DONE, UploadStatus.FAILED, "dead-parse"])
def test_retry_works_from_every_state_but_a_running_parse(team, state, django_capture_on_commit_callbacks):
    upload = _run_for(team).upload
    if state == "dead-parse":
        _age(upload, status=UploadStatus.PARSING, task_id="x", started=timezone.now() - timedelta(hours=1))
    else:
        _age(upload, status=state)
    with django_capture_on_commit_callbacks(execute=True):
        assert lifecycle.retry(BENCHMARK_LOGS, upload)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE


@pytest.mark.django_db
def test_retry_refuses_a_running_parse(team):
    upload = _age(_run_for(team).upload, status=UploadStatus.PARSING, task_id="x", started=timezone.now())
    assert not lifecycle.retry(BENCHMARK_LOGS, upload)
    assert upload.status == UploadStatus.PARSING and upload.task_id == "x"


def test_retries_ride_out_a_database_restart(settings):
    # The defaults: a restart (seconds) or a failover (a minute or two) is well inside the budget.
    assert retry_budget() >= 10 * 60
    delays = [retry_delay(n) for n in range(settings.BENCHMARK_PARSE_RETRIES)]
    assert delays[0] <= settings.BENCHMARK_PARSE_RETRY_BACKOFF
    assert max(delays) <= settings.BENCHMARK_PARSE_RETRY_BACKOFF_MAX
    # Each wait stays far below the broker's visibility timeout, or the message would be delivered twice.
    assert max(delays) < settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] / 4


def test_the_worker_settings_redeliver_a_task_whose_process_died():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert tasks.parse_upload_task.acks_late and tasks.parse_upload_task.reject_on_worker_lost
    schedule = app.conf.beat_schedule["sweep-uploads"]
    assert schedule["task"] == sweep_uploads_task.name
