"""Chart builders (plans/charts.py) as plain dicts: estimate in, Chart.js JSON out."""

from __future__ import annotations

from dataclasses import replace

from zfsplanner.core.datasets.special import CurvePoint
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import Estimate, estimate
from zfsplanner.core.planning.figures import SpecialDatasetFigures
from zfsplanner.plans.presentation import charts

GB = 10**9
TB = 10**12
DESIGN = {
    "name": "tank",
    "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "count": 1, "disk": {"size_bytes": "8TB"}}],
    "datasets": [{"name": "tank/photos"}, {"name": "tank/docs"}],
}


def _estimate(class_size: int | None = 960 * GB) -> Estimate:
    """Two datasets; the curve is of tank/photos (special_small_blocks=64K), tank/docs puts 2 GB there."""
    curve = (
        CurvePoint(0, special_allocated_bytes=40 * 10**6, normal_allocated_bytes=12 * TB),
        CurvePoint(65536, special_allocated_bytes=3 * GB, normal_allocated_bytes=11 * TB),
        CurvePoint(1 << 20, special_allocated_bytes=12 * TB, normal_allocated_bytes=0),
    )
    base = estimate(parse_design(DESIGN))
    special = replace(
        base.special,
        demand_bytes=5 * GB,  # 3 GB of tank/photos at its 64K, 2 GB of tank/docs
        datasets=(
            SpecialDatasetFigures("tank/photos", special_small_blocks=65536, demand_bytes=3 * GB, metadata_bytes=0),
            SpecialDatasetFigures("tank/docs", special_small_blocks=0, demand_bytes=2 * GB, metadata_bytes=0),
        ),
        recommended_bytes=9 * GB,
        class_size_bytes=class_size or 0,
        small_blocks_stop_bytes=class_size * 3 // 4 if class_size else None,
    )
    photos, docs = base.datasets
    datasets = (replace(photos, special_small_blocks_curve=curve), replace(docs, special_small_blocks_curve=()))
    return replace(base, datasets=datasets, special=special)


def test_the_special_chart_reads_gigabytes_and_terabytes_on_a_log_axis():
    chart = charts.special_curve_chart(_estimate(), 0)
    assert chart["type"] == "line" and chart["y_scale"] == "logarithmic" and chart["unit"] == "bytes_si"
    series = {d["label"]: d["data"] for d in chart["datasets"]}
    # the whole pool's special class: the other dataset's 2 GB plus this one's at each threshold
    assert series["special class, whole pool"] == [2 * GB + 40 * 10**6, 5 * GB, 12 * TB + 2 * GB]
    assert series["tank/photos on the data vdevs"] == [12 * TB, 11 * TB, None]  # no zero on a log axis: a gap


SIZE_LINE = "special vdev size (the last 25 %: metadata only)"
STOP_LINE = "small blocks stop (75 % full)"


def test_the_special_chart_draws_the_vdev_size_and_the_75_percent_line():
    chart = charts.special_curve_chart(_estimate(), 0)
    series = {d["label"]: d for d in chart["datasets"]}
    assert series[SIZE_LINE]["data"] == [960 * GB] * 3
    assert series[STOP_LINE]["data"] == [720 * GB] * 3
    assert series[STOP_LINE]["pointRadius"] == 0


def test_the_size_and_the_75_percent_lines_look_different_and_the_band_between_is_shaded():
    """On a log axis 75 % and 100 % are an eighth of a decade apart: a dashed line, a thicker solid one."""
    chart = charts.special_curve_chart(_estimate(), 0)
    stop, size = chart["datasets"][-2:]
    assert stop["borderDash"] and "borderDash" not in size
    assert size["borderWidth"] > stop["borderWidth"]
    assert stop["fill"] == "+1"  # shades up to the next line: the size
    assert (stop["key"], size["key"]) == ("special_stop", "special_size")


def test_the_special_chart_marks_the_datasets_own_setting():
    chart = charts.special_curve_chart(_estimate(), 0)
    assert chart["labels"] == ["0 (metadata only)", "64K (set)", "1M"]


def test_without_a_special_vdev_the_chart_shows_the_recommended_size():
    chart = charts.special_curve_chart(_estimate(class_size=None), 0)
    labels = [d["label"] for d in chart["datasets"]]
    assert SIZE_LINE not in labels and STOP_LINE not in labels
    assert chart["datasets"][-1]["label"] == "recommended special size"
    assert chart["datasets"][-1]["data"] == [9 * GB] * 3


def test_the_special_chart_of_an_unknown_or_curveless_dataset_is_none():
    assert charts.special_curve_chart(_estimate(), 5) is None
    assert charts.special_curve_chart(_estimate(), 1) is None  # tank/docs has no curve
    assert charts.special_curve_chart(replace(_estimate(), datasets=()), 0) is None
