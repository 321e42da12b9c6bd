"""Uploads any machine can read: two app processes with local media folders of their own, one object store.

A real gunicorn ("the web machine") and a real Celery worker ("the worker machine") with different
MEDIA_ROOTs share PostgreSQL, Redis and an S3-compatible server (moto's, started here): an upload
through the web process is parsed by the worker, which reads the bytes from the object store, and
neither machine's disk keeps a copy. The size is a parameter (``ZFSPLANNER_SHARED_UPLOAD_MB``,
default 2); docs/operations.md quotes a larger run.
"""

from __future__ import annotations

import os
import time

import boto3
import pytest
from django.db import connection

from benchmarks.models import BenchRun, BenchUpload, UploadStatus
from tests.benchmarks.faults import Worker, database_url, wait_for
from tests.deploy.stack import Gunicorn, MotoServer, curl_upload, fio_log, production_env
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.celery import app

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BUCKET = "zfsplanner-uploads"


@pytest.fixture
def object_store(tmp_path):
    """moto's S3 server with an empty bucket; the settings every machine gets to reach it."""
    server = MotoServer(tmp_path).start()
    store = {
        "STORAGE_S3_ENDPOINT_URL": server.url,
        "STORAGE_S3_BUCKET": BUCKET,
        "STORAGE_S3_ACCESS_KEY": "zfsplanner-test",
        "STORAGE_S3_SECRET_KEY": "zfsplanner-test-secret",
        "STORAGE_S3_REGION": "us-east-1",
    }
    s3 = boto3.client(
        "s3", endpoint_url=server.url, region_name="us-east-1",
        aws_access_key_id=store["STORAGE_S3_ACCESS_KEY"], aws_secret_access_key=store["STORAGE_S3_SECRET_KEY"],
    )
    s3.create_bucket(Bucket=BUCKET)
    yield s3, store
    server.stop()


def _files(folder):
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_an_upload_through_one_machine_is_parsed_by_a_worker_on_another(object_store, alice, tmp_path):
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is not set: the services suite needs PostgreSQL (see .ci/run)")
    s3, store = object_store
    shared = {"DATABASE_URL": database_url(connection.settings_dict), **store}
    web = Gunicorn(tmp_path, production_env(tmp_path / "web", **shared)).start()
    worker = Worker(tmp_path / "worker.log", production_env(tmp_path / "worker", **shared), f"s3-{os.getpid()}@%h")
    try:
        worker.start(app)
        _, key = issue_token(alice, "two machines", None)
        size = int(float(os.environ.get("ZFSPLANNER_SHARED_UPLOAD_MB", "2")) * 1_000_000)
        log = fio_log(tmp_path / "shared_bw.1.log", size)
        sent = curl_upload(f"{web.url}/api/benchmark-uploads/", key, log, tmp_path / "answer")
        assert sent["status"] == 201, (tmp_path / "answer").read_text()
        answered = time.monotonic()
        upload = BenchUpload.objects.get()

        def parsed() -> bool:
            upload.refresh_from_db()
            assert upload.status != UploadStatus.FAILED, upload.error
            return upload.status == UploadStatus.DONE

        wait_for(parsed, 600, "the upload parsed by the other machine's worker", interval=0.25)
        took = time.monotonic() - answered
        print(
            f"\nobject store: {log.stat().st_size / 1e6:.1f} MB uploaded in {sent['total_seconds']:.1f} s, "
            f"parsed by the other machine's worker {took:.1f} s after the answer"
        )
    finally:
        worker.stop()
        web.stop()
    assert "parsed" in worker.output() or "succeeded" in worker.output()
    assert BenchRun.objects.get(upload=upload).series.get().point_count == log.read_text().count("\n")
    stored = s3.get_object(Bucket=BUCKET, Key=upload.file.name)["Body"].read()
    assert stored == log.read_bytes()
    # Neither machine's disk holds the file: only the (empty) folders where files arrive.
    assert _files(tmp_path / "web" / "media") == [] and _files(tmp_path / "worker" / "media") == []
