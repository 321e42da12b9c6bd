"""save_design_document parses a document once and writes the rows and the revision from that Design."""

import json
from pathlib import Path

import pytest
from django.db import IntegrityError

from tests.factories import CatalogDiskFactory, design_document
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.estimate import estimate
from zfsplanner.plans.models import DatasetPlan, DesignRevision, PoolDesign, VdevGroup
from zfsplanner.plans.services import designs as design_service
from zfsplanner.plans.services import save_design_document, validate_document

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DESIGNS = sorted(
    [
        *(ROOT / "examples").glob("*.json"),
        *(ROOT / "tests/plans/designs").glob("*.json"),
        *(ROOT / "tests/core/golden/designs").glob("*.json"),
    ]
)


def test_the_designs_are_found():
    assert len(DESIGNS) >= 25


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_revision_document_is_what_the_rows_give_back(team, alice, path):
    doc = json.loads(path.read_text())
    saved = save_design_document(team, doc, alice)
    loaded = PoolDesign.objects.get(pk=saved.pk)
    revision = DesignRevision.objects.get(design=saved, number=1)
    assert revision.document == loaded.document_view()
    assert saved.document_view() == revision.document
    assert saved.to_spec() == loaded.to_spec()


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_saving_then_loading_gives_the_same_estimate(team, alice, path):
    doc = json.loads(path.read_text())
    before = estimate(validate_document(doc)).to_document()
    saved = save_design_document(team, doc, alice)
    assert estimate(PoolDesign.objects.get(pk=saved.pk).to_spec()).to_document() == before


def test_the_stored_document_keeps_what_the_document_says(team, alice):
    doc = json.loads((ROOT / "tests/plans/designs/mixed-mirrors-extra-keys.json").read_text())
    saved = save_design_document(team, doc, alice)
    stored = DesignRevision.objects.get(design=saved).document
    # unknown keys at every level, and a disk size as the drive label gives it
    assert stored["vdevs"][0]["disks"][1]["size_bytes"] == doc["vdevs"][0]["disks"][1]["size_bytes"] == "12TB"
    assert {k: stored[k] for k in doc if k not in ("vdevs", "datasets")} == {
        k: v for k, v in doc.items() if k not in ("vdevs", "datasets")
    }
    assert stored["vdevs"] == doc["vdevs"]
    assert stored["datasets"] == doc["datasets"]


def test_a_catalog_disk_is_stored_as_a_reference_and_written_out_in_the_revision(team, alice):
    doc = design_document(
        vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "MN08ACA14T", "rpm": 7000}}]
    )
    saved = save_design_document(team, doc, alice)
    assert saved.vdevs.get().disks == [{"catalog": "MN08ACA14T", "rpm": 7000}]
    disk = DesignRevision.objects.get(design=saved).document["vdevs"][0]["disk"]
    assert disk["size_bytes"] == 14_000_519_643_136
    assert (disk["catalog"], disk["rpm"]) == ("MN08ACA14T", 7000)


def test_a_catalog_disk_follows_its_entry(team, alice):
    entry = CatalogDiskFactory(model="EX-FOLLOW", capacity_bytes=4_000_787_030_016)
    doc = design_document(vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "EX-FOLLOW"}}])
    saved = save_design_document(team, doc, alice)
    entry.capacity_bytes = 4_000_000_000_000
    entry.save()
    assert PoolDesign.objects.get(pk=saved.pk).to_spec().vdevs[0].disks[0].size_bytes == 4_000_000_000_000


def test_null_next_to_a_catalog_reference_leaves_the_catalogs_value(team, alice):
    doc = design_document(
        vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "ST14000NM001G", "rpm": None}}]
    )
    saved = save_design_document(team, doc, alice)
    assert saved.to_spec().vdevs[0].disks[0].rpm == 7200
    assert PoolDesign.objects.get(pk=saved.pk).to_spec() == saved.to_spec()


def test_pool_features_are_kept(team, alice):
    saved = save_design_document(team, design_document(features={"fast_dedup": False}), alice)
    loaded = PoolDesign.objects.get(pk=saved.pk)
    assert loaded.to_document()["features"] == {"fast_dedup": False}
    assert loaded.to_spec().fast_dedup is False
    assert DesignRevision.objects.get(design=saved).document["features"] == {"fast_dedup": False}


def test_the_saved_release_is_written_out(team, alice):
    doc = design_document()
    del doc["openzfs_version"]
    saved = save_design_document(team, doc, alice)
    assert DesignRevision.objects.get(design=saved).document["openzfs_version"] == saved.to_spec().version
    assert PoolDesign.objects.get(pk=saved.pk).to_spec() == saved.to_spec()


@pytest.fixture
def parses(monkeypatch):
    """How many times the service parses a document."""
    calls = []
    real = design_service.parse_design

    def counting(doc):
        calls.append(doc)
        return real(doc)

    monkeypatch.setattr(design_service, "parse_design", counting)
    return calls


def test_a_save_parses_once_and_the_saved_design_needs_no_parse_or_query(
    team, alice, parses, monkeypatch, django_assert_num_queries
):
    saved = save_design_document(team, design_document(), alice)
    updated = save_design_document(team, design_document(datasets=[]), alice, instance=saved)
    assert len(parses) == 2

    def refuse(doc):
        raise AssertionError("parsed again")

    monkeypatch.setattr("zfsplanner.plans.models.parse_design", refuse)
    with django_assert_num_queries(0):
        assert updated.to_spec().datasets == ()
        assert updated.to_document()["datasets"] == []


def test_the_queries_of_a_save(team, alice, django_assert_num_queries):
    # savepoint, design, vdev groups, datasets, revision, release
    with django_assert_num_queries(6):
        saved = save_design_document(team, design_document(), alice)
    # + the catalog, once
    doc = design_document(vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "MN08ACA14T"}}])
    with django_assert_num_queries(7):
        save_design_document(team, doc, alice)
    # savepoint, lock, revision row exists?, 2 deletes, design, vdev groups, datasets, revision, reload, release
    with django_assert_num_queries(11):
        save_design_document(team, design_document(), alice, instance=saved)


def test_an_invalid_document_writes_no_revision(team, alice):
    saved = save_design_document(team, design_document(), alice)
    bad = design_document()
    bad["vdevs"][0]["width"] = 2
    with pytest.raises(InvalidDesign):
        save_design_document(team, bad, alice)
    with pytest.raises(InvalidDesign):
        save_design_document(team, bad, alice, instance=saved)
    assert PoolDesign.objects.count() == 1
    assert DesignRevision.objects.count() == 1


def test_a_save_that_fails_half_way_leaves_the_design_as_it_was(team, alice):
    saved = save_design_document(team, design_document(), alice)
    DesignRevision.objects.create(design=saved, number=2, document={})  # the next number is taken
    with pytest.raises(IntegrityError):
        save_design_document(team, design_document(datasets=[]), alice, instance=saved)
    loaded = PoolDesign.objects.get(pk=saved.pk)
    assert loaded.revision == 1
    assert list(DatasetPlan.objects.filter(design=saved).values_list("name", flat=True)) == ["tank/data"]
    assert VdevGroup.objects.filter(design=saved).count() == 1
    assert loaded.document_view() == DesignRevision.objects.get(design=saved, number=1).document
