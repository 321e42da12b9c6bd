"""Real PostgreSQL + Redis + a Celery worker: a large sample is measured by the worker, with progress.

Run with DATABASE_URL=postgres://… and CELERY_BROKER_URL=redis://… set (``make test-services``).
"""

from __future__ import annotations

import time

import pytest

from zfsplanner.compression.models import CompressionSample
from zfsplanner.core.datasets.measure import Setting, measure_bytes
from zfsplanner.core.versions import Version

from .conftest import text_sample, upload

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_large_sample_is_measured_by_a_real_worker(celery_worker_process, client_for, alice, settings):
    settings.COMPRESSION_INLINE_MAX_BYTES = 100_000
    data = text_sample(3_000_000)
    client = client_for(alice)
    r = client.post("/api/compression/measure/", {"file": upload(data), "algorithms": "lz4,zstd"})
    assert r.status_code == 202, r.content
    url = r["Location"]
    deadline = time.monotonic() + 120
    seen = set()
    while time.monotonic() < deadline:
        body = client.get(url).json()
        seen.add(body["status"])
        if body["status"] in ("done", "failed"):
            break
        time.sleep(0.2)
    assert body["status"] == "done", body
    sample = CompressionSample.objects.get()
    assert sample.task_id and not sample.task_id.startswith("inline-") and sample.attempts == 1
    expected = measure_bytes(data, Setting("lz4", "lz4", 131072), 12, Version.parse("2.3")).document()
    assert body["result"]["total"]["results"][0]["stored_bytes"] == expected["stored_bytes"]
