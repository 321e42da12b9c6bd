"""POST /api/compression/measure/: the spec's document in the request, or a sample a worker measures."""

from __future__ import annotations

import os

import pytest

from zfsplanner.compression.models import CompressionSample
from zfsplanner.core.datasets.measure import Setting, measure_bytes
from zfsplanner.core.versions import Version

from .conftest import text_sample, upload

pytestmark = pytest.mark.django_db

MEASURE = "/api/compression/measure/"


def test_a_small_sample_is_measured_in_the_request_like_the_command(bob, client_for):
    data = text_sample()
    response = client_for(bob).post(
        MEASURE,
        {
            "file": upload(data),
            "algorithms": "lz4,zstd",
            "recordsize": "128K,1M",
            "ashift": 12,
            "openzfs_version": "2.3",
        },
        format="multipart",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["format"] == "zfsplanner.compression/1"
    (f,) = body["files"]
    assert f["path"] == "sample.log" and f["size_bytes"] == len(data)
    got = {(r["algorithm"], r["recordsize"]): r for r in f["results"]}
    assert set(got) == {("lz4", 131072), ("lz4", 1048576), ("zstd-3", 131072), ("zstd-3", 1048576)}
    core = measure_bytes(data, Setting("zstd", "zstd-3", 131072), 12, Version.parse("2.3")).document()
    mine = got[("zstd-3", 131072)]
    for key in ("logical_bytes", "stored_bytes", "compressratio", "block_size_histogram", "method"):
        assert mine[key] == core[key], key
    assert mine["compressratio"] > 2 and mine["method"] == "exact"
    assert body["total"]["results"][0]["stored_bytes"] == f["results"][0]["stored_bytes"]
    assert CompressionSample.objects.count() == 0  # nothing kept


def test_several_files_add_up_in_the_total(alice, client_for):
    a, b = text_sample(50_000), os.urandom(70_000)
    body = (
        client_for(alice).post(MEASURE, {"file": [upload(a, "a.log"), upload(b, "b.bin")], "algorithms": "lz4"}).json()
    )
    assert [f["path"] for f in body["files"]] == ["a.log", "b.bin"]
    total = body["total"]["results"][0]
    assert total["stored_bytes"] == sum(f["results"][0]["stored_bytes"] for f in body["files"])
    assert total["logical_bytes"] == len(a) + len(b)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("algorithms", "snappy"),
        ("algorithms", "zstd-99"),
        ("recordsize", "100K"),
        ("recordsize", "32M"),
        ("recordsize", "big"),
        ("ashift", "8"),
        ("openzfs_version", "0.7"),
    ],
)
def test_bad_settings_are_400_naming_the_field(alice, client_for, field, value):
    response = client_for(alice).post(MEASURE, {"file": upload(b"some data " * 100), field: value})
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_zstd_on_0_8_is_refused(alice, client_for):
    response = client_for(alice).post(
        MEASURE, {"file": upload(b"x" * 5000), "algorithms": "zstd", "openzfs_version": "0.8"}
    )
    assert response.status_code == 400 and "2.0" in response.json()["algorithms"][0]


def test_an_empty_or_missing_file_is_400(alice, client_for):
    assert "file" in client_for(alice).post(MEASURE, {"file": upload(b"")}).json()
    assert "file" in client_for(alice).post(MEASURE, {"algorithms": "lz4"}).json()


def test_a_large_sample_is_stored_and_measured_by_a_worker_with_progress(
    alice, client_for, settings, django_capture_on_commit_callbacks
):
    settings.COMPRESSION_INLINE_MAX_BYTES = 100_000
    data = text_sample(250_000)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post(MEASURE, {"file": upload(data), "algorithms": "lz4,gzip-9"})
    assert response.status_code == 202, response.content
    queued = response.json()
    assert queued["status"] == "pending" and response["Location"].endswith(f"/api/compression/samples/{queued['id']}/")
    done = client_for(alice).get(response["Location"]).json()
    assert done["status"] == "done" and done["progress"] == 100
    assert done["result"]["files"][0]["size_bytes"] == len(data)
    expected = measure_bytes(data, Setting("gzip-9", "gzip-9", 131072), 12, Version.parse("2.3")).document()
    assert done["result"]["total"]["results"][1]["stored_bytes"] == expected["stored_bytes"]


def test_more_than_the_upload_limit_is_refused(alice, client_for, settings):
    settings.COMPRESSION_UPLOAD_MAX_BYTES = 10_000
    response = client_for(alice).post(MEASURE, {"file": upload(text_sample(20_000))})
    assert response.status_code == 400 and "larger than" in response.json()["file"][0]


def test_samples_are_private_to_their_owner(alice, bob, client_for, settings, django_capture_on_commit_callbacks):
    settings.COMPRESSION_INLINE_MAX_BYTES = 1000
    with django_capture_on_commit_callbacks(execute=True):
        url = client_for(alice).post(MEASURE, {"file": upload(text_sample(5000))})["Location"]
    assert client_for(bob).get(url).status_code == 404
    assert client_for(bob).get("/api/compression/samples/").json() == []
    assert len(client_for(alice).get("/api/compression/samples/").json()) == 1
    assert client_for(bob).delete(url).status_code == 404
    assert client_for(alice).delete(url).status_code == 204
    assert CompressionSample.objects.count() == 0


def test_it_needs_a_login(api_client):
    assert api_client.post(MEASURE, {"file": upload(b"x" * 1000)}).status_code in (401, 403)
