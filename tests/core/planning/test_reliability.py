"""Reliability: the Markov MTTDL against published closed forms and a Monte Carlo run of the
same model, resilver times, and the monotonic properties the figures must keep."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zfsplanner.core.design.planning import HOURS_PER_YEAR
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.planning.reliability import (
    afr_to_rate,
    loss_probability,
    mttdl_full_redundancy_hours,
    mttdl_hours,
    pool_mttdl,
    rebuild,
    simulate,
    ure_probability,
    vdev_risk,
)

LAM = 1e-5  # per hour: MTTF 100,000 h
MU = 1 / 24  # a day to restore redundancy


# --------------------------------------------------------------------------- published closed forms


def test_two_way_mirror_matches_the_raid1_formula():
    # Markov model of RAID-1: MTTDL = (3λ + μ) / (2λ²)
    assert mttdl_hours(2, 1, LAM, MU) == pytest.approx((3 * LAM + MU) / (2 * LAM**2), rel=1e-9)


@pytest.mark.parametrize("n", [3, 4, 5, 8, 12])
def test_raidz1_matches_the_raid5_formula(n):
    # Markov model of RAID-5 (Chen et al. 1994; Gibson 1991): MTTDL = ((2n − 1)λ + μ) / (n(n − 1)λ²)
    assert mttdl_hours(n, 1, LAM, MU) == pytest.approx(((2 * n - 1) * LAM + MU) / (n * (n - 1) * LAM**2), rel=1e-9)


@pytest.mark.parametrize("n", [4, 6, 8, 10, 16])
def test_raidz2_matches_the_exact_raid6_formula_for_one_repair_at_a_time(n):
    # Solving the three-state chain with one repair at a time gives
    # MTTDL = ((3n² − 6n + 2)λ² + (2n − 2)λμ + μ²) / (n(n − 1)(n − 2)λ³)
    exact = ((3 * n * n - 6 * n + 2) * LAM**2 + (2 * n - 2) * LAM * MU + MU**2) / (n * (n - 1) * (n - 2) * LAM**3)
    assert mttdl_hours(n, 2, LAM, MU) == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize(("n", "f"), [(6, 2), (10, 2), (8, 3), (12, 3), (3, 2)])
def test_the_usual_approximation_holds_when_repairs_are_fast(n, f):
    # MTTDL ≈ μ^f / (n(n − 1)…(n − f) λ^(f+1)) (RAID-6: MTTF³ / (n(n−1)(n−2) MTTR²)), for μ ≫ λ
    lam, mu = 1e-7, 1e-1
    denominator = math.prod(range(n - f, n + 1)) * lam ** (f + 1)
    assert mttdl_hours(n, f, lam, mu) == pytest.approx(mu**f / denominator, rel=1e-3)


def test_a_stripe_lasts_until_its_first_failure():
    assert mttdl_hours(1, 0, LAM, MU) == pytest.approx(1 / LAM)
    assert mttdl_hours(4, 0, LAM, MU) == pytest.approx(1 / (4 * LAM))


def test_an_impossible_tolerance_is_refused():
    with pytest.raises(ValueError, match="cannot survive"):
        mttdl_hours(2, 2, LAM, MU)


def test_the_afr_is_the_one_year_failure_probability():
    lam = afr_to_rate(0.0157)
    assert -math.expm1(-lam * HOURS_PER_YEAR) == pytest.approx(0.0157)


def test_ure_probability_for_reading_12_tb_at_one_in_ten_to_the_fourteen():
    # the classic RAID-5 worry: 12 TB at 1e-14 per bit is 0.96 expected errors
    assert ure_probability(12e12, 1e-14) == pytest.approx(1 - math.exp(-0.96))
    assert ure_probability(1e9, 1e-15) == pytest.approx(8e-6, rel=1e-3)


# --------------------------------------------------------------------------- Monte Carlo of the same model


@pytest.mark.parametrize(
    ("n", "f", "ure"),
    [(2, 1, 0.0), (3, 2, 0.0), (5, 1, 0.0), (6, 2, 0.0), (8, 3, 0.0), (6, 1, 0.3), (6, 2, 0.2), (2, 1, 0.7)],
)
def test_the_exact_solution_agrees_with_a_seeded_simulation(n, f, ure):
    lam, mu = 2e-3, 4e-2  # fast enough that every run ends in a loss within a few thousand steps
    runs = 3000
    mean, healthy, _ = simulate(n, f, lam, mu, ure, runs=runs, seed=7)
    # times to loss are close to exponential: standard error ≈ mean / sqrt(runs)
    assert mean == pytest.approx(mttdl_hours(n, f, lam, mu, ure), rel=4 / math.sqrt(runs))
    assert healthy == pytest.approx(mttdl_full_redundancy_hours(n, f, lam, mu, ure), rel=4 / math.sqrt(runs))


@pytest.mark.parametrize(("n", "f"), [(2, 1), (6, 2)])
def test_the_loss_probability_agrees_with_the_simulated_share_of_lost_runs(n, f):
    lam, mu = 2e-3, 4e-2
    exact = mttdl_hours(n, f, lam, mu)
    horizon = exact / 2
    runs = 3000
    _, _, share = simulate(n, f, lam, mu, runs=runs, seed=11, horizon=horizon)
    p = loss_probability(exact, horizon)
    assert share == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / runs) + 0.02)


@pytest.mark.parametrize(("n", "f"), [(2, 1), (5, 1), (6, 2), (11, 3)])
def test_the_reported_figure_leaves_out_only_the_degraded_hours(n, f):
    # Time with every disk healthy = (1 / nλ) × visits to the healthy state; the exact mean adds
    # the degraded time, about MTTR / MTTF more. For RAID-1: (λ + μ) / (2λ²) against (3λ + μ) / (2λ²).
    reported = mttdl_full_redundancy_hours(n, f, LAM, MU)
    exact = mttdl_hours(n, f, LAM, MU)
    assert reported < exact
    assert reported == pytest.approx(exact, rel=n * LAM / MU)
    if (n, f) == (2, 1):
        assert reported == pytest.approx((LAM + MU) / (2 * LAM**2), rel=1e-9)


# --------------------------------------------------------------------------- resilver


def test_a_mirror_member_holds_the_whole_vdev_and_a_raidz_member_a_share():
    m = rebuild(layout_kind="mirror", width=2, parity=0, vdev_size_bytes=10**13, fill=0.5, rebuild_bytes_per_s=2e8)
    assert m.allocated_per_disk_bytes == 5 * 10**12 and m.kind == "healing"
    assert m.seconds == pytest.approx(25_000)
    z = rebuild(layout_kind="raidz", width=6, parity=2, vdev_size_bytes=6 * 10**13, fill=0.8, rebuild_bytes_per_s=2e8)
    assert z.allocated_per_disk_bytes == 8 * 10**12
    assert z.seconds == pytest.approx(40_000)
    assert z.bytes_read_without_redundancy == pytest.approx(4 * 8e12)  # the four surviving data disks' worth


def test_a_draid_rebuild_to_a_distributed_spare_is_sequential_and_faster():
    kw = {"layout_kind": "draid", "width": 24, "parity": 2, "vdev_size_bytes": 22 * 10**13, "fill": 0.8,
          "rebuild_bytes_per_s": 2e8, "draid_data": 8}
    healing = rebuild(**kw, draid_spares=0)
    sequential = rebuild(**kw, draid_spares=2)
    assert healing.kind == "healing" and sequential.kind == "sequential"
    assert sequential.seconds < healing.seconds / 2


def test_the_pool_loses_data_when_any_vdev_does():
    assert pool_mttdl([(1000.0, 1), (1000.0, 1)]) == pytest.approx(500.0)
    assert pool_mttdl([(1000.0, 4)]) == pytest.approx(250.0)
    assert pool_mttdl([(math.inf, 1)]) == math.inf


# --------------------------------------------------------------------------- monotonic properties


def vdev(width: int, parity: int, *, afr=0.02, disk=14e12, fill=0.8, speed=2e8, wait=24.0, ure=1e-15, mirror=False):
    kind = "mirror" if mirror else "raidz"
    size = disk if mirror else disk * width
    rb = rebuild(layout_kind=kind, width=width, parity=parity, vdev_size_bytes=int(size), fill=fill,
                 rebuild_bytes_per_s=speed)
    tolerance = width - 1 if mirror else parity
    q = ure_probability(rb.bytes_read_without_redundancy, ure)
    return vdev_risk(width, tolerance, afr, wait + rb.seconds / 3600, q)


widths = st.integers(3, 24)
afrs = st.floats(0.001, 0.2)
fills = st.floats(0.01, 1.0)
speeds = st.floats(2e7, 3e9)
ures = st.sampled_from([0.0, 1e-17, 1e-15, 1e-14, 1e-13])


@settings(max_examples=200, deadline=None)
@given(width=widths, parity=st.integers(1, 2), afr=afrs, fill=fills, speed=speeds, ure=ures)
def test_more_parity_never_raises_the_risk(width, parity, afr, fill, speed, ure):
    assume(width > parity + 2)
    less = vdev(width, parity, afr=afr, fill=fill, speed=speed, ure=ure)
    more = vdev(width, parity + 1, afr=afr, fill=fill, speed=speed, ure=ure)
    assert more.mttdl_hours >= less.mttdl_hours * (1 - 1e-9)


@settings(max_examples=200, deadline=None)
@given(width=widths, parity=st.integers(1, 3), afr=afrs, fill=fills, speed=speeds, ure=ures)
def test_more_disks_in_a_vdev_never_lower_the_risk(width, parity, afr, fill, speed, ure):
    assume(width > parity + 1)
    narrow = vdev(width, parity, afr=afr, fill=fill, speed=speed, ure=ure)
    wide = vdev(width + 1, parity, afr=afr, fill=fill, speed=speed, ure=ure)
    assert wide.mttdl_hours <= narrow.mttdl_hours * (1 + 1e-9)


@settings(max_examples=200, deadline=None)
@given(
    width=st.integers(2, 16), parity=st.integers(0, 3), afr=afrs, fill=fills, speed=speeds, ure=ures,
    slower=st.floats(1.0, 50.0), mirror=st.booleans(),
)
def test_a_longer_resilver_never_lowers_the_risk(width, parity, afr, fill, speed, ure, slower, mirror):
    assume(mirror or width > parity + 1)
    fast = vdev(width, parity, afr=afr, fill=fill, speed=speed, ure=ure, mirror=mirror)
    slow = vdev(width, parity, afr=afr, fill=fill, speed=speed / slower, ure=ure, mirror=mirror)
    assert slow.mttdl_hours <= fast.mttdl_hours * (1 + 1e-9)


# --------------------------------------------------------------------------- in the estimate


def design(layout="raidz2", width=6, count=1, **extra):
    return parse_design(
        {
            "name": "tank",
            "vdevs": [{"role": "data", "layout": layout, "width": width, "count": count,
                       "disk": {"size_bytes": "14TB", "model": "ST14000NM001G", "media": "hdd"}}],
            **extra,
        }
    )


def test_the_estimate_reports_every_assumption_and_the_pool_figures():
    e = estimate(design(reliability={"fill_fraction": 0.8})).to_document()
    r = e["reliability"]
    assert r["assumptions"]["afr"] == {"ST14000NM001G": 0.0157}
    assert "Backblaze" in r["assumptions"]["afr_source"]["ST14000NM001G"]
    assert r["assumptions"]["ure_per_bit"] == {"hdd": 1e-15}
    assert r["assumptions"]["fill_fraction"] == 0.8 and r["assumptions"]["fill_source"] == "design"
    assert r["assumptions"]["rebuild_bytes_per_s"] == {"vdevs[0]": 187_500_000}
    (v,) = r["vdevs"]
    assert v == {"index": 0, "group_index": 0, "role": "data", "fault_tolerance": 2,
                 "resilver_seconds": v["resilver_seconds"], "rebuild": "healing"}
    # 6 x 14 TB raidz2 at 80 %: about 11 TB per disk at 187.5 MB/s
    assert v["resilver_seconds"] == pytest.approx(0.8 * e["vdevs"][0]["zpool_size_bytes"] / 6 / 187.5e6, rel=1e-3)
    assert 0 < r["data_loss_probability"]["1y"] < r["data_loss_probability"]["5y"] < 1
    assert r["data_loss_probability"]["1y"] == pytest.approx(1 - math.exp(-HOURS_PER_YEAR / r["mttdl_hours"]))


def test_design_values_override_the_defaults():
    base = estimate(design(reliability={"fill_fraction": 0.5})).to_document()["reliability"]
    e = estimate(design(reliability={"fill_fraction": 0.5, "afr": {"ST14000NM001G": 0.05},
                                     "rebuild_bytes_per_s": {"vdevs[0]": 50_000_000},
                                     "replacement_hours": 72})).to_document()
    r = e["reliability"]
    assert r["assumptions"]["afr_source"]["ST14000NM001G"] == "design"
    assert r["assumptions"]["rebuild_source"]["vdevs[0]"] == "design"
    assert r["groups"][0]["replacement_wait_hours"] == 72
    assert r["data_loss_probability"]["5y"] > base["data_loss_probability"]["5y"]


def test_special_vdevs_count_towards_the_pool_risk():
    special = {"role": "special", "layout": "stripe", "width": 1, "disk": {"size_bytes": "1TB", "media": "ssd"}}
    doc = {"name": "tank", "vdevs": [
        {"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "4TB"}}]}
    without = estimate(parse_design(doc)).to_document()["reliability"]
    with_special = estimate(parse_design({**doc, "vdevs": [*doc["vdevs"], special]})).to_document()["reliability"]
    assert with_special["data_loss_probability"]["1y"] > without["data_loss_probability"]["1y"]
    stripe = with_special["groups"][1]
    assert stripe["fault_tolerance"] == 0 and stripe["rebuild"] == "none" and stripe["resilver_seconds"] is None


def test_a_hot_spare_removes_the_replacement_wait():
    spare = {"role": "spare", "layout": "stripe", "width": 1, "disk": {"size_bytes": "14TB", "media": "hdd"}}
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "raidz1", "width": 5,
                                       "disk": {"size_bytes": "14TB", "media": "hdd"}}]}
    without = estimate(parse_design(doc)).to_document()["reliability"]
    with_spare = estimate(parse_design({**doc, "vdevs": [*doc["vdevs"], spare]})).to_document()["reliability"]
    assert with_spare["groups"][0]["replacement_wait_hours"] == 0
    assert with_spare["data_loss_probability"]["5y"] < without["data_loss_probability"]["5y"]


@settings(max_examples=25, deadline=None)
@given(width=st.integers(5, 12), parity=st.integers(1, 2), fill=st.floats(0.05, 1.0))
def test_in_the_estimate_more_parity_and_fewer_disks_never_raise_the_risk(width, parity, fill):
    def p5(layout, w):
        e = estimate(design(layout, w, reliability={"fill_fraction": fill})).to_document()
        return e["reliability"]["data_loss_probability"]["5y"]

    base = p5(f"raidz{parity}", width)
    assert p5(f"raidz{parity + 1}", width) <= base * (1 + 1e-9)
    assert p5(f"raidz{parity}", width + 1) >= base * (1 - 1e-9)


def test_the_pool_loss_counts_disk_failures_only():
    r = estimate(design("raidz1", 8, reliability={"fill_fraction": 0.9})).to_document()["reliability"]
    pool, data = r["pool_loss_probability"], r["data_loss_probability"]
    assert 0 < pool["5y"] < data["5y"]  # read errors during the raidz1 rebuild lose blocks, not the pool
    without_ure = estimate(
        design("raidz1", 8, reliability={"fill_fraction": 0.9, "ure_per_bit": {"hdd": 0}})
    ).to_document()
    assert without_ure["reliability"]["data_loss_probability"]["5y"] == pytest.approx(pool["5y"])
    assert r["assumptions"]["ure_source"] == {"hdd": "data-sheet class default"}
