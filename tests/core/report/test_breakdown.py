"""Where the raw capacity goes: every part in the category of what ZFS does with it, and the parts
add up to the disks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.draid import draid_child_asize
from zfsplanner.core.report import markdown
from zfsplanner.core.report.breakdown import Category, capacity_breakdown
from zfsplanner.core.units import TIB

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "designs"
HDD16 = {"size_bytes": "16TB", "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "hdd"}


def est(*vdevs: dict[str, Any], **top: Any) -> Any:
    return estimate(parse_design({"name": "tank", "ashift": 12, "vdevs": list(vdevs), **top}))


def group(role: str, layout: str, width: int, disk: dict[str, Any] = HDD16, **kw: Any) -> dict[str, Any]:
    return {"role": role, "layout": layout, "width": width, "disk": disk, **kw}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_the_parts_add_up_to_the_raw_disks(path):
    e = estimate(parse_design(json.loads(path.read_text())))
    b = capacity_breakdown(e)
    assert sum(p.bytes for p in b.parts) == e.pool.raw_bytes
    assert b.fraction(Category.METADATA) < 0.01  # partitions, labels, rounding: a sliver, never a copy


def test_a_6_way_mirror_puts_its_five_extra_copies_under_redundancy():
    e = est(group("data", "mirror", 6))
    b = capacity_breakdown(e)
    (copies,) = [p for p in b.parts if p.category == Category.REDUNDANCY]
    assert copies.bytes == 5 * e.vdevs[0].zpool_size_bytes
    assert copies.label == "Mirror copies: the data vdev (group 1: 6-way mirror)"
    assert copies.bytes / TIB > 72  # the 72.76 TiB that was shown as rounding
    assert b.total(Category.METADATA) < 0.001 * b.raw_bytes


def test_the_special_mirror_copies_are_its_own_redundancy_part():
    e = estimate(parse_design(json.loads((GOLDEN / "raidz2-8x16-reference.json").read_text())))
    parts = {p.key: p for p in capacity_breakdown(e).parts}
    special = next(v for v in e.vdevs if v.role == "special")
    assert parts["redundancy-2"].bytes == special.zpool_size_bytes  # a 2-way mirror: one extra copy
    assert parts["redundancy-2"].label == "Mirror copies: the special mirror (group 2)"
    data = e.vdevs[0]
    # RAIDZ: SIZE less its deflated space (vdev_deflated_space)
    assert parts["redundancy-1"].bytes == data.zpool_size_bytes - (data.zpool_size_bytes >> 9) * data.deflate_ratio
    assert parts["log"].bytes == 2 * 16 * 10**9  # log devices: their whole disks
    assert parts["layout"].bytes < 0.001 * e.pool.raw_bytes


def test_a_stripe_has_no_redundancy_part():
    b = capacity_breakdown(est(group("data", "stripe", 1, count=4)))
    assert b.total(Category.REDUNDANCY) == 0


def test_draid_distributed_spares_count_as_redundancy():
    e = est(group("data", "draid2", 24, draid_data=8, draid_spares=2))
    b = capacity_breakdown(e)
    v = e.vdevs[0]
    spares = 2 * draid_child_asize(v.leaf_asize_bytes)
    parity = v.zpool_size_bytes - (v.zpool_size_bytes >> 9) * v.deflate_ratio
    assert b.total(Category.REDUNDANCY) == parity + spares
    assert "distributed spares" in b.parts[[p.category for p in b.parts].index(Category.REDUNDANCY)].label
    assert sum(p.bytes for p in b.parts) == e.pool.raw_bytes


def test_the_report_has_the_breakdown_in_the_same_categories():
    design = parse_design(json.loads((GOLDEN / "raidz2-8x16-reference.json").read_text()))
    md = markdown(design, estimate(design))
    section = md.split("## Where the raw capacity goes")[1].split("\n## ")[0]
    assert "| Redundancy | Mirror copies: the special mirror (group 2) |" in section
    assert "| Pool metadata | Partitions, labels, rounding |" in section
    assert "| Free | Free |" in section
