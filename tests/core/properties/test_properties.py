"""Dataset properties resolved as ``zfs get`` resolves them (local, inherited, default per version)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.properties import resolve as properties

DISK = {"size_bytes": 4_000_787_030_016, "logical_sector_bytes": 512, "physical_sector_bytes": 4096}


def design(datasets: list[dict[str, Any]], version: str = "2.3") -> Any:
    return parse_design(
        {
            "name": "tank",
            "openzfs_version": version,
            "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": DISK}],
            "datasets": datasets,
        }
    )


MEDIA = [
    {"name": "tank/media", "recordsize": "1M", "compression": "off"},
    {"name": "tank/media/movies", "contents": {"logical_bytes": 10 * 2**30, "file_count": 100}},
]


def test_a_child_inherits_recordsize_and_compression_from_its_parent():
    d = design(MEDIA)
    movies = d.datasets[1]
    assert properties.resolve(d, movies, "recordsize") == properties.Resolved(2**20, "inherited from tank/media")
    assert properties.resolve(d, movies, "compression").value == "off"
    assert properties.resolve(d, movies, "copies") == properties.Resolved(1, "default")


def test_the_estimate_uses_the_inherited_recordsize_and_compression_like_the_risk_rules():
    est = estimate(design(MEDIA)).to_document()
    movies = est["datasets"][1]
    assert movies["block_size_bytes"] == 2**20 == properties.block_size(design(MEDIA), design(MEDIA).datasets[1])
    assert movies["compression"] == "off"
    # 10 GiB in 100 files of 1 MiB records: 10240 records, not 81920 records of 128K
    alone = estimate(design([{"name": "tank/movies", "recordsize": "1M", "compression": "off",
                              "contents": MEDIA[1]["contents"]}])).to_document()
    assert movies["data_allocated_bytes"] == alone["datasets"][0]["data_allocated_bytes"]


def test_a_parent_the_design_does_not_list_passes_nothing_down():
    d = design([{"name": "tank/a/b", "contents": {"logical_bytes": 2**20}}])
    assert properties.resolve(d, d.datasets[0], "recordsize") == properties.Resolved(128 * 1024, "default")


def test_volumes_inherit_compression_but_not_recordsize_and_are_never_parents():
    d = design(
        [
            {"name": "tank/vms", "recordsize": "1M", "compression": "zstd"},
            {"name": "tank/vms/disk0", "type": "volume", "volsize": "10G"},
        ]
    )
    vol = d.datasets[1]
    assert properties.value(d, vol, "compression") == "zstd"
    assert properties.block_size(d, vol) == 16 * 1024
    assert properties.resolve(d, vol, "recordsize").source == "-"


@pytest.mark.parametrize(
    ("version", "compression", "volblocksize", "xattr"),
    [("0.8", "off", 8192, "on"), ("2.0", "off", 8192, "on"), ("2.1", "off", 8192, "on"),
     ("2.2", "on", 16384, "on"), ("2.3", "on", 16384, "sa"), ("2.4", "on", 16384, "sa")],
)
def test_defaults_follow_the_version(version, compression, volblocksize, xattr):
    d = design([{"name": "tank/fs"}, {"name": "tank/vol", "type": "volume", "volsize": "1G"}], version)
    fs, vol = d.datasets
    assert properties.resolve(d, fs, "compression") == properties.Resolved(compression, "default")
    assert properties.block_size(d, vol) == volblocksize
    assert properties.value(d, fs, "xattr") == xattr


def test_extra_properties_inherit_too():
    d = design([{"name": "tank/db", "redundant_metadata": "most", "dnodesize": "auto"}, {"name": "tank/db/pg"}])
    child = properties.with_inherited(d, d.datasets[1])
    assert child.extra["redundant_metadata"] == "most" and child.extra["dnodesize"] == "auto"
    assert child.recordsize is None  # left at the default for the engines to apply


@settings(max_examples=200, deadline=None)
@given(
    depth=st.integers(1, 4),
    set_at=st.lists(st.sampled_from(["512", "4K", "16K", "64K", "1M"]) | st.none(), min_size=4, max_size=4),
)
def test_the_estimate_and_the_risks_agree_on_every_block_size(depth, set_at):
    names = ["tank"] + [f"tank/{'/'.join('d' * (i + 1) for i in range(k))}" for k in range(1, depth + 1)]
    docs = []
    for name, rs in zip(names, set_at, strict=False):
        ds: dict[str, Any] = {"name": name, "contents": {"logical_bytes": 2**22, "file_count": 4}}
        if rs is not None:
            ds["recordsize"] = rs
        docs.append(ds)
    d = design(docs)
    est = estimate(d).to_document()
    for ds, got in zip(d.datasets, est["datasets"], strict=True):
        assert got["block_size_bytes"] == properties.block_size(d, ds)
