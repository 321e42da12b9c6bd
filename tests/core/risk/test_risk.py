"""Risk rules: each code fires on a design that has the problem and stays quiet on one that doesn't."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.metaslab import metaslab_shift
from zfsplanner.core.naming import element_label
from zfsplanner.core.properties.resolve import block_size
from zfsplanner.core.risk.fixes import design_fix
from zfsplanner.core.risk.layout import leaf_asize, replacement_min_bytes
from zfsplanner.core.risk.registry import (
    RISK_CATALOG,
    DatasetFigure,
    Risk,
    RiskFigures,
    Severity,
    assess,
    catalog_markdown,
    sort_risks,
)
from zfsplanner.core.units import parse_zfs_size

ROOT = Path(__file__).resolve().parents[3]
JSON_PATH = re.compile(r"\b(vdevs|datasets)\[\d|\b(host|extra)\.[a-z]")
SPEC = ROOT / "docs" / "spec" / "design-format.md"

HDD14 = {
    "model": "ST14000NM001G",
    "size_bytes": 14000519643136,
    "logical_sector_bytes": 512,
    "physical_sector_bytes": 4096,
    "media": "hdd",
}
HDD4 = {"size_bytes": 4000787030016, "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "hdd"}
HDD4KN = {"size_bytes": "8TB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096, "media": "hdd"}
SSD = {"size_bytes": "960GB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096, "media": "ssd", "plp": True}
SSD_NO_PLP = {**SSD, "plp": False}
NVME512 = {"size_bytes": "280GB", "logical_sector_bytes": 512, "physical_sector_bytes": 512, "media": "nvme"}


def vdev(role: str, layout: str, width: int, disk: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return {"role": role, "layout": layout, "width": width, "disk": disk or HDD14, **kw}


RAIDZ2 = vdev("data", "raidz2", 6)
SPECIAL3 = vdev("special", "mirror", 3, SSD)


def design(vdevs: list[dict[str, Any]], datasets: list[dict[str, Any]] | None = None, **kw: Any):
    doc: dict[str, Any] = {"name": "tank", "vdevs": vdevs, "datasets": datasets or [], **kw}
    return parse_design(doc)


def in_peoples_words(d, found: list[Risk]) -> list[Risk]:
    """Every risk names what it is about as a person would; only ``subject`` keeps the JSON path."""
    for r in found:
        for text in (r.title, r.detail, r.fix):
            assert not JSON_PATH.search(text), (r.code, text)
        if r.subject != "pool":
            assert element_label(d, r.subject).lower() in (r.title + " " + r.detail).lower(), (r.code, r.title)
    return found


def risks(d, figures: RiskFigures | None = None, code: str | None = None) -> list[Risk]:
    out = in_peoples_words(d, assess(d, figures))
    return [r for r in out if code is None or r.code == code]


def codes(d, figures: RiskFigures | None = None) -> set[str]:
    return {r.code for r in in_peoples_words(d, assess(d, figures))}


def sane_design():
    """6 × 14 TB raidz2 with a 3-way mirrored special vdev: as redundant as the data vdev."""
    return design(
        [RAIDZ2, SPECIAL3],
        [
            {"name": "tank/media", "recordsize": "1M", "compression": "zstd", "special_small_blocks": "64K"},
            {"name": "tank/home", "compression": "lz4"},
        ],
    )


# --------------------------------------------------------------------------- the sane design


def test_sane_design_raises_only_the_irremovable_special_vdev():
    assert codes(sane_design()) == {"special-vdev-irremovable"}


def test_sane_design_with_comfortable_figures_stays_quiet():
    figures = RiskFigures(
        zfs_avail_bytes=50 * 10**12,
        planned_used_bytes=20 * 10**12,
        special_usable_bytes=900 * 10**9,
        special_planned_bytes=300 * 10**9,
        ram_bytes=64 * 1024**3,
    )
    assert codes(sane_design(), figures) == {"special-vdev-irremovable"}


def test_plain_raidz2_pool_raises_nothing():
    assert assess(design([RAIDZ2], [{"name": "tank/data"}])) == []


# --------------------------------------------------------------------------- catalog, docs, order


def test_catalog_has_every_code_of_the_spec_table():
    table = SPEC.read_text().split("## Risk codes", 1)[1]
    spec_codes = set(re.findall(r"^\| `([a-z0-9-]+)` \|", table, re.M))
    assert len(spec_codes) == 22
    assert spec_codes <= set(RISK_CATALOG)


def test_catalog_codes_are_keys_of_themselves():
    for code, spec in RISK_CATALOG.items():
        assert spec.code == code
        assert spec.reference and spec.when


def test_docs_list_every_code_with_the_generated_table():
    text = (ROOT / "docs" / "risks.md").read_text()
    assert catalog_markdown() in text
    for code in RISK_CATALOG:
        assert f"`{code}`" in text


def test_risks_are_sorted_by_severity_then_code_then_subject():
    def r(sev: Severity, code: str, subject: str) -> Risk:
        return Risk(code, sev, "", "", "", "", subject)

    unsorted = [
        r(Severity.INFO, "a", "vdevs[0]"),
        r(Severity.WARNING, "b", "vdevs[10]"),
        r(Severity.WARNING, "b", "vdevs[2]"),
        r(Severity.CRITICAL, "z", "pool"),
        r(Severity.WARNING, "a", "vdevs[9]"),
    ]
    assert [(x.severity, x.code, x.subject) for x in sort_risks(unsorted)] == [
        (Severity.CRITICAL, "z", "pool"),
        (Severity.WARNING, "a", "vdevs[9]"),
        (Severity.WARNING, "b", "vdevs[2]"),
        (Severity.WARNING, "b", "vdevs[10]"),
        (Severity.INFO, "a", "vdevs[0]"),
    ]


def bad_design():
    return design(
        [
            vdev("data", "raidz1", 14),
            vdev("data", "mirror", 2, HDD4),
            vdev("special", "stripe", 1, NVME512),
            vdev("log", "stripe", 1, SSD_NO_PLP),
            vdev("cache", "stripe", 1, {"size_bytes": "4TB", "media": "hdd"}),
            vdev("spare", "stripe", 1, HDD4),
            vdev("dedup", "mirror", 2, SSD),
        ],
        [
            {
                "name": "tank/vm",
                "type": "volume",
                "volsize": "100G",
                "volblocksize": "8K",
                "special_small_blocks": "8K",
            },
            {"name": "tank/fast", "sync": "disabled", "special_small_blocks": "128K"},
        ],
        extra_key=1,
    )


def test_assess_is_sorted_and_deterministic():
    first = assess(bad_design())
    assert first == sort_risks(first)
    assert first == assess(bad_design())
    ranks = [{"critical": 0, "warning": 1, "info": 2}[r.severity.value] for r in first]
    assert ranks == sorted(ranks)


def test_example_and_test_designs_name_parts_in_words_not_json_paths():
    paths = sorted([*(ROOT / "examples").glob("*.json"), *(ROOT / "tests" / "plans" / "designs").glob("*.json")])
    seen = set()
    for path in paths:
        doc = json.loads(path.read_text())
        found = estimate(parse_design(doc)).risks
        for r in found:
            for text in (r.title, r.detail, r.fix):
                assert not JSON_PATH.search(text), (path.name, r.code, text)
            fix = design_fix(r, parse_design(doc))  # the one-click fix's button label, where there is one
            assert fix is None or not JSON_PATH.search(fix.label), (path.name, fix.label)
            assert re.fullmatch(r"(vdevs|datasets)\[\d+\]|pool", r.subject)  # the API field keeps the path
            seen.add(r.code)
    assert len(paths) >= 6 and len(seen) >= 5, seen


def test_every_risk_names_its_subject_and_has_all_texts():
    d = bad_design()
    found = assess(d)
    assert len({r.code for r in found}) >= 12
    for r in found:
        assert r.code in RISK_CATALOG
        assert r.title and r.detail and r.fix and r.reference
        m = re.fullmatch(r"(vdevs|datasets)\[(\d+)\]", r.subject)
        assert m or r.subject == "pool"
        if m:
            assert element_label(d, r.subject).lower() in (r.title + " " + r.detail).lower()
        for text in (r.title, r.detail, r.fix):
            assert not JSON_PATH.search(text), (r.code, text)


# --------------------------------------------------------------------------- special class


def test_special_irremovable_fires_on_raidz_pool():
    (r,) = risks(design([RAIDZ2, SPECIAL3]), code="special-vdev-irremovable")
    assert r.subject == "vdevs[1]" and r.severity == Severity.WARNING
    assert "the data vdev (group 1: 6-wide raidz2)" in r.detail
    assert r.title == "The special mirror (group 2: 3-way mirror) can never be removed"


def test_special_irremovable_fires_on_mirror_pool_with_other_ashift():
    d = design([vdev("data", "mirror", 2), vdev("special", "mirror", 2, NVME512)])
    (r,) = risks(d, code="special-vdev-irremovable")
    assert "ashift 9 differs from the data vdevs' 12" in r.detail


def test_special_irremovable_quiet_on_mirror_pool_with_one_ashift():
    d = design([vdev("data", "mirror", 2, count=2), vdev("special", "mirror", 2, SSD)])
    assert risks(d, code="special-vdev-irremovable") == []


def test_special_irremovable_also_covers_dedup_vdevs():
    d = design([RAIDZ2, vdev("dedup", "mirror", 3, SSD)], [{"name": "tank/d", "dedup": "on"}])
    assert [r.subject for r in risks(d, code="special-vdev-irremovable")] == ["vdevs[1]"]


def test_special_redundancy_below_data_fires_for_two_way_mirror_on_raidz2():
    (r,) = risks(design([RAIDZ2, vdev("special", "mirror", 2, SSD)]), code="special-redundancy-below-data")
    assert "survives 1 disk failure(s); the data vdevs survive 2" in r.detail
    assert "3-way mirror" in r.fix


def test_special_redundancy_quiet_when_matching():
    assert risks(design([RAIDZ2, SPECIAL3]), code="special-redundancy-below-data") == []
    d = design([vdev("data", "mirror", 2), vdev("special", "mirror", 2, SSD)])
    assert risks(d, code="special-redundancy-below-data") == []


def special_figures(planned: int) -> RiskFigures:
    return RiskFigures(special_usable_bytes=1000 * 10**9, special_planned_bytes=planned)


def test_special_undersized_at_75_percent_with_small_blocks():
    d = sane_design()
    (r,) = risks(d, special_figures(800 * 10**9), code="special-vdev-undersized")
    assert r.subject == "vdevs[1]" and "75%" in r.detail and "tank/media" in r.detail
    assert risks(d, special_figures(700 * 10**9), code="special-vdev-undersized") == []


def test_special_undersized_at_100_percent_for_metadata_only():
    d = design([RAIDZ2, SPECIAL3], [{"name": "tank/a"}])
    assert risks(d, special_figures(900 * 10**9), code="special-vdev-undersized") == []
    assert len(risks(d, special_figures(1100 * 10**9), code="special-vdev-undersized")) == 1


def test_special_undersized_skipped_without_figures():
    assert risks(sane_design(), None, code="special-vdev-undersized") == []
    assert risks(sane_design(), RiskFigures(special_usable_bytes=1), code="special-vdev-undersized") == []


def test_small_blocks_capture_all_when_threshold_reaches_recordsize():
    d = design([RAIDZ2, SPECIAL3], [{"name": "tank/db", "recordsize": "16K", "special_small_blocks": "16K"}])
    (r,) = risks(d, code="special-small-blocks-captures-all")
    assert r.subject == "datasets[0]" and "recordsize=16K" in r.detail


def test_small_blocks_capture_all_uses_default_and_inherited_recordsize():
    d = design(
        [RAIDZ2, SPECIAL3],
        [{"name": "tank/a", "special_small_blocks": "128K"}, {"name": "tank/a/b"}, {"name": "tank/c"}],
    )
    assert [r.subject for r in risks(d, code="special-small-blocks-captures-all")] == ["datasets[0]", "datasets[1]"]


def test_small_blocks_capture_all_quiet_below_recordsize_or_without_special():
    d = design([RAIDZ2, SPECIAL3], [{"name": "tank/a", "recordsize": "1M", "special_small_blocks": "512K"}])
    assert risks(d, code="special-small-blocks-captures-all") == []
    d = design([RAIDZ2], [{"name": "tank/a", "special_small_blocks": "128K"}])
    assert risks(d, code="special-small-blocks-captures-all") == []


def test_small_blocks_capture_all_on_zvol_only_from_2_4():
    ds = [{"name": "tank/v", "type": "volume", "volsize": "10G", "special_small_blocks": "16K"}]
    assert len(risks(design([RAIDZ2, SPECIAL3], ds, openzfs_version="2.4"), code="special-small-blocks-captures-all"))
    assert risks(design([RAIDZ2, SPECIAL3], ds, openzfs_version="2.3"), code="special-small-blocks-captures-all") == []


def test_small_blocks_on_volume_before_2_4():
    ds = [{"name": "tank/v", "type": "volume", "volsize": "10G", "special_small_blocks": "4K"}]
    (r,) = risks(design([RAIDZ2, SPECIAL3], ds, openzfs_version="2.3"), code="special-small-blocks-volume")
    assert "tank/v" in r.title
    assert risks(design([RAIDZ2, SPECIAL3], ds, openzfs_version="2.4"), code="special-small-blocks-volume") == []


@pytest.mark.parametrize(
    ("value", "version", "fires"),
    [("48K", "2.3", True), ("2M", "2.2", True), ("48K", "2.4", False), ("64K", "2.3", False)],
)
def test_small_blocks_value_rules_before_2_4(value: str, version: str, fires: bool):
    d = design([RAIDZ2, SPECIAL3], [{"name": "tank/a", "special_small_blocks": value}], openzfs_version=version)
    assert bool(risks(d, code="special-small-blocks-value")) is fires


def test_small_blocks_without_special_vdev():
    d = design(
        [RAIDZ2], [{"name": "tank/a", "special_small_blocks": "32K"}, {"name": "tank/b", "special_small_blocks": 0}]
    )
    assert [r.subject for r in risks(d, code="special-small-blocks-without-special")] == ["datasets[0]"]
    assert risks(sane_design(), code="special-small-blocks-without-special") == []


# --------------------------------------------------------------------------- ashift


def test_ashift_below_physical_fires_for_explicit_ashift_9_on_4k_disks():
    (r,) = risks(design([vdev("data", "raidz2", 6, ashift=9)]), code="ashift-below-physical-sector")
    assert r.subject == "vdevs[0]" and "4096-byte physical sectors" in r.detail and "ashift=12" in r.fix
    assert "vdev_open() raises" not in r.detail


def test_ashift_below_logical_says_zfs_raises_it():
    (r,) = risks(design([vdev("data", "mirror", 2, HDD4KN, ashift=9)]), code="ashift-below-physical-sector")
    assert "raises the ashift to 12" in r.detail


def test_ashift_quiet_when_absent_or_matching():
    assert risks(design([vdev("data", "raidz2", 6)]), code="ashift-below-physical-sector") == []
    assert risks(design([vdev("data", "raidz2", 6, ashift=12)]), code="ashift-below-physical-sector") == []
    assert risks(design([vdev("data", "raidz2", 6, ashift=13)]), code="ashift-below-physical-sector") == []


def test_mixed_ashift_between_special_and_data():
    (r,) = risks(design([RAIDZ2, vdev("special", "mirror", 3, NVME512)]), code="mixed-ashift")
    assert r.subject == "vdevs[1]" and "ashift 9" in r.detail and "12" in r.detail


def test_mixed_ashift_names_the_groups_as_the_designer_lists_them():
    d = design([RAIDZ2, vdev("special", "mirror", 2, NVME512)])
    (r,) = risks(d, code="mixed-ashift")
    assert r.subject == "vdevs[1]"  # the API field keeps the path
    assert r.title == "The special mirror (group 2) has ashift 9, the first data vdev 12"
    assert r.detail.startswith("The special mirror (group 2) has ashift 9 (")


def test_risks_name_datasets_and_volumes():
    d = design(
        [RAIDZ2, SPECIAL3],
        [
            {"name": "tank/media", "recordsize": "64K", "special_small_blocks": "64K", "sync": "disabled"},
            {"name": "tank/vm-100-disk-0", "type": "volume", "volsize": "32G", "volblocksize": "8K"},
        ],
    )
    by_code = {r.code: r for r in risks(d)}
    assert by_code["sync-disabled"].title == "sync=disabled on dataset tank/media"
    captured = by_code["special-small-blocks-captures-all"]
    assert captured.title == "All data of dataset tank/media goes to the special class"
    padding = by_code["raidz-padding-overhead"]
    assert padding.subject == "datasets[1]"
    assert padding.title.startswith("8K blocks of volume tank/vm-100-disk-0 cost ")
    assert padding.title.endswith(" on the data vdev (group 1: 6-wide raidz2)")
    assert "Raise volblocksize on volume tank/vm-100-disk-0" in padding.fix


def test_zpool_refuses_names_the_group():
    d = design([vdev("data", "draid2", 24, draid_spares=2)], openzfs_version="2.0")
    (r,) = risks(d, code="zpool-refuses")
    assert r.subject == "vdevs[0]"
    assert r.title == "zpool create on OpenZFS 2.0 refuses the data vdev (group 1: draid2:8d:24c:2s)"
    assert "or change the data vdev (group 1: draid2:8d:24c:2s) to what OpenZFS 2.0 accepts" in r.fix


def test_plural_groups_agree_with_their_verbs():
    d = design([vdev("data", "raidz2", 6, count=2), vdev("special", "mirror", 2, SSD, count=2)])
    (r,) = risks(d, code="special-redundancy-below-data")
    assert r.title == "The special mirrors (group 2: 2 × 2-way mirror) tolerate fewer failures than the data vdevs"
    assert r.detail.startswith("The special mirrors (group 2: 2 × 2-way mirror) survive 1 disk failure(s)")


def test_mixed_ashift_between_data_vdevs():
    d = design([vdev("data", "mirror", 2), vdev("data", "mirror", 2, ashift=13)])
    assert [r.subject for r in risks(d, code="mixed-ashift")] == ["vdevs[1]"]


def test_mixed_ashift_ignores_log_and_cache():
    d = design(
        [RAIDZ2, SPECIAL3, vdev("log", "mirror", 2, {**NVME512, "plp": True}), vdev("cache", "stripe", 1, NVME512)]
    )
    assert risks(d, code="mixed-ashift") == []


# --------------------------------------------------------------------------- layout


def test_padding_overhead_for_16k_zvol_on_10_wide_raidz2():
    d = design(
        [vdev("data", "raidz2", 10)], [{"name": "tank/vm", "type": "volume", "volsize": "50G", "volblocksize": "16K"}]
    )
    (r,) = risks(d, code="raidz-padding-overhead")
    # 16K at ashift 12: 4 data + 2 parity = 6 sectors = 24K (reference §1.1); nominal 10/8 = 1.25
    assert "6 sectors = 24K, 1.50× its size" in r.detail and "1.25×" in r.detail
    assert r.subject == "datasets[0]"


def test_padding_overhead_for_8k_zvol_on_6_wide_raidz2():
    d = design([RAIDZ2], [{"name": "tank/vm", "type": "volume", "volsize": "50G", "volblocksize": "8K"}])
    (r,) = risks(d, code="raidz-padding-overhead")
    assert "24K, 3.00×" in r.detail  # reference §1.1: 8 KiB on 6-wide Z2 is 24 KiB


def test_padding_overhead_quiet_for_16k_zvol_on_6_wide_raidz2_and_on_mirrors():
    ds = [{"name": "tank/vm", "type": "volume", "volsize": "50G", "volblocksize": "16K"}, {"name": "tank/f"}]
    assert risks(design([RAIDZ2], ds), code="raidz-padding-overhead") == []
    assert risks(design([vdev("data", "mirror", 2)], ds), code="raidz-padding-overhead") == []


def test_padding_overhead_default_volblocksize_depends_on_version():
    ds = [{"name": "tank/vm", "type": "volume", "volsize": "50G"}]
    assert risks(design([RAIDZ2], ds, openzfs_version="2.1"), code="raidz-padding-overhead")
    assert risks(design([RAIDZ2], ds, openzfs_version="2.2"), code="raidz-padding-overhead") == []


def test_padding_overhead_on_draid_small_blocks():
    d = design(
        [vdev("data", "draid2", 24, HDD4, draid_data=8, draid_spares=2)],
        [{"name": "tank/db", "recordsize": "16K"}],
    )
    (r,) = risks(d, code="raidz-padding-overhead")
    assert "10 sectors = 40K, 2.50×" in r.detail  # reference §1.2


def test_padding_overhead_uses_figures_when_given():
    d = design([RAIDZ2], [{"name": "tank/a"}])
    high = RiskFigures(datasets=(DatasetFigure("tank/a", 0, 131072, 0.5, 1 / 3),))
    low = RiskFigures(datasets=(DatasetFigure("tank/a", 0, 131072, 0.34, 1 / 3),))
    (r,) = risks(d, high, code="raidz-padding-overhead")
    assert "50%" in r.detail and "2.00×" in r.detail
    assert risks(d, low, code="raidz-padding-overhead") == []


def test_draid_compression_loss_for_blocks_between_one_and_two_units():
    draid = vdev("data", "draid2", 24, HDD4, draid_data=8, draid_spares=2)
    d = design([draid], [{"name": "tank/a", "recordsize": "64K", "compression": "lz4"}])
    (r,) = risks(d, code="draid-compression-loss")
    assert "32K" in r.detail and r.severity == Severity.INFO
    quiet = [
        {"name": "tank/b", "recordsize": "1M", "compression": "zstd"},
        {"name": "tank/c", "recordsize": "64K", "compression": "off"},
    ]
    assert risks(design([draid], quiet), code="draid-compression-loss") == []
    assert (
        risks(
            design([RAIDZ2], [{"name": "tank/a", "recordsize": "64K", "compression": "lz4"}]),
            code="draid-compression-loss",
        )
        == []
    )


def test_single_parity_large_disks():
    (r,) = risks(design([vdev("data", "raidz1", 5)]), code="single-parity-large-disks")
    assert "14.00 TB" in r.detail and "8 TB" in r.detail
    assert len(risks(design([vdev("data", "mirror", 2, count=3)]), code="single-parity-large-disks")) == 1


def test_single_parity_quiet_for_small_disks_ssds_and_double_parity():
    assert risks(design([vdev("data", "raidz1", 5, HDD4)]), code="single-parity-large-disks") == []
    assert (
        risks(design([vdev("data", "raidz1", 5, {**SSD, "size_bytes": "15.36TB"})]), code="single-parity-large-disks")
        == []
    )
    assert risks(design([RAIDZ2, vdev("data", "raidz2", 6)]), code="single-parity-large-disks") == []
    assert risks(design([vdev("data", "mirror", 3)]), code="single-parity-large-disks") == []


@pytest.mark.parametrize(
    ("layout", "width", "fires"),
    [
        ("raidz1", 9, True),
        ("raidz1", 8, False),
        ("raidz2", 13, True),
        ("raidz2", 12, False),
        ("raidz3", 17, True),
        ("raidz3", 16, False),
    ],
)
def test_wide_raidz_thresholds(layout: str, width: int, fires: bool):
    found = risks(design([vdev("data", layout, width, HDD4)]), code="wide-raidz")
    assert bool(found) is fires
    if fires:
        assert f"{width}-wide" in found[0].title and str(4 * (int(layout[-1]) + 1)) in found[0].detail


def test_wide_raidz_ignores_draid():
    assert risks(design([vdev("data", "draid2", 60, HDD4, draid_spares=2)]), code="wide-raidz") == []


def test_mixed_vdev_redundancy():
    d = design([RAIDZ2, vdev("data", "mirror", 2)])
    (r,) = risks(d, code="mixed-vdev-redundancy")
    assert r.subject == "vdevs[1]" and "mismatched replication level" in r.detail
    assert len(risks(design([vdev("data", "mirror", 2), vdev("data", "mirror", 3)]), code="mixed-vdev-redundancy")) == 1


def test_mixed_vdev_redundancy_quotes_zpools_own_message():
    (r,) = risks(design([RAIDZ2, vdev("data", "mirror", 2)]), code="mixed-vdev-redundancy")
    assert (
        '"mismatched replication level: raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are '
        'present"' in r.detail
    )
    # raidz2 and a 3-way mirror survive the same failures: a risk (different families), but zpool accepts them
    (r,) = risks(design([RAIDZ2, vdev("data", "mirror", 3)]), code="mixed-vdev-redundancy")
    assert "accepts the two side by side without -f" in r.detail and "mismatched" not in r.detail


def test_special_redundancy_below_data_quotes_zpool():
    (r,) = risks(design([RAIDZ2, vdev("special", "mirror", 2, SSD)]), code="special-redundancy-below-data")
    assert "raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present" in r.detail


def test_mixed_vdev_redundancy_quiet_for_same_parity_different_width():
    d = design([RAIDZ2, vdev("data", "raidz2", 8), vdev("data", "raidz2", 6, count=2)])
    assert risks(d, code="mixed-vdev-redundancy") == []


def test_non_redundant_vdev_for_data_and_special():
    d = design([vdev("data", "stripe", 1, count=3), vdev("special", "stripe", 1, SSD)])
    found = risks(d, code="non-redundant-vdev")
    assert [r.subject for r in found] == ["vdevs[0]", "vdevs[1]"]
    assert all(r.severity == Severity.CRITICAL for r in found)
    assert found[0].title == "The data vdevs (group 1: 3 single disks) have no redundancy"
    assert "each of its 3 disks is a top-level vdev of the data class" in found[0].detail
    assert found[1].title == "The special disk (group 2) has no redundancy"
    assert found[1].fix.startswith("Mirror the special disk (group 2) ")


def test_non_redundant_vdev_quiet_for_single_cache_spare_or_log():
    d = design([RAIDZ2, vdev("cache", "stripe", 1, SSD), vdev("spare", "stripe", 1), vdev("log", "stripe", 1, SSD)])
    assert risks(d, code="non-redundant-vdev") == []


def test_mixed_disk_sizes():
    g = {"role": "data", "layout": "mirror", "width": 2, "disks": [{"size_bytes": "10TB"}, {"size_bytes": "12TB"}]}
    (r,) = risks(design([g]), code="mixed-disk-sizes")
    assert "10.00 TB to 12.00 TB" in r.detail and "2.00 TB" in r.detail


def test_mixed_disk_sizes_quiet_for_tiny_differences():
    g = {
        "role": "data",
        "layout": "mirror",
        "width": 2,
        "disks": [{"size_bytes": 14000519643136}, {"size_bytes": "14TB"}],
    }
    assert risks(design([g]), code="mixed-disk-sizes") == []


def test_leaf_asize_and_metaslabs_match_reference_example():
    d = design([vdev("data", "raidz2", 6, HDD4)])
    leaf = leaf_asize(d, d.vdevs[0], 4000787030016)
    assert leaf == 4000771997696  # reference §2.2 worked example
    assert metaslab_shift(6 * leaf) == 34 and (6 * leaf) >> 34 == 1397


def test_spare_too_small():
    d = design([RAIDZ2, vdev("spare", "stripe", 1, {"size_bytes": "12TB"})])
    (r,) = risks(d, code="spare-too-small")
    assert r.subject == "vdevs[1]" and "less than a replacement for the data vdev (group 1: 6-wide raidz2)" in r.detail
    assert r.title == "The hot spare (group 2) is too small to replace the disks of the pool"


def test_spare_of_same_nominal_size_but_fewer_bytes_is_fine():
    d = design([RAIDZ2, vdev("spare", "stripe", 1, {"size_bytes": "14TB"})])
    assert replacement_min_bytes(d, d.vdevs[0]) <= leaf_asize(d, d.vdevs[1], 14 * 10**12)
    assert risks(d, code="spare-too-small") == []


# --------------------------------------------------------------------------- log and cache


def test_slog_without_plp_warning_when_false_info_when_unknown():
    (r,) = risks(design([RAIDZ2, vdev("log", "mirror", 2, SSD_NO_PLP)]), code="slog-without-plp")
    assert r.severity == Severity.WARNING
    unknown = {k: v for k, v in SSD.items() if k != "plp"}
    (r,) = risks(design([RAIDZ2, vdev("log", "mirror", 2, unknown)]), code="slog-without-plp")
    assert r.severity == Severity.INFO


def test_slog_with_plp_is_fine():
    assert risks(design([RAIDZ2, vdev("log", "mirror", 2, SSD)]), code="slog-without-plp") == []


def test_slog_unmirrored():
    (r,) = risks(design([RAIDZ2, vdev("log", "stripe", 1, SSD)]), code="slog-unmirrored")
    assert r.severity == Severity.INFO and r.subject == "vdevs[1]"
    assert risks(design([RAIDZ2, vdev("log", "mirror", 2, SSD)]), code="slog-unmirrored") == []


def test_log_and_cache_on_hdd():
    hdd = {"size_bytes": "1TB", "media": "hdd"}
    d = design([RAIDZ2, vdev("log", "mirror", 2, hdd), vdev("cache", "stripe", 1, hdd)])
    assert {r.code for r in assess(d)} >= {"slog-on-hdd", "l2arc-on-hdd"}
    assert "slog-without-plp" not in codes(d)
    d = design([RAIDZ2, vdev("log", "mirror", 2, SSD), vdev("cache", "stripe", 1, SSD)])
    assert not codes(d) & {"slog-on-hdd", "l2arc-on-hdd"}


def cache_design(size: str, recordsize: str, **kw: Any):
    return design(
        [RAIDZ2, vdev("cache", "stripe", 1, {**SSD, "size_bytes": size})],
        [{"name": "tank/a", "recordsize": recordsize}],
        **kw,
    )


def test_l2arc_memory_against_ram():
    # 2 TB at 16K: 2e12 / 16384 × 96 B = 10.9 GiB of headers, 34% of 32 GiB
    d = cache_design("2TB", "16K", host={"ram_bytes": 32 * 1024**3})
    (r,) = risks(d, code="l2arc-memory")
    assert r.severity == Severity.WARNING and "34%" in r.detail and "32.00 GiB" in r.detail


def test_l2arc_memory_quiet_when_small_against_ram():
    # 1 TB at 128K: 0.68 GiB of headers, 1% of 64 GiB
    assert risks(cache_design("1TB", "128K"), RiskFigures(ram_bytes=64 * 1024**3), code="l2arc-memory") == []


def test_l2arc_memory_without_ram_is_info_above_one_gib():
    (r,) = risks(cache_design("2TB", "16K"), code="l2arc-memory")
    assert r.severity == Severity.INFO and "does not give the host's RAM" in r.detail
    assert r.title == "L2ARC on the cache disk (group 2) needs 10.9 GiB of RAM for headers"
    assert risks(cache_design("256GB", "128K"), code="l2arc-memory") == []


def dedup_design(**kw: Any):
    return design(
        [RAIDZ2],
        [{"name": "tank/d", "dedup": "on", "recordsize": "128K", "contents": {"logical_bytes": 10 * 1024**4}}],
        **kw,
    )


def test_dedup_memory_against_ram():
    # 10 TiB / 128K = 83,886,080 unique blocks; fast dedup (2.3): 182 to a leaf, 2**19 leaves of 160 and
    # a few split further: 213 B each in core, 16.65 GiB, 104% of 16 GiB
    (r,) = risks(dedup_design(host={"ram_bytes": 16 * 1024**3}), code="dedup-memory")
    assert r.severity == Severity.WARNING and "83,886,080" in r.detail and "16.65 GiB in RAM" in r.detail


def test_dedup_memory_uses_traditional_entries_before_2_3():
    (r,) = risks(dedup_design(openzfs_version="2.2", host={"ram_bytes": 16 * 1024**3}), code="dedup-memory")
    # 319 to a leaf: 2**18 leaves would hold 320 each, so about half of them have split
    assert "traditional format" in r.detail and "154 B per block" in r.detail


def test_dedup_memory_quiet_with_plenty_of_ram_or_no_dedup():
    assert risks(dedup_design(host={"ram_bytes": 256 * 1024**3}), code="dedup-memory") == []
    assert risks(design([RAIDZ2], [{"name": "tank/d", "dedup": "off"}]), code="dedup-memory") == []


def test_dedup_memory_info_without_ram():
    (r,) = risks(dedup_design(), code="dedup-memory")
    assert r.severity == Severity.INFO


def test_dedup_vdev_without_dedup():
    d = design([vdev("data", "mirror", 2), vdev("dedup", "mirror", 2, SSD)])
    assert [r.subject for r in risks(d, code="dedup-vdev-without-dedup")] == ["vdevs[1]"]
    d = design([vdev("data", "mirror", 2), vdev("dedup", "mirror", 2, SSD)], [{"name": "tank/x", "dedup": "verify"}])
    assert risks(d, code="dedup-vdev-without-dedup") == []


# --------------------------------------------------------------------------- datasets and pool


def test_sync_disabled_names_inheriting_children():
    d = design([RAIDZ2], [{"name": "tank/scratch", "sync": "disabled"}, {"name": "tank/scratch/tmp"}])
    (r,) = risks(d, code="sync-disabled")
    assert r.subject == "datasets[0]" and "tank/scratch/tmp" in r.detail


def test_sync_standard_is_fine():
    d = design([RAIDZ2], [{"name": "tank/a", "sync": "standard"}, {"name": "tank/b", "sync": "always"}])
    assert risks(d, code="sync-disabled") == []


def test_pool_fill_high():
    (r,) = risks(sane_design(), RiskFigures(zfs_avail_bytes=100, planned_used_bytes=85), code="pool-fill-high")
    assert r.severity == Severity.WARNING and r.subject == "pool" and "85%" in r.title


def test_pool_fill_over_capacity_is_critical():
    (r,) = risks(sane_design(), RiskFigures(zfs_avail_bytes=100, planned_used_bytes=120), code="pool-fill-high")
    assert r.severity == Severity.CRITICAL and "do not fit" in r.detail


def test_pool_fill_falls_back_to_zpool_figures_and_stays_quiet_at_80():
    f = RiskFigures(zpool_size_bytes=1000, planned_allocated_bytes=900)
    assert len(risks(sane_design(), f, code="pool-fill-high")) == 1
    assert risks(sane_design(), RiskFigures(zfs_avail_bytes=100, planned_used_bytes=80), code="pool-fill-high") == []
    assert risks(sane_design(), RiskFigures(zfs_avail_bytes=100), code="pool-fill-high") == []


def test_boot_recordsize_by_name_and_by_flag():
    ds = [{"name": "bpool/BOOT", "recordsize": "1M"}]
    d = parse_design({"name": "bpool", "vdevs": [vdev("data", "mirror", 2, SSD)], "datasets": ds})
    (r,) = risks(d, code="boot-recordsize")
    assert r.subject == "datasets[0]" and "recordsize=1M" in r.detail
    d = design([vdev("data", "mirror", 2, SSD)], [{"name": "tank/BOOT", "recordsize": "1M"}], boot=True)
    assert len(risks(d, code="boot-recordsize")) == 1


def test_boot_recordsize_quiet_at_128k_or_on_data_pool():
    d = parse_design(
        {
            "name": "bpool",
            "vdevs": [vdev("data", "mirror", 2, SSD)],
            "datasets": [{"name": "bpool/BOOT", "recordsize": "128K"}],
        }
    )
    assert risks(d, code="boot-recordsize") == []
    assert risks(design([RAIDZ2], [{"name": "tank/a", "recordsize": "1M"}]), code="boot-recordsize") == []


def test_vm_sector_size_for_passed_through_4kn_disks():
    d = design([vdev("data", "mirror", 2, HDD4KN)], vm_passthrough=True)
    (r,) = risks(d, code="vm-sector-size")
    assert r.severity == Severity.WARNING and r.subject == "vdevs[0]" and "4Kn" in r.detail


def test_vm_sector_size_for_passed_through_512e_without_ashift_only():
    assert len(risks(design([vdev("data", "mirror", 2)], vm_passthrough=True), code="vm-sector-size")) == 1
    assert risks(design([vdev("data", "mirror", 2, ashift=12)], vm_passthrough=True), code="vm-sector-size") == []


def test_vm_sector_size_info_for_volumes_on_4kn_pool():
    ds = [{"name": "tank/vm", "type": "volume", "volsize": "10G"}, {"name": "tank/fs"}]
    (r,) = risks(design([vdev("data", "mirror", 2, HDD4KN)], ds), code="vm-sector-size")
    assert r.severity == Severity.INFO and r.subject == "datasets[0]"
    assert risks(design([vdev("data", "mirror", 2)], ds), code="vm-sector-size") == []


@pytest.mark.parametrize(
    ("dataset", "label", "value"),
    [
        # a zvol on 2.4 with the default volblocksize (16K): half of it, not half of 128K
        ({"name": "tank/vm", "type": "volume", "volsize": "100G", "special_small_blocks": "16K"}, "volblocksize", "8K"),
        # recordsize inherited from the parent, not the default 128K
        ({"name": "tank/media/sub", "special_small_blocks": "1M"}, "recordsize", "512K"),
    ],
)
def test_the_captures_all_fix_uses_the_block_size_in_force_and_clears_the_risk(dataset, label, value):
    datasets = [{"name": "tank/media", "recordsize": "1M"}, dataset]
    document = {"name": "tank", "openzfs_version": "2.4", "vdevs": [RAIDZ2, SPECIAL3], "datasets": datasets}
    d = parse_design(document)
    (r,) = risks(d, code="special-small-blocks-captures-all")
    fixed = design_fix(r, d)
    assert fixed is not None
    assert fixed.label == f"Set special_small_blocks={value} (below {label})"
    assert risks(fixed.design, code="special-small-blocks-captures-all") == []
    ds = fixed.design.datasets[1]
    assert ds.special_small_blocks == parse_zfs_size(value) < block_size(fixed.design, ds)


# --------------------------------------------------------------------------- wide mirrors


def test_a_6_way_mirror_says_what_its_copies_cost():
    d = design([vdev("data", "mirror", 6)])
    (r,) = risks(d, code="wide-mirror")
    assert r.severity == Severity.INFO
    assert r.title == "6-way mirror in the data vdev (group 1: 6-way mirror): 1/6 of the raw space is usable"
    assert "1/6 (16.7 %) of its raw space holds data" in r.detail
    assert "3 2-way mirrors hold 3 times as much" in r.detail


def test_mirrors_of_2_and_3_disks_are_not_wide():
    assert risks(design([vdev("data", "mirror", 3, count=2), SPECIAL3]), code="wide-mirror") == []
    assert len(risks(design([RAIDZ2, vdev("special", "mirror", 4, SSD)]), code="wide-mirror")) == 1


@pytest.mark.parametrize(
    ("data", "special", "words"),
    [
        ([vdev("data", "mirror", 2, ashift=12, count=2)], {"ashift": 12}, None),
        ([vdev("data", "mirror", 2, ashift=12, count=2)], {"ashift": 13},
         "its ashift 13 differs from the data vdevs' 12"),
        ([vdev("data", "mirror", 2, ashift=9), vdev("data", "mirror", 2, ashift=12)], {"ashift": 9},
         "the data vdevs differ in ashift (9, 12); its ashift 9 differs from the data vdevs' 12"),
        ([vdev("data", "raidz1", 3, ashift=12)], {"ashift": 12},
         "the pool has top-level vdevs with parity: the data vdev"),
    ],
)
def test_the_irremovable_special_vdev_is_what_the_removal_rule_refuses(data, special, words):
    """The risk fires exactly where ``removal_blockers`` (the pool's removability) refuses, in its order."""
    d = design([*data, {**vdev("special", "mirror", 2, NVME512), **special}])
    found = risks(d, code="special-vdev-irremovable")
    special_removable = estimate(d).vdevs[-1].removable
    assert (not found) == special_removable == (words is None)
    if words is not None:
        assert f"here {words}" in found[0].detail
