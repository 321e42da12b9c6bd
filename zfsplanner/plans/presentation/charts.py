"""Estimate → Chart.js JSON (``{"type", "labels", "datasets", "unit"}``), as plain dicts.

Figures the estimate leaves ``null`` stay ``None`` (a gap in the chart, never a zero).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zfsplanner.core.units import format_zfs_size

POOL_BARS = (
    ("raw_bytes", "raw (sum of disks)"),
    ("zpool_size_bytes", "zpool SIZE"),
    ("special_size_bytes", "special class"),
    ("slop_bytes", "slop"),
    ("zfs_avail_bytes", "zfs AVAIL"),
    ("allocated_bytes", "allocated by contents"),
)
BLOCK_KEYS = ("block_size_bytes", "block_bytes", "block_size", "recordsize", "size_bytes", "psize")


def capacity_chart(estimate: Mapping[str, Any]) -> dict[str, Any]:
    """The pool's capacity figures, from raw to what ``zfs list`` shows as AVAIL."""
    pool = estimate.get("pool") or {}
    labels = [label for key, label in POOL_BARS if key in pool]
    data = [pool[key] for key, _ in POOL_BARS if key in pool]
    ds_rows = [d for d in estimate.get("datasets") or [] if isinstance(d, Mapping)]
    datasets = [{"label": "pool", "data": data + [None] * len(ds_rows)}]
    if ds_rows:
        labels += [str(d.get("name")) for d in ds_rows]
        datasets.append({"label": "zfs USED", "data": [None] * len(data) + [d.get("zfs_used_bytes") for d in ds_rows]})
    return {"type": "bar", "title": "Capacity", "labels": labels, "datasets": datasets, "unit": "bytes"}


def efficiency_chart(estimate: Mapping[str, Any]) -> dict[str, Any] | None:
    """The estimate's ``efficiency`` table by block size, or None when the estimate has none.

    Takes one series per vdev group (``[{"role", "layout", "width", "rows": [{"block_size",
    "efficiency", ...}]}]``), or flat rows (every numeric column becomes a series), or a
    mapping of block size to a number.
    """
    groups = _efficiency_groups(estimate.get("efficiency"))
    if not groups:
        return None
    labels: dict[Any, None] = {}
    for _, rows in groups:
        labels.update(dict.fromkeys(_block(r) for r in rows))
    datasets = []
    for name, rows in groups:
        by_block = {_block(r): r for r in rows}
        series = ["efficiency"] if any("efficiency" in r for r in rows) else _numeric_columns(rows)
        for col in series:
            label = name if len(series) == 1 else f"{name} {col.replace('_', ' ')}"
            datasets.append({"label": label, "data": [by_block.get(b, {}).get(col) for b in labels]})
    values = [v for d in datasets for v in d["data"] if _is_number(v)]
    if not values:
        return None
    return {
        "type": "bar",
        "title": "Space efficiency by block size (data / allocated)",
        "labels": [_block_label(b) for b in labels],
        "datasets": datasets,
        "unit": "fraction" if all(0 <= v <= 1 for v in values) else "",
        "x_label": "block size",
    }


def _efficiency_groups(table: Any) -> list[tuple[str, list[Mapping[str, Any]]]]:
    if isinstance(table, Mapping):
        table = [{"block": k, **(v if isinstance(v, Mapping) else {"efficiency": v})} for k, v in table.items()]
    if not isinstance(table, list) or not table or not all(isinstance(r, Mapping) for r in table):
        return []
    if all(isinstance(g.get("rows"), list) for g in table):
        return [(_group_label(g), [r for r in g["rows"] if isinstance(r, Mapping)]) for g in table]
    return [("efficiency", table)]


def _group_label(group: Mapping[str, Any]) -> str:
    parts = [str(group[k]) for k in ("role", "layout") if group.get(k)]
    if group.get("width"):
        parts.append(f"of {group['width']}")
    return " ".join(parts) or f"group {group.get('group_index', '')}".strip()


def _block(row: Mapping[str, Any]) -> Any:
    return next((row[k] for k in ("block", *BLOCK_KEYS) if k in row), None)


def _numeric_columns(rows: list[Mapping[str, Any]]) -> list[str]:
    keys = ("block", *BLOCK_KEYS)
    return [k for k in rows[0] if k not in keys and _is_number(rows[0][k])] if rows else []


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _block_label(v: Any) -> str:
    if isinstance(v, str) and v.isdigit():
        v = int(v)
    return str(format_zfs_size(v)) if isinstance(v, int) else str(v)


# --------------------------------------------------------------------------- planning


def special_curve_chart(estimate: Mapping[str, Any], index: int) -> dict[str, Any] | None:
    """The ``special_small_blocks`` knee of dataset ``index``: special-class use of the pool (this
    dataset at each threshold, the others as set) and the dataset's bytes left on the data vdevs,
    with the special class's 75 % point and size as lines. None for an unknown dataset.

    The value axis is logarithmic: the special class holds megabytes to gigabytes while the data
    vdevs hold terabytes, and on one linear axis the special class's moves are invisible. A zero
    (nothing left on the data vdevs) has no place on a log axis and stays a gap (``None``). The
    category of the dataset's own setting is marked "(set)".
    """
    datasets = [d for d in estimate.get("datasets") or [] if isinstance(d, Mapping)]
    special = estimate.get("special")
    if not 0 <= index < len(datasets) or not isinstance(special, Mapping):
        return None
    curve = [p for p in datasets[index].get("special_small_blocks_curve") or [] if isinstance(p, Mapping)]
    if not curve:
        return None
    name = datasets[index].get("name")
    mine = next((d for d in special.get("datasets") or [] if isinstance(d, Mapping) and d.get("name") == name), {})
    others = max(int(special.get("demand_bytes") or 0) - int(mine.get("demand_bytes") or 0), 0)
    setting = mine.get("special_small_blocks")
    labels = []
    for p in curve:
        t = p["special_small_blocks"]
        text = str(format_zfs_size(t)) if t else "0 (metadata only)"
        labels.append(f"{text} (set)" if t == setting else text)
    series: list[dict[str, Any]] = [
        {"label": "special class, whole pool", "key": "special_used",
         "data": [_positive(others + p["special_allocated_bytes"]) for p in curve]},
        {"label": f"{name} on the data vdevs", "key": "data",
         "data": [_positive(p["normal_allocated_bytes"]) for p in curve]},
    ]
    size = special.get("class_size_bytes") or 0
    stop = special.get("small_blocks_stop_bytes")
    if size:
        series.append({"label": "small blocks stop (75 % full)", "key": "special_stop",
                       "data": [_positive(stop)] * len(curve), "borderDash": [6, 4], "pointRadius": 0})
        series.append({"label": "special vdev size", "key": "special_size", "data": [_positive(size)] * len(curve),
                       "borderDash": [2, 3], "pointRadius": 0})
    else:
        series.append({"label": "recommended special size", "key": "special_size",
                       "data": [_positive(special.get("recommended_bytes"))] * len(curve), "borderDash": [6, 4],
                       "pointRadius": 0})
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


def _positive(v: Any) -> int | None:
    """A byte count for a logarithmic axis: a positive number, else a gap."""
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else None


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
