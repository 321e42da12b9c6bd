"""The design's planning fields: parsing with named errors, and contents.files_per_directory."""

from __future__ import annotations

import pytest

from zfsplanner.core.capacity.placement import AllocTarget
from zfsplanner.core.datasets.directories import FILES_PER_DIRECTORY, MZAP_MAX_ENTRIES
from zfsplanner.core.datasets.usage import dataset_usage
from zfsplanner.core.design.planning import DEFAULT_SPECIAL_HEADROOM, read_planning
from zfsplanner.core.design.types import Contents, Dataset, InvalidDesign, Layout
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.versions import Version

DISK = {"size_bytes": "4TB"}


def doc(**extra):
    return {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": DISK}], **extra}


def errors(**extra) -> dict[str, str]:
    with pytest.raises(InvalidDesign) as exc:
        parse_design(doc(**extra))
    return dict(exc.value.errors)


def test_planning_keys_are_kept_and_round_trip():
    d = doc(special_headroom_fraction=0.5, reliability={"afr": {"hdd": 0.02}}, performance={"disk": {}})
    design = parse_design(d)
    assert design.extra["special_headroom_fraction"] == 0.5
    assert parse_design(design_to_document(design)) == design
    s = read_planning(design.extra, 1)
    assert s.special_headroom_fraction == 0.5 and s.reliability.afr == {"hdd": 0.02}
    assert read_planning({}, 1).special_headroom_fraction == DEFAULT_SPECIAL_HEADROOM


def test_bad_planning_values_name_their_field():
    e = errors(
        special_headroom_fraction="lots",
        reliability={"afr": {"ST1": 1.5}, "ure_per_bit": {"tape": 1e-15, "hdd": 0.5}, "fill_fraction": 0,
                     "rebuild_bytes_per_s": {"vdevs[1]": 1e8, "data": 1e8}, "replacement_hours": -1},
        performance={"disk": {"ST1": {"random_read_iops": -5, "speed": 3}}},
    )
    assert "special_headroom_fraction" in e
    assert "above 0 and at most 1" in e["reliability.afr.ST1"]
    assert "hdd, ssd, nvme" in e["reliability.ure_per_bit.tape"]
    assert "reliability.ure_per_bit.hdd" in e
    assert "reliability.fill_fraction" in e
    assert "vdevs[0] to vdevs[0]" in e["reliability.rebuild_bytes_per_s.vdevs[1]"]
    assert "reliability.rebuild_bytes_per_s.data" in e
    assert "reliability.replacement_hours" in e
    assert "performance.disk.ST1.random_read_iops" in e
    assert "is not a disk figure" in e["performance.disk.ST1.speed"]
    assert errors(reliability=[1]) == {"reliability": "must be an object"}


# --------------------------------------------------------------------------- files per directory


def test_files_per_directory_is_read_validated_and_exported():
    ds = {"name": "tank/a", "contents": {"file_count": 10, "files_per_directory": 500}}
    design = parse_design(doc(datasets=[ds]))
    assert design.datasets[0].contents.files_per_directory == 500
    assert design_to_document(design)["datasets"][0]["contents"]["files_per_directory"] == 500
    bad = {"name": "tank/a", "contents": {"files_per_directory": 0}}
    assert "at least 1" in errors(datasets=[bad])["datasets[0].contents.files_per_directory"]


def _meta(files: int, per_dir: int | None) -> int:
    ds = Dataset(name="tank/fs", compression="lz4",
                 contents=Contents(file_count=files, logical_bytes=files * 10_000, files_per_directory=per_dir))
    u = dataset_usage(ds, version=Version.parse("2.3"), normal=[AllocTarget.for_vdev(Layout.MIRROR, 2, 12)],
                      spa_min_alloc=4096, spa_gcd_alloc=4096)
    return u.metadata_allocated_bytes


def test_the_default_is_a_tree_not_one_directory():
    assert FILES_PER_DIRECTORY == 64
    assert _meta(100_000, None) == _meta(100_000, 64)
    assert _meta(100_000, None) != _meta(100_000, 100_000)


def test_a_directory_past_the_micro_zap_limit_becomes_a_fat_zap():
    # Same files; directories of 2,046 entries (files + the parent's entry: still a micro ZAP)
    # against 2,048 (a fat ZAP of 16 KiB leaves): the fat ZAPs cost clearly more per entry.
    micro = _meta(2045 * 40, 2045)
    fat = _meta(2048 * 40, 2048)
    assert MZAP_MAX_ENTRIES == 2047
    # dnodes cost the same per file (256 B at ashift 12 with two copies); the fat ZAP adds
    # 16 KiB leaves about 60 % full on top of what a micro ZAP's 64 B chunks compress to
    assert fat / (2048 * 40) - micro / (2045 * 40) > 32
