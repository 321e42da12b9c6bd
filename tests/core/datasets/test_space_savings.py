"""What dedup and block cloning save, added to the pool's space as ``spa_update_dspace()`` does
(module/zfs/spa_misc.c, ddt_stats.c, brt.c), and the slop rule of each release."""

from __future__ import annotations

from typing import Any

import pytest

from zfsplanner.core.datasets.savings import part_for_share, savings_slop_base, share_of_data
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.slop import slop_space
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

MIB = 1024**2


def design(version: str = "2.3", *, dedup: bool = False, ratio: float | None = None, cloned: int | None = None,
           logical: int = 128 * MIB, layout: str = "mirror", width: int = 2) -> dict[str, Any]:
    contents: dict[str, Any] = {"logical_bytes": logical}
    if ratio is not None:
        contents["dedup_ratio"] = ratio
    if cloned is not None:
        contents["cloned_bytes"] = cloned
    ds: dict[str, Any] = {"name": "tank/a", "compression": "off", "contents": contents}
    if dedup:
        ds["dedup"] = "on"
    return {"name": "tank", "openzfs_version": version,
            "vdevs": [{"role": "data", "layout": layout, "width": width, "disk": {"size_bytes": "10GiB"}}],
            "datasets": [ds]}


def usable(doc: dict[str, Any]) -> int:
    e = estimate(parse_design(doc))
    assert e.pool.usable_bytes == e.pool.zfs_avail_after_bytes + e.pool.zfs_used_bytes + e.pool.initial_used_bytes
    return e.pool.usable_bytes


def test_two_identical_64_mib_files_with_dedup_add_64_mib():
    # real OpenZFS 2.3.2: two identical 64 MiB files, dedup=on, zpool list DEDUP 2.00x: the root's
    # USED + AVAIL is exactly 67,108,864 B larger than without the saving (issue measurement)
    plain = usable(design())
    assert usable(design(dedup=True, ratio=2.0)) - plain == 67_108_864
    e = estimate(parse_design(design(dedup=True, ratio=2.0)))
    assert e.pool.savings is not None and e.pool.savings.dedupratio_percent == 200
    assert e.pool.allocated_bytes == estimate(parse_design(design())).pool.allocated_bytes - 64 * MIB


def test_a_64_mib_clone_adds_64_mib_from_2_2():
    plain = usable(design())
    assert usable(design(cloned=64 * MIB)) - plain == 64 * MIB
    e = estimate(parse_design(design(cloned=64 * MIB)))
    s = e.pool.savings
    assert s is not None and (s.bclone_used_bytes, s.bclone_saved_bytes, s.bcloneratio_percent) == (
        64 * MIB, 64 * MIB, 200)
    # before block cloning a copy is a copy
    old = estimate(parse_design(design("2.1", cloned=64 * MIB)))
    assert old.pool.usable_bytes == usable(design("2.1"))
    assert old.pool.savings is not None and "block cloning arrives in OpenZFS 2.2" in old.pool.savings.notes[0]


def test_slop_follows_the_release():
    # spa_get_slop_space(): 2.0.3 (the 2.0 series) takes slop from dspace with the dedup saving;
    # 2.1.1+/2.0.6+ without it; 2.2 with the clones' saving; 2.3 from spa_rdspace alone
    normal, dedup, clone = 10**12, 10**9, 2 * 10**9
    assert savings_slop_base(normal, dedup, 0, V("2.0")) == normal + dedup  # (no clones before 2.2)
    assert savings_slop_base(normal, dedup, 0, V("2.0.6")) == normal
    assert savings_slop_base(normal, dedup, clone, V("2.2")) == normal + clone
    assert savings_slop_base(normal, dedup, clone, V("2.3")) == normal
    base = estimate(parse_design(design("2.0")))
    e = estimate(parse_design(design("2.0", dedup=True, ratio=2.0)))
    assert e.pool.savings is not None
    grown = slop_space(base.pool.normal_dspace_bytes + 64 * MIB, base.pool.embedded_log_dspace_bytes, V("2.0"))
    assert e.pool.savings.slop_bytes == grown > base.pool.slop_bytes
    assert e.pool.usable_bytes == base.pool.usable_bytes + 64 * MIB - (grown - base.pool.slop_bytes)
    clone22 = estimate(parse_design(design("2.2", cloned=64 * MIB)))
    assert clone22.pool.savings is not None and clone22.pool.savings.slop_bytes > base.pool.slop_bytes


def test_raidz_savings_are_the_deflated_charge():
    # dds_ref_dsize - dds_dsize counts dva_get_dsize_sync(): the blocks' charge, not their raw size
    doc = design(dedup=True, ratio=4.0, layout="raidz2", width=6)
    e = estimate(parse_design(doc))
    s = e.pool.savings
    assert s is not None
    (ds,) = e.datasets
    assert s.dedup_saved_bytes == share_of_data(s.dedup_referenced_bytes, 3, 4)
    assert s.dedupratio_percent == 400
    assert s.allocated_saved_bytes > s.dedup_saved_bytes  # raw: parity and padding too
    assert ds.zfs_used_bytes == estimate(parse_design(design(layout="raidz2", width=6))).datasets[0].zfs_used_bytes


def test_dedup_off_ignores_the_ratio_and_clones_on_dedup_go_through_the_table():
    assert estimate(parse_design(design(ratio=2.0))).pool.savings is None
    e = estimate(parse_design(design(dedup=True, ratio=1.0, cloned=64 * MIB)))
    s = e.pool.savings
    assert s is not None and s.bclone_saved_bytes == 0 and s.dedup_saved_bytes == 64 * MIB


def test_cloned_bytes_is_read_checked_and_written_back():
    doc = design(cloned=64 * MIB)
    assert design_to_document(parse_design(doc))["datasets"][0]["contents"]["cloned_bytes"] == 64 * MIB
    with pytest.raises(InvalidDesign) as exc:
        parse_design(design(cloned=256 * MIB))
    assert "cannot be more than the data itself" in str(exc.value)
    with pytest.raises(InvalidDesign):
        parse_design(design(cloned=-1))


@pytest.mark.parametrize(("amount", "whole"), [(100, 100), (97, 100), (1_000_003, 1_500_007), (5, 7)])
def test_part_for_share_gives_back_the_share(amount: int, whole: int):
    for share in range(0, amount, max(amount // 37, 1)):
        assert share_of_data(amount, part_for_share(amount, share, whole), whole) == share


def test_data_that_fits_thanks_to_dedup_is_not_reported_as_not_fitting():
    # 13 GiB of data deduplicated 2x on a 10 GiB mirror: USED counts it all, the saving makes room
    doc = design(dedup=True, ratio=2.0, logical=13 * 1024 * MIB)
    e = estimate(parse_design(doc))
    assert e.pool.zfs_used_bytes > e.pool.zfs_avail_bytes and e.pool.zfs_avail_after_bytes > 0
    fill = [r for r in e.risks if r.code == "pool-fill-high"]
    assert fill and fill[0].severity.value == "warning"  # above 80 %, but not "do not fit"
    undeduped = estimate(parse_design(design(logical=13 * 1024 * MIB)))
    assert [r.severity.value for r in undeduped.risks if r.code == "pool-fill-high"] == ["critical"]
