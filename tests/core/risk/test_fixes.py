"""One-click fixes: each changes the design so that its risk is gone, and nothing else breaks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from zfsplanner.core.design.types import Design
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.properties.resolve import block_size
from zfsplanner.core.risk.fixes import FIXABLE_CODES, design_fix
from zfsplanner.core.risk.registry import RISK_CATALOG, Fixed, Part, Risk

ROOT = Path(__file__).resolve().parents[3]

HDD = {"model": "ST16000NM001G", "size_bytes": 16000900661248, "logical_sector_bytes": 512,
       "physical_sector_bytes": 4096, "media": "hdd"}
SSD_512 = {"model": "MZ-77E1T0", "size_bytes": 1000204886016, "logical_sector_bytes": 512,
           "physical_sector_bytes": 512, "media": "ssd"}


def doc(*vdevs: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"name": "tank", "openzfs_version": "2.3", "vdevs": list(vdevs), "datasets": [], **top}


def raidz2(**kw: Any) -> dict[str, Any]:
    return {"role": "data", "layout": "raidz2", "width": 8, "count": 1, "disk": HDD, **kw}


def risks_of(document: dict[str, Any]) -> tuple[Risk, ...]:
    return estimate(parse_design(document)).risks


def fixed(document: dict[str, Any], code: str, subject: str | None = None) -> tuple[Any, dict[str, Any]]:
    """Apply the fix of the first risk ``code`` (on ``subject``); the fixed design as a document."""
    design = parse_design(document)
    risk = next(r for r in estimate(design).risks if r.code == code and subject in (None, r.subject))
    fix = design_fix(risk, design)
    assert fix is not None, risk
    assert design == parse_design(document)  # the design given is never changed
    assert fix.subject == risk.subject
    assert parse_design(design_to_document(fix.design)) == fix.design  # reads back as it was built
    return fix, design_to_document(fix.design)


def codes(document: dict[str, Any]) -> set[str]:
    return {r.code for r in risks_of(document)}


def test_mixed_ashift_gives_every_vdev_one_ashift_through_the_pool():
    d = doc(raidz2(ashift=12), {"role": "special", "layout": "mirror", "width": 2, "disk": SSD_512, "ashift": 9},
            {"role": "log", "layout": "mirror", "width": 2, "disk": SSD_512})
    assert "mixed-ashift" in codes(d)
    fix, after = fixed(d, "mixed-ashift", "vdevs[1]")
    assert fix.label == "Give every vdev ashift=12"
    assert after["ashift"] == 12
    assert after["vdevs"][0]["ashift"] == 12  # agrees already: kept as the user wrote it
    assert "ashift" not in after["vdevs"][1] and "ashift" not in after["vdevs"][2]
    left = risks_of(after)
    assert "mixed-ashift" not in {r.code for r in left}
    (irremovable,) = [r for r in left if r.code == "special-vdev-irremovable"]  # the raidz2 still makes it so
    detail = irremovable.detail
    assert "differ in ashift" not in detail and "differs from the data vdevs'" not in detail
    assert [g["ashift"] for g in estimate(parse_design(after)).to_document()["vdevs"]] == [12, 12, 12]


def test_mixed_ashift_without_any_ashift_written_is_fixed_too():
    # the old fix needed the first data vdev to carry an explicit ashift; this one does not
    d = doc(raidz2(), {"role": "special", "layout": "mirror", "width": 2, "disk": SSD_512})
    _, after = fixed(d, "mixed-ashift")
    assert after["ashift"] == 12 and "mixed-ashift" not in codes(after)


def test_ashift_below_the_physical_sector_sets_the_sector():
    d = doc(raidz2(ashift=9))
    fix, after = fixed(d, "ashift-below-physical-sector")
    assert fix.label == "Set ashift=12 (4096-byte sectors)" and after["vdevs"][0]["ashift"] == 12
    assert "ashift-below-physical-sector" not in codes(after)


def test_a_64k_sector_disk_gets_the_ashift_the_warning_names():
    big = {**HDD, "physical_sector_bytes": 65536}
    d = doc({"role": "data", "layout": "mirror", "width": 2, "disk": big})
    risk = next(r for r in risks_of(d) if r.code == "ashift-below-physical-sector")
    assert "Set ashift=16 explicitly" in risk.fix
    fix, after = fixed(d, "ashift-below-physical-sector")
    assert after["vdevs"][0]["ashift"] == 16 and fix.label == "Set ashift=16 (65536-byte sectors)"
    assert "ashift-below-physical-sector" not in codes(after)


def _ssb_doc(version: str, dataset: dict[str, Any], special: bool = True) -> dict[str, Any]:
    vdevs = [raidz2()]
    if special:
        vdevs.append({"role": "special", "layout": "mirror", "width": 3, "disk": SSD_512})
    return {**doc(*vdevs, ashift=12), "openzfs_version": version, "datasets": [dataset]}


def test_special_small_blocks_on_a_volume_before_2_4_is_dropped():
    d = _ssb_doc("2.3", {"name": "tank/vm", "type": "volume", "volsize": "32G", "special_small_blocks": "16K"})
    fix, after = fixed(d, "special-small-blocks-volume")
    assert fix.label == "Drop special_small_blocks" and "special_small_blocks" not in after["datasets"][0]
    assert "special-small-blocks-volume" not in codes(after)


@pytest.mark.parametrize(("given", "expected"), [("96K", "64K"), ("4M", "1M"), ("3000", "2K")])
def test_special_small_blocks_not_accepted_before_2_4_becomes_a_power_of_two(given, expected):
    d = _ssb_doc("2.3", {"name": "tank/a", "recordsize": "16M", "special_small_blocks": given})
    fix, after = fixed(d, "special-small-blocks-value")
    assert after["datasets"][0]["special_small_blocks"] == expected
    assert fix.label == f"Set special_small_blocks={expected}"
    assert "special-small-blocks-value" not in codes(after)


def test_special_small_blocks_without_a_special_vdev_is_dropped():
    d = _ssb_doc("2.3", {"name": "tank/a", "special_small_blocks": "64K"}, special=False)
    _, after = fixed(d, "special-small-blocks-without-special")
    assert "special_small_blocks" not in after["datasets"][0]


def test_an_unused_dedup_vdev_is_removed():
    d = doc(raidz2(), {"role": "dedup", "layout": "mirror", "width": 3, "disk": SSD_512}, ashift=12)
    fix, after = fixed(d, "dedup-vdev-without-dedup")
    assert fix.label == "Remove the dedup vdev"
    assert [v["role"] for v in after["vdevs"]] == ["data"]


def test_a_small_spare_becomes_the_data_disk():
    small = {**HDD, "model": "WD40EFZX", "size_bytes": 4000787030016}
    d = doc(raidz2(), {"role": "spare", "layout": "stripe", "width": 1, "count": 2, "disk": small})
    fix, after = fixed(d, "spare-too-small")
    assert fix.label == "Use ST16000NM001G as spares"
    assert after["vdevs"][1]["disk"] == HDD and after["vdevs"][1]["count"] == 2
    assert "spare-too-small" not in codes(after)


def test_512e_disks_under_a_vm_get_an_explicit_ashift_but_4kn_disks_need_the_vm_changed():
    d = doc(raidz2(), vm_passthrough=True)
    fix, after = fixed(d, "vm-sector-size")
    assert fix.label == "Set ashift=12 explicitly" and after["vdevs"][0]["ashift"] == 12
    assert "vm-sector-size" not in codes(after)
    native = doc(raidz2(disk={**HDD, "logical_sector_bytes": 4096}), vm_passthrough=True)
    risk = next(r for r in risks_of(native) if r.code == "vm-sector-size")
    assert design_fix(risk, parse_design(native)) is None


def test_a_pool_ashift_counts_as_explicit_for_the_vm_rule():
    assert "vm-sector-size" not in codes(doc(raidz2(), vm_passthrough=True, ashift=12))


def test_every_fixable_code_is_a_registered_risk():
    assert set(FIXABLE_CODES) <= set(RISK_CATALOG)


def test_zstd_before_2_0_becomes_lz4():
    d = {**doc(raidz2(), ashift=12), "openzfs_version": "0.8", "datasets": [{"name": "tank/a", "compression": "zstd"}]}
    fix, after = fixed(d, "zpool-refuses", "datasets[0]")
    assert fix.label == "Use compression=lz4" and after["datasets"][0]["compression"] == "lz4"
    assert "zpool-refuses" not in codes(after) and after["openzfs_version"] == "0.8"


def test_a_raidz_special_before_2_4_becomes_a_mirror_as_redundant():
    special = {"role": "special", "layout": "raidz2", "width": 4, "disk": SSD_512}
    fix, after = fixed(doc(raidz2(), special, ashift=12), "zpool-refuses", "vdevs[1]")
    assert fix.label == "Make it a 3-way mirror (survives 2 failures, as before)"
    assert (after["vdevs"][1]["layout"], after["vdevs"][1]["width"]) == ("mirror", 3)
    assert "zpool-refuses" not in codes(after)


def test_draid_before_2_1_targets_the_first_release_with_draid():
    draid = {"role": "data", "layout": "draid2", "width": 12, "disk": HDD}
    fix, after = fixed({**doc(draid, ashift=12), "openzfs_version": "2.0"}, "zpool-refuses", "vdevs[0]")
    assert fix.label == "Target OpenZFS 2.1" and after["openzfs_version"] == "2.1"
    assert "zpool-refuses" not in codes(after)


def test_a_pool_planned_too_full_gets_another_data_vdev():
    d = {**doc(raidz2(), ashift=12), "datasets": [{"name": "tank/a", "contents": {"logical_bytes": 90 * 10**12}}]}
    fix, after = fixed(d, "pool-fill-high", "pool")
    assert fix.subject == "pool" and fix.label == "Add another data vdev like the others (1 → 2)"
    assert after["vdevs"][0]["count"] == 2 and d["vdevs"][0]["count"] == 1
    assert "pool-fill-high" not in codes(after)


def test_compression_on_small_blocks_on_draid_gets_a_larger_recordsize():
    draid = {"role": "data", "layout": "draid2", "width": 24, "draid_data": 8, "draid_spares": 2, "disk": HDD}
    d = {**doc(draid, ashift=12), "datasets": [{"name": "tank/a", "recordsize": "64K", "compression": "lz4"}]}
    fix, after = fixed(d, "draid-compression-loss")
    assert fix.label == "Set recordsize=1M" and after["datasets"][0]["recordsize"] == "1M"
    assert "draid-compression-loss" not in codes(after)


def test_a_volume_on_4kn_disks_has_no_fix_in_the_design_and_breaks_nothing():
    """The same code about a volume (its subject is a dataset): there is no vdev to change."""
    vols = [{"name": f"tank/vm-{i}", "type": "volume", "volsize": "32G"} for i in range(3)]
    native = {**doc(raidz2(disk={**HDD, "logical_sector_bytes": 4096})), "datasets": vols}
    risks = [r for r in risks_of(native) if r.code == "vm-sector-size"]
    assert {r.subject for r in risks} == {"datasets[0]", "datasets[1]", "datasets[2]"}
    assert all(design_fix(r, parse_design(native)) is None for r in risks)


def test_a_wide_mirror_becomes_3_way_mirrors_of_the_same_disks():
    d = doc({"role": "data", "layout": "mirror", "width": 6, "count": 1, "disk": HDD})
    fix, after = fixed(d, "wide-mirror")
    assert fix.label == "Make it 2 3-way mirrors of the same disks"
    assert (after["vdevs"][0]["width"], after["vdevs"][0]["count"]) == (3, 2)
    assert "wide-mirror" not in codes(after)
    _, four = fixed(doc({"role": "data", "layout": "mirror", "width": 4, "count": 2, "disk": HDD}), "wide-mirror")
    assert (four["vdevs"][0]["width"], four["vdevs"][0]["count"]) == (2, 4)


def test_the_captures_all_fix_of_a_zvol_on_2_4_lowers_the_value_below_its_real_volblocksize():
    """The defect: the fix read the block size from the document, found no volblocksize there and
    took 128K, so a zvol with special_small_blocks=16K and the default volblocksize (16K on 2.4) got
    special_small_blocks=64K "(below volblocksize)" and kept the risk. The fix reads the typed design:
    the block size in force is ``properties.resolve.block_size``, the rule's own."""
    vol = {"name": "tank/vm", "type": "volume", "volsize": "100G", "special_small_blocks": "16K"}
    design = parse_design(_ssb_doc("2.4", vol))
    before = design.datasets[0]
    volblocksize = block_size(design, before)
    assert before.volblocksize is None and volblocksize == 16 * 1024  # the release's default
    risk = next(r for r in estimate(design).risks if r.code == "special-small-blocks-captures-all")
    fix = design_fix(risk, design)
    assert fix is not None and fix.label == "Set special_small_blocks=8K (below volblocksize)"
    after = fix.design.datasets[0]
    assert after.special_small_blocks is not None
    assert after.special_small_blocks < before.special_small_blocks  # lowered, never raised
    assert after.special_small_blocks < block_size(fix.design, after) == volblocksize
    assert "special-small-blocks-captures-all" not in {r.code for r in estimate(fix.design).risks}


def _with_datasets(*datasets: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {**doc(raidz2(), ashift=12, **top), "datasets": list(datasets)}


SPECIAL_MIRROR = {"role": "special", "layout": "mirror", "width": 2, "disk": SSD_512}
DRAID = {"role": "data", "layout": "draid2", "width": 24, "draid_data": 8, "draid_spares": 2, "disk": HDD}

# One design that raises each fixable code (the examples and test designs raise only some of them).
RAISES: dict[str, dict[str, Any]] = {
    "special-redundancy-below-data": doc(raidz2(), SPECIAL_MIRROR, ashift=12),
    "special-small-blocks-captures-all": _ssb_doc(
        "2.4", {"name": "tank/vm", "type": "volume", "volsize": "100G", "special_small_blocks": "16K"}
    ),
    "special-small-blocks-volume": _ssb_doc(
        "2.3", {"name": "tank/vm", "type": "volume", "volsize": "32G", "special_small_blocks": "16K"}
    ),
    "special-small-blocks-value": _ssb_doc(
        "2.3", {"name": "tank/a", "recordsize": "16M", "special_small_blocks": "96K"}
    ),
    "special-small-blocks-without-special": _ssb_doc("2.3", {"name": "tank/a", "special_small_blocks": "64K"}, False),
    "ashift-below-physical-sector": doc(raidz2(ashift=9)),
    "mixed-ashift": doc(raidz2(), {**SPECIAL_MIRROR, "width": 3}),
    "raidz-padding-overhead": _with_datasets({"name": "tank/vm", "type": "volume", "volsize": "100G",
                                              "volblocksize": "8K", "contents": {"logical_bytes": 50 * 10**9}}),
    "draid-compression-loss": {**doc(DRAID, ashift=12), "datasets": [{"name": "tank/a", "recordsize": "64K",
                                                                      "compression": "lz4"}]},
    "single-parity-large-disks": doc({**raidz2(), "layout": "raidz1", "width": 5}, ashift=12),
    "wide-raidz": doc(raidz2(width=16), ashift=12),
    "wide-mirror": doc({"role": "data", "layout": "mirror", "width": 6, "disk": HDD}, ashift=12),
    "non-redundant-vdev": doc({"role": "data", "layout": "stripe", "width": 1, "count": 2, "disk": HDD}, ashift=12),
    "spare-too-small": doc(raidz2(), {"role": "spare", "layout": "stripe", "width": 1, "count": 2,
                                      "disk": {**HDD, "model": "WD40EFZX", "size_bytes": 4000787030016}}),
    "slog-unmirrored": doc(raidz2(), {"role": "log", "layout": "stripe", "width": 1, "disk": SSD_512}, ashift=12),
    "dedup-vdev-without-dedup": doc(raidz2(), {**SPECIAL_MIRROR, "role": "dedup", "width": 3}, ashift=12),
    "sync-disabled": _with_datasets({"name": "tank/db", "sync": "disabled"}),
    "pool-fill-high": _with_datasets({"name": "tank/a", "contents": {"logical_bytes": 90 * 10**12}}),
    "boot-recordsize": {**_with_datasets({"name": "bpool/BOOT", "recordsize": "1M"}), "name": "bpool"},
    "zpool-refuses": {**_with_datasets({"name": "tank/a", "compression": "zstd"}), "openzfs_version": "0.8"},
    "vm-sector-size": doc(raidz2(), vm_passthrough=True),
    "host-nocacheflush": doc(raidz2(), ashift=12, host={"tunables": {"zfs_nocacheflush": 1}}),
    "host-zil-disable": doc(raidz2(), ashift=12, host={"tunables": {"zil_disable": 1}}),
}

CORPUS = sorted(p for folder in ("examples", "tests/plans/designs", "tests/core/golden/designs")
                for p in (ROOT / folder).glob("*.json"))


def _cases() -> list[tuple[str, Any, Risk]]:
    """Every risk with a one-click fix that the corpus and :data:`RAISES` raise, with its design."""
    documents = [(p.name, json.loads(p.read_text())) for p in CORPUS]
    documents += [(f"raises-{code}", document) for code, document in RAISES.items()]
    cases = []
    for name, document in documents:
        design = parse_design(document)
        cases += [(name, design, r) for r in estimate(design).risks if r.code in FIXABLE_CODES]
    return cases


CASES = _cases()


def test_every_fixable_code_is_raised_by_a_design_of_the_cases():
    assert set(FIXABLE_CODES) == set(RAISES)
    assert {r.code for _, _, r in CASES} == set(FIXABLE_CODES)
    assert len(CORPUS) >= 20


@pytest.mark.parametrize(("name", "design", "risk"), CASES, ids=[f"{n}:{r.code}:{r.subject}" for n, _, r in CASES])
def test_applying_a_fix_removes_its_risk(name, design, risk):
    fix = design_fix(risk, design)
    if fix is None:  # a risk of a fixable code whose fix is not a design change here (a volume on 4Kn disks)
        assert design_fix(risk, design, validate=False) is None
        return
    assert parse_design(design_to_document(fix.design)) == fix.design  # valid, and reads back as built
    left = {(r.code, r.subject) for r in estimate(fix.design).risks}
    assert (risk.code, risk.subject) not in left


def test_every_fix_goes_from_the_typed_design_to_a_new_one_and_no_rule_reads_a_document():
    fixes = [spec.fix for spec in RISK_CATALOG.values() if spec.fix is not None]
    assert len(fixes) == len(FIXABLE_CODES)
    for fix in fixes:
        assert get_type_hints(fix) == {"design": Design, "part": Part, "return": Fixed | None}, fix.__name__
    package = ROOT / "zfsplanner" / "core" / "risk"
    by_key = re.compile(r"\b(item|doc|document)\s*(\.get\(|\[)|(dict|Mapping)\[str, Any\]")
    found = [(p.name, m.group(0)) for p in package.glob("*.py") for m in by_key.finditer(p.read_text())]
    assert found == []
