"""HTML pages for owner (alice), editor (erin), viewer (bob) and outsider (charlie)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from benchmarks.models import BenchRun, BenchUpload, UploadStatus
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_BW_LOG
from tests.factories import BenchRunFactory


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _parsed(team, path=CDM_WD, label="WD Blue"):
    run = BenchRunFactory(
        upload__team=team, upload__data=path.read_bytes(), upload__original_name=path.name, label=label
    )
    parse_upload_task(run.upload.pk)
    return run


@pytest.mark.django_db
def test_the_list_shows_team_runs_to_members_only(team, alice, bob, charlie):
    _parsed(team)
    assert "WD Blue" in _client(bob).get("/benchmarks/").content.decode()
    page = _client(charlie).get("/benchmarks/").content.decode()
    assert "WD Blue" not in page and "No benchmark runs yet" in page


@pytest.mark.django_db
def test_the_upload_form_is_only_for_writers(team, alice, bob):
    assert 'id="upload-form"' in _client(alice).get("/benchmarks/").content.decode()
    assert 'id="upload-form"' not in _client(bob).get("/benchmarks/").content.decode()


@pytest.mark.django_db
def test_anonymous_users_are_sent_to_login(team):
    r = Client().get("/benchmarks/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


@pytest.mark.django_db
def test_uploading_from_the_page_returns_polling_rows(team, erin, django_capture_on_commit_callbacks):
    c = _client(erin)
    files = [
        SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes()),
        SimpleUploadedFile(CDM_CRUCIAL.name, CDM_CRUCIAL.read_bytes()),
    ]
    r = c.post(
        "/benchmarks/upload/", {"team": team.pk, "files": files, "label": "", "sync": "always"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 200
    html = r.content.decode()
    uploads = list(BenchUpload.objects.order_by("pk"))
    assert len(uploads) == 2
    for u in uploads:  # still pending (the task runs after commit): the rows poll themselves
        assert f'id="upload-{u.pk}"' in html
        assert f'hx-get="/benchmarks/uploads/{u.pk}/status/"' in html
    assert 'hx-trigger="every 2s"' in html
    assert BenchRun.objects.filter(settings={"sync": "always"}).count() == 2


@pytest.mark.django_db
def test_uploading_without_javascript_redirects_with_messages(team, alice, django_capture_on_commit_callbacks):
    c = _client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post("/benchmarks/upload/", {"team": team.pk, "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())})
    assert r.status_code == 302
    page = c.get("/benchmarks/").content.decode()
    assert "a.txt: stored (1,224 bytes), queued for parsing." in page
    assert BenchUpload.objects.get().status == UploadStatus.DONE


@pytest.mark.django_db
def test_an_invalid_upload_form_comes_back_with_422(team, alice):
    r = _client(alice).post(
        "/benchmarks/upload/",
        {"team": team.pk, "recordsize": "100K", "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 422
    assert "recordsize" in r.content.decode()
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_a_viewer_cannot_upload_from_the_page(team, bob):
    r = _client(bob).post(
        "/benchmarks/upload/", {"team": team.pk, "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())}
    )
    assert r.status_code == 403
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_the_upload_page_checks_csrf(team, alice):
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    r = c.post("/benchmarks/upload/", {"team": team.pk, "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())})
    assert r.status_code == 403
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db
def test_the_status_partial_polls_until_finished(team, bob, charlie):
    run = BenchRunFactory(upload__team=team, upload__data=CDM_WD.read_bytes())
    url = f"/benchmarks/uploads/{run.upload.pk}/status/"
    r = _client(bob).get(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'hx-trigger="every 2s"' in r.content.decode() and "Queued" in r.content.decode()
    BenchUpload.objects.filter(pk=run.upload.pk).update(status=UploadStatus.PARSING, progress=40)
    r = _client(bob).get(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'value="40"' in r.content.decode()
    parse_upload_task.apply(args=[run.upload.pk])  # a different task: may not steal the claim
    BenchUpload.objects.filter(pk=run.upload.pk).update(status=UploadStatus.PENDING)
    parse_upload_task(run.upload.pk)
    r = _client(bob).get(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 286
    assert "every 2s" not in r.content.decode() and "Done" in r.content.decode()
    assert _client(charlie).get(url).status_code == 404


@pytest.mark.django_db
def test_a_failed_upload_shows_the_message_and_can_be_retried(
    team, alice, bob, charlie, django_capture_on_commit_callbacks
):
    run = BenchRunFactory(upload__team=team, upload__data=b"not a benchmark\n")
    parse_upload_task(run.upload.pk)
    r = _client(alice).get(f"/benchmarks/uploads/{run.upload.pk}/status/", HTTP_HX_REQUEST="true")
    assert r.status_code == 286
    html = r.content.decode()
    assert "not a recognised benchmark log" in html and "Retry" in html
    assert "Retry" not in _client(bob).get(f"/benchmarks/uploads/{run.upload.pk}/status/").content.decode()
    # The "parser" is fixed: here, the stored bytes are replaced by what it can read.
    with run.upload.file.open("wb") as fh:
        fh.write(CDM_WD.read_bytes())
    assert _client(bob).post(f"/benchmarks/uploads/{run.upload.pk}/retry/").status_code == 403
    assert _client(charlie).post(f"/benchmarks/uploads/{run.upload.pk}/retry/").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        r = _client(alice).post(f"/benchmarks/uploads/{run.upload.pk}/retry/", HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.DONE and run.results.count() == 8


@pytest.mark.django_db
def test_run_detail_for_members_404_for_outsiders(team, alice, bob, charlie):
    run = _parsed(team)
    page = _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "SEQ1M Q8T1 read" in page and "531.5 MB/s" in page
    assert f'data-chart-url="/api/benchmarks/charts/?runs={run.pk}&amp;metric=bandwidth"' in page
    assert "Edit details" not in page
    assert "Edit details" in _client(alice).get(f"/benchmarks/{run.pk}/").content.decode()
    assert _client(charlie).get(f"/benchmarks/{run.pk}/").status_code == 404


@pytest.mark.django_db
def test_run_detail_shows_series_charts(team, bob):
    run = _parsed(team, FIO_BW_LOG, "bw log")
    page = _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert f'data-chart-url="/api/benchmarks/{run.pk}/series/?metric=bandwidth"' in page


@pytest.mark.django_db
def test_the_original_file_can_be_downloaded_by_members(team, bob, charlie):
    run = _parsed(team)
    r = _client(bob).get(f"/benchmarks/uploads/{run.upload.pk}/download/")
    assert r.status_code == 200 and b"".join(r.streaming_content) == CDM_WD.read_bytes()
    assert _client(charlie).get(f"/benchmarks/uploads/{run.upload.pk}/download/").status_code == 404


@pytest.mark.django_db
def test_editing_run_metadata(team, erin, bob, charlie):
    run = _parsed(team)
    url = f"/benchmarks/{run.pk}/edit/"
    assert _client(bob).get(url).status_code == 403
    assert _client(charlie).get(url).status_code == 404
    r = _client(erin).post(
        url,
        {
            "label": "RAID-Z 3+1 iSCSI, ZIL disabled",
            "target_kind": "iscsi_lun",
            "target": "tank/lun0",
            "sync": "disabled",
            "zil": "disabled",
            "volblocksize": "16K",
            "tunables": "zfs_nocacheflush=1",
        },
    )
    assert r.status_code == 302
    run.refresh_from_db()
    assert run.label == "RAID-Z 3+1 iSCSI, ZIL disabled"
    assert run.settings == {
        "sync": "disabled",
        "zil": "disabled",
        "volblocksize_bytes": 16384,
        "tunables": {"zfs_nocacheflush": "1"},
    }
    page = _client(erin).get(url).content.decode()
    assert 'value="16K"' in page and "zfs_nocacheflush=1" in page


@pytest.mark.django_db
def test_an_invalid_edit_comes_back_with_422(team, erin):
    run = _parsed(team)
    r = _client(erin).post(
        f"/benchmarks/{run.pk}/edit/", {"label": "x", "tunables": "no equals sign"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 422
    assert "is not name=value" in r.content.decode()
    run.refresh_from_db()
    assert run.label == "WD Blue"


@pytest.mark.django_db
def test_compare_page_shows_charts_for_chosen_runs(team, bob, charlie):
    a, b = _parsed(team), _parsed(team, CDM_CRUCIAL, "Crucial P2")
    page = _client(bob).get(f"/benchmarks/compare/?runs={a.pk}&runs={b.pk}").content.decode()
    for metric in ("bandwidth", "iops", "latency"):
        assert f'data-chart-url="/api/benchmarks/charts/?runs={a.pk},{b.pk}&amp;metric={metric}"' in page
    assert "metric=percentiles" not in page  # CrystalDiskMark reports no percentiles
    assert f"/api/benchmarks/charts.csv?runs={a.pk},{b.pk}&amp;metric=iops" in page
    assert _client(charlie).get(f"/benchmarks/compare/?runs={a.pk}").status_code == 404


@pytest.mark.django_db
def test_the_list_filter_returns_the_table_partial(team, bob):
    _parsed(team)
    _parsed(team, CDM_CRUCIAL, "Crucial P2")
    r = _client(bob).get("/benchmarks/?q=crucial", HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="runs-table"')
    assert "Crucial P2" in html and "WD Blue" not in html
