"""Differences as the import pages show them: signed, in zfs's units and in percent."""

from __future__ import annotations

from typing import Any

from django import template

from zfsplanner.core.units import format_si, zfs_nicenum

register = template.Library()


@register.filter
def signed_percent(fraction: Any) -> str:
    """``+0.012 %`` (model minus pool, relative to the pool)."""
    if fraction is None:
        return "–"
    return f"{float(fraction) * 100:+.3f} %"


@register.filter
def signed_size(n: Any) -> str:
    """``+1.20G`` / ``−512K`` / ``0``: a difference in bytes as zfs prints sizes."""
    if n is None:
        return "–"
    n = int(n)
    if n == 0:
        return "0"
    return ("+" if n > 0 else "−") + zfs_nicenum(abs(n))


@register.filter
def si(n: Any) -> str:
    return "–" if n is None else format_si(n)
