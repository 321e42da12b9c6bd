"""The responses more than one view module sends, built from the presentation's data: a chart's JSON
(or ``{"detail": ...}`` with the status the presentation chose), the design export's download and the
quick planner's page (``/plan/``, and ``/`` to a visitor who is not logged in).

The view modules never import each other; what they share as HTTP is here.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from zfsplanner.accounts.models import request_unit
from zfsplanner.web.htmx import htmx_partial
from zfsplanner.web.page_cache import render_cached

from ..forms.quick import QuickPlanForm, canonical_query, form_data
from ..forms.vdevs import switched_layout
from ..presentation.pages import ChartAnswer, ExportFile
from ..presentation.quick import SHOWN_LAYOUT, TEMPLATE, UNPROCESSABLE, answer, page_context, valid_plan
from ..services.estimates import planning_stamp


def chart_response(answer: ChartAnswer) -> JsonResponse:
    if answer.chart is None:
        return JsonResponse({"detail": answer.detail}, status=answer.status)
    return JsonResponse(answer.chart, status=answer.status)


def download_response(export: ExportFile) -> HttpResponse:
    response = HttpResponse(export.text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response


def quick_plan_page(request: HttpRequest) -> HttpResponse:
    """The planner's page for the query string (the whole page, or the ``update`` partial for htmx):
    what ``/plan/`` shows, and ``/`` to a visitor who is not logged in."""
    data = form_data(request.GET, unit=request_unit(request))
    reshaped = switched_layout(data, request.GET.get(SHOWN_LAYOUT), width="disks", count="vdevs")
    form = QuickPlanForm(data)
    template = f"{TEMPLATE}#update" if htmx_partial(request) else TEMPLATE
    if reshaped and htmx_partial(request):  # the partial sends the two fields it changed
        for name in ("disks", "vdevs"):
            form.fields[name].widget.attrs["hx-swap-oob"] = "true"
    if not valid_plan(form):
        context = page_context(form, None, data, reshaped=reshaped)
        response = render(request, template, context, status=UNPROCESSABLE)
    else:  # rendered once per parameter set: a repeated request is served from the page cache
        key = (canonical_query(data), planning_stamp(), reshaped)
        response = render_cached(
            request, template, key, lambda: page_context(form, answer(form), data, reshaped=reshaped)
        )
    if htmx_partial(request):
        response["HX-Replace-Url"] = f"{reverse('plans:quick-plan')}?{canonical_query(data)}"
    return response
