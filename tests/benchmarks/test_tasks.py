"""parse_upload_task: claim, parse, write rows; idempotent on retries and redelivery."""

from __future__ import annotations

import pytest

from benchmarks import services
from benchmarks.models import BENCHMARK_LOGS, BenchResult, BenchSeries, BenchUpload, UploadStatus
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_WD, FIO_BW_LOG
from tests.factories import BenchRunFactory
from zfsplanner.uploads import lifecycle


def _run_for(team, path):
    return BenchRunFactory(upload__team=team, upload__data=path.read_bytes(), upload__original_name=path.name)


def _rows(run):
    return list(BenchResult.objects.filter(run=run).order_by("index").values_list("pk", "index", "name", "iops"))


@pytest.mark.django_db
def test_it_parses_a_pending_upload(team):
    run = _run_for(team, CDM_WD)
    assert parse_upload_task(run.upload.pk) == "parsed"
    run.upload.refresh_from_db()
    run.refresh_from_db()
    assert run.upload.status == UploadStatus.DONE
    assert run.upload.attempts == 1
    assert run.tool == "crystaldiskmark" and run.tool_version == "8.0.1"
    assert run.meta["comment"] == "WD Blue 3D 1TB"
    names = [r[2] for r in _rows(run)]
    assert names[0] == "SEQ1M Q8T1 read" and len(names) == 8


@pytest.mark.django_db
def test_a_second_run_gives_the_same_rows(team):
    run = _run_for(team, CDM_WD)
    parse_upload_task(run.upload.pk)
    first = _rows(run)
    assert lifecycle.retry(BENCHMARK_LOGS, run.upload)  # back to pending (on_commit not run: no enqueue here)
    assert parse_upload_task(run.upload.pk) == "parsed"
    assert _rows(run) == first  # same primary keys, same values
    run.upload.refresh_from_db()
    assert run.upload.attempts == 2


@pytest.mark.django_db
def test_it_does_nothing_for_a_finished_upload(team):
    run = _run_for(team, CDM_WD)
    parse_upload_task(run.upload.pk)
    assert parse_upload_task(run.upload.pk) == "skipped"
    run.upload.refresh_from_db()
    assert run.upload.attempts == 1


@pytest.mark.django_db
def test_another_task_cannot_take_an_upload_being_parsed(team):
    run = _run_for(team, CDM_WD)
    BenchUpload.objects.filter(pk=run.upload.pk).update(status=UploadStatus.PARSING, task_id="task-a")
    assert parse_upload_task.apply(args=[run.upload.pk], task_id="task-b").get() == "skipped"
    assert BenchResult.objects.filter(run=run).count() == 0


@pytest.mark.django_db
def test_a_redelivered_task_finishes_its_own_claim(team):
    run = _run_for(team, CDM_WD)
    BenchUpload.objects.filter(pk=run.upload.pk).update(status=UploadStatus.PARSING, task_id="task-a")
    assert parse_upload_task.apply(args=[run.upload.pk], task_id="task-a").get() == "parsed"
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.DONE


@pytest.mark.django_db
def test_a_missing_upload_is_logged_and_skipped():
    assert parse_upload_task(987654) == "skipped"


@pytest.mark.django_db
def test_a_parse_error_fails_with_the_parsers_message_and_no_retry(team):
    data = CDM_WD.read_bytes().replace(b"531.458 MB/s", b"abc MB/s")
    run = BenchRunFactory(upload__team=team, upload__data=data)
    assert parse_upload_task(run.upload.pk) == "parsed"
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.FAILED
    assert run.upload.error.startswith("read as crystaldiskmark, stopped at line 9: unreadable result row")
    assert run.upload.detected_format == "crystaldiskmark"
    assert run.upload.attempts == 1
    assert BenchResult.objects.filter(run=run).count() == 0


@pytest.mark.django_db
def test_an_unknown_format_fails_with_a_clear_message(team):
    run = BenchRunFactory(upload__team=team, upload__data=b"hello\nworld\n")
    parse_upload_task(run.upload.pk)
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.FAILED
    assert run.upload.error.startswith("recognised no benchmark format: not a recognised benchmark log")
    assert run.upload.detected_format == "unknown"
    assert run.upload.attempts == 1


@pytest.mark.django_db
def test_a_missing_stored_file_fails_clearly(team):
    run = _run_for(team, CDM_WD)
    run.upload.file.storage.delete(run.upload.file.name)
    parse_upload_task(run.upload.pk)
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.FAILED
    assert "missing" in run.upload.error


@pytest.mark.django_db
def test_fio_logs_become_series_with_the_full_count(team):
    run = _run_for(team, FIO_BW_LOG)
    parse_upload_task(run.upload.pk)
    [series] = BenchSeries.objects.filter(run=run)
    assert series.metric == "bandwidth" and series.unit == "bytes_per_s"
    assert series.point_count == 299 == len(series.points)
    run.refresh_from_db()
    assert run.result["series"][0]["point_count"] == 299
    assert "points" not in run.result["series"][0]


@pytest.mark.django_db
def test_large_series_are_stored_downsampled(team):
    lines = "".join(f"{t}, {1000 + (t % 7)}, 0, 4096\n" for t in range(0, 12000 * 500, 500))
    run = BenchRunFactory(upload__team=team, upload__data=lines.encode(), upload__original_name="big_bw.1.log")
    parse_upload_task(run.upload.pk)
    run.upload.refresh_from_db()
    assert run.upload.status == UploadStatus.DONE, run.upload.error
    series = BenchSeries.objects.get(run=run)
    assert series.point_count == 12000
    assert len(series.points) <= services.SERIES_STORED_POINTS
