"""PoolDesign rows, for_user scoping, the catalog seed and save_design_document."""

import pytest

from tests.factories import CatalogDiskFactory, PoolDesignFactory, design_document
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.plans.models import CatalogDisk, DatasetPlan, PoolDesign, VdevGroup
from zfsplanner.plans.services import save_design_document

pytestmark = pytest.mark.django_db


def test_catalog_is_seeded_by_migration():
    exos = CatalogDisk.objects.get(model="ST14000NM001G")
    assert exos.capacity_bytes == 14_000_519_643_136
    assert (exos.logical_sector_bytes, exos.physical_sector_bytes) == (512, 4096)
    assert exos.sector_format == "512e"
    assert CatalogDisk.objects.count() >= 12
    assert CatalogDisk.objects.filter(logical_sector_bytes=4096, physical_sector_bytes=4096).exists()
    assert CatalogDisk.objects.filter(media="nvme", plp=True).exists()
    assert CatalogDisk.objects.filter(media="ssd", plp=False).exists()


def test_seeded_capacities_are_whole_sectors():
    for disk in CatalogDisk.objects.all():
        assert disk.capacity_bytes % disk.logical_sector_bytes == 0, disk.model


def test_for_user_lists_only_the_users_teams(alice, charlie, team, other_team):
    mine = PoolDesignFactory(team=team)
    PoolDesignFactory(team=other_team)
    assert list(PoolDesign.objects.for_user(alice)) == [mine]


def test_for_user_is_empty_for_anonymous(team):
    from django.contrib.auth.models import AnonymousUser

    PoolDesignFactory(team=team)
    assert PoolDesign.objects.for_user(AnonymousUser()).count() == 0


def test_save_writes_rows_in_document_order(team, alice):
    doc = design_document(
        "tank",
        vdevs=[
            design_document()["vdevs"][0],
            {"role": "log", "layout": "mirror", "width": 2, "disk": {"size_bytes": "16GB", "media": "ssd"}},
        ],
    )
    design = save_design_document(team, doc, alice)
    assert design.revision == 1
    assert design.created_by == alice
    assert [v.role for v in design.vdevs.all()] == ["data", "log"]
    assert design.vdevs.get(role="log").count == 1
    assert design.datasets.get().recordsize == 1024**2


def test_update_bumps_revision_and_replaces_children(team, alice, erin):
    design = save_design_document(team, design_document(), alice)
    doc = design_document(datasets=[])
    updated = save_design_document(team, doc, erin, instance=design)
    assert updated.pk == design.pk
    assert updated.revision == 2
    assert updated.updated_by == erin
    assert updated.datasets.count() == 0
    assert VdevGroup.objects.filter(design=design).count() == 1


def test_invalid_document_saves_nothing(team, alice):
    doc = design_document()
    doc["vdevs"][0]["width"] = 2
    with pytest.raises(InvalidDesign) as exc:
        save_design_document(team, doc, alice)
    assert exc.value.errors[0][0] == "vdevs[0].width"
    assert PoolDesign.objects.count() == 0
    assert VdevGroup.objects.count() == 0
    assert DatasetPlan.objects.count() == 0


def test_invalid_update_keeps_the_previous_revision(team, alice):
    design = save_design_document(team, design_document(), alice)
    bad = design_document(datasets=[{"name": "other/x"}])
    with pytest.raises(InvalidDesign):
        save_design_document(team, bad, alice, instance=design)
    design.refresh_from_db()
    assert design.revision == 1
    assert design.datasets.get().name == "tank/data"


def test_catalog_reference_is_linked_and_inlined(team, alice):
    doc = design_document(vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "MN08ACA14T"}}])
    design = save_design_document(team, doc, alice)
    group = design.vdevs.get()
    assert group.catalog_disk.model == "MN08ACA14T"
    assert group.disks == [{"catalog": "MN08ACA14T"}]  # stored as written
    disk = design.to_document()["vdevs"][0]["disk"]
    assert disk["size_bytes"] == 14_000_519_643_136
    assert disk["catalog"] == "MN08ACA14T"


def test_unknown_catalog_model_names_the_field(team, alice):
    doc = design_document(vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "NOPE-1"}}])
    with pytest.raises(InvalidDesign) as exc:
        save_design_document(team, doc, alice)
    assert exc.value.errors == [("vdevs[0].disk.catalog", "'NOPE-1' is not a disk in the catalog")]


def test_document_keys_override_catalog_values(team, alice):
    CatalogDiskFactory(model="EX-OVR", capacity_bytes=4_000_787_030_016)
    doc = design_document(
        vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "EX-OVR", "rpm": 5900}}]
    )
    disk = save_design_document(team, doc, alice).to_spec().vdevs[0].disks[0]
    assert disk.rpm == 5900
    assert disk.size_bytes == 4_000_787_030_016


def test_to_spec_gives_the_core_design(team):
    design = PoolDesignFactory(team=team, name="tank")
    spec = design.to_spec()
    assert isinstance(spec, Design)
    assert spec.name == "tank"
    assert spec.vdevs[0].width == 6


def test_layout_summary(team):
    design = PoolDesignFactory(team=team)
    assert design.layout_summary() == "1 × raidz2 of 6"


def test_meta_keys_inside_a_document_are_rejected(team, alice):
    with pytest.raises(InvalidDesign) as exc:
        save_design_document(team, design_document(team=3), alice)
    assert exc.value.errors[0][0] == "team"
