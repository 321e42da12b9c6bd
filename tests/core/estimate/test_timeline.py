"""The pool's life at a constant growth rate, and the growth options priced on the designs they lead to."""

from __future__ import annotations

import math

import pytest

from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.estimate.growth_options import crossing_years
from zfsplanner.core.estimate.timeline import first_year_over, grown_fill

TB = 10**12


def design(
    logical: int = 19 * TB, growth: dict | None = None, version: str = "2.3.4", layout: str = "raidz2", width: int = 6
) -> dict:
    return {
        "name": "tank",
        "openzfs_version": version,
        "vdevs": [
            {"role": "data", "layout": layout, "width": width, "disk": {"size_bytes": "8TB"}, "price_per_disk": 150}
        ],
        "datasets": [
            {
                "name": "tank/media",
                "contents": {"logical_bytes": logical, "compressibility": {"profile": "incompressible"}},
            }
        ],
        "growth": growth if growth is not None else {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8},
    }


def timeline(doc: dict):
    line = estimate(parse_design(doc)).timeline
    assert line is not None
    return line


def test_the_threshold_years_are_exact_for_a_constant_rate():
    # 60 % full growing 30 % a year: 0.6 * 1.3^t = 0.8 at t = ln(4/3) / ln(1.3) = 1.0965 years
    assert crossing_years(0.6, 0.3, 0.8) == pytest.approx(1.0965, abs=1e-4)
    assert grown_fill(0.6, 0.3, crossing_years(0.6, 0.3, 0.8) or 0) == pytest.approx(0.8, rel=1e-12)
    assert crossing_years(0.6, 0.3, 1.0) == pytest.approx(math.log(1 / 0.6) / math.log(1.3))
    assert crossing_years(0.9, 0.3, 0.8) == 0.0  # already past it
    assert crossing_years(0.6, 0.0, 0.8) is None  # no growth: never
    # year 1 is 78 % full, year 2 101.4 %: the first whole year over 80 % is year 2
    assert first_year_over([0.6, 0.78, 1.014], 0.8) == 2


def test_the_years_of_a_design_grow_its_own_fill():
    doc = design()
    est = estimate(parse_design(doc))
    line = est.timeline
    assert line is not None
    f0 = est.pool.used_fraction
    assert [y.year for y in line.years] == [0, 1, 2, 3, 4, 5]
    assert line.years[0].fill == f0
    assert line.years[3].fill == pytest.approx(f0 * 1.3**3)
    assert line.years[2].logical_bytes == round(19 * TB * 1.69)
    assert {y.usable_bytes for y in line.years} == {est.pool.zfs_avail_bytes}
    at_80 = math.log(0.8 / f0) / math.log(1.3)
    assert line.thresholds[0].years == pytest.approx(at_80, abs=0.005)
    assert line.fill_limit_year == math.floor(at_80) + 1 == line.thresholds[0].year
    # a fuller pool takes longer to rebuild a disk
    assert line.years[2].resilver_seconds > line.years[0].resilver_seconds


def test_each_option_is_the_estimate_of_the_design_it_leads_to():
    line = timeline(design())
    assert [o.kind for o in line.options] == ["add-vdev", "widen-raidz", "replace-disks", "new-pool"]
    for option in line.options:
        again = estimate(option.design)
        assert option.usable_bytes == again.pool.zfs_avail_bytes
        assert option.fill_after == again.pool.used_fraction
        assert option.years_gained == pytest.approx(math.log(0.8 / again.pool.used_fraction) / math.log(1.3), abs=0.005)
        assert option.to_document()["usable_bytes"] == option.usable_bytes


def test_the_options_hold_the_data_of_the_moment_the_limit_is_reached():
    doc = design()
    line = timeline(doc)
    grown = line.options[0].design.datasets[0].contents.logical_bytes
    assert grown == pytest.approx(19 * TB * 1.3**line.at_years, rel=0.01)


def test_a_widened_raidz_is_the_expansion_the_design_format_records():
    line = timeline(design(growth={"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8, "widen_by": 2}))
    widen = next(o for o in line.options if o.kind == "widen-raidz")
    vdev = widen.to_document()["design"]["vdevs"][0]  # as the estimate's document writes it
    assert (vdev["width"], vdev["expanded_from_width"]) == (8, 6)
    written = widen.to_document()["design"]["datasets"][0]["contents"]
    assert written["logical_bytes_written_before"] == written["logical_bytes"]
    # by hand: the same pool written as a 6-wide raidz2 widened to 8, every byte written before it
    by_hand = design(logical=written["logical_bytes"])
    by_hand["vdevs"][0].update(width=8, expanded_from_width=6)
    by_hand["datasets"][0]["contents"]["logical_bytes_written_before"] = written["logical_bytes"]
    expected = estimate(parse_design(by_hand))
    assert widen.usable_bytes == expected.pool.zfs_avail_bytes
    assert widen.disks_to_buy == 2
    assert widen.cost == 300.0


def test_raidz_cannot_be_widened_before_2_3():
    line = timeline(design(version="2.2"))
    assert [o.kind for o in line.options] == ["add-vdev", "replace-disks", "new-pool"]


def test_an_added_raidz_vdev_can_never_be_removed_but_a_mirror_can():
    raidz = timeline(design()).options[0]
    assert "growth-vdev-not-removable" in [r.code for r in raidz.risks]
    mirror = timeline(design(logical=4 * TB, layout="mirror", width=2)).options[0]
    assert "growth-vdev-not-removable" not in [r.code for r in mirror.risks]


def test_replacing_the_disks_of_a_two_way_mirror_leaves_no_redundancy_meanwhile():
    option = next(
        o for o in timeline(design(logical=4 * TB, layout="mirror", width=2)).options if o.kind == "replace-disks"
    )
    risk = next(r for r in option.risks if r.code == "growth-degraded-window")
    assert risk.severity == "warning"
    assert option.disk_size_bytes == 16 * TB
    assert option.cost == 2 * 300.0  # twice the size at the same price per TB
    assert option.hours is not None and option.hours > 0


def test_prices_that_fall_make_the_later_disks_cheaper():
    growth = {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8, "price_change_per_year": -0.1}
    line = timeline(design(growth=growth))
    add = line.options[0]
    at = math.log(0.8 / line.years[0].fill) / math.log(1.3)
    assert add.cost == pytest.approx(900 * 0.9**at, abs=0.01)


def test_a_design_without_growth_has_no_timeline():
    doc = design()
    del doc["growth"]
    est = estimate(parse_design(doc))
    assert est.timeline is None
    assert "timeline" not in est.to_document()


@pytest.mark.parametrize(
    ("growth", "path", "words"),
    [
        ({"per_year": 12, "horizon_years": 5, "fill_limit": 0.8}, "growth.per_year", "at most 5"),
        ({"per_year": -0.2, "horizon_years": 5, "fill_limit": 0.8}, "growth.per_year", "at least 0"),
        ({"per_year": 0.3, "horizon_years": 40, "fill_limit": 0.8}, "growth.horizon_years", "from 1 to 10"),
        ({"per_year": 0.3, "horizon_years": 5, "fill_limit": 1.5}, "growth.fill_limit", "at most 1"),
        ({"per_year": 0.3, "horizon_years": 5}, "growth.fill_limit", "is required"),
        ({"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8, "speed": 1}, "growth.speed", "not a growth"),
    ],
)
def test_absurd_growth_is_refused_naming_the_field(growth, path, words):
    with pytest.raises(InvalidDesign) as caught:
        parse_design(design(growth=growth))
    assert any(p == path and words in m for p, m in caught.value.errors), caught.value.errors


def test_the_growth_block_survives_the_round_trip():
    from zfsplanner.core.document.export import design_to_document

    doc = design()
    assert design_to_document(parse_design(doc))["growth"] == doc["growth"]


def _worked(width: int) -> dict:
    doc = design(logical=18 * TB, width=width, growth={"per_year": 0.3, "horizon_years": 3, "fill_limit": 0.8})
    doc["datasets"][0]["recordsize"] = "1M"
    return doc


def test_the_worked_cost_per_tb_year_of_the_docs_rests_on_the_planners_figures():
    """docs/planning.md, "Cost per usable TB-year, by hand": the figures it starts from."""
    six = estimate(parse_design(_worked(6)))
    line = six.timeline
    assert round(six.pool.zfs_avail_bytes / TB, 2) == 31.82
    assert round(line.years[0].fill, 4) == 0.5652 and line.at_years == 1.32
    add = line.options[0]
    assert (add.kind, round(add.usable_bytes / TB, 2), add.cost) == ("add-vdev", 63.78, 900.0)
    twelve = estimate(parse_design(_worked(12)))
    assert round(twelve.pool.zfs_avail_bytes / TB, 2) == 72.98
    assert twelve.timeline.fill_limit_year is None and round(twelve.timeline.years[3].fill, 3) == 0.498
    a = (31.82 * 1.32 + 63.78 * (3 - 1.32), 1800)
    b = (72.98 * 3, 12 * 150)
    assert (round(a[1] / a[0], 2), round(b[1] / b[0], 2)) == (12.07, 8.22)
    # and the planner's own figure for each path, from its unrounded inputs
    assert add.cost_per_usable_tb_year == 12.08  # at 1.3244 years, not the rounded 1.32
    assert twelve.timeline.cost_per_usable_tb_year == pytest.approx(8.22, abs=0.01)
    assert line.cost_per_usable_tb_year == round(900 / (31.820237513464 * 3), 2)


def test_year_0_has_the_reliability_sections_own_figures():
    est = estimate(parse_design(design()))
    first = est.timeline.years[0]
    # the fill the section publishes (to 4 places) is the fill the timeline grows
    assert first.data_loss_probability == pytest.approx(est.reliability.data_loss_probability.one_year, rel=1e-4)
    assert first.resilver_seconds == pytest.approx(est.reliability.groups[0].resilver_seconds, abs=2)


def test_the_report_has_a_growth_section_only_with_growth():
    from zfsplanner.core.report.markdown import markdown

    with_growth = parse_design(design())
    text = markdown(with_growth, estimate(with_growth), unit="TB")
    assert "## Growth" in text and "passes its fill limit of 80% in **year 2**" in text
    assert "| Add a raidz2 of 6 × 8.00 TB vdev |" in text
    doc = design()
    del doc["growth"]
    plain = parse_design(doc)
    assert "## Growth" not in markdown(plain, estimate(plain), unit="TB")


def test_a_new_pool_is_written_at_full_width_where_larger_disks_keep_the_expansion():
    doc = design(logical=10 * TB, layout="raidz1", width=5)
    doc["vdevs"][0].update(expanded_from_width=4, logical_bytes_written_before=6 * TB)
    options = {o.kind: o for o in timeline(doc).options}
    assert set(options) == {"add-vdev", "widen-raidz", "replace-disks", "new-pool"}
    assert options["widen-raidz"].design.vdevs[0].expanded_from_width == 4  # the width it began at
    assert options["new-pool"].design.vdevs[0].expanded_from_width is None
    assert options["replace-disks"].design.vdevs[0].expanded_from_width == 4
    # space counted at the 4-wide ratio after larger disks; at the 5-wide ratio in a new pool
    assert options["new-pool"].usable_bytes > options["replace-disks"].usable_bytes


def test_an_option_not_needed_within_the_horizon_has_no_path_cost():
    line = timeline(design(logical=4 * TB, width=12))  # 10 % full: 80 % only after about 8 years
    assert line.at_years > 5
    assert all(o.cost_per_usable_tb_year is None for o in line.options)
    assert line.cost_per_usable_tb_year is not None


def _powered(width: int, watts: float | None = 7.0, price: float | None = 0.30) -> dict:
    doc = _worked(width)
    if watts is not None:
        doc["vdevs"][0]["disk"]["watts"] = watts
    if price is not None:
        doc["growth"]["energy_price_per_kwh"] = price
    return doc


def test_the_energy_of_a_year_is_watts_times_8766_hours_at_the_price():
    from zfsplanner.core.estimate.growth_options import energy_cost_per_year

    assert energy_cost_per_year(42.0, 0.30) == 110.45  # 42 W × 8766 h = 368.172 kWh, × 0.30 = 110.4516
    assert energy_cost_per_year(84.0, 0.30) == 220.90
    assert energy_cost_per_year(None, 0.30) is None and energy_cost_per_year(42.0, None) is None


def test_the_power_drawn_is_the_sum_over_every_disk_spares_included():
    doc = _powered(6)
    doc["vdevs"].append({"role": "spare", "layout": "stripe", "width": 1, "disk": {"size_bytes": "8TB", "watts": 6.5}})
    line = estimate(parse_design(doc)).timeline
    assert (line.watts, line.disks_without_watts) == (6 * 7.0 + 6.5, 0)
    assert line.energy_cost_per_year == round(48.5 * 8766 / 1000 * 0.30, 2)
    by_kind = {o.kind.value: o for o in line.options}
    assert by_kind["add-vdev"].watts == 12 * 7.0 + 6.5
    assert by_kind["widen-raidz"].watts == 7 * 7.0 + 6.5
    assert by_kind["add-vdev"].energy_cost_per_year == round(90.5 * 8766 / 1000 * 0.30, 2)
    option = by_kind["add-vdev"].to_document()
    assert (option["watts"], option["energy_cost_per_year"]) == (90.5, by_kind["add-vdev"].energy_cost_per_year)


def test_the_power_is_unknown_when_a_disk_gives_no_watts():
    doc = _powered(6)
    spares = {"role": "spare", "layout": "stripe", "width": 1, "count": 2, "disk": {"size_bytes": "8TB"}}
    doc["vdevs"].append({**spares, "price_per_disk": 150})
    line = estimate(parse_design(doc)).timeline
    assert (line.watts, line.disks_without_watts, line.energy_cost_per_year) == (None, 2, None)
    add = line.options[0]
    assert (add.watts, add.disks_without_watts, add.energy_cost_per_year) == (None, 2, None)
    assert add.to_document()["watts"] is None and add.to_document()["energy_cost_per_year"] is None
    # without the energy, the cost per usable TB-year is the disks' alone
    del doc["growth"]["energy_price_per_kwh"]
    assert add.cost_per_usable_tb_year == estimate(parse_design(doc)).timeline.options[0].cost_per_usable_tb_year
    assert add.cost_per_usable_tb_year is not None


def test_the_worked_cost_per_tb_year_with_energy_of_the_docs():
    """docs/planning.md, "Cost per usable TB-year, by hand", with 7 W disks at 0.30 a kWh."""
    line = estimate(parse_design(_powered(6))).timeline
    add = line.options[0]
    assert (line.energy_cost_per_year, add.energy_cost_per_year) == (110.45, 220.90)
    years = 1.32
    a = (31.82 * years + 63.78 * (3 - years), 1800 + 110.45 * years + 220.90 * (3 - years))
    assert round(a[1] / a[0], 2) == 15.53
    twelve = estimate(parse_design(_powered(12))).timeline
    assert twelve.energy_cost_per_year == 220.90
    assert round((1800 + 3 * 220.90) / (72.98 * 3), 2) == 11.25
    assert twelve.cost_per_usable_tb_year == pytest.approx(11.25, abs=0.01)
    assert add.cost_per_usable_tb_year == 15.55  # at 1.3244 years, not the rounded 1.32
    # no energy price: the disks alone, as before
    assert estimate(parse_design(_powered(6, price=None))).timeline.options[0].cost_per_usable_tb_year == 12.08


@pytest.mark.parametrize("watts", [0, -3, 250, "7W", True])
def test_absurd_watts_are_refused_on_the_disk(watts):
    with pytest.raises(InvalidDesign) as caught:
        parse_design(_powered(6, watts=watts))
    assert any("watts" in p and "watts above 0 and at most 100" in m for p, m in caught.value.errors), (
        caught.value.errors
    )


def test_an_absurd_energy_price_is_refused_naming_the_field():
    with pytest.raises(InvalidDesign) as caught:
        parse_design(_powered(6, price=-0.2))
    assert any(p == "growth.energy_price_per_kwh" for p, _ in caught.value.errors), caught.value.errors


def test_watts_and_the_energy_price_survive_the_round_trip():
    from zfsplanner.core.document.export import design_to_document

    doc = _powered(6, watts=7.5)
    again = design_to_document(parse_design(doc))
    assert again["vdevs"][0]["disk"]["watts"] == 7.5
    assert again["growth"]["energy_price_per_kwh"] == 0.30


def test_the_reports_options_say_the_power_drawn():
    from zfsplanner.core.report.markdown import markdown

    powered = parse_design(_powered(6))
    text = markdown(powered, estimate(powered), unit="TB")
    assert "| Power drawn |" in text and "| 84.0 W, 220.90 a year |" in text
    plain = parse_design(_worked(6))
    assert "| not known (12 without watts) |" in markdown(plain, estimate(plain), unit="TB")
