"""Designs side by side: the figures of up to four designs of the user's teams, and one breakdown chart.

``/designs/compare/?ids=1,2`` (or ``ids=1&ids=2``); designs the user cannot see are left out.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import request_unit
from zfsplanner.core.report.breakdown import CATEGORY_LABELS
from zfsplanner.core.units import SIZE_UNITS

from ..models import PoolDesign
from ..presentation.pages import breakdown_chart_for, design_summary
from ..presentation.summary import UNIT_EXPLAIN
from .responses import chart_response

MAX_COMPARE = 4


def _compare_designs(request: HttpRequest) -> list[PoolDesign]:
    ids = []
    for raw in request.GET.getlist("ids"):
        for part in raw.split(","):
            if part.strip().isdigit():
                ids.append(int(part))
    ids = list(dict.fromkeys(ids))[:MAX_COMPARE]
    found = {d.pk: d for d in PoolDesign.objects.for_user(request.user).filter(pk__in=ids).select_related("team")}
    return [found[i] for i in ids if i in found]


@login_required
@require_http_methods(["GET"])
def design_compare(request: HttpRequest) -> HttpResponse:
    designs = _compare_designs(request)
    unit = request_unit(request)
    rows = [(d, *design_summary(d, with_fixes=False, unit=unit)) for d in designs]
    ids = ",".join(str(d.pk) for d in designs)
    other = next(u for u in SIZE_UNITS if u != unit)
    context = {
        "rows": rows,
        "enough": len(designs) >= 2,
        "chart_url": reverse("plans:chart-compare") + f"?ids={ids}&unit={unit}",
        "unit_explain": UNIT_EXPLAIN[unit],
        "other_unit": other,
        "other_unit_url": f"?ids={ids}&unit={other}",
        "candidates": PoolDesign.objects.for_user(request.user).select_related("team").order_by("team__name", "name"),
        "selected": {d.pk for d in designs},
        "max_compare": MAX_COMPARE,
        "categories": [(c.value, label) for c, label in CATEGORY_LABELS.items()],
    }
    return render(request, "plans/design_compare.html", context)


@login_required
@require_http_methods(["GET"])
def chart_compare(request: HttpRequest) -> JsonResponse:
    designs = _compare_designs(request)
    if not designs:
        return JsonResponse({"detail": "Name designs to compare: ?ids=1,2"}, status=404)
    return chart_response(breakdown_chart_for(designs, request_unit(request)))
