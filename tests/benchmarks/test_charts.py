"""Chart builders as plain dicts, and the chart endpoints (JSON, CSV, series)."""

from __future__ import annotations

import csv
import io

import pytest

from benchmarks.charts import (
    ChartError,
    RunData,
    bar_chart,
    chart_csv,
    chart_for,
    legend_labels,
    percentile_chart,
    series_chart,
    unique_labels,
    wrapped_lines,
)
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_BW_LOG, FIO_JSON
from tests.factories import BenchRunFactory

SSD = RunData(
    "ZIL on SSD",
    [
        {
            "name": "SEQ1M Q8T1 write",
            "bandwidth_bytes_per_s": 400e6,
            "iops": 381.0,
            "latency_mean_us": 20000.0,
            "latency_percentiles_us": {"50": 100.0, "99": 900.0, "99.9": 2000.0},
        },
        {"name": "RND4K Q1T1 write", "bandwidth_bytes_per_s": 20e6, "iops": 4882.8, "latency_mean_us": 200.0},
    ],
)
HDD = RunData(
    "ZIL on HDD",
    [
        {
            "name": "RND4K Q1T1 write",
            "bandwidth_bytes_per_s": 2e6,
            "iops": 488.3,
            "latency_mean_us": 2000.0,
            "latency_percentiles_us": {"50": 1500.0, "99": 9000.0, "90": 4000.0},
        },
    ],
)


def test_bars_group_by_test_name_with_null_for_missing_tests():
    chart = bar_chart([SSD, HDD], "bandwidth")
    assert chart["type"] == "bar" and chart["unit"] == "bytes_per_s"
    assert chart["labels"] == ["SEQ1M Q8T1 write", "RND4K Q1T1 write"]
    assert [{"label": d["label"], "data": d["data"]} for d in chart["datasets"]] == [
        {"label": "ZIL on SSD", "data": [400e6, 20e6]},
        {"label": "ZIL on HDD", "data": [None, 2e6]},
    ]


def test_iops_and_latency_have_their_units():
    assert bar_chart([SSD], "iops")["unit"] == "iops"
    latency = bar_chart([HDD], "latency")
    assert latency["unit"] == "us" and latency["datasets"][0]["data"] == [2000.0]


def test_a_test_no_run_measured_is_left_out():
    only_ops = RunData("bonnie", [{"name": "seeks", "ops_per_s": 250.0, "bandwidth_bytes_per_s": None}])
    assert bar_chart([only_ops], "bandwidth")["labels"] == []
    [bars] = bar_chart([only_ops], "ops")["datasets"]
    assert (bars["label"], bars["data"]) == ("bonnie", [250.0])


def test_a_colour_means_one_run_in_every_chart_and_a_runs_tests_differ_by_dash():
    read = {"name": "RND4K Q32T1 read", "latency_percentiles_us": {"50": 80.0}}
    ssd_two_tests = RunData("ZIL on SSD", [*SSD.results, read])
    bars = bar_chart([ssd_two_tests, HDD], "bandwidth")["datasets"]
    lines = percentile_chart([ssd_two_tests, HDD])["datasets"]
    colour = {d["label"]: d["borderColor"] for d in bars}
    assert colour["ZIL on SSD"] != colour["ZIL on HDD"]
    for d in lines:
        run = d["label"].split(" · ")[0]
        assert d["borderColor"] == d["backgroundColor"] == colour[run], d["label"]
    ssd_lines = [d for d in lines if d["label"].startswith("ZIL on SSD")]
    assert len(ssd_lines) == 2 and ssd_lines[0]["borderDash"] != ssd_lines[1]["borderDash"]
    # one run shown alone keeps its colour when the other run's line is filtered out
    [hdd] = percentile_chart([ssd_two_tests, HDD], test="RND4K Q1T1 write")["datasets"]
    assert hdd["borderColor"] == colour["ZIL on HDD"]


def test_percentiles_are_sorted_numerically_and_one_line_per_run_and_test():
    chart = percentile_chart([SSD, HDD])
    assert chart["labels"] == ["p50", "p90", "p99", "p99.9"]
    assert [d["label"] for d in chart["datasets"]] == ["ZIL on SSD · SEQ1M Q8T1 write", "ZIL on HDD · RND4K Q1T1 write"]
    assert chart["datasets"][0]["data"] == [100.0, None, 900.0, 2000.0]
    assert percentile_chart([SSD, HDD], test="RND4K Q1T1 write")["datasets"][0]["label"].startswith("ZIL on HDD")


def test_unknown_metric_and_no_runs_are_errors():
    with pytest.raises(ChartError, match="unknown metric 'speed'"):
        chart_for([SSD], "speed")
    with pytest.raises(ChartError, match="at least one run"):
        chart_for([], "iops")


def test_same_labels_get_the_run_id():
    assert unique_labels(["a", "b", "a"], [1, 2, 3]) == ["a #1", "b", "a #3"]


def test_series_are_downsampled_to_max_points():
    points = [[t * 0.5, float(t % 10)] for t in range(5000)]
    run = RunData(
        "fio",
        series=[
            {"name": "bw read", "metric": "bandwidth", "unit": "bytes_per_s", "points": points, "point_count": 5000}
        ],
    )
    chart = series_chart([run], max_points=100)
    assert chart["type"] == "line" and chart["x_unit"] == "s" and chart["unit"] == "bytes_per_s"
    [ds] = chart["datasets"]
    assert len(ds["data"]) <= 100 and ds["point_count"] == 5000
    assert ds["data"][0] == {"x": 0.0, "y": 0.0}
    assert max(p["y"] for p in ds["data"]) == 9.0  # spikes survive downsampling
    with pytest.raises(ChartError, match="no 'iops' series"):
        series_chart([run], metric="iops")


def test_repeats_in_one_run_are_separate_bars_never_the_last_value():
    repeats = RunData(
        "dd x3",
        [
            {"name": "SEQ1M Q1T1 write", "bandwidth_bytes_per_s": 100.0},
            {"name": "SEQ1M Q1T1 write", "bandwidth_bytes_per_s": 300.0},  # stored before names were numbered
            {"name": "SEQ1M Q1T1 write", "bandwidth_bytes_per_s": 200.0},
        ],
    )
    chart = bar_chart([repeats, SSD], "bandwidth")
    assert chart["labels"] == [
        "SEQ1M Q1T1 write",
        "SEQ1M Q1T1 write #2",
        "SEQ1M Q1T1 write #3",
        "SEQ1M Q8T1 write",
        "RND4K Q1T1 write",
    ]
    assert chart["datasets"][0]["data"] == [100.0, 300.0, 200.0, None, None]


def test_bar_charts_are_horizontal_and_as_tall_as_their_bars_need():
    few = bar_chart([SSD], "bandwidth")
    assert few["indexAxis"] == "y" and few["height"] == 220  # the minimum
    many = RunData("bonnie", [{"name": f"host{i} seeks", "ops_per_s": float(i)} for i in range(60)])
    tall = bar_chart([many, many], "ops")
    assert tall["height"] == 60 * 2 * 20 + 110  # two bars a group
    # a long name wraps (like charts.js wraps it): its group grows with its lines
    long = RunData("bonnie", [{"name": f"zfs-raidz2 random_delete #{i}", "ops_per_s": 1.0} for i in range(40)])
    assert wrapped_lines("zfs-raidz2 random_delete #2") == 2  # "zfs-raidz2" / "random_delete #2"
    assert bar_chart([long], "ops")["height"] == 40 * (2 * 15 + 6) + 110


def test_legends_name_the_settings_the_runs_differ_in():
    labels = legend_labels(
        ["RAID-Z 3+1 over iSCSI"] * 3,
        [
            [("sync", "always"), ("ZIL", "SLOG: SSD")],
            [("sync", "always"), ("ZIL", "SLOG: HDD")],
            [("sync", "always"), ("ZIL", "ZIL disabled")],
        ],
    )
    assert labels == [
        "RAID-Z 3+1 over iSCSI · SLOG: SSD",
        "RAID-Z 3+1 over iSCSI · SLOG: HDD",
        "RAID-Z 3+1 over iSCSI · ZIL disabled",
    ]
    assert legend_labels(["a", "b"], [[("sync", "always")], []]) == ["a · sync=always", "b · sync: not set"]
    assert legend_labels(["only"], [[("sync", "always")]]) == ["only"]


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_neutralised(lead):
    evil = RunData(f'{lead}HYPERLINK("http://x")', [{"name": f"{lead}cmd|calc", "iops": 5.0}])
    rows = list(csv.reader(io.StringIO(chart_csv(bar_chart([evil], "iops")), newline="")))
    lead = lead.replace("\r", " ")  # a line break inside a cell would split the row
    assert rows[0][1] == f'\'{lead}HYPERLINK("http://x") (iops)'
    assert rows[1] == [f"'{lead}cmd|calc", "5"]


def test_csv_of_a_bar_chart_has_a_column_per_run():
    rows = list(csv.reader(io.StringIO(chart_csv(bar_chart([SSD, HDD], "iops")))))
    assert rows == [
        ["test", "ZIL on SSD (iops)", "ZIL on HDD (iops)"],
        ["SEQ1M Q8T1 write", "381", ""],
        ["RND4K Q1T1 write", "4882.8", "488.3"],
    ]


def test_csv_of_a_series_is_long_form():
    run = RunData(
        "fio", series=[{"name": "lat", "metric": "latency", "unit": "us", "points": [[0.5, 10.0], [1.0, 12.5]]}]
    )
    assert chart_csv(series_chart([run])) == "series,x (s),y (us)\nlat,0.5,10\nlat,1,12.5\n"


# --- endpoints ---------------------------------------------------------------------------------


def _parsed_run(team, path, label):
    run = BenchRunFactory(
        upload__team=team, upload__data=path.read_bytes(), upload__original_name=path.name, label=label
    )
    parse_upload_task(run.upload.pk)
    return run


@pytest.mark.django_db
def test_the_chart_endpoint_compares_runs(client_for, bob, team):
    wd, crucial = _parsed_run(team, CDM_WD, "WD Blue"), _parsed_run(team, CDM_CRUCIAL, "Crucial P2")
    r = client_for(bob).get(f"/api/benchmarks/charts/?runs={wd.pk},{crucial.pk}&metric=bandwidth")
    assert r.status_code == 200
    chart = r.json()
    assert chart["type"] == "bar" and chart["unit"] == "bytes_per_s"
    # The union of both runs' tests, in first-seen order; a test one run lacks is null there.
    assert chart["labels"][:3] == ["SEQ1M Q8T1 read", "SEQ1M Q1T1 read", "RND4K Q32T1 read"]
    assert len(chart["labels"]) == 12
    # each is the only run of its tests: marked, with the codes of its validity warnings
    assert [d["label"] for d in chart["datasets"]] == ["WD Blue ⚠", "Crucial P2 ⚠"]
    assert [d["validity"] for d in chart["datasets"]] == [["single-run"], ["single-run"]]
    wd_data, crucial_data = (d["data"] for d in chart["datasets"])
    assert wd_data[0] == pytest.approx(531.458e6)
    assert crucial_data[1] is None  # Crucial's 8.0.2 profile has no SEQ1M Q1T1
    assert wd_data[chart["labels"].index("SEQ128K Q32T1 read")] is None


@pytest.mark.django_db
def test_the_chart_endpoint_serves_csv(client_for, bob, team):
    wd = _parsed_run(team, CDM_WD, "WD Blue")
    for url in (
        f"/api/benchmarks/charts/?runs={wd.pk}&metric=iops&format=csv",
        f"/api/benchmarks/charts.csv?runs={wd.pk}&metric=iops",
    ):
        r = client_for(bob).get(url)
        assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
        lines = r.content.decode().splitlines()
        assert lines[0] == "test,WD Blue ⚠ (iops)"  # the CSV marks a warned run too
        assert lines[1] == "SEQ1M Q8T1 read,506.8"


@pytest.mark.django_db
def test_percentiles_from_fio(client_for, bob, team):
    run = _parsed_run(team, FIO_JSON, "fio five jobs")
    chart = client_for(bob).get(f"/api/benchmarks/charts/?runs={run.pk}&metric=percentiles").json()
    assert chart["unit"] == "us" and chart["type"] == "line"
    keys = [float(label[1:]) for label in chart["labels"]]
    assert keys == sorted(keys) and "p99.9" in chart["labels"]
    assert len(chart["datasets"]) == 5
    first = chart["datasets"][0]
    assert first["label"] == "sequential_write write"  # one run: the test name is the whole story
    assert first["data"][chart["labels"].index("p50")] == 444416.0


@pytest.mark.django_db
def test_the_chart_endpoint_hides_other_teams_runs(client_for, charlie, team):
    wd = _parsed_run(team, CDM_WD, "WD Blue")
    assert client_for(charlie).get(f"/api/benchmarks/charts/?runs={wd.pk}").status_code == 404


@pytest.mark.django_db
def test_the_chart_endpoint_explains_bad_parameters(client_for, bob, team):
    wd = _parsed_run(team, CDM_WD, "WD Blue")
    c = client_for(bob)
    assert "unknown metric 'speed'" in c.get(f"/api/benchmarks/charts/?runs={wd.pk}&metric=speed").json()["metric"]
    assert "'x' is not a run id" in c.get("/api/benchmarks/charts/?runs=1,x").json()["runs"]
    assert "at least one run" in c.get("/api/benchmarks/charts/").json()["runs"]


@pytest.mark.django_db
def test_the_series_endpoint(client_for, bob, charlie, team):
    run = _parsed_run(team, FIO_BW_LOG, "bw log")
    r = client_for(bob).get(f"/api/benchmarks/{run.pk}/series/?max_points=50")
    assert r.status_code == 200
    chart = r.json()
    assert chart["x_unit"] == "s" and chart["metric"] == "bandwidth"
    assert len(chart["datasets"][0]["data"]) <= 50 and chart["datasets"][0]["point_count"] == 299
    csv_text = client_for(bob).get(f"/api/benchmarks/{run.pk}/series.csv").content.decode()
    assert csv_text.startswith("series,x (s),y (bytes_per_s)\n") and len(csv_text.splitlines()) == 300
    assert client_for(charlie).get(f"/api/benchmarks/{run.pk}/series/").status_code == 404
