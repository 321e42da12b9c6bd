"""A dataset's USED on an expanded RAIDZ vdev, against real OpenZFS 2.3.2
(tests/core/data/openzfs-2.3.2-expansion-sample.json: raidz1 of 4 × 4 GiB files, ashift 12, 69 × 64 MiB
incompressible files, attached to 5 and 6 disks, then as much data again).

Data written before the expansion keeps its old asize (4 wide: 44 sectors per 128K record), data written
after is allocated 6 wide (40 sectors); both are charged through the deflate ratio of the 4-wide vdev
(372), so the dataset shows less USED than its logical size.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.design.types import InvalidDesign, Layout
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate, estimate_document
from zfsplanner.core.geometry.alloc import block_asize

SAMPLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "openzfs-2.3.2-expansion-sample.json").read_text())
STEPS = {s["step"]: s for s in SAMPLE["steps"]}
FILE = 64 * 1024**2
FILES = SAMPLE["fill_bytes"] // FILE  # 69
RECORDS = SAMPLE["fill_bytes"] // (128 * 1024)  # 35,328
RATIO_4_WIDE = 372  # vdev_set_deflate_ratio() of the 4-wide raidz1: 2^17 / (180,224 >> 9)
# The metadata of 69 files and the dataset itself (dnodes, indirect blocks, the directory) is
# modelled elsewhere (datasets/metadata.py); the data charge is exact, the total within this.
METADATA_SLACK = 64 * 1024


def doc(width: int, files: int, before: int | None = None, original: int | None = None) -> dict[str, Any]:
    group: dict[str, Any] = {
        "role": "data", "layout": "raidz1", "width": width, "ashift": 12, "disk": {"size_bytes": SAMPLE["file_size"]},
    }
    if original is not None:
        group["expanded_from_width"] = original
    contents: dict[str, Any] = {
        "logical_bytes": files * FILE,
        "file_count": files,
        "file_size_histogram": [[FILE, files]],
        "files_per_directory": files,
    }
    if before is not None:
        contents["logical_bytes_written_before"] = before
    return {
        "name": "tank",
        "openzfs_version": "2.3.2",
        "disk_partitioning": "none",
        "vdevs": [group],
        "datasets": [{"name": "tank/data", "recordsize": "128K", "compression": "off", "contents": contents}],
    }


DOCS = {
    "filled": doc(4, FILES),
    "expanded_5": doc(5, FILES, FILES * FILE, 4),
    "expanded_6": doc(6, FILES, FILES * FILE, 4),
    "rewritten": doc(6, 2 * FILES, FILES * FILE, 4),
}


def used(step: str) -> int:
    return estimate_document(DOCS[step])["datasets"][0]["zfs_used_bytes"]


def test_the_charges_per_record_from_the_allocation_path():
    old = block_asize(Layout.RAIDZ1, 4, 12, 128 * 1024)
    new = block_asize(Layout.RAIDZ1, 6, 12, 128 * 1024)
    assert (old, new) == (180_224, 163_840)
    assert (old >> 9) * RATIO_4_WIDE == 130_944 and (new >> 9) * RATIO_4_WIDE == 119_040
    e = estimate_document(DOCS["expanded_6"])
    assert e["vdevs"][0]["deflate_ratio"] == RATIO_4_WIDE and e["vdevs"][0]["original_width"] == 4


@pytest.mark.parametrize("step", ["filled", "expanded_5", "expanded_6", "rewritten"])
def test_pool_size_and_dataset_used_at_every_step(step: str):
    e = estimate_document(DOCS[step])
    real = STEPS[step]
    assert e["pool"]["zpool_size_bytes"] == real["size"]
    assert abs(e["datasets"][0]["zfs_used_bytes"] - real["zfs"]["tank/data"]["used"]) <= METADATA_SLACK


def test_data_written_before_keeps_its_cost_through_the_attaches():
    # real: 4,629,465,600 at every step from "filled" to "expanded_6"
    assert STEPS["filled"]["zfs"]["tank/data"]["used"] == STEPS["expanded_6"]["zfs"]["tank/data"]["used"]
    assert used("filled") == used("expanded_5") == used("expanded_6")
    (x,) = estimate_document(DOCS["expanded_6"])["raidz_expansion"]
    (ds,) = x["datasets"]
    assert ds["used_written_after_bytes"] == 0
    assert ds["used_written_before_bytes"] == ds["zfs_used_bytes"] == used("filled")


def test_data_written_after_is_charged_at_the_new_width_through_the_old_ratio():
    (x,) = estimate_document(DOCS["rewritten"])["raidz_expansion"]
    (ds,) = x["datasets"]
    # exactly the data's charge: 35,328 records of 119,040 after and 130,944 before
    data_after = RECORDS * 119_040
    data_before = RECORDS * 130_944
    assert (data_before, data_after) == (4_625_989_632, 4_205_445_120)
    grown = used("rewritten") - used("filled")
    real_grown = STEPS["rewritten"]["zfs"]["tank/data"]["used"] - STEPS["filled"]["zfs"]["tank/data"]["used"]
    assert real_grown == 4_208_766_336
    # the rest is the new files' metadata (3.3 MB here), also written after
    assert abs(grown - real_grown) <= METADATA_SLACK and grown > data_after
    # the report splits USED in two, and what a rewrite of the old data frees
    assert ds["logical_bytes_written_before"] == ds["logical_bytes_written_after"] == FILES * FILE
    assert ds["used_written_before_bytes"] + ds["used_written_after_bytes"] == ds["zfs_used_bytes"]
    assert ds["rewrite_frees_bytes"] >= data_before - data_after  # 420,544,512 of data, plus its metadata
    assert ds["rewrite_frees_bytes"] - (data_before - data_after) < 1024**2  # the old metadata's share
    assert ds["used_if_rewritten_bytes"] == ds["zfs_used_bytes"] - ds["rewrite_frees_bytes"]
    # USED looks smaller than the data: 9.26 GB written, 8.84 GB used
    assert ds["zfs_used_bytes"] < ds["logical_bytes"]


def test_without_the_split_everything_counts_as_written_after():
    # no logical_bytes_written_before: the whole dataset at the new width (what a fresh copy would cost)
    e = estimate_document(doc(6, FILES, None, 4))
    assert e["datasets"][0]["zfs_used_bytes"] < used("expanded_6")
    assert e["raidz_expansion"][0]["datasets"] == []


def test_written_before_round_trips_and_is_checked():
    d = parse_design(DOCS["rewritten"])
    out = design_to_document(d)
    assert out["datasets"][0]["contents"]["logical_bytes_written_before"] == FILES * FILE
    assert estimate(parse_design(out)).to_document() == estimate(d).to_document()
    bad = doc(6, FILES, FILES * FILE + 1, 4)
    with pytest.raises(InvalidDesign) as exc:
        parse_design(bad)
    assert "datasets[0].contents.logical_bytes_written_before" in str(exc.value)


def test_the_data_written_before_is_given_once():
    """Per dataset it sets USED and the report sums it; the vdev's total (the older form, still read when the
    datasets do not give it) may not say it again, lest the report and USED disagree."""
    per_dataset = doc(6, FILES, FILES * FILE, 4)
    both = {**per_dataset, "vdevs": [{**per_dataset["vdevs"][0], "logical_bytes_written_before": FILES * FILE}]}
    with pytest.raises(InvalidDesign) as exc:
        parse_design(both)
    assert [path for path, _ in exc.value.errors] == ["vdevs[0].logical_bytes_written_before"]
    assert "give it once, on the datasets" in exc.value.errors[0][1]
    on_the_vdev = doc(6, FILES, None, 4)
    on_the_vdev["vdevs"][0]["logical_bytes_written_before"] = FILES * FILE
    report = estimate_document(on_the_vdev)["raidz_expansion"][0]
    summed = estimate_document(per_dataset)["raidz_expansion"][0]
    assert report["old_logical_bytes"] == summed["old_logical_bytes"] == FILES * FILE
