"""Real PostgreSQL + Redis + a Celery worker: a listing is stored, bucketed by the worker, applied to the dataset.

Run with DATABASE_URL=postgres://… and CELERY_BROKER_URL=redis://… set (``make test-services``).
"""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from zfsplanner.plans.models import PoolDesign

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _wait(client, upload_id, timeout=60.0):
    deadline = time.monotonic() + timeout
    body = {}
    while time.monotonic() < deadline:
        body = client.get(f"/api/histogram-uploads/{upload_id}/").json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.2)
    pytest.fail(f"histogram upload {upload_id} not finished after {timeout} s: {body}")


def test_a_listing_is_bucketed_by_a_real_worker(celery_worker_process, client_for, erin, design):
    client = client_for(erin)
    listing = "".join(f"{i * 512}\t./d{i % 20}/f{i}\n" for i in range(1, 20001)).encode()
    r = client.post("/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data",
                                                "file": SimpleUploadedFile("du.txt", listing)}, format="multipart")
    assert r.status_code == 202, r.content
    body = _wait(client, r.json()["id"])
    assert body["status"] == "done" and body["attempts"] == 1 and body["applied_revision"] == 2
    contents = PoolDesign.objects.get(pk=design.pk).datasets.get(name="tank/data").contents
    assert contents["file_count"] == 20000 and contents["files_per_directory"] == 1000


def test_a_failed_listing_is_retried_through_the_worker(celery_worker_process, client_for, erin, design):
    client = client_for(erin)
    r = client.post("/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data",
                                                "text": "1\n2\nthree\n"}, format="json")
    body = _wait(client, r.json()["id"])
    assert body["status"] == "failed" and body["error_line"] == 3
    assert client.post(f"/api/histogram-uploads/{body['id']}/retry/").status_code == 202
    again = _wait(client, body["id"])
    assert again["status"] == "failed" and again["attempts"] == 2
