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

    Accepts a list of rows (``[{"block_size_bytes": 4096, "efficiency": 0.5, ...}]``, every
    other numeric column becomes a series) or a mapping of block size to number or row.
    """
    table = estimate.get("efficiency")
    if isinstance(table, Mapping):
        table = [{"block": k, **(v if isinstance(v, Mapping) else {"efficiency": v})} for k, v in table.items()]
    if not isinstance(table, list) or not table or not all(isinstance(r, Mapping) for r in table):
        return None
    key = next((k for k in ("block", *BLOCK_KEYS) if k in table[0]), None)
    series = [k for k in table[0] if k != key and _is_number(table[0][k])]
    if not series:
        return None
    values = [r.get(s) for r in table for s in series if _is_number(r.get(s))]
    unit = "fraction" if values and all(0 <= v <= 1 for v in values) else ""
    return {
        "type": "bar",
        "title": "Space efficiency by block size",
        "labels": [_block_label(r.get(key)) if key else str(i) for i, r in enumerate(table)],
        "datasets": [{"label": s.replace("_", " "), "data": [r.get(s) for r in table]} for s in series],
        "unit": unit,
    }


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _block_label(v: Any) -> str:
    if isinstance(v, str) and v.isdigit():
        v = int(v)
    return str(format_zfs_size(v)) if isinstance(v, int) else str(v)
