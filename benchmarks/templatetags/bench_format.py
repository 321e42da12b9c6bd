"""Figures in result tables: bytes/s as MB/s (10^6, as the tools print them), µs as µs or ms."""

from __future__ import annotations

from django import template

from zfsplanner.core.units import format_si

register = template.Library()


@register.filter
def mb_per_s(value: float | None) -> str:
    return "–" if value is None else f"{value / 1e6:,.1f} MB/s"


@register.filter
def iops(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


@register.filter
def micros(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value / 1000:,.2f} ms" if value >= 1000 else f"{value:,.1f} µs"


@register.filter
def per_s(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}/s"


@register.filter
def size_si(value: int | None) -> str:
    """A file size in decimal units with the unit said right (Django's filesizeformat labels KiB as KB)."""
    return "–" if value is None else format_si(value)


_BY_FIELD = {"bandwidth_bytes_per_s": mb_per_s, "iops": iops, "latency_mean_us": micros}


@register.filter
def figure(value: float | None, field: str) -> str:
    """A figure in the unit of its result field (``{{ s.mean|figure:f.field }}``)."""
    return _BY_FIELD.get(field, per_s)(value)


@register.filter
def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f} %"
