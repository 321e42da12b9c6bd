"""Real PostgreSQL + Redis + a Celery worker: upload through the API, poll until the run is done.

Run with DATABASE_URL=postgres://… and CELERY_BROKER_URL=redis://… set (``make test-services``).
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.models import BenchResult, BenchUpload, UploadStatus
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(celery_worker_process):
    """A separate ``celery worker`` process on Redis and the test database (tests/conftest.py)."""
    return celery_worker_process


def _wait_until_finished(client, ids, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = [client.get(f"/api/benchmark-uploads/{i}/").json()["status"] for i in ids]
        if all(s in ("done", "failed") for s in statuses):
            return statuses
        time.sleep(0.2)
    pytest.fail(f"uploads {ids} not finished after {timeout} s: {statuses}")


def test_an_upload_is_parsed_by_a_real_worker(worker, client_for, alice):
    assert settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "the services suite runs on PostgreSQL"
    client = client_for(alice)
    files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in (CDM_WD, CDM_CRUCIAL)]
    r = client.post("/api/benchmark-uploads/", {"team": "alpha", "files": files}, format="multipart")
    assert r.status_code == 201, r.content
    ids = [u["id"] for u in r.json()["uploads"]]
    assert _wait_until_finished(client, ids) == ["done", "done"]
    for upload in BenchUpload.objects.filter(pk__in=ids):
        assert upload.status == UploadStatus.DONE and upload.attempts == 1 and upload.task_id
        assert BenchResult.objects.filter(run__upload=upload).count() == 8
    run_id = r.json()["uploads"][0]["run"]
    doc = client.get(f"/api/benchmarks/{run_id}/").json()["result"]
    assert doc["results"][0]["bandwidth_bytes_per_s"] == pytest.approx(531.458e6)


def test_a_failed_parse_and_its_retry_through_the_worker(worker, client_for, alice):
    client = client_for(alice)
    r = client.post(
        "/api/benchmark-uploads/",
        {"team": "alpha", "file": SimpleUploadedFile("x.txt", b"nothing here\n")},
        format="multipart",
    )
    upload_id = r.json()["uploads"][0]["id"]
    assert _wait_until_finished(client, [upload_id]) == ["failed"]
    assert "not a recognised benchmark log" in client.get(f"/api/benchmark-uploads/{upload_id}/").json()["error"]
    upload = BenchUpload.objects.get(pk=upload_id)
    with upload.file.open("wb") as fh:  # stands in for a parser update: the stored bytes are re-read
        fh.write(CDM_WD.read_bytes())
    assert client.post(f"/api/benchmark-uploads/{upload_id}/retry/").status_code == 202
    assert _wait_until_finished(client, [upload_id]) == ["done"]
    upload.refresh_from_db()
    assert upload.attempts == 2
