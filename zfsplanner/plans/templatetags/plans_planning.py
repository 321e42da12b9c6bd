"""Template tags of the planning partials: chart URLs. (The cards read ``summary.planning``, the typed
view :func:`~zfsplanner.plans.presentation.summary.summarize` builds.)

No tag reads the database: the benchmark results against the prediction come from the view
(``measured`` in the context, ``services.measurements.measured_comparisons``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag
def planning_chart_url(kind: str, design: Any, share_token: Any = "", index: Any = None) -> str:
    """The chart JSON URL for ``kind`` (``special`` with a dataset index, or ``measured``), on the
    share link when the page is shown through one."""
    args: list[Any] = [share_token] if share_token else [design.pk]
    if index is not None and index != "":
        args.append(int(index))
    name = f"plans:{'share-' if share_token else ''}chart-{kind}"
    return reverse(name, args=args)

