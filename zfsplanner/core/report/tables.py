"""Markdown helpers of the report: tables, a value in words and units, any section the report has no writer for."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..units import DEFAULT_SIZE_UNIT, format_size
from .words import duration_text, figure_label

# --------------------------------------------------------------------------- Markdown helpers


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def value(key: str, v: Any, unit: str = DEFAULT_SIZE_UNIT) -> str:
    """A figure of a section this module does not know by name, in words, chosen by its key's unit suffix."""
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Mapping) and set(v) >= {"low", "high"}:
        return f"{value(key, v['low'], unit)} – {value(key, v['high'], unit)}"
    if isinstance(v, int | float):
        if key.endswith("_bytes_per_s"):
            return f"{v / 1e6:,.0f} MB/s"
        if key.endswith("_bytes"):
            return format_size(v, unit)
        if key.endswith("_seconds"):
            return duration_text(float(v))
        if key.endswith("_hours"):
            return f"{v:,.1f} h"
        if key.endswith("_us"):
            return f"{v:,.0f} µs"
        if key.endswith(("_fraction", "_probability")) or key in ("1y", "5y", "10y"):
            return f"{v * 100:.4g} %"
        if key.endswith("_pct"):
            return f"{v:g} %"
        if key.endswith("iops"):
            return f"{v:,.0f}"
        return f"{v:,}" if isinstance(v, int) else f"{v:.4g}"
    if isinstance(v, list | tuple) and all(not isinstance(x, Mapping | list) for x in v):
        return ", ".join(str(x) for x in v)
    if isinstance(v, Mapping | list | tuple):
        return json.dumps(v, ensure_ascii=False)[:300]
    return str(v)


def _is_range(v: Any) -> bool:
    return isinstance(v, Mapping) and set(v) >= {"low", "high"} and len(v) <= 3


def generic(key: str, data: Any, level: int = 2, unit: str = DEFAULT_SIZE_UNIT) -> list[str]:
    """A section added to the estimate after this report was written: figures as a labelled table,
    lists of objects as tables, long text as paragraphs, nested sections under their own heading."""
    out = [f"{'#' * level} {figure_label(key)}", ""]
    if isinstance(data, Mapping):
        rows = []
        for k, v in data.items():
            if isinstance(v, str) and len(v) > 80:
                out += [v, ""]
            elif not isinstance(v, Mapping | list) or _is_range(v):
                rows.append((figure_label(k), value(k, v, unit)))
            elif isinstance(v, list) and v and all(not isinstance(x, Mapping | list) for x in v):
                rows.append((figure_label(k), value(k, v, unit)))
        if rows:
            out += table(("Figure", "Value"), rows) + [""]
        for k, v in data.items():
            if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
                out += [f"{'#' * (level + 1)} {figure_label(k)}", ""] + _object_table(v, unit) + [""]
            elif isinstance(v, Mapping) and not _is_range(v) and level < 4:
                out += generic(k, v, level + 1, unit)
    elif isinstance(data, list) and data and all(isinstance(x, Mapping) for x in data):
        out += _object_table(data, unit) + [""]
    elif isinstance(data, list):
        out += [f"- {value(key, x, unit)}" for x in data] + [""]
    else:
        out += [value(key, data, unit), ""]
    return out


def _object_table(items: Sequence[Mapping[str, Any]], unit: str) -> list[str]:
    keys: list[str] = []
    for item in items:
        keys += [k for k, v in item.items() if k not in keys and (not isinstance(v, Mapping | list) or _is_range(v))]
    return table([figure_label(k) for k in keys], ([value(k, item.get(k), unit) for k in keys] for item in items))
