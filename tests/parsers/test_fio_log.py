"""fio bw/iops/lat/clat/slat and histogram log files as time series."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import ParseError, fio_log, parse
from zfsplanner.parsers.fio_log import downsample, plat_idx_to_val

from .golden import SAMPLES, expected, parsed, samples

LOGS = SAMPLES / "fio_log"


@pytest.mark.parametrize("path", samples("fio_log"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_bw_log_is_kib_per_second():
    doc = parsed(LOGS / "fioplot_fio-3.1_randread-iodepth-1-numjobs-16_bw.1.log")
    [s] = doc["series"]
    assert (s["metric"], s["unit"], s["direction"]) == ("bandwidth", "bytes_per_s", "read")
    assert s["points"][0] == [0.999, 18030 * 1024]  # "999, 18030, 0, 0"
    assert len(s["points"]) == 299
    assert doc["results"] == []


def test_fio3_lat_log_is_nanoseconds():
    [s] = parsed(LOGS / "fioplot_fio-3.1_randread-iodepth-1-numjobs-16_lat.1.log")["series"]
    assert s["points"][0] == [1.0, 214.687]  # "1000, 214687, 0, 0" ns


def test_fio2_lat_log_is_microseconds_when_the_version_is_known():
    data = (LOGS / "fioplot_fio-2.18_randread-4k-01-16_lat.1.log").read_bytes()
    doc = fio_log.parse(data, filename="x_lat.1.log", fio_version="fio-2.18").to_dict()
    assert doc["series"][0]["points"][0] == [0.564, 40290.0]  # "564, 40290, 0, 0" µs


def test_four_column_lat_log_without_version_says_what_it_assumed():
    doc = parse((LOGS / "fioplot_fio-2.18_randread-4k-01-16_lat.1.log").read_bytes(), filename="a_lat.1.log")
    assert "ns" in doc.meta["latency_unit_assumed"]


def test_five_column_logs_split_directions():
    doc = parsed(LOGS / "generated_fio-3.33_randrw70_iops.1.log")
    assert {s["direction"] for s in doc["series"]} == {"read", "write"}
    assert "latency_unit_assumed" not in doc["meta"]


def test_hist_log_layout_and_percentiles():
    old = parsed(LOGS / "pkb_fio-2.17_clat_hist.1.log")
    assert old["meta"]["histogram_bins"] == 1216  # fio 2: 19 groups × 64, µs
    new = parsed(LOGS / "generated_fio-3.33_randrw70_clat_hist.1.log")
    assert new["meta"]["histogram_bins"] == 1856  # fio 3: 29 groups × 64, ns
    names = {s["name"] for s in new["series"]}
    assert names == {"clat p50 read", "clat p50 write", "clat p99 read", "clat p99 write"}
    for s in new["series"]:
        assert all(0 < v < 1_000_000 for _, v in s["points"])


def test_plat_idx_to_val_matches_fio():
    assert plat_idx_to_val(5) == 5
    assert plat_idx_to_val(127) == 127
    assert plat_idx_to_val(128, 0.0) == 128  # group 2 starts at 128, bucket width 2
    assert plat_idx_to_val(129, 0.0) == 130
    assert plat_idx_to_val(192, 0.0) == 256


def test_without_a_file_name_the_kind_is_unknown():
    with pytest.raises(ParseError) as exc:
        parse((LOGS / "fioplot_fio-3.1_randread-iodepth-1-numjobs-16_iops.1.log").read_bytes())
    assert exc.value.format == "fio-log"
    assert "_bw.1.log" in exc.value.message


def test_a_bad_value_names_the_line():
    data = b"1000, 5, 0, 0\n2000, 6, 0, 0\n3000, x, 0, 0\n"
    with pytest.raises(ParseError) as exc:
        fio_log.parse(data, filename="j_bw.1.log")
    assert exc.value.where == "line 3"


def test_downsample_keeps_extremes_and_bounds():
    pts = [(float(i), float((i * 7919) % 1000)) for i in range(10_000)]
    pts[4321] = (4321.0, 5000.0)
    pts[777] = (777.0, -5.0)
    out = downsample(pts, 500)
    assert len(out) <= 500
    assert (4321.0, 5000.0) in out and (777.0, -5.0) in out
    assert [t for t, _ in out] == sorted(t for t, _ in out)
    assert downsample(pts[:10], 500) == tuple(pts[:10])
