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
