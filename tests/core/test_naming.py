"""Names of a design's parts as a person says them (core.naming), for parsed designs and raw documents."""

from __future__ import annotations

from typing import Any

import pytest

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.naming import dataset_label, describe_group, element_label, group_labels, vdev_label

HDD = {"size_bytes": "16TB", "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "hdd"}
SSD = {"size_bytes": "960GB", "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "ssd"}

DOC: dict[str, Any] = {
    "name": "tank",
    "vdevs": [
        {"role": "data", "layout": "raidz2", "width": 8, "disk": HDD},
        {"role": "special", "layout": "mirror", "width": 2, "disk": SSD},
        {"role": "log", "layout": "mirror", "width": 2, "disk": SSD},
        {"role": "cache", "layout": "stripe", "width": 1, "disk": SSD},
        {"role": "spare", "layout": "stripe", "width": 1, "disk": HDD},
        {"role": "data", "layout": "mirror", "width": 2, "count": 3, "disk": HDD},
        {"role": "dedup", "layout": "mirror", "width": 3, "disk": SSD},
        {"role": "log", "layout": "stripe", "width": 1, "count": 2, "disk": SSD},
    ],
    "datasets": [
        {"name": "tank/media", "recordsize": "1M"},
        {"name": "tank/vm-100-disk-0", "type": "volume", "volsize": "32G"},
    ],
}

GROUPS = [
    "the data vdev (group 1: 8-wide raidz2)",
    "the special mirror (group 2)",
    "the log mirror (group 3)",
    "the cache disk (group 4)",
    "the hot spare (group 5)",
    "the data vdevs (group 6: 3 × 2-way mirror)",
    "the dedup mirror (group 7: 3-way mirror)",
    "the log disks (group 8: 2 single disks)",
]


def test_every_role_is_named_with_its_place_in_the_design():
    d = parse_design(DOC)
    assert [vdev_label(d, i) for i in range(len(d.vdevs))] == GROUPS
    assert [element_label(d, f"vdevs[{i}]") for i in range(len(d.vdevs))] == GROUPS


def test_a_raw_document_names_its_groups_the_same_way():
    """Errors are about documents that did not parse; they still name the groups as the designer does."""
    assert [element_label(DOC, f"vdevs[{i}]") for i in range(len(DOC["vdevs"]))] == GROUPS


def test_datasets_and_volumes():
    d = parse_design(DOC)
    assert [dataset_label(ds) for ds in d.datasets] == ["dataset tank/media", "volume tank/vm-100-disk-0"]
    assert element_label(d, "datasets[1]") == "volume tank/vm-100-disk-0"
    assert element_label(DOC, "datasets[0].recordsize") == "recordsize of dataset tank/media"


@pytest.mark.parametrize(
    ("path", "label"),
    [
        ("host.ram_bytes", "the host's RAM"),
        ("host", "the host"),
        ("openzfs_version", "OpenZFS version"),
        ("name", "pool name"),
        ("vdevs", "the vdev groups"),
        ("", "the design"),
        ("vdevs[0].width", "disks per vdev of the data vdev (group 1: 8-wide raidz2)"),
        ("vdevs[1].disk.size_bytes", "disk size of the special mirror (group 2)"),
        (
            "vdevs[0].disk.physical_sector_bytes",
            "physical sector size of the disks of the data vdev (group 1: 8-wide raidz2)",
        ),
        (
            "vdevs[5].disks[1].physical_sector_bytes",
            "physical sector size of disk 2 of the data vdevs (group 6: 3 × 2-way mirror)",
        ),
        ("datasets[0].contents.logical_bytes", "expected data of dataset tank/media"),
        ("reliability.afr.hdd", "annual failure rate (hdd)"),
        ("reliability.rebuild_bytes_per_s.vdevs[1]", "rebuild speed of the special mirror (group 2)"),
        ("reliability.replacement_hours", "time to replace a failed disk"),
    ],
)
def test_paths_of_fields(path, label):
    assert element_label(DOC, path) == label


def test_what_cannot_be_named_falls_back_to_the_group_number():
    doc = {"vdevs": [{"role": "data", "layout": "raidz4", "width": 6}, "not a group"], "datasets": [{}]}
    assert element_label(doc, "vdevs[0].layout") == "layout of vdev group 1"
    assert element_label(doc, "vdevs[1]") == "vdev group 2"
    assert element_label(doc, "vdevs[7]") == "vdev group 8"
    assert element_label(doc, "datasets[0].name") == "name of dataset 1"
    assert element_label(None, "vdevs[2]") == "vdev group 3"


def test_describe_group_keeps_the_draid_word():
    d = parse_design(
        {"name": "tank", "vdevs": [{"role": "data", "layout": "draid2", "width": 24, "draid_spares": 2, "disk": HDD}]}
    )
    assert describe_group(d.vdevs[0]) == "draid2:8d:24c:2s"
    assert vdev_label(d, 0) == "the data vdev (group 1: draid2:8d:24c:2s)"


def test_group_labels_from_estimate_rows():
    doc = {"name": "tank", "vdevs": [
        {"role": "data", "layout": "raidz2", "width": 8, "count": 1, "disk": {"size_bytes": "8TB"}},
        {"role": "log", "layout": "mirror", "width": 2, "count": 1, "disk": {"size_bytes": "480GB", "media": "ssd"}},
        {"role": "special", "layout": "mirror", "width": 2, "count": 1, "disk": {"size_bytes": "1TB", "media": "ssd"}},
    ]}
    groups = estimate(parse_design(doc)).reliability.groups
    assert group_labels(groups) == {
        "vdevs[0]": "the data vdev (group 1: 8-wide raidz2)",
        "vdevs[2]": "the special mirror (group 3)",
    }
    assert group_labels(()) == {}
