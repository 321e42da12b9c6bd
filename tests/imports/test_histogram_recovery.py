"""No listing is ever stuck: stored and answered 202 while the broker is down, queued again by the
sweep once it is back, and taken back from a worker that died holding it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.benchmarks.test_recovery import dead_broker  # noqa: F401 (a fixture)
from zfsplanner.celery import app
from zfsplanner.imports.models import FILE_LISTINGS, HistogramStatus, HistogramUpload
from zfsplanner.plans.models import PoolDesign
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.tasks import sweep_uploads_task

URL = "/api/histogram-uploads/"


def _post(client, design, text="4096\n8192\n"):
    return client.post(URL, {"design": design.pk, "dataset": "tank/data", "text": text}, format="json")


@pytest.mark.django_db(transaction=True)
def test_a_listing_while_the_broker_is_down_is_stored_and_bucketed_by_the_next_sweep(
    dead_broker, client_for, alice, design  # noqa: F811
):
    r = _post(client_for(alice), design)
    assert r.status_code == 202, r.content
    upload = HistogramUpload.objects.get(pk=r.json()["id"])
    assert upload.status == HistogramStatus.PENDING and upload.error == FILE_LISTINGS.queue_down_note
    assert client_for(alice).get(f"{URL}{upload.pk}/").json()["error"] == FILE_LISTINGS.queue_down_note
    assert lifecycle.sweep(FILE_LISTINGS).queued == []  # still down: kept, noted again
    upload.refresh_from_db()
    assert upload.status == HistogramStatus.PENDING and upload.error == FILE_LISTINGS.queue_down_note
    app.conf.CELERY_TASK_ALWAYS_EAGER = True  # the broker is back (tasks run in-process here)
    assert f"file listings: queued again: 1 pending listing(s) [{upload.pk}]" in sweep_uploads_task()
    upload.refresh_from_db()
    assert upload.status == HistogramStatus.DONE and upload.attempts == 1 and upload.error == ""
    assert PoolDesign.objects.get(pk=design.pk).revision == 2


@pytest.mark.django_db
def test_the_sweep_takes_back_a_listing_held_past_the_time_limit(client_for, alice, design, settings):
    r = _post(client_for(alice), design)
    long_ago = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 61)
    HistogramUpload.objects.filter(pk=r.json()["id"]).update(
        status=HistogramStatus.PARSING, task_id="dead", started=long_ago, updated=long_ago, progress=40
    )
    assert lifecycle.sweep(FILE_LISTINGS).reclaimed_parsing == [r.json()["id"]]
    upload = HistogramUpload.objects.get()
    assert upload.status == HistogramStatus.DONE and upload.task_id != "dead"


@pytest.mark.django_db
def test_the_sweep_leaves_a_fresh_claim_and_a_fresh_pending_listing_alone(client_for, alice, design):
    r = _post(client_for(alice), design)
    HistogramUpload.objects.filter(pk=r.json()["id"]).update(
        status=HistogramStatus.PARSING, task_id="live", started=timezone.now(), updated=timezone.now()
    )
    _post(client_for(alice), design, text="1\n")
    HistogramUpload.objects.exclude(pk=r.json()["id"]).update(status=HistogramStatus.PENDING)
    assert lifecycle.sweep(FILE_LISTINGS).queued == []
    assert HistogramUpload.objects.get(pk=r.json()["id"]).task_id == "live"


def test_the_beat_schedule_sweeps_listings_too():
    assert app.conf.beat_schedule["sweep-uploads"]["task"] == sweep_uploads_task.name
    assert FILE_LISTINGS in lifecycle.KINDS
