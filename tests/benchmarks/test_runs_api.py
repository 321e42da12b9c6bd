"""Runs through the API: several ``file`` parts, delete, limits, partial and failed logs, filters, overlays."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.models import NOTES_MAX_LENGTH, BenchResult, BenchRun, BenchUpload, UploadStatus
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_BW_LOG, FIO_JSON
from tests.conftest import SAMPLES

URL = "/api/benchmark-uploads/"
FIO_ENOSPC = SAMPLES / "fio_json" / "generated_fio-3.33_dev-full-enospc_with-stderr.json"
FIO_ONE_FAILED = SAMPLES / "fio_json" / "generated_fio-3.33_one-job-enospc_with-stderr.json"


def _file(path, data=None, name=None):
    return SimpleUploadedFile(name or path.name, data if data is not None else path.read_bytes())


def _upload(client, capture, files, **fields):
    with capture(execute=True):
        return client.post(URL, {"team": "alpha", **fields, **files}, format="multipart")


@pytest.mark.django_db
def test_every_file_part_of_one_request_is_stored(client_for, alice, django_capture_on_commit_callbacks):
    """Three parts named "file" and one named "files": four uploads (not only the last "file")."""
    files = {"file": [_file(CDM_WD), _file(CDM_CRUCIAL), _file(FIO_JSON)], "files": [_file(FIO_BW_LOG)]}
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, files, label="batch")
    assert r.status_code == 201, r.content
    names = sorted(u["original_name"] for u in r.json()["uploads"])
    assert names == sorted(p.name for p in (CDM_WD, CDM_CRUCIAL, FIO_JSON, FIO_BW_LOG))
    assert BenchRun.objects.filter(label="batch").count() == 4


@pytest.mark.django_db
def test_an_empty_file_part_is_refused_by_position(client_for, alice, django_capture_on_commit_callbacks):
    files = {"file": [_file(CDM_WD), _file(CDM_WD, data=b"", name="empty.txt")]}
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, files)
    assert r.status_code == 400 and "file" in r.json()
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_a_run_is_deleted_with_its_upload_and_stored_bytes(
    client_for, alice, erin, bob, charlie, django_capture_on_commit_callbacks
):
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD)]})
    run_id = r.json()["uploads"][0]["run"]
    upload = BenchUpload.objects.get(run__pk=run_id)
    storage, name = upload.file.storage, upload.file.name
    assert storage.exists(name)
    url = f"/api/benchmarks/{run_id}/"
    assert client_for(bob).delete(url).status_code == 403  # a viewer reads only
    assert client_for(charlie).delete(url).status_code == 404  # an outsider does not even see it
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(erin).delete(url).status_code == 204
    assert not BenchRun.objects.filter(pk=run_id).exists()
    assert not BenchUpload.objects.filter(pk=upload.pk).exists()
    assert not BenchResult.objects.filter(run_id=run_id).exists()
    assert not storage.exists(name)
    assert client_for(erin).get(url).status_code == 404


@pytest.mark.django_db
def test_a_run_being_parsed_is_not_deleted(client_for, alice, django_capture_on_commit_callbacks):
    from django.utils import timezone

    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD)]})
    run_id = r.json()["uploads"][0]["run"]
    BenchUpload.objects.filter(run__pk=run_id).update(status=UploadStatus.PARSING, started=timezone.now())
    r = client_for(alice).delete(f"/api/benchmarks/{run_id}/")
    assert r.status_code == 409 and "being parsed right now" in r.json()["detail"]
    assert BenchRun.objects.filter(pk=run_id).exists()


@pytest.mark.django_db
def test_notes_and_labels_have_length_limits(client_for, alice, django_capture_on_commit_callbacks):
    too_long = "x" * (NOTES_MAX_LENGTH + 1)
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD)]}, notes=too_long)
    assert r.status_code == 400 and "notes" in r.json()
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD)]}, label="l" * 201)
    assert r.status_code == 400 and "label" in r.json()
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD)]})
    run_id = r.json()["uploads"][0]["run"]
    r = client_for(alice).patch(f"/api/benchmarks/{run_id}/", {"notes": too_long}, format="json")
    assert r.status_code == 400 and "5000" in str(r.json()["notes"])


@pytest.mark.django_db
def test_a_cut_off_log_is_stored_as_partial_with_what_is_missing(client_for, alice, django_capture_on_commit_callbacks):
    data = CDM_WD.read_bytes()
    cut = data[: data.index(b"[Write]")]
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(CDM_WD, cut, "cut.txt")]})
    item = client_for(alice).get(f"{URL}{r.json()['uploads'][0]['id']}/").json()
    assert item["status"] == "partial"
    run = client_for(alice).get(f"/api/benchmarks/{item['run']}/").json()
    assert run["status"] == "partial"
    assert run["warnings"] == ["there is no [Write] block: the file ends after the [Read] results"]
    assert run["result"]["warnings"] == run["warnings"]
    assert len(run["result"]["results"]) == 4


@pytest.mark.django_db
def test_a_fio_job_that_failed_fails_the_upload_in_words(client_for, alice, django_capture_on_commit_callbacks):
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(FIO_ENOSPC)]})
    item = client_for(alice).get(f"{URL}{r.json()['uploads'][0]['id']}/").json()
    assert item["status"] == "failed"
    assert "fio job 'full-write' ended with error 28 (ENOSPC: No space left on device)" in item["error"]
    r = _upload(client_for(alice), django_capture_on_commit_callbacks, {"file": [_file(FIO_ONE_FAILED)]})
    run = client_for(alice).get(f"/api/benchmarks/{r.json()['uploads'][0]['run']}/").json()
    assert run["status"] == "partial"
    assert run["warnings"] == [
        "fio job 'full-device' ended with error 28 (ENOSPC: No space left on device); it measured nothing"
    ]


@pytest.mark.django_db
def test_the_run_list_filters_by_settings(client_for, alice, django_capture_on_commit_callbacks):
    client = client_for(alice)
    ids = {}
    for path, settings in (
        (CDM_WD, '{"sync": "always", "zil": "slog", "slog_device": "Optane SSD", "recordsize_bytes": "16K"}'),
        (CDM_CRUCIAL, '{"sync": "disabled", "zil": "disabled"}'),
    ):
        r = _upload(client, django_capture_on_commit_callbacks, {"file": [_file(path)]}, settings=settings)
        ids[path.name] = r.json()["uploads"][0]["run"]

    def listed(query):
        return [x["id"] for x in client.get(f"/api/benchmarks/?{query}").json()["results"]]

    assert listed("zil=slog") == [ids[CDM_WD.name]]
    assert listed("sync=disabled") == [ids[CDM_CRUCIAL.name]]
    assert listed("slog_device=optane") == [ids[CDM_WD.name]]
    assert listed("recordsize=16K") == listed("recordsize=16384") == [ids[CDM_WD.name]]
    assert sorted(listed("parsed=true")) == sorted(ids.values())
    r = client.get("/api/benchmarks/?recordsize=huge")
    assert r.status_code == 400 and "recordsize" in r.json()
    r = client.get("/api/benchmarks/?zil=ssd")
    assert r.status_code == 400 and "zil" in r.json()


@pytest.mark.django_db
def test_time_series_of_several_runs_overlay_on_one_chart(
    client_for, alice, charlie, django_capture_on_commit_callbacks
):
    client = client_for(alice)
    ids = []
    for label in ("pool A", "pool B"):
        data = FIO_BW_LOG.read_bytes() + (b"\n" if label == "pool B" else b"")  # two different uploads
        r = _upload(client, django_capture_on_commit_callbacks, {"file": [_file(FIO_BW_LOG, data)]}, label=label)
        ids.append(r.json()["uploads"][0]["run"])
    chart = client.get(f"/api/benchmarks/series/?runs={ids[0]},{ids[1]}&max_points=40").json()
    assert chart["metric"] == "bandwidth" and chart["x_unit"] == "s"
    assert [d["label"].split(" · ")[0] for d in chart["datasets"]] == ["pool A", "pool B"]
    assert all(len(d["data"]) <= 40 for d in chart["datasets"])
    csv_text = client.get(f"/api/benchmarks/series.csv?runs={ids[0]},{ids[1]}").content.decode()
    assert csv_text.startswith("series,x (s),y (bytes_per_s)\n")
    assert client.get(f"/api/benchmarks/series/?runs={ids[0]}&metric=iops").status_code == 400
    assert client_for(charlie).get(f"/api/benchmarks/series/?runs={ids[0]}").status_code == 404
