"""Estimate → Chart.js JSON (``{"type", "labels", "datasets", "unit"}``), as plain dicts.

The builders read the typed :class:`~zfsplanner.core.estimate.Estimate` by attribute. A bar a
series does not have is ``None`` (a gap in the chart, never a zero).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.figures import EfficiencyGroup
from zfsplanner.core.units import format_zfs_size

# The pool's bars: its figure (``PoolFigures`` attribute) and the bar's label.
POOL_BARS = (
    ("raw_bytes", "raw (sum of disks)"),
    ("zpool_size_bytes", "zpool SIZE"),
    ("special_size_bytes", "special class"),
    ("slop_bytes", "slop"),
    ("zfs_avail_bytes", "zfs AVAIL"),
    ("allocated_bytes", "allocated by contents"),
)


def capacity_chart(estimate: Estimate) -> dict[str, Any]:
    """The pool's capacity figures, from raw to what ``zfs list`` shows as AVAIL, then each dataset's USED."""
    labels = [label for _, label in POOL_BARS]
    data: list[int | None] = [getattr(estimate.pool, key) for key, _ in POOL_BARS]
    rows = estimate.datasets
    datasets = [{"label": "pool", "data": data + [None] * len(rows)}]
    if rows:
        labels += [d.name for d in rows]
        datasets.append({"label": "zfs USED", "data": [None] * len(data) + [d.zfs_used_bytes for d in rows]})
    return {"type": "bar", "title": "Capacity", "labels": labels, "datasets": datasets, "unit": "bytes"}


def efficiency_chart(estimate: Estimate) -> dict[str, Any] | None:
    """The estimate's efficiency table by block size, one series per distinct vdev shape; None when the
    estimate has none."""
    groups = [g for g in estimate.efficiency if g.rows]
    if not groups:
        return None
    blocks = list(dict.fromkeys(r.block_size for g in groups for r in g.rows))
    datasets = []
    for g in groups:
        by_block = {r.block_size: r.efficiency for r in g.rows}
        datasets.append({"label": _group_label(g), "data": [by_block.get(b) for b in blocks]})
    values = [r.efficiency for g in groups for r in g.rows]
    return {
        "type": "bar",
        "title": "Space efficiency by block size (data / allocated)",
        "labels": [str(format_zfs_size(b)) for b in blocks],
        "datasets": datasets,
        "unit": "fraction" if all(0 <= v <= 1 for v in values) else "",
        "x_label": "block size",
    }


def _group_label(group: EfficiencyGroup) -> str:
    parts = [p for p in (group.role, group.layout) if p]
    if group.width:
        parts.append(f"of {group.width}")
    return " ".join(parts) or f"group {group.group_index}"


# --------------------------------------------------------------------------- planning


def special_curve_chart(estimate: Estimate, index: int) -> dict[str, Any] | None:
    """The ``special_small_blocks`` knee of dataset ``index``: special-class use of the pool (this
    dataset at each threshold, the others as set) and the dataset's bytes left on the data vdevs,
    with the special class's 75 % point and size as lines. None for an unknown dataset.

    The value axis is logarithmic: the special class holds megabytes to gigabytes while the data
    vdevs hold terabytes, and on one linear axis the special class's moves are invisible. A zero
    (nothing left on the data vdevs) has no place on a log axis and stays a gap (``None``). The
    category of the dataset's own setting is marked "(set)".
    """
    datasets, special = estimate.datasets, estimate.special
    if not 0 <= index < len(datasets):
        return None
    curve = datasets[index].special_small_blocks_curve
    if not curve:
        return None
    name = datasets[index].name
    mine = next((d for d in special.datasets if d.name == name), None)
    others = max(special.demand_bytes - (mine.demand_bytes if mine is not None else 0), 0)
    setting = mine.special_small_blocks if mine is not None else None
    labels = []
    for p in curve:
        t = p.special_small_blocks
        text = str(format_zfs_size(t)) if t else "0 (metadata only)"
        labels.append(f"{text} (set)" if t == setting else text)
    series: list[dict[str, Any]] = [
        {
            "label": "special class, whole pool",
            "key": "special_used",
            "data": [_positive(others + p.special_allocated_bytes) for p in curve],
        },
        {
            "label": f"{name} on the data vdevs",
            "key": "data",
            "data": [_positive(p.normal_allocated_bytes) for p in curve],
        },
    ]
    size = special.class_size_bytes
    if size:
        # On a logarithmic axis 75 % and 100 % of the class lie close together: the size is a solid line,
        # the 75 % point a dashed one, and the band between them (metadata only) is shaded.
        stop = special.small_blocks_stop_fraction
        series.append(
            {
                "label": f"small blocks stop ({100 * stop:.0f} % full)",
                "key": "special_stop",
                "data": [_positive(special.small_blocks_stop_bytes)] * len(curve),
                "borderDash": [6, 4],
                "borderWidth": 2,
                "pointRadius": 0,
                "fill": "+1",
            }
        )
        series.append(
            {
                "label": f"special vdev size (the last {100 * (1 - stop):.0f} %: metadata only)",
                "key": "special_size",
                "data": [_positive(size)] * len(curve),
                "borderWidth": 3,
                "pointRadius": 0,
            }
        )
    else:
        series.append(
            {
                "label": "recommended special size",
                "key": "special_size",
                "data": [_positive(special.recommended_bytes)] * len(curve),
                "borderDash": [6, 4],
                "pointRadius": 0,
            }
        )
    return {
        "type": "line",
        "title": f"special_small_blocks on {name}",
        "labels": labels,
        "datasets": series,
        "unit": "bytes_si",
        "y_scale": "logarithmic",
        "y_label": "logarithmic scale",
        "x_label": "special_small_blocks",
    }


def _positive(v: int | None) -> int | None:
    """A byte count for a logarithmic axis: a positive number, else a gap."""
    return v if v is not None and v > 0 else None


def measured_chart(rows: list[Mapping[str, Any]], metric: str | None = None) -> dict[str, Any]:
    """Benchmark results against the prediction for the same test shape.

    Default: every test as a percentage of the middle of its predicted range (the range is a
    floating bar, the measured figure a bar beside it), so tests of every kind share one axis.
    ``metric`` ``iops`` or ``bandwidth``: the figures themselves in that unit.
    """
    labels = []
    for r in rows:
        diff = r.get("difference_percent")
        labels.append(f"{r['run_label']}: {r['test']}" + (f" ({diff:+.0f} %)" if diff is not None else ""))
    if metric in ("iops", "bandwidth"):
        return {
            "type": "bar",
            "title": "Measured against predicted",
            "labels": labels,
            "datasets": [
                {"label": "predicted range", "data": [[r["predicted_low"], r["predicted_high"]] for r in rows]},
                {"label": "measured", "data": [r["measured"] for r in rows]},
            ],
            "unit": "iops" if metric == "iops" else "bytes_per_s",
            "rows": rows,
        }

    def pct(v: float, r: Mapping[str, Any]) -> float | None:
        mid = (r["predicted_low"] * r["predicted_high"]) ** 0.5
        return round(100 * v / mid, 1) if mid > 0 else None

    return {
        "type": "bar",
        "title": "Measured as % of the predicted middle",
        "labels": labels,
        "datasets": [
            {
                "label": "predicted range",
                "data": [[pct(r["predicted_low"], r), pct(r["predicted_high"], r)] for r in rows],
            },
            {"label": "measured", "data": [pct(r["measured"], r) for r in rows]},
        ],
        "unit": "percent",
        "rows": rows,
    }


def timeline_chart(estimate: Estimate) -> dict[str, Any] | None:
    """Fill of the pool over the years, with the fill limit as a line (Chart.js JSON)."""
    line = estimate.timeline
    if line is None:
        return None
    labels = [f"year {y.year}" for y in line.years]
    limit = f"fill limit ({100 * line.fill_limit:.0f} %)"
    return {
        "type": "line",
        "title": "Fill over the years",
        "labels": labels,
        "datasets": [
            {"label": "fill", "data": [y.fill if math.isfinite(y.fill) else None for y in line.years]},
            {"label": limit, "data": [line.fill_limit] * len(labels)},
        ],
        "unit": "fraction",
    }
