"""The dedup table's size against real OpenZFS 2.3.2 (tests/core/data/openzfs-2.3.2-dedup-sample.json:
10,000 unique 4 KiB blocks on one file vdev, ashift 12, fast_dedup enabled and disabled; and the held-out
tables of the same family at 100,000 entries), and how the estimate, the RAM advice and the risks use it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.datasets import ddt
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate_document

SAMPLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "openzfs-2.3.2-dedup-sample.json").read_text())
CASES = {c["fast_dedup"]: c for c in SAMPLE["cases"]}
TOLERANCE = 0.15


@pytest.mark.parametrize("mode", ["enabled", "disabled"])
def test_per_entry_sizes_within_15_percent_of_zpool_status(mode: str):
    case = CASES[mode]
    t = ddt.dedup_table(case["n_unique"], mode == "enabled", 4096)
    assert t.entries == case["n_unique"]
    assert t.in_core_per_entry == pytest.approx(case["in_core_per_entry"], rel=TOLERANCE)
    assert t.on_disk_per_entry == pytest.approx(case["on_disk_per_entry_status"], rel=TOLERANCE)
    assert case["dedup_table_size_per_entry"] == case["on_disk_per_entry_status"]


def test_how_an_entry_is_stored():
    # the traditional 256 B part compresses with ZLE to a single 21 B array chunk; the flat 72 B one
    # cannot (ZLE needs room for a 64 B literal run), so it takes four
    assert ddt.value_bytes(False) <= ddt.ZAP_LEAF_ARRAY_BYTES
    assert ddt.value_bytes(True) == ddt.DDT_FLAT_PHYS_BYTES + 1
    assert (ddt.chunks_per_entry(False), ddt.chunks_per_entry(True)) == (4, 7)
    assert ddt.leaf_chunks() == 1278
    assert (ddt.leaf_capacity(False), ddt.leaf_capacity(True)) == (319, 182)
    # a leaf compresses to less than its 32 KiB, but its checksums do not compress at all, and a
    # fuller leaf compresses less
    for fast in (False, True):
        assert 32 * ddt.leaf_capacity(fast) < ddt.leaf_psize(fast) < 32 * 1024
        assert ddt.leaf_psize(fast, 50) < ddt.leaf_psize(fast, 100) < ddt.leaf_psize(fast)


def test_the_legacy_table_in_core_is_within_a_block_of_the_measurement():
    # 43 blocks of 32 KiB for 10,000 entries: 1,409,024 bytes, as zpool status -D said; the census
    # expects 43.0 leaves and the header (the real table came out with 42 leaves)
    assert abs(ddt.dedup_table(10_000, False).in_core_bytes - 1_409_024) <= 32 * 1024


# Real OpenZFS 2.3.2, the dedup family of the calibration set (unique incompressible 4 KiB blocks,
# ashift 12) at 100,000 entries, per entry: in core as zpool status -D reports it, on disk as zdb -DD
# sums the tables (without the fast-dedup log).
AT_100K = {
    False: {"in_core": (168.1, 168.1), "tables_on_disk": (255.0, 260.0)},
    True: {"in_core": (304.0, 308.0), "tables_on_disk": (414.0, 455.0)},
}


@pytest.mark.parametrize("fast", [False, True])
def test_tables_of_100_000_entries_are_within_15_percent(fast: bool):
    t = ddt.dedup_table(100_000, fast, 4096)
    for key, value in (("in_core", t.in_core_per_entry), ("tables_on_disk", t.tables_on_disk_bytes / t.entries)):
        lo, hi = AT_100K[fast][key]
        assert lo * (1 - TOLERANCE) <= value <= hi * (1 + TOLERANCE), (key, value)
    # in core exactly as the mechanism says: 512 legacy leaves (and the header) at 100,000 entries
    if not fast:
        assert t.in_core_bytes == 513 * 32 * 1024


def test_per_entry_sizes_grow_with_the_table_as_measured():
    # the small table's leaves are three quarters full, the larger one's three fifths: 140.9 -> 168.1
    # B in core (legacy), 219.5 -> 304-308 (fast dedup)
    for fast in (False, True):
        small, large = ddt.dedup_table(10_000, fast), ddt.dedup_table(100_000, fast)
        assert large.in_core_per_entry > small.in_core_per_entry * 1.15
        assert large.tables_on_disk_bytes / large.entries > small.tables_on_disk_bytes / small.entries


def test_the_leaf_census_follows_the_splits():
    # uniform hashes split alike: 100,000 legacy entries fill every leaf at depth 9 to about 195
    census = ddt.leaf_census(100_000, 319)
    assert round(census.leaves) == 512 and census.depth == 9
    assert sum(k * n for k, n in census.by_count) == pytest.approx(100_000, rel=0.01)
    # half-way between two depths the leaves are split or not by chance: 10,000 -> 43 leaves
    assert round(ddt.leaf_census(10_000, 319).leaves) == 43
    assert ddt.leaf_census(200, 319).by_count == ((200, 1.0),)
    # the pointer table leaves the header once a leaf needs a 12-bit prefix (2,048 embedded entries)
    assert ddt.pointer_table_blocks(11) == 0 and ddt.pointer_table_blocks(12) == 1
    assert ddt.pointer_table_blocks(14) == 4
    assert ddt.indirect_block_counts(43) == (1,) and ddt.indirect_block_counts(513) == (3,)
    assert ddt.indirect_block_counts(3) == ()


def test_fast_dedup_table_is_larger_on_disk_by_its_log():
    fast, legacy = ddt.dedup_table(100_000, True), ddt.dedup_table(100_000, False)
    assert fast.on_disk_bytes > legacy.on_disk_bytes and fast.in_core_bytes > legacy.in_core_bytes
    assert ddt.dedup_table(0, True) == ddt.DedupTable(0, 0, 0, True)


def design(version: str = "2.3", features: dict[str, bool] | None = None, dedup_disk: str | None = "1GB",
           special: bool = False, logical: int = 40 * 10**9, ratio: float | None = None, **host: Any) -> dict[str, Any]:
    vdevs: list[dict[str, Any]] = [{"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "4TB"}}]
    if dedup_disk:
        vdevs.append({"role": "dedup", "layout": "mirror", "width": 2, "disk": {"size_bytes": dedup_disk}})
    if special:
        vdevs.append({"role": "special", "layout": "mirror", "width": 2, "disk": {"size_bytes": "100GB"}})
    contents: dict[str, Any] = {"logical_bytes": logical}
    if ratio is not None:
        contents["dedup_ratio"] = ratio
    d: dict[str, Any] = {
        "name": "tank",
        "openzfs_version": version,
        "vdevs": vdevs,
        "datasets": [{"name": "tank/vm", "dedup": "on", "recordsize": "16K", "contents": contents}],
    }
    if features is not None:
        d["features"] = features
    if host:
        d["host"] = host
    return d


def test_estimate_has_the_table_and_ram_uses_it_in_core():
    e = estimate_document(design())
    t = e["sizing"]["dedup_table"]
    assert set(t) == {"entries", "on_disk_bytes", "in_core_bytes", "fast_dedup"}
    assert t["fast_dedup"] is True  # zpool create on 2.3 enables it
    assert t["entries"] == e["sizing"]["ram"]["dedup_blocks"] == -(-40 * 10**9 // (16 * 1024))
    assert e["sizing"]["ram"]["ddt_bytes"] == t["in_core_bytes"]
    table = ddt.dedup_table(t["entries"], True, 4096)
    assert t == {k: getattr(table, k) for k in t}


def test_fast_dedup_follows_the_feature_and_the_release():
    assert estimate_document(design(features={"fast_dedup": False}))["sizing"]["dedup_table"]["fast_dedup"] is False
    assert estimate_document(design(version="2.2"))["sizing"]["dedup_table"]["fast_dedup"] is False
    with pytest.raises(InvalidDesign) as exc:
        parse_design(design(version="2.2", features={"fast_dedup": True}))
    assert "features.fast_dedup" in str(exc.value)
    with pytest.raises(InvalidDesign):
        parse_design(design(features={"fast_dedup": "yes"}))  # type: ignore[dict-item]
    out = design_to_document(parse_design(design(features={"fast_dedup": False}, ratio=2.5)))
    assert out["features"] == {"fast_dedup": False}
    assert out["datasets"][0]["contents"]["dedup_ratio"] == 2.5


def test_dedup_ratio_divides_the_entries():
    one = estimate_document(design())["sizing"]["dedup_table"]["entries"]
    assert estimate_document(design(ratio=2.0))["sizing"]["dedup_table"]["entries"] == -(-one // 2)


def test_no_table_without_dedup():
    d = design(dedup_disk=None)
    d["datasets"][0]["dedup"] = "off"
    e = estimate_document(d)
    assert "dedup_table" not in e["sizing"] and e["sizing"]["ram"]["ddt_bytes"] == 0


def test_table_that_does_not_fit_the_dedup_vdev_is_a_risk():
    e = estimate_document(design(dedup_disk="1GB"))
    home = e["sizing"]["dedup_table_home"]
    assert home["role"] == "dedup" and home["fits"] is False
    (r,) = [r for r in e["risks"] if r["code"] == "dedup-table-overflow"]
    assert r["title"] == "The dedup table does not fit the dedup mirror (group 2)"
    assert "on disk" in r["detail"] and "vdevs[" not in r["detail"]
    fits = estimate_document(design(dedup_disk="100GB"))
    assert fits["sizing"]["dedup_table_home"]["fits"] is True
    assert not [r for r in fits["risks"] if r["code"] == "dedup-table-overflow"]


def test_table_goes_to_special_without_a_dedup_vdev_unless_told_not_to():
    e = estimate_document(design(dedup_disk=None, special=True))
    assert e["sizing"]["dedup_table_home"]["role"] == "special"
    d = design(dedup_disk=None, special=True, tunables={"zfs_ddt_data_is_special": 0})
    assert estimate_document(d)["sizing"]["dedup_table_home"]["role"] == "data"


def test_dedup_memory_risk_uses_the_table_in_core():
    e = estimate_document(design(dedup_disk="100GB", ram_bytes=1024**3))
    (r,) = [r for r in e["risks"] if r["code"] == "dedup-memory"]
    table = e["sizing"]["dedup_table"]
    assert f"{table['entries']:,} unique blocks" in r["detail"]
    assert r["severity"] == "warning"
    assert not [
        r for r in estimate_document(design(dedup_disk="100GB", ram_bytes=256 * 1024**3))["risks"]
        if r["code"] == "dedup-memory"
    ]
