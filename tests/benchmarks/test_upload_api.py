"""POST /api/benchmark-uploads/: store first, parse in a task, report statuses."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from benchmarks.models import BenchResult, BenchRun, BenchUpload, UploadStatus
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_JSON
from zfsplanner.accounts.tokens import issue_token

URL = "/api/benchmark-uploads/"


def _file(path, name=None):
    return SimpleUploadedFile(name or path.name, path.read_bytes(), content_type="text/plain")


def _post(client, capture, data):
    with capture(execute=True):
        return client.post(URL, data, format="multipart")


@pytest.mark.django_db
def test_it_stores_the_bytes_and_parses_one_file(client_for, alice, team, django_capture_on_commit_callbacks):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "files": [_file(CDM_WD)]})
    assert r.status_code == 201, r.content
    [item] = r.json()["uploads"]
    assert item["duplicate"] is False
    upload = BenchUpload.objects.get(pk=item["id"])
    assert upload.status == UploadStatus.DONE
    assert upload.progress == 100
    assert upload.detected_format == "crystaldiskmark"
    assert upload.sha256 == hashlib.sha256(CDM_WD.read_bytes()).hexdigest()
    with upload.file.open("rb") as fh:
        assert fh.read() == CDM_WD.read_bytes()
    assert upload.uploaded_by == alice and upload.team == team
    assert upload.run.results.count() == 8


@pytest.mark.django_db
def test_it_accepts_many_files_in_one_request(client_for, alice, team, django_capture_on_commit_callbacks):
    files = [_file(CDM_WD), _file(CDM_CRUCIAL), _file(FIO_JSON)]
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "files": files})
    assert r.status_code == 201
    ids = [u["id"] for u in r.json()["uploads"]]
    assert len(ids) == 3
    assert set(BenchUpload.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"done"}
    assert BenchRun.objects.get(upload_id=ids[2]).tool == "fio"


@pytest.mark.django_db
def test_it_keeps_run_metadata_from_the_upload(client_for, alice, django_capture_on_commit_callbacks):
    settings = {
        "sync": "always",
        "recordsize_bytes": "16K",
        "zil": "slog",
        "slog_device": "SSD",
        "tunables": {"zfs_nocacheflush": 1},
    }
    data = {
        "team": "alpha",
        "file": _file(CDM_WD),
        "label": "RAID-Z 3+1 iSCSI, ZIL on SSD",
        "target_kind": "iscsi_lun",
        "target": "tank/lun0",
        "settings": json.dumps(settings),
    }
    r = _post(client_for(alice), django_capture_on_commit_callbacks, data)
    assert r.status_code == 201, r.content
    run = BenchRun.objects.get(upload_id=r.json()["uploads"][0]["id"])
    assert run.label == "RAID-Z 3+1 iSCSI, ZIL on SSD"
    assert run.target_kind == "iscsi_lun"
    assert run.settings == {
        "sync": "always",
        "recordsize_bytes": 16384,
        "zil": "slog",
        "slog_device": "SSD",
        "tunables": {"zfs_nocacheflush": "1"},
    }


@pytest.mark.django_db
def test_it_rejects_bad_settings_and_stores_nothing(client_for, alice, django_capture_on_commit_callbacks):
    data = {"team": "alpha", "file": _file(CDM_WD), "settings": json.dumps({"recordsize_bytes": "100K"})}
    r = _post(client_for(alice), django_capture_on_commit_callbacks, data)
    assert r.status_code == 400
    assert "recordsize_bytes" in json.dumps(r.json())
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_it_refuses_a_viewer(client_for, bob, django_capture_on_commit_callbacks):
    r = _post(client_for(bob), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    assert r.status_code == 400
    assert "may not upload" in r.json()["team"][0]
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_it_refuses_an_outsiders_team(client_for, charlie, team, django_capture_on_commit_callbacks):
    r = _post(client_for(charlie), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    assert r.status_code == 400
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_it_requires_a_file(client_for, alice):
    r = client_for(alice).post(URL, {"team": "alpha"}, format="multipart")
    assert r.status_code == 400
    assert "files" in r.json()


@pytest.mark.django_db
def test_it_works_with_a_token(api_client, alice, django_capture_on_commit_callbacks):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(alice, 'tests', None)[1]}")
    r = _post(api_client, django_capture_on_commit_callbacks, {"file": _file(CDM_WD)})  # alice writes to one team
    assert r.status_code == 201
    status = api_client.get(r.json()["uploads"][0]["status_url"]).json()
    assert status["status"] == "done"


@pytest.mark.django_db
def test_a_failed_parse_keeps_the_file_and_the_message(client_for, alice, django_capture_on_commit_callbacks):
    bad = SimpleUploadedFile("notes.txt", b"these are my notes, not a benchmark\n")
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": bad})
    assert r.status_code == 201
    upload = BenchUpload.objects.get(pk=r.json()["uploads"][0]["id"])
    assert upload.status == UploadStatus.FAILED
    assert "not a recognised benchmark log" in upload.error
    assert upload.file.read() == b"these are my notes, not a benchmark\n"
    body = client_for(alice).get(f"{URL}{upload.pk}/").json()
    assert body["status"] == "failed" and "not a recognised" in body["error"]


@pytest.mark.django_db
def test_retry_reparses_the_stored_bytes(client_for, alice, django_capture_on_commit_callbacks):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    upload = BenchUpload.objects.get(pk=r.json()["uploads"][0]["id"])
    # Pretend an older parser failed on it; the bytes are still stored.
    BenchUpload.objects.filter(pk=upload.pk).update(status=UploadStatus.FAILED, error="old parser bug")
    BenchResult.objects.filter(run__upload=upload).delete()
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(f"{URL}{upload.pk}/retry/")
    assert r.status_code == 202
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.error == ""
    assert upload.attempts == 2
    assert upload.run.results.count() == 8


@pytest.mark.django_db
def test_retry_queues_a_pending_upload_again(client_for, alice, django_capture_on_commit_callbacks):
    r = client_for(alice).post(
        URL, {"team": "alpha", "file": _file(CDM_WD)}, format="multipart"
    )  # not committed: its message was never sent, it stays pending
    upload_id = r.json()["uploads"][0]["id"]
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(f"{URL}{upload_id}/retry/")
    assert r.status_code == 202
    assert BenchUpload.objects.get(pk=upload_id).status == UploadStatus.DONE


@pytest.mark.django_db
def test_retry_refuses_an_upload_being_parsed(client_for, alice, django_capture_on_commit_callbacks):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    upload_id = r.json()["uploads"][0]["id"]
    BenchUpload.objects.filter(pk=upload_id).update(status=UploadStatus.PARSING, task_id="t-1", started=timezone.now())
    r = client_for(alice).post(f"{URL}{upload_id}/retry/")
    assert r.status_code == 409
    assert "being parsed right now" in r.json()["detail"]
    assert BenchUpload.objects.get(pk=upload_id).task_id == "t-1"


@pytest.mark.django_db
def test_a_viewer_cannot_retry_and_an_outsider_cannot_see(
    client_for, alice, bob, charlie, django_capture_on_commit_callbacks
):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    upload_id = r.json()["uploads"][0]["id"]
    assert client_for(bob).get(f"{URL}{upload_id}/").status_code == 200
    assert client_for(bob).post(f"{URL}{upload_id}/retry/").status_code == 403
    assert client_for(charlie).get(f"{URL}{upload_id}/").status_code == 404
    assert client_for(charlie).post(f"{URL}{upload_id}/retry/").status_code == 404


@pytest.mark.django_db
def test_the_run_api_returns_the_normalized_document(
    client_for, alice, bob, charlie, django_capture_on_commit_callbacks
):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    run_id = r.json()["uploads"][0]["run"]
    body = client_for(bob).get(f"/api/benchmarks/{run_id}/").json()
    doc = body["result"]
    assert doc["format"] == "zfsplanner.benchmark/1"
    assert doc["source"]["tool"] == "crystaldiskmark" and doc["source"]["tool_version"] == "8.0.1"
    assert doc["source"]["sha256"] == hashlib.sha256(CDM_WD.read_bytes()).hexdigest()
    first = doc["results"][0]
    assert first["name"] == "SEQ1M Q8T1 read"
    assert first["bandwidth_bytes_per_s"] == pytest.approx(531.458e6)
    assert client_for(charlie).get(f"/api/benchmarks/{run_id}/").status_code == 404
    listed = client_for(charlie).get("/api/benchmarks/").json()
    assert listed["count"] == 0


@pytest.mark.django_db
def test_run_metadata_can_be_updated_by_an_editor_only(
    client_for, alice, erin, bob, django_capture_on_commit_callbacks
):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    run_id = r.json()["uploads"][0]["run"]
    url = f"/api/benchmarks/{run_id}/"
    r = client_for(erin).patch(
        url, {"label": "ZIL disabled", "settings": {"sync": "disabled", "zil": "disabled"}}, format="json"
    )
    assert r.status_code == 200, r.content
    assert BenchRun.objects.get(pk=run_id).settings == {"sync": "disabled", "zil": "disabled"}
    assert client_for(bob).patch(url, {"label": "x"}, format="json").status_code == 403
    r = client_for(erin).patch(url, {"settings": {"colour": "blue"}}, format="json")
    assert r.status_code == 400 and "colour" in json.dumps(r.json())


@pytest.mark.django_db
def test_the_run_list_filters_by_ids_and_rejects_non_numbers(client_for, alice, django_capture_on_commit_callbacks):
    r = _post(client_for(alice), django_capture_on_commit_callbacks, {"team": "alpha", "file": _file(CDM_WD)})
    run_id = r.json()["uploads"][0]["run"]
    client = client_for(alice)
    assert [x["id"] for x in client.get(f"/api/benchmarks/?ids={run_id},{run_id + 1}").json()["results"]] == [run_id]
    response = client.get("/api/benchmarks/?ids=['null', 'null']")
    assert response.status_code == 400
    assert "ids" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/benchmark-uploads/", "/api/benchmarks/", "/api/designs/", "/api/teams/"])
def test_list_pages_past_the_database_range_are_a_400_or_capped(client_for, alice, url):
    client = client_for(alice)
    capped = client.get(f"{url}?limit={10**40}")
    assert capped.status_code == 200
    assert capped.json()["count"] >= 0
    response = client.get(f"{url}?offset={10**40}")
    assert response.status_code == 400
    assert "offset" in response.json()
