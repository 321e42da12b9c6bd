"""Special vdev sizing: the special_small_blocks curve, the 75 % point, the recommended size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfsplanner.core.capacity.placement import AllocTarget
from zfsplanner.core.datasets.special import (
    disk_bytes_for,
    recommended_class_bytes,
    special_curve,
    thresholds,
    vdev_size_for_disk,
)
from zfsplanner.core.datasets.usage import dataset_usage
from zfsplanner.core.design.types import Compressibility, Contents, Dataset, DatasetType, Layout
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

K = 1024
M = 1024 * K
RAIDZ2_6 = [AllocTarget.for_vdev(Layout.RAIDZ2, 6, 12)]
MIRROR3 = [AllocTarget.for_vdev(Layout.MIRROR, 3, 12)]


def fs(hist, *, recordsize=128 * K, compression="off", profile=None, ssb=None, **kw) -> Dataset:
    comp = Compressibility(profile=profile) if profile else None
    return Dataset(
        name="tank/fs",
        recordsize=recordsize,
        compression=compression,
        special_small_blocks=ssb,
        contents=Contents(file_size_histogram=tuple(hist), compressibility=comp, **kw),
    )


def usage(ds, special=MIRROR3):
    return dataset_usage(ds, version=V("2.3"), normal=RAIDZ2_6, special=special, spa_min_alloc=4096, spa_gcd_alloc=4096)


def test_thresholds_are_powers_of_two_from_the_sector_to_the_recordsize():
    assert thresholds(1 * M, 4096) == [0, 4 * K, 8 * K, 16 * K, 32 * K, 64 * K, 128 * K, 256 * K, 512 * K, 1 * M]
    assert thresholds(4 * K, 512) == [0, 512, 1024, 2048, 4096]
    assert thresholds(16 * K, 32 * K) == [0, 4 * K, 8 * K, 16 * K]  # dRAID's large unit: still from 4K


# --------------------------------------------------------------------------- the curve equals re-running the engine

histograms = st.lists(
    st.tuples(st.integers(0, 4 * M), st.integers(1, 300)), min_size=1, max_size=12
)


@settings(max_examples=40, deadline=None)
@given(
    hist=histograms,
    rs=st.sampled_from([16 * K, 128 * K, 1 * M]),
    comp=st.sampled_from(["off", "lz4", "zstd"]),
    profile=st.sampled_from(["incompressible", "text", "mixed"]),
)
def test_every_point_equals_the_engine_run_at_that_value(hist, rs, comp, profile):
    """The cumulative curve gives what dataset_usage gives when special_small_blocks is set to each point."""
    base = usage(fs(hist, recordsize=rs, compression=comp, profile=profile))
    points = thresholds(rs, 4096)
    curve = special_curve(base, RAIDZ2_6, MIRROR3, points)
    for p in curve:
        slow = usage(fs(hist, recordsize=rs, compression=comp, profile=profile, ssb=p.special_small_blocks or None))
        assert p.special_allocated_bytes == pytest.approx(slow.special_allocated_bytes, abs=2)
        assert p.normal_allocated_bytes == pytest.approx(slow.normal_allocated_bytes, abs=2)


@settings(max_examples=40, deadline=None)
@given(hist=histograms, rs=st.sampled_from([8 * K, 128 * K, 1 * M]))
def test_the_curve_rises_on_special_and_falls_on_normal(hist, rs):
    u = usage(fs(hist, recordsize=rs, compression="lz4", profile="mixed"))
    curve = special_curve(u, RAIDZ2_6, MIRROR3, thresholds(rs, 4096))
    specials = [p.special_allocated_bytes for p in curve]
    normals = [p.normal_allocated_bytes for p in curve]
    assert specials == sorted(specials)
    assert normals == sorted(normals, reverse=True)
    assert normals[-1] == 0  # special_small_blocks = recordsize takes every data block


# ------------------------------------------------------------- against an independent reading of the rules


def _raidz_asize(psize: int, n: int, p: int, sector: int = 4096) -> int:
    d = -(-psize // sector)
    total = d + p * -(-d // (n - p))
    return -(-total // (p + 1)) * (p + 1) * sector


def _reference_data(hist, rs: int, threshold: int) -> tuple[int, int]:
    """Bytes of level-0 data on special (3-way mirror) and normal (6-wide raidz2), compression off.

    From zfs-space-accounting.md §4.2 and §5.6: a file up to the recordsize is one block of
    roundup(size, 512); a larger file is whole records; with compression off psize = lsize,
    and a block goes to special when psize <= special_small_blocks. Mirror asize is psize
    rounded to the sector; like zpool list's ALLOC, a mirror counts one side (§1.3).
    """
    special = normal = 0
    for size, count in hist:
        if size == 0:
            continue
        blocks = [-(-size // 512) * 512] if size <= rs else [rs] * -(-size // rs)
        for b in blocks:
            if threshold and b <= threshold:
                special += count * -(-b // 4096) * 4096
            else:
                normal += count * _raidz_asize(b, 6, 2)
    return special, normal


@settings(max_examples=60, deadline=None)
@given(
    hist=st.lists(st.tuples(st.integers(1, 3 * M), st.integers(1, 2000)), min_size=1, max_size=30),
    rs=st.sampled_from([16 * K, 128 * K, 1 * M]),
)
def test_the_curve_matches_an_independent_reading_of_the_allocation_rules(hist, rs):
    u = usage(fs(hist, recordsize=rs))
    points = thresholds(rs, 4096)
    curve = special_curve(u, RAIDZ2_6, MIRROR3, points)
    metadata = curve[0].special_allocated_bytes
    for p in curve[1:]:
        special, normal = _reference_data(hist, rs, p.special_small_blocks)
        assert p.special_allocated_bytes - metadata == pytest.approx(special, rel=0.05, abs=4096)
        assert p.normal_allocated_bytes == pytest.approx(normal, rel=0.05, abs=4096)


def test_zvols_keep_data_on_normal_before_2_4():
    vol = Dataset(
        name="tank/vol", type=DatasetType.VOLUME, volsize=1 << 30, volblocksize=16 * K, compression="off",
        contents=Contents(logical_bytes=1 << 30),
    )
    old = dataset_usage(vol, version=V("2.3"), normal=RAIDZ2_6, special=MIRROR3, spa_min_alloc=4096, spa_gcd_alloc=4096)
    new = dataset_usage(vol, version=V("2.4"), normal=RAIDZ2_6, special=MIRROR3, spa_min_alloc=4096, spa_gcd_alloc=4096)
    flat = special_curve(old, RAIDZ2_6, MIRROR3, thresholds(16 * K, 4096))
    assert len({p.special_allocated_bytes for p in flat}) == 1
    rising = special_curve(new, RAIDZ2_6, MIRROR3, thresholds(16 * K, 4096))
    assert rising[-1].special_allocated_bytes > rising[0].special_allocated_bytes


# --------------------------------------------------------------------------- recommended size


def test_the_recommendation_keeps_the_demand_below_three_quarters_with_headroom():
    assert recommended_class_bytes(75_000, 0.0) == 100_000
    assert recommended_class_bytes(75_000, 0.25) == 125_000


@pytest.mark.parametrize(
    ("target", "layout", "width", "count"),
    [(50 * 10**9, Layout.MIRROR, 2, 1), (2 * 10**12, Layout.MIRROR, 3, 2), (300 * 10**9, Layout.RAIDZ1, 3, 1)],
)
def test_the_disk_size_is_the_smallest_that_gives_the_class_size(target, layout, width, count):
    disk = disk_bytes_for(target, layout, width, count)
    per_vdev = -(-target // count)
    assert vdev_size_for_disk(disk, layout, width, 512, True) >= per_vdev
    assert vdev_size_for_disk(disk - 1_000_000, layout, width, 512, True) < per_vdev


def _design(**extra):
    hist = [[2048, 200_000], [40_000, 100_000], [900_000, 20_000], [30_000_000, 500]]
    return {
        "name": "tank",
        "vdevs": [
            {"role": "data", "layout": "raidz2", "width": 6, "disk": {"size_bytes": "14TB"}},
            *extra.pop("special", []),
        ],
        "datasets": [
            {"name": "tank/a", "recordsize": "1M", "compression": "off", "special_small_blocks": "64K",
             "contents": {"file_size_histogram": hist}},
            {"name": "tank/b", "recordsize": "128K", "contents": {"file_count": 1000, "logical_bytes": 10**9}},
        ],
        **extra,
    }


SPECIAL_MIRROR = [{"role": "special", "layout": "mirror", "width": 2, "disk": {"size_bytes": "480GB", "media": "ssd"}}]


def test_the_estimate_carries_a_curve_per_dataset_and_the_pool_recommendation():
    e = estimate(parse_design(_design(special=SPECIAL_MIRROR))).to_document()
    a, b = e["datasets"]
    assert [p["special_small_blocks"] for p in a["special_small_blocks_curve"]][:3] == [0, 4096, 8192]
    assert a["special_small_blocks_curve"][-1]["special_small_blocks"] == 1 * M
    assert len(b["special_small_blocks_curve"]) == 7  # 0, 4K .. 128K
    # at its own value (64K) the curve gives what the dataset really puts there (no 75 % cut-off here)
    at_64k = next(p for p in a["special_small_blocks_curve"] if p["special_small_blocks"] == 64 * K)
    assert at_64k["special_allocated_bytes"] == pytest.approx(a["special_allocated_bytes"], abs=2)
    special = e["special"]
    assert special["hypothetical"] is False
    assert special["demand_bytes"] == pytest.approx(
        at_64k["special_allocated_bytes"] + b["special_small_blocks_curve"][0]["special_allocated_bytes"], abs=2
    )
    assert e["pool"]["special_recommended_bytes"] == special["recommended_bytes"]
    assert special["recommended_bytes"] == round(special["demand_bytes"] * 1.25 / 0.75)
    assert special["small_blocks_stop_bytes"] == int(special["class_size_bytes"] * 0.75)


def test_headroom_comes_from_the_design():
    e = estimate(parse_design(_design(special=SPECIAL_MIRROR, special_headroom_fraction=0.5))).to_document()
    assert e["special"]["headroom_fraction"] == 0.5
    assert e["special"]["recommended_bytes"] == round(e["special"]["demand_bytes"] * 1.5 / 0.75)


def test_without_a_special_vdev_the_figures_are_for_a_mirror_to_add():
    e = estimate(parse_design(_design())).to_document()
    assert e["special"]["hypothetical"] is True
    assert e["special"]["class_size_bytes"] == 0 and e["special"]["fits"] is None
    assert e["pool"]["special_recommended_bytes"] > 0
    assert "no special vdev" in " ".join(e["special"]["notes"])
    # the data still lands on normal in the estimate itself
    assert e["datasets"][0]["special_allocated_bytes"] == 0
