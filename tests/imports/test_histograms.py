"""Histogram listings for a dataset: stored, bucketed by the worker, put into the dataset's contents."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.core.import_samples import text
from zfsplanner.imports import services
from zfsplanner.imports.models import FILE_LISTINGS, HistogramStatus, HistogramUpload
from zfsplanner.imports.tasks import bucket_histogram_task
from zfsplanner.plans.models import PoolDesign
from zfsplanner.uploads import lifecycle

pytestmark = pytest.mark.django_db

LISTING = "".join(f"{(i * 7919) % 5_000_000} /data/d{i % 40}/f{i}\n" for i in range(4000))


def _post(client, capture, design, data):
    with capture(execute=True):
        return client.post(f"/designs/{design.pk}/histograms/upload/", data)


def test_the_page_lists_the_datasets(client, bob, design):
    client.force_login(bob)
    r = client.get(f"/designs/{design.pk}/histograms/")
    assert r.status_code == 200
    assert b"No listings yet" in r.content
    assert b'id="histogram-form"' not in r.content  # viewers read only


def test_a_pasted_listing_updates_the_dataset(client, erin, design, django_capture_on_commit_callbacks):
    client.force_login(erin)
    r = _post(client, django_capture_on_commit_callbacks, design,
              {"dataset": "tank/data", "format": "auto", "text": LISTING})
    assert r.status_code == 302
    upload = HistogramUpload.objects.get()
    assert upload.status == HistogramStatus.DONE and upload.progress == 100
    assert upload.detected_format == "du" and upload.result["file_count"] == 4000
    design = PoolDesign.objects.get(pk=design.pk)
    assert upload.applied_revision == design.revision == 2
    contents = design.datasets.get(name="tank/data").contents
    assert contents["file_count"] == 4000 and contents["files_per_directory"] == 100
    assert sum(n for _, n in contents["file_size_histogram"]) == 4000
    assert design.to_spec().datasets[0].contents.files_per_directory == 100
    page = client.get(f"/designs/{design.pk}/histograms/").content.decode()
    assert "in the design since revision 2" in page


def test_an_uploaded_zdb_dump_sets_blocks_and_the_measured_ratio(client, erin, design,
                                                                  django_capture_on_commit_callbacks):
    client.force_login(erin)
    f = SimpleUploadedFile("zdb.txt", text("zdb-2.2-Lbbbs.txt").encode())
    _post(client, django_capture_on_commit_callbacks, design, {"dataset": "tank/data", "format": "zdb", "file": f})
    upload = HistogramUpload.objects.get()
    assert upload.status == HistogramStatus.DONE, upload.error
    contents = PoolDesign.objects.get(pk=design.pk).datasets.get(name="tank/data").contents
    assert contents["logical_bytes"] == 10**12  # kept: zdb describes blocks, not this dataset's files
    assert contents["compressibility"] == {"ratio": 1.56, "measured_by": "zdb"}
    assert sum(n for _, n in contents["block_size_histogram"]) == pytest.approx(118000, rel=0.01)


def test_an_unreadable_listing_fails_naming_the_line_and_can_be_retried(client, erin, design,
                                                                         django_capture_on_commit_callbacks):
    client.force_login(erin)
    _post(client, django_capture_on_commit_callbacks, design,
          {"dataset": "tank/data", "format": "sizes", "text": "10\n20\nthirty\n"})
    upload = HistogramUpload.objects.get()
    assert upload.status == HistogramStatus.FAILED and upload.error_line == 3
    assert "line 3: sizes: 'thirty' is not a size" in upload.error
    assert PoolDesign.objects.get(pk=design.pk).revision == 1
    # the stored bytes are read again (after a parser update, say): the same answer, one more attempt
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(f"/histograms/{upload.pk}/retry/", HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and b"histogram-row" in r.content
    upload.refresh_from_db()
    assert upload.status == HistogramStatus.FAILED and upload.attempts == 2
    assert "line 3: sizes: 'thirty' is not a size" in upload.error


def test_the_status_row_stops_polling_when_done(client, erin, design, django_capture_on_commit_callbacks):
    client.force_login(erin)
    _post(client, django_capture_on_commit_callbacks, design, {"dataset": "tank/data", "format": "sizes",
                                                               "text": "1\n2\n"})
    upload = HistogramUpload.objects.get()
    r = client.get(f"/histograms/{upload.pk}/status/", HTTP_HX_REQUEST="true")
    assert r.status_code == 286 and b"Done" in r.content
    HistogramUpload.objects.filter(pk=upload.pk).update(status=HistogramStatus.PARSING, progress=40)
    r = client.get(f"/histograms/{upload.pk}/status/", HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and b'hx-trigger="every 2s"' in r.content and b'value="40"' in r.content


def test_a_dataset_removed_meanwhile_fails_with_a_message(erin, design):
    upload = services.store_histogram(design=design, dataset="tank/data", user=erin, file=b"1\n2\n", name="x")
    doc = design.to_document()
    doc["datasets"] = []
    from zfsplanner.plans.services import save_design_document

    save_design_document(design.team, doc, erin, instance=design)
    assert bucket_histogram_task(upload.pk) == "bucketed"
    upload.refresh_from_db()
    assert upload.status == HistogramStatus.FAILED
    assert "no longer has a dataset named 'tank/data'" in upload.error
    assert upload.result["file_count"] == 2  # the bucketing itself is kept


def test_a_claimed_upload_is_not_bucketed_twice(erin, design):
    upload = services.store_histogram(design=design, dataset="tank/data", user=erin, file=b"1\n", name="x")
    assert lifecycle.claim(FILE_LISTINGS, upload.pk, "task-a")
    assert bucket_histogram_task.apply(args=[upload.pk], task_id="task-b").get() == "skipped"
    assert bucket_histogram_task.apply(args=[upload.pk], task_id="task-a").get() == "bucketed"


def test_viewers_and_outsiders_cannot_upload(client, bob, charlie, design):
    client.force_login(bob)
    r = client.post(f"/designs/{design.pk}/histograms/upload/", {"dataset": "tank/data", "text": "1\n"})
    assert r.status_code == 403
    client.force_login(charlie)
    assert client.post(f"/designs/{design.pk}/histograms/upload/",
                       {"dataset": "tank/data", "text": "1\n"}).status_code == 404
    assert client.get(f"/designs/{design.pk}/histograms/").status_code == 404
    assert HistogramUpload.objects.count() == 0


def test_an_unknown_dataset_is_refused_at_the_field(client, erin, design):
    client.force_login(erin)
    r = client.post(f"/designs/{design.pk}/histograms/upload/", {"dataset": "tank/other", "text": "1\n"})
    assert r.status_code == 422 and b"Select a valid choice" in r.content


def test_a_listing_over_the_limit_is_refused(client, erin, design, settings):
    settings.IMPORT_UPLOAD_MAX_BYTES = 100
    client.force_login(erin)
    f = SimpleUploadedFile("big.txt", b"1\n" * 200)
    r = client.post(f"/designs/{design.pk}/histograms/upload/", {"dataset": "tank/data", "file": f})
    assert r.status_code == 413 and b"IMPORT_UPLOAD_MAX_BYTES" in r.content
    assert HistogramUpload.objects.count() == 0
