"""Where the estimate's planning figures come from: the catalog, disk benchmarks of a model, the
design; and the estimate endpoints and command carrying the new sections."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from benchmarks.measurements import run_figures
from benchmarks.models import TargetKind
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD
from tests.factories import BenchRunFactory, PoolDesignFactory, design_document
from zfsplanner.plans.models import CatalogDisk
from zfsplanner.plans.services import estimate_design
from zfsplanner.plans.services.disk_inputs import design_inputs

pytestmark = pytest.mark.django_db
MODEL = "ST14000NM001G"  # seeded by the catalog migration
SECTIONS = ("special", "reliability", "performance", "sizing")


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _parsed_run(team, path, **fields):
    run = BenchRunFactory(upload__team=team, upload__data=path.read_bytes(), upload__original_name=path.name, **fields)
    assert parse_upload_task(run.upload.pk) == "parsed"
    run.refresh_from_db()
    return run


def test_the_api_estimate_uses_the_catalog_figures_of_the_model(alice, client_for):
    CatalogDisk.objects.filter(model=MODEL).update(
        afr=0.031, afr_source="vendor RMA data 2025", seq_write_bytes_per_s=200_000_000
    )
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": {"catalog": MODEL}}]}
    e = client_for(alice).post("/api/estimate/", doc, format="json").json()
    assert set(SECTIONS) <= set(e)
    r = e["reliability"]["assumptions"]
    assert r["afr"] == {MODEL: 0.031} and r["afr_source"] == {MODEL: "vendor RMA data 2025"}
    assert r["rebuild_bytes_per_s"] == {"vdevs[0]": 150_000_000}
    assert r["rebuild_source"]["vdevs[0]"].endswith("(catalog + media default (hdd, 7200 rpm))")
    disk = e["performance"]["assumptions"]["disk"][MODEL]
    assert disk["seq_write_bytes_per_s"] == 200_000_000 and disk["source"] == "catalog + media default (hdd, 7200 rpm)"


def test_a_disk_benchmark_of_the_model_replaces_catalog_figures_and_says_which_run(team, alice, client_for):
    design = PoolDesignFactory(team=team)
    disk = CatalogDisk.objects.get(model=MODEL)
    run = _parsed_run(team, CDM_WD, catalog_disk=disk, target_kind=TargetKind.DISK)
    e = client_for(alice).get(f"/api/designs/{design.pk}/estimate/").json()
    figures = e["performance"]["assumptions"]["disk"][MODEL]
    assert figures["source"].startswith(f"benchmark:{run.pk}")
    assert figures["seq_read_bytes_per_s"] == 531_458_000  # SEQ1M Q8T1 read of that log
    assert figures["random_read_iops"] == pytest.approx(65_772.9)  # RND4K Q32T1
    assert figures["random_read_iops_qd1"] == pytest.approx(10_101.3)  # RND4K Q1T1
    assert f"benchmark:{run.pk}" in e["reliability"]["assumptions"]["rebuild_source"]["vdevs[0]"]


def test_runs_attached_to_the_design_come_before_the_teams_newest(team):
    design = PoolDesignFactory(team=team)
    disk = CatalogDisk.objects.get(model=MODEL)
    attached = _parsed_run(team, CDM_WD, catalog_disk=disk, target_kind=TargetKind.DISK, design=design)
    _parsed_run(team, CDM_CRUCIAL, catalog_disk=disk, target_kind=TargetKind.DISK)  # newer, not attached
    figures = design_inputs(design).drives[MODEL].figures
    assert figures.source.startswith(f"benchmark:{attached.pk}")
    assert figures.seq_read_bytes_per_s == 531_458_000


def test_other_teams_runs_and_pool_runs_are_not_disk_figures(team, other_team):
    design = PoolDesignFactory(team=team)
    disk = CatalogDisk.objects.get(model=MODEL)
    _parsed_run(other_team, CDM_WD, catalog_disk=disk, target_kind=TargetKind.DISK)
    _parsed_run(team, CDM_CRUCIAL, catalog_disk=disk, target_kind=TargetKind.POOL)
    drive = design_inputs(design).drives.get(MODEL)
    assert drive is None or "benchmark" not in drive.figures.source


def test_the_cached_estimate_follows_a_catalog_change(team):
    design = PoolDesignFactory(team=team)
    before = {a.drive: a.afr for a in estimate_design(design).reliability.assumptions.afr}
    disk = CatalogDisk.objects.get(model=MODEL)
    disk.afr = 0.05
    disk.save()  # as the admin saves it
    after = {a.drive: a.afr for a in estimate_design(design).reliability.assumptions.afr}
    assert before[MODEL] == 0.0157 and after[MODEL] == 0.05


def test_run_figures_take_depth_one_and_the_deepest_queue():
    results = [
        {"op": "read", "pattern": "random", "block_size_bytes": 4096, "queue_depth": 1, "threads": 1, "iops": 100.0},
        {"op": "read", "pattern": "random", "block_size_bytes": 4096, "queue_depth": 32, "threads": 16, "iops": 900.0},
        {"op": "read", "pattern": "random", "block_size_bytes": 4096, "queue_depth": 8, "threads": 1, "iops": 2000.0},
        {"op": "write", "pattern": "sequential", "block_size_bytes": 1 << 20, "queue_depth": 8, "threads": 1,
         "bandwidth_bytes_per_s": 5e8},
        {"op": "write", "pattern": "sequential", "block_size_bytes": 4096, "bandwidth_bytes_per_s": 9e9},
        {"op": "rewrite", "pattern": None, "block_size_bytes": 8192, "bandwidth_bytes_per_s": 1.0},
    ]
    f = run_figures(7, results)
    assert f.random_read_iops_qd1 == 100 and f.random_read_iops == 900
    assert f.seq_write_bytes_per_s == 5e8 and f.seq_read_bytes_per_s is None
    assert f.source == "benchmark:7"
    assert run_figures(8, []).source == ""


def test_manage_py_estimate_prints_the_planning_sections(tmp_path, capsys):
    path = tmp_path / "d.json"
    doc = design_document("tank")
    doc["datasets"][0]["contents"] = {"file_count": 1000, "logical_bytes": 10**10, "files_per_directory": 100}
    path.write_text(json.dumps(doc))
    call_command("estimate", str(path))
    e = json.loads(capsys.readouterr().out)
    assert set(SECTIONS) <= set(e)
    assert e["datasets"][0]["special_small_blocks_curve"][0]["special_small_blocks"] == 0
    assert e["pool"]["special_recommended_bytes"] > 0
