"""The catalog's data migrations: the disks people buy now are seeded, with their sources."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.design.types import FORMAT
from zfsplanner.core.document.parse import parse_design
from zfsplanner.plans.models import CatalogDisk

pytestmark = pytest.mark.django_db
CURRENT = import_module("zfsplanner.plans.migrations.0009_catalog_current_disks")
BEFORE = ("plans", "0008_design_variant_of")


def test_current_hdds_of_20_to_24_tb_are_in_the_catalog():
    hdds = CatalogDisk.objects.filter(media="hdd", capacity_bytes__gte=20 * 10**12)
    models = set(hdds.values_list("model", flat=True))
    assert {"ST20000NM007D", "ST24000NM002H", "WUH722020ALE6L4", "WUH722222ALE6L4", "WUH722424ALE6L4",
            "MG10ACA20TE", "MG11ACA24TE"} <= models
    for disk in hdds:
        assert disk.sector_format == "512e" and disk.rpm == 7200 and not disk.plp


def test_every_20_tb_disk_has_the_size_the_drives_report():
    """39,063,650,304 LBAs of 512 B on every vendor (smartctl -i of each model)."""
    sizes = set(CatalogDisk.objects.filter(name__contains="20TB").values_list("capacity_bytes", flat=True))
    assert sizes == {39_063_650_304 * 512}


def test_ssds_for_special_and_log_vdevs_have_power_loss_protection_and_speeds():
    for model in ("SSDSC2KB960G8", "MZ7L31T9HBLT", "MTFDDAK960TGA"):
        disk = CatalogDisk.objects.get(model=model)
        assert disk.media == "ssd" and disk.plp
        assert 500 * 10**6 <= disk.seq_write_bytes_per_s <= disk.seq_read_bytes_per_s <= 600 * 10**6
    assert CatalogDisk.objects.get(model="MZ7L3960HCJR").seq_read_bytes_per_s == 550 * 10**6  # filled in


def test_every_added_disk_cites_its_source_and_has_no_unsourced_price():
    for row in CURRENT.DISKS:
        disk = CatalogDisk.objects.get(model=row["model"])
        assert disk.datasheet_url.startswith("https://") and "LBAs" in disk.notes
        assert disk.price is None and disk.price_source == "" and disk.afr is None
        if disk.seq_read_bytes_per_s is not None:
            assert "Speed" in disk.notes  # a speed names the data sheet it comes from


def test_a_catalog_disk_builds_a_pool():
    disk = CatalogDisk.objects.get(model="WUH722020ALE6L4").to_disk_document()
    design = parse_design({"format": FORMAT, "name": "tank", "openzfs_version": "2.3",
                           "vdevs": [{"role": "data", "layout": "raidz2", "width": 12, "count": 2, "disk": disk}]})
    pool = pool_capacity(design)
    assert pool.raw_bytes == 24 * 20_000_588_955_648


@pytest.mark.django_db(transaction=True)
def test_the_migration_reverses_and_reapplies():
    # A transactional test starts from whatever the one before it left (an emptied database after
    # another transactional test): the catalog the earlier migrations seed comes first.
    for row in import_module("zfsplanner.plans.migrations.0002_seed_catalog").DISKS:
        CatalogDisk.objects.get_or_create(model=row["model"], defaults={k: v for k, v in row.items() if k != "model"})
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    assert not CatalogDisk.objects.filter(model="ST20000NM007D").exists()
    # the columns of that state only (later migrations add columns the model has now)
    speeds = CatalogDisk.objects.filter(model="MZ7L3960HCJR").values_list("seq_read_bytes_per_s", flat=True)
    assert speeds.get() is None
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app back to its latest migration
    assert CatalogDisk.objects.filter(model__in=[d["model"] for d in CURRENT.DISKS]).count() == len(CURRENT.DISKS)
