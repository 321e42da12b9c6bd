"""Benchmark results -> Chart.js JSON (and CSV), as plain dicts.

The builders take :class:`RunData` (a label plus result dicts shaped like the normalized
document's ``results``) and return ``{"type", "labels", "datasets", "unit", ...}`` as
``static/js/charts.js`` draws them. Only :func:`run_data` reads models.

Charts never hide a figure: a test that appears several times in one run (repeats in one
log) gets one bar per repeat (``… #2``, ``… #3``), never only the last value. Bar charts are
horizontal (test names stay readable on a phone) and say how tall they need to be
(``height``, in pixels, from the number of bars), so a run with 60 tests is as legible as
one with 4. Legends are the run labels, plus the settings that differ between the
compared runs (``sync=always``, ``SLOG: SSD``), so three runs of one pool that differ only
in their ZIL read apart. A run with validity warnings nobody has checked (:mod:`.validity`) is
marked in every chart that shows it: its label ends in :data:`WARNED_MARK`, and in bar charts its
dataset carries the warning codes (``validity``), which ``charts.js`` draws as an amber outline.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zfsplanner.parsers.fio_log import downsample

from .run_settings import setting_text, short_settings
from .validity import run_validity

# One colour per run, the same in every chart of a comparison (the Okabe-Ito palette, which reads
# apart in the common colour-vision deficiencies): a colour always means a run. Within a run, a
# chart with one line per test tells its tests apart by the dash pattern.
RUN_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#f0e442")
TEST_DASHES: tuple[list[int], ...] = ([], [6, 3], [2, 2], [10, 3, 2, 3], [1, 4])


def run_style(run_index: int, test_index: int = 0, line: bool = False) -> dict[str, Any]:
    """How a run's dataset is drawn: its run's colour and, for the run's ``test_index``-th line, a dash."""
    colour = RUN_COLOURS[run_index % len(RUN_COLOURS)]
    style: dict[str, Any] = {"borderColor": colour, "backgroundColor": colour}
    if line:
        style["borderDash"] = TEST_DASHES[test_index % len(TEST_DASHES)]
    return style


class ChartError(ValueError):
    """A chart request that cannot be answered (unknown metric, no runs)."""


@dataclass(frozen=True)
class Metric:
    field: str
    unit: str
    title: str


METRICS: dict[str, Metric] = {
    "bandwidth": Metric("bandwidth_bytes_per_s", "bytes_per_s", "Bandwidth"),
    "iops": Metric("iops", "iops", "IOPS"),
    "latency": Metric("latency_mean_us", "us", "Mean latency"),
    "latency_max": Metric("latency_max_us", "us", "Maximum latency"),
    "ops": Metric("ops_per_s", "", "Operations per second"),
}
CHART_METRICS = (*METRICS, "percentiles")
DEFAULT_SERIES_POINTS = 1000
MAX_SERIES_POINTS = 20000


# Bar chart height: room for every bar, so many tests never squeeze into a few pixels.
BAR_PX = 20
BAR_CHART_EXTRA_PX = 110
BAR_CHART_MIN_PX = 220
BAR_CHART_MAX_PX = 6000
LINE_CHART_PX = 340
WRAP_LABELS = 18  # characters per line of a long test name beside its bars
LABEL_LINE_PX = 15


WARNED_MARK = " ⚠"


@dataclass(frozen=True)
class RunData:
    label: str
    results: Sequence[dict[str, Any]] = ()
    series: Sequence[dict[str, Any]] = field(default_factory=tuple)
    warnings: tuple[str, ...] = ()  # validity codes nobody has checked: the run is marked


def warned_label(label: str, warnings: Sequence[str]) -> str:
    """The run's label, marked when it has validity warnings nobody has checked."""
    return label + WARNED_MARK if warnings else label


def unique_labels(labels: Sequence[str], ids: Sequence[Any]) -> list[str]:
    """Labels as given, with ``#id`` appended where two runs would otherwise share one."""
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    return [f"{label} #{i}" if seen[label] > 1 else label for label, i in zip(labels, ids, strict=True)]


def legend_labels(labels: Sequence[str], settings: Sequence[Sequence[tuple[str, str]]]) -> list[str]:
    """Run labels, each followed by the settings in which the runs differ (``a · sync=always``).

    ``settings`` holds each run's readable settings (run_settings.short_settings). Settings all
    runs share are left out: they say nothing about the difference the chart shows."""
    if len(labels) < 2:
        return list(labels)
    maps = [dict(s) for s in settings]
    keys = list(dict.fromkeys(k for s in settings for k, _ in s))
    differing = [k for k in keys if len({m.get(k, "") for m in maps}) > 1]
    out = []
    for label, m in zip(labels, maps, strict=True):
        parts = [setting_text(k, m.get(k, "")) for k in differing]
        out.append(f"{label} · {', '.join(parts)}" if parts else label)
    return out


def _occurrences(results: Iterable[dict[str, Any]]) -> list[tuple[str, int]]:
    """(name, n) for every result: n counts the repeats of a name within one run (1, 2, …)."""
    seen: dict[str, int] = {}
    keys = []
    for r in results:
        seen[r["name"]] = seen.get(r["name"], 0) + 1
        keys.append((r["name"], seen[r["name"]]))
    return keys


def _key_label(name: str, n: int) -> str:
    return name if n == 1 else f"{name} #{n}"


def wrapped_lines(label: str, width: int = WRAP_LABELS) -> int:
    """How many lines ``label`` takes beside its bars, broken at spaces as charts.js breaks it."""
    lines: list[str] = []
    for word in label.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return max(1, len(lines))


def bar_height(labels: Sequence[str], bars_per_label: int) -> int:
    """Pixels a horizontal bar chart needs: each group as tall as its bars or its wrapped name (clamped)."""
    groups = sum(max(bars_per_label * BAR_PX, wrapped_lines(label) * LABEL_LINE_PX + 6) for label in labels)
    return max(BAR_CHART_MIN_PX, min(BAR_CHART_MAX_PX, groups + BAR_CHART_EXTRA_PX))


def bar_chart(runs: Sequence[RunData], metric: str) -> dict[str, Any]:
    """Grouped bars: one group per test, one bar (dataset) per run; missing figures are null.

    A test that appears several times in one run has one group per repeat (``name #2``)."""
    if metric not in METRICS:
        raise ChartError(f"unknown metric {metric!r}; use one of {', '.join(CHART_METRICS)}")
    m = METRICS[metric]
    keys: list[tuple[str, int]] = []
    for run in runs:
        for key, r in zip(_occurrences(run.results), run.results, strict=True):
            if key not in keys and r.get(m.field) is not None:
                keys.append(key)
    labels = [_key_label(*key) for key in keys]
    datasets = []
    for i, run in enumerate(runs):
        values = {key: r.get(m.field) for key, r in zip(_occurrences(run.results), run.results, strict=True)}
        dataset: dict[str, Any] = {"label": run.label, "data": [values.get(key) for key in keys], **run_style(i)}
        if run.warnings:
            dataset["validity"] = list(run.warnings)
        datasets.append(dataset)
    return {
        "type": "bar",
        "indexAxis": "y",
        "wrap_labels": WRAP_LABELS,
        "height": bar_height(labels, max(1, len(runs))),
        "title": m.title,
        "labels": labels,
        "datasets": datasets,
        "unit": m.unit,
        "metric": metric,
    }


def _pct_key(key: str) -> float:
    try:
        return float(key)
    except ValueError:
        return float("inf")


def percentile_chart(runs: Sequence[RunData], test: str | None = None) -> dict[str, Any]:
    """Latency by percentile: x = p50, p90, …; one line per (run, test) that reports percentiles."""
    keys: set[str] = set()
    rows: list[tuple[str, dict[str, float], dict[str, Any]]] = []
    for i, run in enumerate(runs):
        lines = 0
        for (name, n), r in zip(_occurrences(run.results), run.results, strict=True):
            pcts = {k: v for k, v in (r.get("latency_percentiles_us") or {}).items() if v is not None}
            label = _key_label(name, n)
            if not pcts or (test and label != test):
                continue
            keys.update(pcts)
            rows.append((f"{run.label} · {label}" if len(runs) > 1 else label, pcts, run_style(i, lines, line=True)))
            lines += 1
    ordered = sorted(keys, key=_pct_key)
    return {
        "type": "line",
        "title": "Latency percentiles" + (f" · {test}" if test else ""),
        "labels": [f"p{k}" for k in ordered],
        "datasets": [{"label": label, "data": [pcts.get(k) for k in ordered], **style} for label, pcts, style in rows],
        "unit": "us",
        "metric": "percentiles",
        "x_label": "percentile",
        "height": LINE_CHART_PX + 18 * (len(rows) // 3),
    }


def chart_for(runs: Sequence[RunData], metric: str, test: str | None = None) -> dict[str, Any]:
    if not runs:
        raise ChartError("pick at least one run (runs=1,2,…)")
    if metric == "percentiles":
        return percentile_chart(runs, test)
    return bar_chart(runs, metric)


def series_chart(
    runs: Sequence[RunData], metric: str | None = None, max_points: int = DEFAULT_SERIES_POINTS
) -> dict[str, Any]:
    """Time series as a line chart with a numeric x axis in seconds, downsampled to ``max_points`` each."""
    max_points = max(2, min(int(max_points), MAX_SERIES_POINTS))
    all_series = [(run, s) for run in runs for s in run.series]
    metrics = [s["metric"] for _, s in all_series]
    if metric is None and metrics:
        metric = metrics[0]
    if metric is not None and metrics and metric not in metrics:
        raise ChartError(f"no {metric!r} series; this run has {', '.join(sorted(set(metrics)))}")
    chosen = [(run, s) for run, s in all_series if s["metric"] == metric]
    run_index = {id(run): i for i, run in enumerate(runs)}
    lines: dict[int, int] = {}
    datasets = []
    for run, s in chosen:
        i = run_index[id(run)]
        lines[i] = lines.get(i, -1) + 1
        points = [(float(t), float(v)) for t, v in s["points"]]
        if len(points) > max_points:
            points = list(downsample(points, max_points))
        label = f"{run.label} · {s['name']}" if len(runs) > 1 else s["name"]
        datasets.append(
            {
                "label": label,
                "data": [{"x": t, "y": v} for t, v in points],
                "point_count": s.get("point_count", len(s["points"])),
                **run_style(i, lines[i], line=True),
            }
        )
    unit = chosen[0][1]["unit"] if chosen else ""
    return {
        "type": "line",
        "height": LINE_CHART_PX + 18 * (len(datasets) // 3),
        "title": f"{(metric or 'series').capitalize()} over time",
        "labels": [],
        "datasets": datasets,
        "unit": unit,
        "x_unit": "s",
        "x_label": "time",
        "metric": metric,
        "available_metrics": sorted(set(metrics)),
    }


def chart_csv(chart: dict[str, Any]) -> str:
    """CSV of a chart: one row per label for category charts, long form (series, x, y) for numeric x."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    unit = chart.get("unit") or ""
    suffix = f" ({unit})" if unit else ""
    if chart.get("x_unit"):
        w.writerow(["series", f"x ({chart['x_unit']})", f"y{suffix}"])
        for ds in chart["datasets"]:
            for p in ds["data"]:
                w.writerow([safe_text(ds["label"]), _cell(p["x"]), _cell(p["y"])])
    else:
        header = [chart.get("x_label") or "test", *(f"{ds['label']}{suffix}" for ds in chart["datasets"])]
        w.writerow([safe_text(h) for h in header])
        for i, label in enumerate(chart["labels"]):
            w.writerow([safe_text(label), *(_cell(ds["data"][i]) for ds in chart["datasets"])])
    return out.getvalue()


FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: Any) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP "CSV injection"): run labels
    and test names come from users, so one starting with ``= + - @``, a tab or a CR is
    prefixed with an apostrophe, and line breaks inside it become spaces. Numbers are written by
    :func:`_cell` and never touched."""
    text = str(text)
    if text.startswith(FORMULA_LEADS):
        text = "'" + text
    return text.replace("\r", " ").replace("\n", " ")  # one cell stays one line


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# --- the model side -------------------------------------------------------------------------


RESULT_FIELDS = (
    "name",
    "op",
    "pattern",
    "block_size_bytes",
    "queue_depth",
    "threads",
    "bandwidth_bytes_per_s",
    "iops",
    "latency_mean_us",
    "latency_max_us",
    "ops_per_s",
)


def run_data(runs: Sequence[Any], with_series: bool = False) -> list[RunData]:
    """RunData for BenchRun models (in the given order): labels made unique, with the settings
    in which the runs differ."""
    labels = legend_labels([r.display_label for r in runs], [short_settings(r.settings or {}) for r in runs])
    labels = unique_labels(labels, [r.pk for r in runs])
    out = []
    for run, label in zip(runs, labels, strict=True):
        validity = run_validity(run)
        warnings = validity.codes if validity.warned else ()
        results = [
            {**{f: getattr(row, f) for f in RESULT_FIELDS}, "latency_percentiles_us": row.percentiles}
            for row in run.results.all()
        ]
        series: list[dict[str, Any]] = []
        if with_series:
            series = [
                {
                    "name": s.name,
                    "metric": s.metric,
                    "unit": s.unit,
                    "points": s.points,
                    "point_count": s.point_count,
                }
                for s in run.series.all()
            ]
        out.append(RunData(label=warned_label(label, warnings), results=results, series=series, warnings=warnings))
    return out
