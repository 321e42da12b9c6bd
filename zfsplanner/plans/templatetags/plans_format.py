"""Formatting figures that do not come from a design's presentation (uploads, samples, imports).

A design's figures come typed from ``plans.presentation`` (``size.text`` in the reader's unit);
these filters serve the pages that show a lone byte count: binary units (TiB, as
``zpool``/``zfs`` count them) with the decimal figure (TB, as on drive labels) next to it.
``None`` reads "not computed yet", never 0.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from zfsplanner.core.units import format_iec, format_si, zfs_nicenum

register = template.Library()

NOT_COMPUTED = mark_safe('<span class="muted not-computed">not computed yet</span>')  # noqa: S308 - constant


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
def percent(value: Any) -> str:
    """0.8123 -> "81.2 %"; anything that is not a number -> "–"."""
    if not isinstance(value, int | float):
        return "–"
    if 0 < value < 0.001:
        return "less than 0.1 %"
    return f"{100 * value:.1f} %"


@register.filter
def command_line(line: str) -> Any:
    """One line of the commands block: a comment as it is, a command line as its indent and its words,
    each word kept whole where the box allows (a device path is not broken at its hyphens)."""
    if line.lstrip().startswith("#"):
        return format_html('<span class="comment">{}</span>', line)
    body = line.lstrip(" ")
    words = format_html_join(" ", '<span class="w">{}</span>', ((w,) for w in body.split(" ")))
    return format_html('<span class="line">{}{}</span>', line[: len(line) - len(body)], words)
