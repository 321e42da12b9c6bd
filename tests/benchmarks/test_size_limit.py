"""Uploads over BENCHMARK_UPLOAD_MAX_BYTES are refused with a clear message; nothing is stored."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from benchmarks import services
from benchmarks.models import BenchUpload
from tests.benchmarks.conftest import CDM_WD
from zfsplanner.uploads.handler import UploadTooLarge

URL = "/api/benchmark-uploads/"


@pytest.fixture
def small_limit(settings):
    settings.BENCHMARK_UPLOAD_MAX_BYTES = 1000
    return 1000


def _leftovers(media_root):
    return [p for p in media_root.rglob("*") if p.is_file()] if media_root.exists() else []


@pytest.mark.django_db
def test_a_file_over_the_limit_is_refused_while_streaming(client_for, alice, small_limit, media_root):
    big = SimpleUploadedFile("big.txt", CDM_WD.read_bytes())  # 1224 bytes, request under limit + form overhead
    r = client_for(alice).post(URL, {"team": "alpha", "file": big}, format="multipart")
    assert r.status_code == 413
    assert "'big.txt' is larger than the upload limit of 1,000 bytes" in r.json()["detail"]
    assert BenchUpload.objects.count() == 0
    assert _leftovers(media_root) == []


@pytest.mark.django_db
def test_a_request_announcing_too_many_bytes_is_refused_before_reading(client_for, alice, small_limit, media_root):
    body = encode_multipart(BOUNDARY, {"team": "alpha", "file": SimpleUploadedFile("a.txt", b"x" * 10)})
    client = client_for(alice)
    r = client.generic(
        "POST", URL, body, content_type=MULTIPART_CONTENT, CONTENT_LENGTH=str(small_limit + 2 * 1024 * 1024)
    )
    assert r.status_code == 413
    assert "The request body (2,098,152 bytes) is larger than the upload limit" in r.json()["detail"]
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_a_file_at_the_limit_is_accepted(client_for, alice, settings, django_capture_on_commit_callbacks):
    settings.BENCHMARK_UPLOAD_MAX_BYTES = len(CDM_WD.read_bytes())
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(
            URL, {"team": "alpha", "file": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())}, format="multipart"
        )
    assert r.status_code == 201


@pytest.mark.django_db
def test_the_page_refuses_a_file_over_the_limit(client_for, alice, team, small_limit):
    r = client_for(alice).post(
        "/benchmarks/upload/",
        {"team": team.pk, "files": SimpleUploadedFile("big.txt", CDM_WD.read_bytes())},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 413
    assert "is larger than the upload limit of 1,000 bytes" in r.content.decode()
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_the_service_streams_and_refuses_other_file_objects(team, alice, small_limit, media_root):
    with pytest.raises(UploadTooLarge):
        services.store_upload(team=team, user=alice, file=io.BytesIO(b"x" * 1001))
    assert BenchUpload.objects.count() == 0
    assert _leftovers(media_root) == []
