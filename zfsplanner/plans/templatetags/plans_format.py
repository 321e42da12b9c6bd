"""Formatting estimate figures for the pages.

Bytes are shown in binary units (TiB, as ``zpool``/``zfs`` count them) with the decimal
figure (TB, as on drive labels) next to it; ``None`` reads "not computed yet", never 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from zfsplanner.core.units import UnitError, format_iec, format_si, parse_disk_size, zfs_nicenum

register = template.Library()

NOT_COMPUTED = mark_safe('<span class="muted not-computed">not computed yet</span>')  # noqa: S308 - constant
KNOWN_SECTIONS = ("format", "design", "pool", "vdevs", "datasets", "risks", "efficiency")


@register.filter
def size(value: Any) -> str:
    """``12.73 TiB · 14.00 TB`` with the exact byte count on hover."""
    if value is None:
        return NOT_COMPUTED
    if not isinstance(value, int | float) or isinstance(value, bool):
        return str(value)
    return format_html(
        '<span class="num" title="{} bytes">{}</span> <span class="muted">· {}</span>',
        f"{int(value):,}",
        format_iec(value),
        format_si(value),
    )


@register.filter
def zfs_size(value: Any) -> str:
    """What ``zpool list``/``zfs list`` print without ``-p`` (``76.4T``)."""
    if value is None:
        return NOT_COMPUTED
    return zfs_nicenum(value)


@register.simple_tag
def fmt(key: str, value: Any) -> str:
    """A figure formatted by what its key says it is (``*_bytes``, ``*fraction``, …)."""
    if value is None:
        return NOT_COMPUTED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key.endswith("_bytes") and isinstance(value, int | float):
        return size(value)
    if (key.endswith("fraction") or key == "efficiency") and isinstance(value, int | float):
        return f"{100 * value:.1f} %"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


@register.filter
def columns(rows: Any) -> list[str]:
    """Every key of a list of objects, in first-seen order."""
    seen: dict[str, None] = {}
    for row in rows or []:
        if isinstance(row, Mapping):
            seen.update(dict.fromkeys(row))
    return list(seen)


@register.filter
def scalar_columns(rows: Any) -> list[str]:
    """Like ``columns`` but only keys whose values are plain figures (no lists or objects)."""
    return [c for c in columns(rows) if not any(isinstance(r.get(c), dict | list) for r in rows)]


@register.filter
def is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


@register.filter
def get(mapping: Any, key: str) -> Any:
    return mapping.get(key) if isinstance(mapping, Mapping) else None


@register.filter
def label(key: str) -> str:
    return key.removesuffix("_bytes").replace("_", " ")


@register.filter
def extra_sections(estimate: Any) -> list[dict[str, Any]]:
    """Top-level estimate entries the page doesn't know by name, for generic display."""
    out = []
    for key, value in (estimate or {}).items():
        if key in KNOWN_SECTIONS or value in (None, [], {}):
            continue
        if isinstance(value, list) and value and all(isinstance(r, Mapping) for r in value):
            nested = all(isinstance(r.get("rows"), list) for r in value)
            out.append({"key": key, "kind": "groups" if nested else "rows", "value": value})
        elif isinstance(value, Mapping):
            out.append({"key": key, "kind": "mapping", "value": value})
        else:
            out.append({"key": key, "kind": "value", "value": value})
    return out


@register.filter
def severity_class(severity: Any) -> str:
    return {"critical": "critical", "error": "critical", "warning": "warning"}.get(str(severity), "info")


@register.filter
def role_for(team: Any, user: Any) -> str:
    return team.role_of(user) or ""


@register.filter
def can_write_for(team: Any, user: Any) -> bool:
    return bool(team.can_write(user))


@register.filter
def disk_size(value: Any) -> str:
    """A disk's ``size_bytes`` as the document gives it (bytes or ``"14TB"``), formatted."""
    try:
        return size(parse_disk_size(value))
    except (UnitError, TypeError):
        return str(value)


@register.filter
def percent(value: Any) -> str:
    """0.8123 -> "81.2 %"; anything that is not a number -> "–"."""
    if not isinstance(value, int | float):
        return "–"
    if 0 < value < 0.001:
        return "less than 0.1 %"
    return f"{100 * value:.1f} %"
