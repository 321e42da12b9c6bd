"""Template tags of the planning partials: the typed view of the estimate and chart URLs.

No tag reads the database: the benchmark results against the prediction come from the view
(``measured`` in the context, ``services.measurements.measured_comparisons``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.units import SIZE_UNITS

from ..presentation.planning import PlanningView, planning_view

register = template.Library()


@register.simple_tag
def planning(value: Any, unit: Any = None) -> PlanningView:
    """``{% planning estimate summary.unit as p %}``: ``p.special``, ``p.reliability``, ``p.performance``,
    ``p.sizing``; their sizes' ``text`` in the page's unit (TiB without one). A context without the typed
    estimate (the design no longer estimates) gives views that are all ``None``."""
    typed = value if isinstance(value, Estimate) else None
    return planning_view(typed, unit) if unit in SIZE_UNITS else planning_view(typed)


@register.simple_tag
def planning_chart_url(kind: str, design: Any, share_token: Any = "", index: Any = None) -> str:
    """The chart JSON URL for ``kind`` (``special`` with a dataset index, or ``measured``), on the
    share link when the page is shown through one."""
    args: list[Any] = [share_token] if share_token else [design.pk]
    if index is not None and index != "":
        args.append(int(index))
    name = f"plans:{'share-' if share_token else ''}chart-{kind}"
    return reverse(name, args=args)

