"""Run pages: delete, failed and partial logs in words, readable metadata, compare filters and legends."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from benchmarks.models import NOTES_MAX_LENGTH, BenchRun, BenchUpload, UploadStatus
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD
from tests.conftest import SAMPLES
from tests.factories import BenchRunFactory

FIO_ENOSPC = SAMPLES / "fio_json" / "generated_fio-3.33_dev-full-enospc_with-stderr.json"
DD_DE = SAMPLES / "dd" / "generated_gnu-dd-9.1_de_DE.log"


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _run(team, path=CDM_WD, label="WD Blue", data=None, **fields):
    run = BenchRunFactory(
        upload__team=team,
        upload__data=data if data is not None else path.read_bytes(),
        upload__original_name=path.name,
        label=label,
        **fields,
    )
    parse_upload_task(run.upload.pk)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_deleting_a_run_from_its_page(team, alice, erin, bob, charlie, django_capture_on_commit_callbacks):
    run = _run(team)
    url = f"/benchmarks/{run.pk}/delete/"
    assert "Delete…" in _client(erin).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "Delete…" not in _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert _client(bob).get(url).status_code == 403
    assert _client(bob).post(url).status_code == 403
    assert _client(charlie).post(url).status_code == 404
    page = _client(erin).get(url).content.decode()
    assert "Delete WD Blue?" in page and "8 results" in page and CDM_WD.name in page
    name = run.upload.file.name
    storage = run.upload.file.storage
    with django_capture_on_commit_callbacks(execute=True):
        r = _client(erin).post(url, follow=True)
    assert r.redirect_chain[-1][0] == "/benchmarks/"
    assert "Deleted WD Blue with its uploaded file." in r.content.decode()
    assert not BenchRun.objects.filter(pk=run.pk).exists() and not storage.exists(name)


@pytest.mark.django_db
def test_a_run_being_parsed_is_kept_with_a_message(team, alice):
    run = _run(team)
    BenchUpload.objects.filter(pk=run.upload.pk).update(status=UploadStatus.PARSING, started=timezone.now())
    r = _client(alice).post(f"/benchmarks/{run.pk}/delete/", follow=True)
    assert "is being parsed right now" in r.content.decode()
    assert BenchRun.objects.filter(pk=run.pk).exists()


@pytest.mark.django_db
def test_a_failed_fio_job_is_shown_as_failed_in_words(team, bob):
    run = _run(team, FIO_ENOSPC, "fio to /dev/full")
    assert run.upload.status == UploadStatus.FAILED
    page = _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "The log could not be read" in page
    assert "Read as fio-json, stopped at $.jobs[0].error: no job measured anything" in page
    assert "fio job &#x27;full-write&#x27; ended with error 28 (ENOSPC: No space left on device)" in page
    assert "Done" not in page


@pytest.mark.django_db
def test_a_partial_log_says_what_is_missing(team, bob):
    data = CDM_WD.read_bytes()
    run = _run(team, data=data[: data.index(b"[Write]")])
    page = _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "Partly read" in page and "Read in part" in page
    assert "there is no [Write] block: the file ends after the [Read] results" in page
    listing = _client(bob).get("/benchmarks/").content.decode()
    assert 'data-status="partial"' in listing and "there is no [Write] block" in listing


@pytest.mark.django_db
def test_metadata_is_shown_in_words_not_as_python_lists(team, bob):
    run = _run(team, DD_DE, "dd auf Deutsch")
    # what an older parser stored for a failed fio job
    BenchRun.objects.filter(pk=run.pk).update(
        meta={**run.meta, "errors": [{"job": "1m", "error": 22}], "messages": ["fio: first", "fio: second"]}
    )
    page = _client(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "[{" not in page and "&#x27;job&#x27;" not in page
    assert "job &#x27;1m&#x27;: error 22 (EINVAL: Invalid argument)" in page
    assert "<li>fio: first</li><li>fio: second</li>" in page
    assert "<li>dd if=/dev/zero of=/tmp/gen/dd/testfile bs=1M count=32 conv=fdatasync</li>" in page


@pytest.mark.django_db
def test_notes_longer_than_the_limit_are_refused_on_the_page(team, erin):
    run = _run(team)
    r = _client(erin).post(
        f"/benchmarks/{run.pk}/edit/", {"label": "x", "notes": "n" * (NOTES_MAX_LENGTH + 1)}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 422
    assert f"at most {NOTES_MAX_LENGTH} characters" in r.content.decode()


@pytest.mark.django_db
def test_compare_filters_by_zil_and_keeps_chosen_runs(team, bob):
    ssd = _run(team, CDM_WD, "RAID-Z 3+1 over iSCSI", settings={"zil": "slog", "slog_device": "SSD"})
    off = _run(team, CDM_CRUCIAL, "RAID-Z 3+1 over iSCSI", settings={"zil": "disabled"})
    page = _client(bob).get("/benchmarks/compare/?zil=slog").content.decode()
    assert f'id="pick-{ssd.pk}"' in page and f'id="pick-{off.pk}"' not in page
    # a chosen run stays listed, ticked, whatever the filter says
    page = _client(bob).get(f"/benchmarks/compare/?zil=slog&runs={off.pk}").content.decode()
    assert f'id="pick-{off.pk}" checked' in page
    assert "No parsed run matches" in _client(bob).get("/benchmarks/compare/?sync=always").content.decode()
    bad = _client(bob).get("/benchmarks/compare/?recordsize=huge").content.decode()
    assert "is not a size such as 128K" in bad


@pytest.mark.django_db
def test_compare_legend_names_the_settings_the_runs_differ_in(team, bob, client_for):
    ssd = _run(team, CDM_WD, "RAID-Z 3+1 over iSCSI", settings={"sync": "always", "zil": "slog", "slog_device": "SSD"})
    hdd = _run(
        team,
        CDM_WD,
        "RAID-Z 3+1 over iSCSI",
        data=CDM_WD.read_bytes() + b"\n",
        settings={"sync": "always", "zil": "slog", "slog_device": "HDD"},
    )
    off = _run(team, CDM_CRUCIAL, "RAID-Z 3+1 over iSCSI", settings={"sync": "always", "zil": "disabled"})
    chart = client_for(bob).get(f"/api/benchmarks/charts/?runs={ssd.pk},{hdd.pk},{off.pk}&metric=bandwidth").json()
    assert [d["label"] for d in chart["datasets"]] == [
        "RAID-Z 3+1 over iSCSI · SLOG: SSD ⚠",
        "RAID-Z 3+1 over iSCSI · SLOG: HDD ⚠",
        "RAID-Z 3+1 over iSCSI · ZIL disabled ⚠",
    ]
    # runs with other settings are not repeats of each other: each is a single run; one had the ZIL off
    assert [d.get("validity") for d in chart["datasets"]] == [
        ["single-run"],
        ["single-run"],
        ["safety-off", "single-run"],
    ]


@pytest.mark.django_db
def test_the_upload_form_offers_per_file_fields_and_sends_nothing_by_itself(team, alice):
    page = _client(alice).get("/benchmarks/").content.decode()
    assert '<template id="file-row-template">' in page
    for field in ("label", "target_kind", "target", "design", "catalog_disk", "sync", "zil", "slog_device"):
        assert f'data-field="{field}"' in page
    assert "Nothing is sent yet" in page
    assert "benchmarks/upload.js" in page
