"""REST API: /api/pool-imports/ and /api/histogram-uploads/."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.core.import_samples import text
from zfsplanner.imports.models import HistogramStatus, HistogramUpload, PoolImport
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db


def test_a_paste_gives_the_design_and_the_comparison(client_for, erin, pool_outputs):
    r = client_for(erin).post("/api/pool-imports/", {"text": pool_outputs}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["document"]["name"] == "tank" and body["url"] == f"/imports/pool/{body['id']}/"
    size = next(row for row in body["comparison"] if row["key"] == "size")
    assert size["reported_bytes"] == 96954591739904 and size["difference_bytes"] == 0
    assert any("snapshots" in n for n in body["notes"])
    assert client_for(erin).get(f"/api/pool-imports/{body['id']}/").json()["document"] == body["document"]


def test_named_sources_and_uploaded_files(client_for, erin):
    c = client_for(erin)
    sources = [{"name": "status.txt", "text": text("freebsd-2.2-raidz1-gptid.txt")}]
    r = c.post("/api/pool-imports/", {"sources": sources}, format="json")
    assert r.status_code == 201
    f = SimpleUploadedFile("a.txt", text("calibration-2.3.2-2x-raidz2-6-files.txt").encode())
    r = c.post("/api/pool-imports/", {"files": [f]}, format="multipart")
    assert r.status_code == 201 and r.json()["document"]["vdevs"][0]["count"] == 2


def test_an_unreadable_output_is_a_400_naming_the_line(client_for, erin):
    bad = "$ zpool list -p\nNAME SIZE ALLOC\ntank 12x 3\n"
    r = client_for(erin).post("/api/pool-imports/", {"sources": [{"name": "list.txt", "text": bad}]}, format="json")
    assert r.status_code == 400
    record = PoolImport.objects.get()  # the outputs are kept, with the reason
    assert r.json() == {"detail": "list.txt: line 3: zpool list: SIZE '12x' is not a size", "line": 3,
                        "source": "list.txt", "format": "zpool list", "id": record.pk,
                        "url": f"/imports/pool/{record.pk}/"}
    assert record.status == "failed" and record.sources == [{"name": "list.txt", "text": bad}]
    assert record.error_line == 3 and record.error_source == "list.txt" and record.document == {}


def test_nothing_given_is_a_400(client_for, erin):
    r = client_for(erin).post("/api/pool-imports/", {}, format="json")
    assert r.status_code == 400 and "text" in r.json()


def test_save_creates_the_design(client_for, erin, team, pool_outputs):
    c = client_for(erin)
    pid = c.post("/api/pool-imports/", {"text": pool_outputs}, format="json").json()["id"]
    r = c.post(f"/api/pool-imports/{pid}/save/", {"team": team.pk}, format="json")
    assert r.status_code == 201
    design = PoolDesign.objects.get(pk=r.json()["design"])
    assert design.name == "tank" and design.team == team


def test_save_needs_write_access_and_a_valid_name(client_for, bob, erin, team, pool_outputs):
    pid = client_for(bob).post("/api/pool-imports/", {"text": pool_outputs}, format="json").json()["id"]
    assert client_for(bob).post(f"/api/pool-imports/{pid}/save/", {"team": team.pk}, format="json").status_code == 403
    assert client_for(erin).post(f"/api/pool-imports/{pid}/save/", {"team": team.pk}).status_code == 404
    pid = client_for(erin).post("/api/pool-imports/", {"text": pool_outputs}, format="json").json()["id"]
    r = client_for(erin).post(f"/api/pool-imports/{pid}/save/", {"team": team.pk, "name": "cache"}, format="json")
    assert r.status_code == 400 and "reserved" in str(r.json())


def test_previews_are_private(client_for, erin, alice, pool_outputs):
    pid = client_for(erin).post("/api/pool-imports/", {"text": pool_outputs}, format="json").json()["id"]
    assert client_for(alice).get(f"/api/pool-imports/{pid}/").status_code == 404
    assert client_for(alice).get("/api/pool-imports/").json()["count"] == 0


def test_a_listing_is_stored_bucketed_and_applied(client_for, erin, design, django_capture_on_commit_callbacks):
    f = SimpleUploadedFile("sizes.txt", b"".join(b"%d\n" % (i * 1000) for i in range(1, 501)))
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(erin).post("/api/histogram-uploads/",
                                  {"design": design.pk, "dataset": "tank/data", "format": "sizes", "file": f},
                                  format="multipart")
    assert r.status_code == 202, r.content
    upload_id = r.json()["id"]
    body = client_for(erin).get(r.json()["status_url"]).json()
    assert body["status"] == "done" and body["result"]["file_count"] == 500 and body["applied_revision"] == 2
    assert body["result"]["logical_bytes"] == sum(i * 1000 for i in range(1, 501))
    listed = client_for(erin).get(f"/api/histogram-uploads/?design={design.pk}").json()
    assert [u["id"] for u in listed["results"]] == [upload_id]


def test_a_pasted_listing_by_json(client_for, erin, design, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(erin).post("/api/histogram-uploads/",
                                  {"design": design.pk, "dataset": "tank/data", "text": "4096,10\n131072,3\n"},
                                  format="json")
    assert r.status_code == 202
    upload = HistogramUpload.objects.get()
    assert upload.detected_format == "csv" and upload.result["file_size_histogram"] == [[4096, 10], [131072, 3]]


def test_retry_answers_409_while_bucketing(client_for, erin, design, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(erin).post("/api/histogram-uploads/",
                                  {"design": design.pk, "dataset": "tank/data", "text": "1\nx\n"}, format="json")
    uid = r.json()["id"]
    assert HistogramUpload.objects.get(pk=uid).status == HistogramStatus.FAILED
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(erin).post(f"/api/histogram-uploads/{uid}/retry/").status_code == 202
    HistogramUpload.objects.filter(pk=uid).update(status=HistogramStatus.PARSING)
    assert client_for(erin).post(f"/api/histogram-uploads/{uid}/retry/").status_code == 409


def test_histogram_access(client_for, bob, charlie, design):
    data = {"design": design.pk, "dataset": "tank/data", "text": "1\n"}
    assert client_for(bob).post("/api/histogram-uploads/", data, format="json").status_code == 403
    r = client_for(charlie).post("/api/histogram-uploads/", data, format="json")
    assert r.status_code == 400 and "design" in r.json()
    r = client_for(bob).post("/api/histogram-uploads/", {**data, "dataset": "tank/x"}, format="json")
    assert r.status_code == 403
    assert HistogramUpload.objects.count() == 0


def test_an_unknown_dataset_is_a_400(client_for, erin, design):
    r = client_for(erin).post("/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/x", "text": "1\n"},
                              format="json")
    assert r.status_code == 400 and "no dataset named 'tank/x'" in r.json()["dataset"][0]
