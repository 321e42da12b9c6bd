"""The layout advisor: which layouts it lists, what each row says, sorting, errors."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from zfsplanner.core.advisor import (
    LOSS_CRITICAL,
    LOSS_WARNING,
    AdvisorError,
    Candidate,
    DataNeeds,
    LossLevel,
    Options,
    advise,
    layouts,
    loss_level,
    sort_rows,
)
from zfsplanner.core.design.types import Disk, InvalidDesign, Layout, Media
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.document.parts import disk_from_document
from zfsplanner.core.estimate import estimate
from zfsplanner.core.versions import Version

EXOS16 = Disk(16_000_900_661_248, model="ST16000NM001G", media=Media.HDD, rpm=7200)


def labels(n):
    return [s.label for s in layouts(n)]


def test_the_layouts_of_24_disks():
    got = labels(24)
    assert "12 × 2-way mirror" in got and "8 × 3-way mirror" in got
    assert {"8 × raidz1 of 3", "6 × raidz1 of 4", "4 × raidz1 of 6", "3 × raidz1 of 8"} <= set(got)
    assert {"6 × raidz2 of 4", "4 × raidz2 of 6", "3 × raidz2 of 8", "2 × raidz2 of 12"} <= set(got)
    assert {"4 × raidz3 of 6", "3 × raidz3 of 8", "2 × raidz3 of 12"} <= set(got)
    assert {"draid1:8d:24c:2s", "draid2:8d:24c:2s", "draid3:8d:24c:2s"} <= set(got)
    assert "1 × raidz2 of 24" not in got  # wider than the wide-raidz rule accepts
    assert len(got) == len(set(got)) == 16


def test_odd_counts_get_no_mirrors_and_small_counts_no_draid():
    got = labels(7)
    assert not any("mirror" in x for x in got) and not any("draid" in x for x in got)
    assert got == ["1 × raidz1 of 7", "1 × raidz2 of 7", "1 × raidz3 of 7"]
    assert labels(2) == ["1 × 2-way mirror"]


def test_every_row_is_a_design_whose_estimate_gives_the_same_figures():
    rows = advise([Candidate(EXOS16, 12, price=310.0, currency="EUR")], DataNeeds(40 * 10**12, 0.25, 2))
    assert rows
    for row in rows:
        e = estimate(parse_design(row.as_dict()["document"])).to_document()  # the design as the API writes it
        assert e["pool"]["zfs_avail_bytes"] == row.usable_bytes
        assert e["reliability"]["data_loss_probability"]["5y"] == pytest.approx(row.loss_5y)
        assert e["performance"]["random_read_iops"]["high"] == pytest.approx(row.random_read_iops)
        assert row.cost == 12 * 310.0 and row.currency == "EUR"
        assert row.cost_per_usable_tb == pytest.approx(row.cost / (row.usable_bytes / 1e12))
        # the data is written as it will be at the horizon: 40 TB × 1.25²
        assert e["datasets"][0]["logical_bytes"] == int(40 * 10**12 * 1.5625)
        assert row.fits == (row.data_used_bytes <= row.usable_bytes * 0.8)


def test_rows_say_what_a_layout_costs_in_safety_and_speed():
    rows = {r.layout: r for r in advise([Candidate(EXOS16, 12)], DataNeeds(20 * 10**12))}
    z1, z2, z3 = rows["2 × raidz1 of 6"], rows["2 × raidz2 of 6"], rows["1 × raidz3 of 12"]
    mirror = rows["6 × 2-way mirror"]
    assert z1.usable_bytes > z2.usable_bytes > mirror.usable_bytes
    assert z1.loss_5y > z2.loss_5y and z1.pool_loss_5y > z2.pool_loss_5y
    assert (z1.fault_tolerance, z2.fault_tolerance, z3.fault_tolerance, mirror.fault_tolerance) == (1, 2, 3, 1)
    assert mirror.random_read_iops > z2.random_read_iops  # 6 vdevs, both sides read
    assert z1.cost is None and z1.cost_per_usable_tb is None  # no price given


def test_sorting_puts_the_best_first_and_rows_without_the_figure_last():
    rows = advise([Candidate(EXOS16, 12)], DataNeeds(10**12))
    by_space = sort_rows(rows, "usable_bytes")
    assert [r.usable_bytes for r in by_space] == sorted((r.usable_bytes for r in rows), reverse=True)
    by_risk = sort_rows(rows, "loss_5y")
    assert [r.loss_5y for r in by_risk] == sorted(r.loss_5y for r in rows)
    priced = advise([Candidate(EXOS16, 12, price=100.0), Candidate(replace(EXOS16, model="B"), 6)], DataNeeds(10**12))
    cheap = sort_rows(priced, "cost_per_usable_tb")
    assert all(r.cost_per_usable_tb is not None for r in cheap[:8]) and cheap[-1].cost_per_usable_tb is None
    with pytest.raises(AdvisorError, match="sort"):
        sort_rows(rows, "colour")


def test_loss_levels_follow_the_five_year_chance_of_losing_data():
    assert loss_level(0.0) == loss_level(LOSS_WARNING * 0.99) == LossLevel.OK
    assert loss_level(LOSS_WARNING) == loss_level(LOSS_CRITICAL * 0.99) == LossLevel.WARNING
    assert loss_level(LOSS_CRITICAL) == loss_level(0.52) == LossLevel.CRITICAL


def test_a_layout_likely_to_lose_data_is_never_sorted_above_one_that_is_not():
    """24 × 16 TB holding 150 TB: raidz1 vdevs read so much with no parity left that a read error
    is likely; the cheapest per usable TB, they still come after every layout that is not critical."""
    rows = advise([Candidate(EXOS16, 24, price=300.0)], DataNeeds(150 * 10**12))
    assert {r.loss_level for r in rows if "raidz1" in r.layout} == {LossLevel.CRITICAL}
    assert all(r.loss_level == loss_level(r.loss_5y) for r in rows)
    for key in ("cost_per_usable_tb", "usable_bytes", "seq_read_bytes_per_s"):
        levels = [r.loss_level == LossLevel.CRITICAL for r in sort_rows(rows, key)]
        assert levels == sorted(levels) and levels[0] is False
    cheapest = min(rows, key=lambda r: r.cost_per_usable_tb)
    assert cheapest.loss_level == LossLevel.CRITICAL  # the bargain the mark is for


def test_a_typed_price_goes_into_the_design_and_a_catalog_price_does_not():
    typed = advise([Candidate(EXOS16, 6, price=389.9, price_typed=True)], DataNeeds(10**12))
    assert {r.design.vdevs[0].price_per_disk for r in typed} == {Decimal("389.90")}
    assert {r.as_dict()["document"]["vdevs"][0]["price_per_disk"] for r in typed} == {"389.9"}
    catalog = advise([Candidate(EXOS16, 6, price=250.0)], DataNeeds(10**12))
    assert all(r.design.vdevs[0].price_per_disk is None for r in catalog)
    assert all("price_per_disk" not in r.as_dict()["document"]["vdevs"][0] for r in catalog)


def test_several_candidates_are_compared_in_one_list():
    small = Disk(4_000_787_030_016, model="WD40EFZX", media=Media.HDD, rpm=5400)
    rows = advise([Candidate(EXOS16, 6, label="Exos"), Candidate(small, 12, label="Red Plus")], DataNeeds(10**12))
    assert {r.candidate for r in rows} == {"Exos", "Red Plus"}


def test_design_settings_apply_to_every_row():
    opts = Options(extra={"reliability": {"afr": {"ST16000NM001G": 0.05}}})
    base = advise([Candidate(EXOS16, 6)], DataNeeds(10**12), sort="usable_bytes")
    worse = advise([Candidate(EXOS16, 6)], DataNeeds(10**12), opts, sort="usable_bytes")
    assert all(w.loss_5y > b.loss_5y for w, b in zip(worse, base, strict=True))
    assert worse[0].design.extra["reliability"] == {"afr": {"ST16000NM001G": 0.05}}


def test_bad_input_names_the_field():
    with pytest.raises(AdvisorError) as exc:
        advise([Candidate(EXOS16, 1, price=-1)], DataNeeds(-5, growth_per_year=20, years=99))
    fields = dict(exc.value.errors)
    assert {"candidates[0].count", "candidates[0].price", "data.logical_bytes", "data.growth_per_year",
            "data.years"} <= set(fields)
    with pytest.raises(InvalidDesign) as bad:  # a disk is read where it comes in, named by its path there
        disk_from_document({"size_bytes": "14T"}, "candidates[0].disk")
    assert bad.value.errors[0][0] == "candidates[0].disk.size_bytes"
    with pytest.raises(AdvisorError) as exc:
        advise([Candidate(EXOS16, 4)], DataNeeds(1, compression="lz5", profile="music"), Options(pool_name="9tank"))
    assert [p for p, _ in exc.value.errors] == ["data.compression", "data.compressibility.profile"]
    with pytest.raises(AdvisorError) as exc:
        advise([Candidate(EXOS16, 4)], DataNeeds(1), Options(pool_name="mirror"))
    assert [p for p, _ in exc.value.errors] == ["options.pool_name"]
    with pytest.raises(AdvisorError) as exc:
        advise([Candidate(EXOS16, 4)], DataNeeds(1), Options(extra={"reliability": {"afr": {"x": 7}}}))
    assert all(p.startswith("options.reliability") for p, _ in exc.value.errors)
    with pytest.raises(AdvisorError, match="at least one"):
        advise([], DataNeeds(1))
    with pytest.raises(AdvisorError) as exc:
        advise([Candidate(EXOS16, 4)], DataNeeds(1, recordsize=1536 * 1024))
    assert exc.value.errors == [("data.recordsize", "must be a power of two from 512 to 16M")]


def test_draid_rows_carry_their_geometry():
    rows = [r for r in advise([Candidate(EXOS16, 24)], DataNeeds(10**13)) if r.vdev_layout.startswith("draid")]
    assert {(r.draid_data, r.draid_spares, r.width) for r in rows} == {(8, 2, 24)}
    doc = rows[0].as_dict()["document"]["vdevs"][0]
    assert doc["draid_data"] == 8 and doc["draid_spares"] == 2 and doc["layout"] in {x.value for x in Layout}


# --------------------------------------------------------------------------- cost per usable TB-year over the horizon

TB = 10**12
WORKED_GROWTH = {"per_year": 0.3, "horizon_years": 3, "fill_limit": 0.8}


def worked_rows(growth=WORKED_GROWTH, sort="cost_per_usable_tb_year", logical=18 * TB):
    """docs/planning.md, "Cost per usable TB-year, by hand": 12 × 8 TB at 150, 18 TB of incompressible
    data (recordsize 1M, OpenZFS 2.3.4) growing 30 % a year over 3 years."""
    needs = DataNeeds(logical, 0.3, 3, profile="incompressible")
    options = Options(openzfs_version=Version(2, 3, 4), growth=growth)
    return advise([Candidate(disk_from_document({"size_bytes": "8TB"}), 12, 150.0)], needs, options, sort=sort)


def test_the_worked_example_ranks_all_disks_now_above_a_vdev_added_later():
    rows = worked_rows()
    by_label = {r.layout: r for r in rows}
    twelve = by_label["1 × raidz2 of 12"]
    later = by_label["1 × raidz2 of 6 now, one more vdev at 80 % full (year 1.3)"]
    # the figures of the worked example: 1800 / 218.93 and 1800 / (31.82 × 1.32 + 63.78 × 1.68) TB-years
    assert twelve.cost_per_usable_tb_year == 8.22
    assert later.cost_per_usable_tb_year == 12.08  # 12.07 by hand from the rounded 1.32 years
    assert (later.path, later.add_vdev_at_years, later.cost) == ("add-vdev-later", 1.32, 1800.0)
    assert rows[0] is twelve  # the cheapest per usable TB-year that is not at a critical risk
    assert rows.index(twelve) < rows.index(by_label["2 × raidz2 of 6"]) < rows.index(later)
    # the same layout bought at once: 1800 over 2 × raidz2 of 6 held for the 3 years
    assert by_label["2 × raidz2 of 6"].cost_per_usable_tb_year == round(1800 / (later.usable_bytes / TB * 3), 2)


def test_each_path_is_the_timeline_of_the_design_it_builds():
    later = next(r for r in worked_rows() if r.path == "add-vdev-later" and r.layout.startswith("1 × raidz2 of 6"))
    doc = design_to_document(later.design)
    assert doc["growth"] == WORKED_GROWTH and doc["vdevs"][0]["count"] == 1
    assert doc["datasets"][0]["contents"]["logical_bytes"] == 18 * TB  # the data of now: the timeline grows it
    assert "price_per_disk" not in doc["vdevs"][0]  # a price the user did not type stays out, as in every row
    doc["vdevs"][0]["price_per_disk"] = 150
    line = estimate(parse_design(doc)).timeline
    add = next(o for o in line.options if o.kind == "add-vdev")
    assert later.cost_per_usable_tb_year == add.cost_per_usable_tb_year
    assert later.usable_bytes == add.usable_bytes  # the pool it ends as is the layout's


def test_a_vdev_added_later_is_offered_only_where_it_applies():
    def later(rows):
        return {r.layout.split(" now,")[0] for r in rows if r.path == "add-vdev-later"}

    assert "1 × raidz2 of 6" in later(worked_rows())
    assert not any(label.startswith(("draid", "0 ×")) for label in later(worked_rows()))  # one vdev: nothing to add
    # 1 × raidz2 of 6 (31.82 TB) is past 80 % now with 26 TB: there is no later to add the vdev in
    assert "1 × raidz2 of 6" not in later(worked_rows(logical=26 * TB))
    # at 1 % a year it stays under 80 % for the 3 years: the vdev is never added within them
    assert "1 × raidz2 of 6" not in later(worked_rows(growth={"per_year": 0.01, "horizon_years": 3, "fill_limit": 0.8}))


def test_without_a_growth_block_there_is_no_figure_over_the_years():
    rows = worked_rows(growth=None, sort="cost_per_usable_tb")
    assert {r.path for r in rows} == {"all-now"}
    assert all(r.cost_per_usable_tb_year is None for r in rows)


def test_the_growth_block_is_read_by_the_design_formats_rule():
    with pytest.raises(AdvisorError) as caught:
        worked_rows(growth={"per_year": 12, "horizon_years": 40})
    paths = {p for p, _ in caught.value.errors}
    assert paths == {"growth.fill_limit"}  # a missing key first, as a design's growth block says it
    with pytest.raises(AdvisorError) as caught:
        worked_rows(growth={"per_year": 12, "horizon_years": 40, "fill_limit": 0.8})
    assert {p for p, _ in caught.value.errors} == {"growth.per_year", "growth.horizon_years"}
