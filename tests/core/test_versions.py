"""OpenZFS versions as values, and every series changing the figures the way that release does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.releases import OFFERED, feature_table_markdown, offered_for, point_release_table_markdown
from zfsplanner.core.units import GIB
from zfsplanner.core.versions import (
    FEATURES,
    KNOWN_NAMES,
    SERIES,
    Version,
    VersionError,
    modelled_as,
    supports,
    unknown_version_message,
)

V = Version.parse  # a release as a document names it

ROOT = Path(__file__).resolve().parents[2]
DISK = {"size_bytes": 14_000_519_643_136, "logical_sector_bytes": 512, "physical_sector_bytes": 4096}


def test_versions_compare_as_values_not_strings():
    assert Version(2, 10) > Version(2, 9)  # "2.10" < "2.9" as strings
    assert Version(2, 2) <= V("2.2") == Version(2, 2, 2)
    assert V("2.3") > V("2.3.6")  # the series stands for 2.3.9
    assert str(V("0.8")) == "0.8.3" and V("0.8").series == "0.8"
    with pytest.raises(VersionError):
        Version.parse("two")


def test_each_series_stands_for_its_lts_release_or_else_its_newest():
    assert {s: str(x.release) for s, x in SERIES.items()} == {
        "0.8": "0.8.3", "2.0": "2.0.3", "2.1": "2.1.5", "2.2": "2.2.2", "2.3": "2.3.9", "2.4": "2.4.4",
    }


def test_a_design_may_name_any_known_release_and_no_other():
    assert {"2.4.4", "2.4.0", "2.3.9", "2.3.2", "2.2.11", "2.1.16", "0.8.0", "2.4", "0.8"} <= set(KNOWN_NAMES)
    assert unknown_version_message("2.3.7") is None
    assert "its newest 2.4 release is 2.4.4" in (unknown_version_message("2.4.9") or "")
    assert "2.4.0\u20132.4.4" in (unknown_version_message("2.5.0") or "")
    assert "not an OpenZFS version" in (unknown_version_message("2.x") or "")


def test_the_pages_offer_one_release_per_run_of_releases_that_model_alike():
    offered = {o.name: (str(o.first), str(o.last)) for o in OFFERED}
    assert offered["2.4.4"] == ("2.4.1", "2.4.4") and offered["2.4.0"] == ("2.4.0", "2.4.0")
    assert offered["2.3.9"] == ("2.3.7", "2.3.9") and offered["2.3.6"] == ("2.3.6", "2.3.6")
    assert offered["2.3.2"] == ("2.3.0", "2.3.5")  # Debian 13's release stands for its run
    assert OFFERED[0].name == "2.4.4" and offered_for(V("2.4.2")).name == "2.4.4"
    assert offered_for(V("2.3")).name == "2.3.9"
    # every release of a run gives the same estimate as the one offered for it
    special = {"role": "special", "layout": "mirror", "width": 2,
               "disk": {"size_bytes": "960GB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096}}
    files = {"logical_bytes": 2 * 10**12, "file_size_histogram": [[16384, 10**6], [2**30, 1000]]}
    extra = {"vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": DISK}, special],
             "datasets": [{"name": "tank/fs", "special_small_blocks": "64K", "contents": files}]}
    for name in ("2.4.1", "2.3.7", "2.3.0"):
        pool = estimate(big(name, **extra)).to_document()["pool"]
        assert pool == estimate(big(offered_for(Version.parse(name)).name, **extra)).to_document()["pool"]


def test_special_and_dedup_space_counts_in_avail_from_2_4_1_and_2_3_7():
    assert supports(V("2.4.1"), "special_dalloc_in_avail") and not supports(V("2.4.0"), "special_dalloc_in_avail")
    assert supports(V("2.3.7"), "special_dalloc_in_avail") and not supports(V("2.3.6"), "special_dalloc_in_avail")
    assert supports(V("2.3"), "special_dalloc_in_avail") and supports(V("2.4"), "special_dalloc_in_avail")


def test_an_unknown_release_is_modelled_by_its_series_or_the_nearest_one():
    assert modelled_as("2.3.99") == "2.3" and modelled_as("2.6.0") == "2.4" and modelled_as("0.7.13") == "0.8"


def test_backports_count_only_within_their_series():
    assert supports(V("2.0.6"), "slop_cap") and not supports(V("2.0"), "slop_cap")
    assert supports(V("2.1.6"), "max_auto_ashift_14") and not supports(V("2.1"), "max_auto_ashift_14")
    assert supports(V("2.3.6"), "parent_ashift_kept") and not supports(V("2.3.5"), "parent_ashift_kept")


def big(version: str, **extra: Any) -> Any:
    doc = {
        "name": "tank",
        "openzfs_version": version,
        "vdevs": [{"role": "data", "layout": "raidz2", "width": 12, "count": 4, "disk": DISK}],
        "datasets": [{"name": "tank/fs"}, {"name": "tank/vol", "type": "volume", "volsize": "10G"}],
    }
    doc.update(extra)
    return parse_design(doc)


@pytest.mark.parametrize("version", ["0.8", "2.0"])
def test_0_8_and_2_0_keep_a_thirty_second_of_the_pool_without_the_128_gib_cap(version):
    cap = pool_capacity(big(version))
    assert cap.slop_bytes == cap.normal_dspace_bytes >> 5 > 128 * GIB
    assert cap.elog_dspace_bytes == 0 and not any(v.embedded_log for v in cap.vdevs)


@pytest.mark.parametrize("version", ["2.1", "2.2", "2.3", "2.4"])
def test_2_1_and_later_cap_slop_at_128_gib_less_the_embedded_log(version):
    cap = pool_capacity(big(version))
    assert cap.elog_dspace_bytes > 0
    assert cap.slop_bytes == 128 * GIB - min(cap.elog_dspace_bytes, 64 * GIB)


@pytest.mark.parametrize(
    ("version", "compression", "volblocksize"),
    [("0.8", "off", 8192), ("2.0", "off", 8192), ("2.1", "off", 8192), ("2.2", "lz4", 16384),
     ("2.3", "lz4", 16384), ("2.4", "lz4", 16384)],
)
def test_estimates_use_the_versions_defaults(version, compression, volblocksize):
    est = estimate(big(version)).to_document()
    fs, vol = est["datasets"]
    assert fs["compression"] == compression
    assert vol["block_size_bytes"] == volblocksize


def refusing(est: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in est["risks"] if r["code"] == "zpool-refuses"]


def test_draid_before_2_1_is_refused_with_zpools_words():
    doc = {"name": "tank", "openzfs_version": "2.0",
           "vdevs": [{"role": "data", "layout": "draid2", "width": 24, "draid_spares": 2, "disk": DISK}]}
    (r,) = refusing(estimate(parse_design(doc)).to_document())
    assert r["severity"] == "critical" and r["subject"] == "vdevs[0]"
    assert "cannot open 'draid2:8d:24c:2s': no such device in /dev" in r["detail"]
    doc["openzfs_version"] = "2.1"
    assert refusing(estimate(parse_design(doc)).to_document()) == []


def test_raidz_special_vdevs_are_refused_before_2_4():
    special = {"role": "special", "layout": "raidz1", "width": 3,
               "disk": {"size_bytes": "960GB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096}}
    d23 = big("2.3", vdevs=[{"role": "data", "layout": "raidz2", "width": 6, "disk": DISK}, special])
    (r,) = refusing(estimate(d23).to_document())
    assert "invalid vdev specification: unsupported 'special' device: raidz" in r["detail"]
    d24 = big("2.4", vdevs=[{"role": "data", "layout": "raidz2", "width": 6, "disk": DISK}, special])
    assert refusing(estimate(d24).to_document()) == []


def test_zstd_before_2_0_is_refused_by_zfs_create():
    d = big("0.8", datasets=[{"name": "tank/z", "compression": "zstd"}])
    (r,) = refusing(estimate(d).to_document())
    assert r["subject"] == "datasets[0]" and "'compression' must be one of 'on | off | lzjb" in r["detail"]


def test_docs_have_the_per_version_table():
    text = (ROOT / "docs" / "capacity.md").read_text()
    assert feature_table_markdown() in text
    assert point_release_table_markdown() in text
    for f in FEATURES.values():
        assert f.source.split()[0] in text


def test_a_design_holds_its_release_typed_and_keeps_the_spelling_it_was_given():
    """``Design.openzfs_version`` is a ``Version``, read once from the document's text; a series
    stands for its release and is written back and printed as the series it was."""
    def doc(version: str | None) -> dict:
        disk = {"size_bytes": 10**12}
        out = {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": disk}]}
        return out if version is None else {**out, "openzfs_version": version}

    series = parse_design(doc("2.2"))
    assert series.openzfs_version == series.release == Version(2, 2, 2)
    assert series.version == "2.2" and design_to_document(series)["openzfs_version"] == "2.2"
    release = parse_design(doc("2.2.2"))
    assert release.release == series.release and design_to_document(release)["openzfs_version"] == "2.2.2"
    assert release.version == "2.2.2"
    unnamed = parse_design(doc(None))
    assert unnamed.openzfs_version is None and unnamed.release == Version(2, 3, 9) and unnamed.version == "2.3"
    assert "openzfs_version" not in design_to_document(unnamed)
    assert V("2.3").name == "2.3" and Version(2, 3, 9).name == "2.3.9"

