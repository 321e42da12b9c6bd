"""RAIDZ expansion (OpenZFS 2.3+): SIZE grows, the deflate ratio stays the original width's.

Worked example (reference §7.3): 4 x 4 TB RAIDZ1, ashift 12, Linux whole disks: AVAIL 10.44 TiB;
expanded to 5 disks SIZE is 18.19 TiB and AVAIL 13.09 TiB at ratio 372; a fresh 5-wide vdev
(ratio 409) shows 14.40 TiB.
"""

from __future__ import annotations

from typing import Any

import pytest

from zfsplanner.core.capacity.expansion import expansion_report
from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.alloc import raidz_asize
from zfsplanner.core.units import TIB

TB4 = 4_000_787_030_016


def raidz1(width: int, **kw: Any) -> Any:
    vdev: dict[str, Any] = {
        "role": "data",
        "layout": "raidz1",
        "width": width,
        "ashift": 12,
        "disk": {"size_bytes": TB4},
    }
    vdev.update(kw)
    return parse_design({"name": "tank", "vdevs": [vdev]})


def test_the_reference_4_to_5_wide_example():
    before = pool_capacity(raidz1(4))
    assert before.zfs_avail_bytes / TIB == pytest.approx(10.44, abs=0.005)
    after = pool_capacity(raidz1(5, expanded_from_width=4))
    assert after.zpool_size_bytes / TIB == pytest.approx(18.19, abs=0.005)
    assert after.vdevs[0].deflate_ratio == 372
    assert after.zfs_avail_bytes / TIB == pytest.approx(13.09, abs=0.005)
    fresh = pool_capacity(raidz1(5))
    assert fresh.vdevs[0].deflate_ratio == 409
    assert fresh.zfs_avail_bytes / TIB == pytest.approx(14.40, abs=0.005)


def test_new_metaslabs_keep_the_original_size():
    # 3 x 100 GiB raidz1 has 2 GiB metaslabs; a fresh 6-wide vdev would get 4 GiB ones
    disk = {"size_bytes": 100 * 2**30}
    base = {"role": "data", "layout": "raidz1", "ashift": 12, "disk": disk}
    doc = {"name": "tank", "disk_partitioning": "none"}
    original = pool_capacity(parse_design({**doc, "vdevs": [{**base, "width": 3}]})).vdevs[0]
    grown = pool_capacity(parse_design({**doc, "vdevs": [{**base, "width": 6, "expanded_from_width": 3}]})).vdevs[0]
    fresh = pool_capacity(parse_design({**doc, "vdevs": [{**base, "width": 6}]})).vdevs[0]
    assert grown.ms_shift == original.ms_shift == 31
    assert fresh.ms_shift == 32
    assert grown.ms_count == grown.asize >> 31
    assert grown.zpool_size_bytes == grown.ms_count << 31
    assert grown.original_width == 3 and fresh.original_width is None
    assert any("expanded from 3 to 6" in n for n in grown.notes)


def test_the_embedded_log_appears_when_expansion_passes_64_metaslabs():
    disk = {"size_bytes": 10 * 2**30}
    base = {"role": "data", "layout": "raidz2", "ashift": 12, "disk": disk}
    doc = {"name": "tank", "disk_partitioning": "none"}
    small = pool_capacity(parse_design({**doc, "vdevs": [{**base, "width": 3}]})).vdevs[0]
    grown = pool_capacity(parse_design({**doc, "vdevs": [{**base, "width": 8, "expanded_from_width": 3}]})).vdevs[0]
    assert small.ms_count <= 64 and not small.embedded_log
    assert grown.ms_count > 64 and grown.embedded_log


def test_expansion_report_compares_old_and_fresh_layouts():
    design = raidz1(5, expanded_from_width=4, logical_bytes_written_before=4 * 10**12)
    report = expansion_report(design, 0)
    assert (report.original_width, report.new_width, report.parity) == (4, 5, 1)
    assert report.size_before_bytes == pool_capacity(raidz1(4)).zpool_size_bytes
    assert report.size_after_bytes == pool_capacity(design).zpool_size_bytes
    assert report.avail_before_bytes == pool_capacity(raidz1(4)).zfs_avail_bytes
    assert report.fresh_avail_bytes == pool_capacity(raidz1(5)).zfs_avail_bytes
    assert (report.deflate_ratio_original, report.deflate_ratio_fresh) == (372, 409)
    records = -(-4 * 10**12 // 131072)
    assert report.old_allocated_bytes == records * raidz_asize(131072, 4, 1, 12) == records * 176 * 1024
    assert report.old_allocated_if_fresh_bytes == records * 160 * 1024
    assert report.lost_to_old_ratio_bytes == records * 16 * 1024
    # old blocks are charged at the original ratio: 176 KiB raw -> 352 sectors x 372
    assert report.avail_after_with_old_data_bytes == report.avail_after_bytes - records * 352 * 372
    assert report.fresh_avail_with_old_data_bytes == report.fresh_avail_bytes - records * 320 * 409
    assert (
        report.avail_shortfall_bytes == report.fresh_avail_with_old_data_bytes - report.avail_after_with_old_data_bytes
    )
    assert report.avail_shortfall_bytes > report.fresh_avail_bytes - report.avail_after_bytes > 0


def test_no_old_data_means_no_loss_from_old_blocks():
    report = expansion_report(raidz1(6, expanded_from_width=4), 0)
    assert report.old_logical_bytes == report.old_allocated_bytes == report.lost_to_old_ratio_bytes == 0
    assert report.avail_after_with_old_data_bytes == report.avail_after_bytes
    assert report.avail_shortfall_bytes == report.fresh_avail_bytes - report.avail_after_bytes > 0


def test_the_recordsize_of_the_old_data_matters():
    design = raidz1(5, expanded_from_width=4, logical_bytes_written_before=10**12)
    small = expansion_report(design, 0, recordsize=16 * 1024)
    large = expansion_report(design, 0, recordsize=1024 * 1024)
    assert small.old_allocated_bytes > large.old_allocated_bytes


def test_it_refuses_a_group_that_was_not_expanded():
    with pytest.raises(InvalidDesign) as exc:
        expansion_report(raidz1(5), 0)
    assert exc.value.errors[0][0] == "vdevs[0].expanded_from_width"
    with pytest.raises(InvalidDesign):
        expansion_report(raidz1(5, expanded_from_width=4), 3)


def test_expansion_needs_openzfs_2_3():
    doc = {
        "name": "tank",
        "openzfs_version": "2.2",
        "vdevs": [
            {"role": "data", "layout": "raidz1", "width": 5, "expanded_from_width": 4, "disk": {"size_bytes": TB4}}
        ],
    }
    with pytest.raises(InvalidDesign) as exc:
        pool_capacity(parse_design(doc))
    assert exc.value.errors[0][0] == "vdevs[0].expanded_from_width"
    assert "2.3" in exc.value.errors[0][1]
