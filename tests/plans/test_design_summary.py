"""The design's presentation is made from the ``Design`` and its estimate, read by attribute: the
vdev lines, the disks as a person names them and the cost (no database)."""

from __future__ import annotations

from decimal import Decimal

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.plans.presentation.summary import design_cost, summarize

CATALOG_DISK = {"catalog": "ST16000NM001G", "vendor": "Seagate", "model": "ST16000NM001G",
                "size_bytes": 16_000_900_661_248, "media": "hdd"}


def design(**data_group):
    return parse_design({
        "name": "tank",
        "openzfs_version": "2.3",
        "vdevs": [
            {"role": "data", "layout": "raidz2", "width": 6, "count": 2, "disk": CATALOG_DISK, **data_group},
            {"role": "special", "layout": "mirror", "width": 3, "disk": {"size_bytes": "1.92TB", "media": "nvme"}},
            {"role": "cache", "layout": "stripe", "width": 1,
             "disks": [{"size_bytes": "960GB", "media": "ssd"}]},
        ],
    })


def test_the_vdev_lines_name_the_disks_as_the_design_gives_them():
    spec = design()
    summary = summarize(estimate(spec), spec, with_fixes=False)
    assert (summary.name, summary.version) == ("tank", "2.3")
    data, special, cache = summary.vdevs
    assert (data.role, data.shape, data.count, data.survives) == ("data", "6-wide raidz2", 2, 2)
    assert data.disk == "Seagate ST16000NM001G · 16.00 TB · HDD"
    assert special.disk == "custom disk · 1.92TB · NVMe"  # the size as the design spells it
    assert cache.disk == "1 different disks"
    assert (cache.ashift, cache.survives) == (None, None)  # a cache disk is not a top-level vdev


def test_the_catalog_price_counts_every_data_disk_and_names_the_groups_without_one():
    spec = design()
    cost = design_cost(spec, {"ST16000NM001G": Decimal("300")}, usable_bytes=10**14)
    assert (cost.total, cost.priced_disks, cost.disks) == (Decimal(3600), 12, 16)
    assert cost.per_usable_tb == Decimal(36)
    assert cost.partial
    assert cost.unpriced == ("the special mirror (group 2: 3-way mirror), 3 disks", "the cache disk (group 3), 1 disk")


def test_the_groups_own_price_comes_before_the_catalogs():
    cost = design_cost(design(price_per_disk="250"), {"ST16000NM001G": Decimal("300")}, usable_bytes=0)
    assert (cost.total, cost.per_usable_tb) == (Decimal(3000), None)


def test_no_price_at_all_gives_no_figure():
    cost = design_cost(design(), {}, usable_bytes=10**14)
    assert cost.total is None and not cost.known and not cost.partial and cost.disks == 16
