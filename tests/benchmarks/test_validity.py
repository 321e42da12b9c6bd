"""Validity warnings of runs from real logs (sources: tests/parsers/samples/SOURCES.md): each warning
on a log with the condition, and none for that code on the same log (or its twin) without it."""

from __future__ import annotations

import pytest

from benchmarks.tasks import parse_upload_task
from benchmarks.validity import run_validity
from tests.conftest import SAMPLES
from tests.factories import BenchRunFactory, PoolDesignFactory, design_document

GIB = 1024**3
DD_SESSION = SAMPLES / "dd" / "generated_gnu-dd-9.1_C.log"  # dd 9.1: if=/dev/zero … conv=fdatasync, read back
CDM = SAMPLES / "crystaldiskmark"
CDM_0FILL = CDM / "modified_cdm-8.0.2-x64_0Fill_Crucial-P2.txt"  # "All 0x00": Mode: [Admin] <0Fill>
CDM_RANDOM = CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt"  # the same run with random data
FIO = SAMPLES / "fio_json"
FIO_ZEROS = FIO / "generated_fio-3.33_zero-buffers_buffered-write.json"  # zero_buffers=1, no direct/fsync, 0.04 s
FIO_SHRINKS = FIO / "generated_fio-3.33_compressible-dedupable_write.json"  # buffer_compress 75 %, dedupe 30 %
FIO_GOOD = FIO / "generated_fio-3.33_direct-fsync-12s.json"  # direct=1, end_fsync=1, 12 s, ~3000 I/Os, 16 MiB


def _run(team, path, data=None, **fields):
    run = BenchRunFactory(
        upload__team=team, upload__data=data or path.read_bytes(), upload__original_name=path.name, **fields
    )
    parse_upload_task(run.upload.pk)
    run.refresh_from_db()
    return run


def _design(team, version="2.3", ram=64 * GIB):
    return PoolDesignFactory(
        team=team, document=design_document("tank", openzfs_version=version, host={"ram_bytes": ram})
    )


def codes(run):
    return list(run_validity(run).codes)


@pytest.mark.django_db
def test_dd_zeros_onto_a_compressing_dataset(team):
    run = _run(team, DD_SESSION, design=_design(team), target_kind="pool", target="tank/data")
    assert "zero-data-compressed" in codes(run)  # tank/data has compression=lz4
    [f] = [f for f in run_validity(run).findings if f.code == "zero-data-compressed"]
    assert f.detail.startswith("dd if=/dev/zero: the data is all zeros and the dataset's compression is lz4.")


@pytest.mark.django_db
def test_dd_zeros_with_compression_off_are_not_flagged(team):
    run = _run(team, DD_SESSION, design=_design(team), target="tank/data", settings={"compression": "off"})
    assert "zero-data-compressed" not in codes(run)


@pytest.mark.django_db
def test_a_crystaldiskmark_0fill_run_is_flagged_and_its_random_twin_is_not(team):
    assert "zero-data-compressed" in codes(_run(team, CDM_0FILL))
    assert "zero-data-compressed" not in codes(_run(team, CDM_RANDOM))


@pytest.mark.django_db
def test_fio_zero_buffers(team):
    assert "zero-data-compressed" in codes(_run(team, FIO_ZEROS, settings={"compression": "zstd"}))
    assert "zero-data-compressed" not in codes(_run(team, FIO_GOOD, settings={"compression": "zstd"}))


@pytest.mark.django_db
def test_compressible_fio_data(team):
    assert "compressible-data" in codes(_run(team, FIO_SHRINKS, settings={"compression": "lz4"}))
    assert "compressible-data" not in codes(_run(team, FIO_GOOD, settings={"compression": "lz4"}))


@pytest.mark.django_db
def test_a_test_file_smaller_than_ram_and_direct_io_before_2_3(team):
    """16 MiB read with direct=1: on 2.2 direct is ignored and the file sits in the ARC; on 2.3 not."""
    old = _run(team, FIO_GOOD, design=_design(team, "2.2"))
    assert {"file-fits-in-cache", "direct-io-ignored"} <= set(codes(old))
    new = _run(team, FIO_GOOD, data=FIO_GOOD.read_bytes() + b"\n", design=_design(team, "2.3"))
    assert not {"file-fits-in-cache", "direct-io-ignored"} & set(codes(new))


@pytest.mark.django_db
def test_a_crystaldiskmark_file_of_1_gib_fits_in_64_gib_of_ram_but_not_in_512_mib(team):
    assert "file-fits-in-cache" in codes(_run(team, CDM_RANDOM, design=_design(team, ram=64 * GIB)))
    twin = CDM_RANDOM.read_bytes() + b"\r\n"
    assert "file-fits-in-cache" not in codes(_run(team, CDM_RANDOM, data=twin, design=_design(team, ram=GIB // 2)))


@pytest.mark.django_db
def test_buffered_and_too_short(team):
    assert {"buffered-writes", "too-short"} <= set(codes(_run(team, FIO_ZEROS)))
    assert not {"buffered-writes", "too-short"} & set(codes(_run(team, FIO_GOOD)))


@pytest.mark.django_db
def test_safety_off(team):
    assert "safety-off" in codes(_run(team, CDM_RANDOM, settings={"sync": "disabled"}))
    nocacheflush = {"tunables": {"zfs_nocacheflush": "1"}}
    assert "safety-off" in codes(_run(team, CDM_RANDOM, data=CDM_RANDOM.read_bytes() + b"\n", settings=nocacheflush))
    assert "safety-off" not in codes(_run(team, CDM_RANDOM, data=CDM_RANDOM.read_bytes() + b"\n\n"))


@pytest.mark.django_db
def test_a_single_run_and_its_repeat(team):
    one = _run(team, FIO_GOOD, target="tank/data")
    assert codes(one) == ["single-run"]
    again = _run(team, FIO_GOOD, data=FIO_GOOD.read_bytes() + b"\n", target="tank/data")
    assert codes(one) == codes(again) == []
    # the same job set on another target is not a repeat
    assert codes(_run(team, FIO_GOOD, data=FIO_GOOD.read_bytes() + b"\n\n", target="tank/other")) == ["single-run"]


@pytest.mark.django_db
def test_the_api_gives_validity_as_code_title_detail(team, alice, client_for):
    run = _run(team, FIO_ZEROS)
    body = client_for(alice).get(f"/api/benchmarks/{run.pk}/").json()
    assert [v["code"] for v in body["validity"]] == [
        "zero-data-compressed",
        "buffered-writes",
        "too-short",
        "single-run",
    ]
    assert all(set(v) == {"code", "title", "detail"} for v in body["validity"])
    assert "How to measure properly:" in body["validity"][0]["detail"]
    assert body["warnings"] == [] and body["validity_check"] is None


@pytest.mark.django_db
def test_a_person_marks_the_warnings_checked_with_a_reason(team, alice, bob, client_for):
    run = _run(team, FIO_ZEROS)
    url = f"/api/benchmarks/{run.pk}/validity-check/"
    assert client_for(bob).post(url, {"reason": "fine"}, format="json").status_code == 403  # a viewer
    assert client_for(alice).post(url, {"reason": " "}, format="json").status_code == 400
    r = client_for(alice).post(url, {"reason": "a test of the zero check, on purpose"}, format="json")
    assert r.status_code == 200
    assert r.json()["validity_check"]["by"] == "alice"
    assert r.json()["validity_check"]["reason"] == "a test of the zero check, on purpose"
    assert len(r.json()["validity"]) == 4  # the warnings stay listed
    chart = client_for(alice).get(f"/api/benchmarks/charts/?runs={run.pk}&metric=bandwidth").json()
    assert "validity" not in chart["datasets"][0]  # a checked run is no longer marked
    assert client_for(alice).delete(url).json()["validity_check"] is None
    chart = client_for(alice).get(f"/api/benchmarks/charts/?runs={run.pk}&metric=bandwidth").json()
    assert chart["datasets"][0]["validity"] == ["zero-data-compressed", "buffered-writes", "too-short", "single-run"]


@pytest.mark.django_db
def test_the_run_page_shows_the_warnings_and_the_check_form(team, alice, web):
    run = _run(team, FIO_ZEROS)
    page = web(alice).get(f"/benchmarks/{run.pk}/").content.decode()
    assert 'id="run-validity"' in page and 'data-code="zero-data-compressed"' in page
    assert "To measure properly:" in page and 'id="validity-check-form"' in page
    r = web(alice).post(f"/benchmarks/{run.pk}/validity-check/", {"reason": "zeros on purpose"})
    assert r.status_code == 302
    page = web(alice).get(f"/benchmarks/{run.pk}/").content.decode()
    assert "Checked by alice" in page and "zeros on purpose" in page


@pytest.mark.django_db
def test_a_viewer_cannot_mark_a_run_checked_on_the_page(team, bob, web):
    run = _run(team, FIO_ZEROS)
    assert 'id="validity-check-form"' not in web(bob).get(f"/benchmarks/{run.pk}/").content.decode()
    assert web(bob).post(f"/benchmarks/{run.pk}/validity-check/", {"reason": "x"}).status_code == 403
    run.refresh_from_db()
    assert not run.validity_checked


@pytest.mark.django_db
def test_the_compare_page_names_the_warned_runs(team, alice, web):
    zeros = _run(team, FIO_ZEROS)
    page = web(alice).get(f"/benchmarks/compare/?runs={zeros.pk}").content.decode()
    assert 'id="warned-runs"' in page
    assert "zero-data-compressed, buffered-writes, too-short, single-run" in page
