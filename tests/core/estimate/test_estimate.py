"""The estimate document: the spec's fields, filled from the engines, never guessed."""

import copy
import json

import pytest

from tests.core.document.test_design import SPEC_EXAMPLE
from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate, estimate_document

POOL_KEYS = ("raw_bytes", "zpool_size_bytes", "zfs_avail_bytes", "slop_bytes", "special_size_bytes",
             "allocated_bytes", "used_fraction")
VDEV_KEYS = ("role", "index", "layout", "width", "ashift", "zpool_size_bytes", "fault_tolerance", "removable")
DATASET_KEYS = ("name", "logical_bytes", "compressratio", "data_allocated_bytes", "metadata_allocated_bytes",
                "special_allocated_bytes", "normal_allocated_bytes", "zfs_used_bytes", "raidz_overhead_fraction")


def test_it_fills_every_spec_field_for_the_spec_example():
    e = estimate_document(SPEC_EXAMPLE)
    assert e["format"] == "zfsplanner.estimate/1"
    assert all(e["pool"][k] is not None for k in POOL_KEYS)
    assert all(v[k] is not None for v in e["vdevs"] for k in VDEV_KEYS)
    assert all(d[k] is not None for d in e["datasets"] for k in DATASET_KEYS)
    assert {"code", "severity", "title", "detail", "fix", "reference"} <= set(e["risks"][0])
    json.dumps(e)  # plain JSON all the way down


def test_pool_figures_are_the_capacity_engines():
    design = parse_design(SPEC_EXAMPLE)
    e, cap = estimate(design).to_document(), pool_capacity(design)
    assert e["pool"]["zpool_size_bytes"] == cap.zpool_size_bytes
    assert e["pool"]["zfs_avail_bytes"] == cap.zfs_avail_bytes
    assert [v["zpool_size_bytes"] for v in e["vdevs"]] == [v.zpool_size_bytes for v in cap.vdevs]


def test_special_vdev_on_raidz_is_flagged_irremovable():
    codes = {r["code"] for r in estimate_document(SPEC_EXAMPLE)["risks"]}
    assert "special-vdev-irremovable" in codes


def test_planned_use_counts_every_dataset():
    e = estimate_document({**SPEC_EXAMPLE, "openzfs_version": "2.3.6"})
    assert e["pool"]["zfs_used_bytes"] == sum(d["zfs_used_bytes"] for d in e["datasets"])
    assert e["pool"]["zfs_avail_after_bytes"] == e["pool"]["zfs_avail_bytes"] - e["pool"]["zfs_used_bytes"]


def test_blocks_on_the_special_mirror_no_longer_lower_avail_from_2_3_7():
    e = estimate_document({**SPEC_EXAMPLE, "openzfs_version": "2.3.7"})["pool"]
    on_special = e["special_allocated_bytes"]  # a mirror charges what it allocates (deflate ratio 1)
    assert 0 < on_special < e["zfs_used_bytes"]
    assert e["zfs_avail_after_bytes"] == e["zfs_avail_bytes"] - (e["zfs_used_bytes"] - on_special)


def test_special_blocks_counted_once_across_datasets():
    e = estimate_document(SPEC_EXAMPLE)
    assert e["pool"]["special_allocated_bytes"] == sum(d["special_allocated_bytes"] for d in e["datasets"])
    assert e["datasets"][0]["special_allocated_bytes"] > 0  # metadata and small photos go to the special mirror


def test_md_raid_row_beside_the_zfs_layout():
    doc = {"name": "small", "disk_partitioning": "none",
           "vdevs": [{"role": "data", "layout": "raidz1", "width": 3, "disk": {"size_bytes": "40GiB"}}]}
    rows = {r["level"]: r for r in estimate_document(doc)["md_raid"][0]["rows"]}
    assert 78 * 2**30 < rows["raid5"]["usable_bytes"] < 80 * 2**30
    assert rows["raid5"]["fault_tolerance"] == 1


def test_efficiency_table_per_distinct_layout():
    e = estimate_document(SPEC_EXAMPLE)
    layouts = [(t["layout"], t["width"]) for t in e["efficiency"]]
    assert layouts == [("raidz2", 6), ("mirror", 2)]
    rows = {r["block_size"]: r for r in e["efficiency"][0]["rows"]}
    assert rows[8192]["asize_bytes"] == 24576  # 2 data + 2 parity sectors padded to 6 (reference §1.1)
    assert rows[131072]["asize_bytes"] == 196608


def test_expanded_raidz_gets_an_expansion_report():
    doc = {"name": "grown", "vdevs": [{"role": "data", "layout": "raidz1", "width": 5, "expanded_from_width": 4,
                                      "logical_bytes_written_before": 2 * 10**12, "ashift": 12,
                                      "disk": {"size_bytes": 4000787030016}}]}
    e = estimate_document(doc)
    report = e["raidz_expansion"][0]
    assert report["original_width"] == 4 and report["new_width"] == 5
    assert report["deflate_ratio_original"] == 372 and report["deflate_ratio_fresh"] == 409
    assert e["pool"]["zfs_avail_bytes"] == report["avail_after_bytes"]


def test_an_invalid_design_names_the_field():
    doc = copy.deepcopy(SPEC_EXAMPLE)
    doc["vdevs"][0]["width"] = 2
    with pytest.raises(InvalidDesign) as exc:
        estimate_document(doc)
    assert "vdevs[0].width" in str(exc.value)


def test_tiny_disk_is_refused_by_the_engine_with_its_path():
    doc = {"name": "t", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "32MB"}}]}
    with pytest.raises(InvalidDesign) as exc:
        estimate_document(doc)
    assert "vdevs[0]" in str(exc.value)
