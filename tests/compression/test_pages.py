"""The measure-compression pages: upload, progress that polls itself, results, privacy."""

from __future__ import annotations

import hashlib

import pytest

from zfsplanner.compression.models import CompressionSample

from .conftest import text_sample, upload

pytestmark = pytest.mark.django_db


def post(c, data, **fields):
    body = {
        "file": upload(data),
        "algorithms": "lz4,zstd",
        "recordsize": "128K",
        "ashift": "12",
        "openzfs_version": "2.3",
        **fields,
    }
    return c.post("/compression/", body, HTTP_HX_REQUEST="true")


def test_a_small_sample_comes_back_measured(alice, web):
    response = post(web(alice), text_sample())
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-status="done"' in html and 'data-algorithm="zstd-3"' in html
    assert "block_size_histogram" in html
    assert CompressionSample.objects.get().status == "done"


def test_a_large_sample_shows_a_progress_bar_that_polls_until_done(
    alice, web, settings, django_capture_on_commit_callbacks
):
    settings.COMPRESSION_INLINE_MAX_BYTES = 10_000
    c = web(alice)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        html = post(c, text_sample(100_000)).content.decode()
    assert 'data-status="pending"' in html and 'hx-trigger="every 2s"' in html and "<progress" in html
    sample = CompressionSample.objects.get()
    assert c.get(f"/compression/samples/{sample.pk}/", HTTP_HX_REQUEST="true").status_code == 200
    for cb in callbacks:
        cb()
    done = c.get(f"/compression/samples/{sample.pk}/", HTTP_HX_REQUEST="true")
    assert done.status_code == 286 and 'data-status="done"' in done.content.decode()


def test_bad_options_come_back_as_the_form_with_422(alice, web):
    response = post(web(alice), b"x" * 100, algorithms="snappy")
    assert response.status_code == 422 and "snappy" in response.content.decode()


def test_the_list_and_the_sample_are_private(alice, bob, web):
    post(web(alice), text_sample(5000))
    sample = CompressionSample.objects.get()
    assert web(bob).get(f"/compression/samples/{sample.pk}/").status_code == 404
    assert sample.original_name not in web(bob).get("/compression/").content.decode()
    assert sample.original_name in web(alice).get("/compression/").content.decode()
    assert web(bob).post(f"/compression/samples/{sample.pk}/delete/").status_code == 404
    assert web(alice).post(f"/compression/samples/{sample.pk}/delete/").status_code == 302
    assert not CompressionSample.objects.exists()


def test_a_sample_over_the_upload_limit_is_refused_as_it_streams_and_nothing_is_kept(alice, web, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.COMPRESSION_UPLOAD_MAX_BYTES = 10_000
    response = post(web(alice), text_sample(50_000))
    assert response.status_code == 422
    assert "larger than the upload limit of 10,000 bytes (COMPRESSION_UPLOAD_MAX_BYTES)" in response.content.decode()
    assert not CompressionSample.objects.exists()
    assert list((tmp_path / "compression" / "tmp").iterdir()) == []  # the partial file went with its request


def test_a_sample_is_spooled_by_the_streaming_handler_and_moved_into_storage(alice, web, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    data = text_sample(5000)
    post(web(alice), data)
    sample = CompressionSample.objects.get()
    assert sample.status == "done" and sample.size == len(data)
    assert sample.sha256 == hashlib.sha256(data).hexdigest()
    assert (tmp_path / sample.file.name).read_bytes() == data
    assert list((tmp_path / "compression" / "tmp").iterdir()) == []
