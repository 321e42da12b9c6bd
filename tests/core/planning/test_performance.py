"""Performance ranges: how ZFS spreads I/O over vdevs, where per-disk figures come from, and
the prediction for one benchmark test shape."""

from __future__ import annotations

import pytest

from zfsplanner.core.design.planning import (
    DriveFigures,
    DriveInputs,
    PlanningInputs,
    PlanningSettings,
    default_figures,
    read_planning,
    resolve_afr,
    resolve_figures,
)
from zfsplanner.core.design.types import Layout
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.planning.performance import BenchShape, pool_performance, predict, vdev_perf

HDD = DriveFigures(
    random_read_iops=200, random_read_iops_qd1=100, random_write_iops=250, random_write_iops_qd1=125,
    seq_read_bytes_per_s=200e6, seq_write_bytes_per_s=180e6, sync_write_iops=100, source="test",
)
NVME_PLP = DriveFigures(
    random_read_iops=500_000, random_read_iops_qd1=15_000, random_write_iops=150_000, random_write_iops_qd1=50_000,
    seq_read_bytes_per_s=3e9, seq_write_bytes_per_s=2e9, sync_write_iops=40_000, source="test",
)


def hdd(layout, width, parity, count=1, **kw):
    return vdev_perf(layout, width, parity, count, HDD, "hdd", **kw)


def test_random_iops_scale_with_vdevs_not_disks():
    one = pool_performance([hdd(Layout.RAIDZ2, 6, 2)], [])
    four = pool_performance([hdd(Layout.RAIDZ2, 6, 2, count=4)], [])
    wide = pool_performance([hdd(Layout.RAIDZ2, 12, 2)], [])
    assert one.random_read_iops.low == 100 and one.random_read_iops.high == 200
    assert four.random_read_iops.high == 4 * one.random_read_iops.high
    assert wide.random_read_iops == one.random_read_iops  # a wider raidz is not faster at random I/O


def test_mirrors_read_from_every_side_and_write_to_all():
    m = pool_performance([hdd(Layout.MIRROR, 3, 0, count=2)], [])
    assert m.random_read_iops.high == 2 * 3 * 200
    assert m.random_write_iops.high == 2 * 250
    assert m.seq_read_bytes_per_s.high == 2 * 3 * 200e6
    assert m.seq_write_bytes_per_s.high == 2 * 180e6


def test_raidz_streams_with_its_data_disks():
    z = pool_performance([hdd(Layout.RAIDZ2, 10, 2)], [])
    assert z.seq_read_bytes_per_s.high == 8 * 200e6
    assert z.seq_write_bytes_per_s.high == 8 * 180e6
    assert z.seq_read_bytes_per_s.low == pytest.approx(0.5 * 8 * 200e6)  # inner tracks


def test_draid_serves_one_random_io_per_row():
    d = pool_performance([hdd(Layout.DRAID2, 24, 2, draid_data=8, draid_spares=2)], [])
    rows = (24 - 2) / 10
    assert d.random_read_iops.high == pytest.approx(200 * rows)
    assert d.seq_read_bytes_per_s.high == pytest.approx(22 * 8 / 10 * 200e6)


def test_sync_writes_go_to_the_slog_when_there_is_one():
    data = [hdd(Layout.RAIDZ2, 6, 2, count=2)]
    no_slog = pool_performance(data, [])
    assert no_slog.sync_write_iops_with_slog is None
    assert no_slog.sync_write_iops == no_slog.sync_write_iops_without_slog
    assert no_slog.sync_write_iops_without_slog.low == 100 and no_slog.sync_write_iops_without_slog.high == 200
    slog = pool_performance(data, [vdev_perf(Layout.MIRROR, 2, 0, 1, NVME_PLP, "nvme")])
    assert slog.sync_write_iops.low == 40_000
    assert slog.sync_write_iops.high == 150_000  # power-loss protection: acknowledged from its cache at depth
    assert slog.slog_write_bytes_per_s == 2e9


def test_a_prediction_for_each_test_shape():
    perf = pool_performance([hdd(Layout.MIRROR, 2, 0, count=4)], [])
    seq = predict(perf, BenchShape("read", "sequential", 1 << 20, 8))
    assert seq is not None
    assert seq.bandwidth_bytes_per_s.high == pytest.approx(perf.seq_read_bytes_per_s.high)
    rnd1 = predict(perf, BenchShape("read", "random", 4096, 1))
    rnd32 = predict(perf, BenchShape("read", "random", 4096, 32, 4))
    assert rnd1 is not None and rnd32 is not None
    assert rnd1.iops.low == pytest.approx(4 * 100)
    assert rnd32.iops.high == pytest.approx(perf.random_read_iops.high)
    assert rnd1.iops.high < rnd32.iops.high
    big = predict(perf, BenchShape("read", "random", 1 << 20, 32, 4))
    assert big is not None and big.iops.high < rnd32.iops.high  # transfer time of 1 MiB
    mixed = predict(perf, BenchShape("mixed", "random", 4096, 32, 4))
    w = predict(perf, BenchShape("write", "random", 4096, 32, 4))
    assert mixed is not None and w is not None
    assert min(w.iops.high, rnd32.iops.high) <= mixed.iops.high <= max(w.iops.high, rnd32.iops.high)
    sync = predict(perf, BenchShape("write", "random", 4096, 1, 1, sync=True))
    assert sync is not None and sync.iops.low == perf.sync_write_iops.low
    assert predict(perf, BenchShape("trim", "random", 4096)) is None


# --------------------------------------------------------------------------- where the figures come from


def test_media_defaults_depend_on_rpm_and_power_loss_protection():
    assert default_figures("hdd", 5400, None).random_read_iops < default_figures("hdd", 7200, None).random_read_iops
    assert default_figures(None, None, None).source.startswith("media default (hdd")
    assert default_figures("ssd", None, True).sync_write_iops > 10 * default_figures("ssd", None, False).sync_write_iops


def test_design_figures_beat_benchmarks_which_beat_the_catalog_defaults():
    settings = read_planning({"performance": {"disk": {"M1": {"random_read_iops": 999}}}}, 1)
    inputs = PlanningInputs(
        {"M1": DriveInputs(figures=DriveFigures(random_read_iops=500, seq_read_bytes_per_s=1e8, source="benchmark:7"))}
    )
    f = resolve_figures("M1", "hdd", 7200, None, settings, inputs)
    assert f.random_read_iops == 999  # design
    assert f.seq_read_bytes_per_s == 1e8  # benchmark
    assert f.random_write_iops == default_figures("hdd", 7200, None).random_write_iops  # default
    assert f.source == "design + benchmark:7 + media default (hdd, 7200 rpm)"
    other = resolve_figures("M2", "hdd", 7200, None, settings, inputs)
    assert other.source == "media default (hdd, 7200 rpm)"


def test_afr_from_design_then_catalog_then_media_class():
    inputs = PlanningInputs({"M1": DriveInputs(afr=0.03, afr_source="catalog")})
    assert resolve_afr("M1", "hdd", PlanningSettings(), inputs) == (0.03, "catalog")
    design = read_planning({"reliability": {"afr": {"M1": 0.05, "ssd": 0.02}}}, 1)
    assert resolve_afr("M1", "hdd", design, inputs) == (0.05, "design")
    assert resolve_afr(None, "ssd", design, None) == (0.02, "design")
    afr, source = resolve_afr(None, "hdd", PlanningSettings(), None)
    assert afr == 0.0157 and "Backblaze" in source


# --------------------------------------------------------------------------- in the estimate


def test_the_estimate_lists_the_ranges_and_the_disks_they_rest_on():
    doc = {
        "name": "tank",
        "vdevs": [
            {"role": "data", "layout": "mirror", "width": 2, "count": 3,
             "disk": {"size_bytes": "14TB", "model": "ST14000NM001G", "media": "hdd", "rpm": 7200}},
            {"role": "log", "layout": "mirror", "width": 2,
             "disk": {"size_bytes": "118GB", "model": "SSDPEK1A118GA", "media": "nvme", "plp": True}},
        ],
        "datasets": [{"name": "tank/db", "sync": "disabled"}],
    }
    p = estimate(parse_design(doc)).to_document()["performance"]
    disk = p["assumptions"]["disk"]["ST14000NM001G"]
    assert disk["source"] == "media default (hdd, 7200 rpm)"
    assert p["random_read_iops"] == {"low": 3 * disk["random_read_iops_qd1"], "high": 6 * disk["random_read_iops"]}
    assert p["sync_write_iops"] == p["sync_write_iops_with_slog"]
    assert p["sync_write_iops_without_slog"]["low"] == disk["sync_write_iops"]
    assert p["sync_write_latency_us"]["with_slog"] < p["sync_write_latency_us"]["without_slog"]
    assert "SSDPEK1A118GA" in p["assumptions"]["disk"]
    assert any("sync=disabled" in n for n in p["notes"])


def test_catalog_and_benchmark_inputs_reach_the_estimate():
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "raidz1", "width": 4,
                                       "disk": {"size_bytes": "4TB", "model": "WD40EFZX", "media": "hdd"}}]}
    inputs = PlanningInputs({"WD40EFZX": DriveInputs(
        afr=0.012, afr_source="catalog",
        figures=DriveFigures(seq_write_bytes_per_s=100e6, seq_read_bytes_per_s=110e6, source="benchmark:3"))})
    e = estimate(parse_design(doc), inputs).to_document()
    assert e["performance"]["seq_read_bytes_per_s"]["high"] == pytest.approx(3 * 110e6)
    assert e["performance"]["assumptions"]["disk"]["WD40EFZX"]["source"].startswith("benchmark:3")
    assert e["reliability"]["assumptions"]["afr"] == {"WD40EFZX": 0.012}
    assert e["reliability"]["assumptions"]["rebuild_bytes_per_s"] == {"vdevs[0]": 75_000_000}
    assert "benchmark:3" in e["reliability"]["assumptions"]["rebuild_source"]["vdevs[0]"]
