"""Pages and chart JSON of the planning answers: the layout advisor, the special_small_blocks
curve of a dataset, and benchmark runs against the prediction (for a design and a share link).

The design page includes the partials ``plans/_special_sizing.html``,
``plans/_reliability.html`` and ``plans/_performance.html``; their charts come from here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from zfsplanner.core.advisor import DESCENDING, LOSS_CRITICAL, LOSS_WARNING, AdvisorError, LossLevel, Options, Row
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.web.htmx import htmx_partial

from ..access import get_design_for_user, get_shared_design
from ..forms.advisor import PICK_SEPARATOR, SORT_LABELS, AdvisorCreateForm, AdvisorForm
from ..models import PoolDesign
from ..presentation import charts
from ..presentation.planning import AdvisorLine, advisor_lines
from ..services.designs import save_design
from ..services.disk_inputs import run_advisor
from ..services.estimates import estimate_or_error
from ..services.measurements import measured_vs_predicted

UNPROCESSABLE = 422
METRICS = ("iops", "bandwidth")
TABLE_COLUMNS = (  # in the order of the table's cells
    ("cost_per_usable_tb", True),
    ("usable_bytes", True),
    ("fault_tolerance", True),
    ("loss_5y", False),
    ("resilver_seconds", False),
    ("random_read_iops", True),  # random writes below them in the cell, and in the sort list
    ("seq_read_bytes_per_s", True),
)


LOSS_BADGES = {LossLevel.WARNING: "high chance of data loss", LossLevel.CRITICAL: "very high chance of data loss"}


@dataclass(frozen=True)
class AdvisorRowView:
    """One table row (a card on a phone): the presented figures and how its risk is marked."""

    line: AdvisorLine
    loss_level: LossLevel

    @property
    def loss_badge(self) -> str:
        return LOSS_BADGES.get(self.loss_level, "")


def _row_views(rows: list[Row]) -> list[AdvisorRowView]:
    lines = advisor_lines(rows, PICK_SEPARATOR)
    return [AdvisorRowView(line, row.loss_level) for line, row in zip(lines, rows, strict=True)]


def _results_context(form: AdvisorForm, rows: list[Row] | None, create: AdvisorCreateForm) -> dict[str, Any]:
    sort = form.sort_key if rows is not None else None
    headers = [
        {
            "key": key,
            "label": SORT_LABELS[key],
            "numeric": numeric,
            "aria_sort": ("descending" if key in DESCENDING else "ascending") if key == sort else "",
        }
        for key, numeric in TABLE_COLUMNS
    ]
    return {
        "form": form,
        "rows": _row_views(rows) if rows is not None else None,
        "demoted": sum(1 for r in rows or () if r.loss_level == LossLevel.CRITICAL),
        "loss_warning": f"{100 * LOSS_WARNING:g} %",
        "loss_critical": f"{100 * LOSS_CRITICAL:g} %",
        "max_fill": f"{100 * Options.max_fill:g} %",
        "sort": sort,
        "sort_label": SORT_LABELS.get(sort or "", sort),
        "growth_note": form.growth_note if rows is not None else "",
        "headers": headers,
        "create_form": create,
    }


def _rows(form: AdvisorForm, pool_name: str = "tank") -> list[Row]:
    options = replace(form.options(), pool_name=pool_name)
    return run_advisor(form.candidates(), form.needs(), options, form.sort_key)


def _add_advisor_errors(form: AdvisorForm, exc: AdvisorError) -> None:
    for path, message in exc.errors:
        form.add_error(None, f"{path}: {message}")


@login_required
@require_http_methods(["GET"])
def advisor(request: HttpRequest) -> HttpResponse:
    """The advisor: the form, and for a filled-in query the sortable table of layouts."""
    form = AdvisorForm(request.GET or None, user=request.user)
    rows: list[Row] | None = None
    status = 200
    if form.is_bound:
        if form.is_valid():
            try:
                rows = _rows(form)
            except AdvisorError as exc:
                _add_advisor_errors(form, exc)
        if not form.is_valid() or form.non_field_errors():
            status = UNPROCESSABLE
    context = _results_context(form, rows, AdvisorCreateForm(user=request.user))
    template = "plans/advisor.html"
    if htmx_partial(request):
        template += "#results"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["POST"])
def advisor_create(request: HttpRequest) -> HttpResponse:
    """Turn one advisor row into a design of a team the user may change."""
    form = AdvisorForm(request.POST, user=request.user)
    create = AdvisorCreateForm(request.POST, user=request.user)
    if not form.is_valid() or not create.is_valid():
        return render(request, "plans/advisor.html", _results_context(form, None, create), status=UNPROCESSABLE)
    c = create.cleaned_data
    candidate, layout = c["pick"]
    try:
        rows = _rows(form, c["name"])
    except AdvisorError as exc:
        _add_advisor_errors(form, exc)
        return render(request, "plans/advisor.html", _results_context(form, None, create), status=UNPROCESSABLE)
    row = next((r for r in rows if r.candidate == candidate and r.layout == layout), None)
    if row is None:
        create.add_error("pick", f"{layout} of {candidate} is not one of the advisor's layouts")
        return render(request, "plans/advisor.html", _results_context(form, rows, create), status=UNPROCESSABLE)
    design = save_design(c["team"], row.design, request.user)
    messages.success(request, f"Design {design.name} created from the advisor: {row.layout} of {row.candidate}.")
    return redirect("plans:design-detail", pk=design.pk)


# --------------------------------------------------------------------------- chart JSON


def special_chart_response(design: PoolDesign, index: int) -> JsonResponse:
    estimate, error = estimate_or_error(design)
    if estimate is None:
        return JsonResponse({"detail": error}, status=UNPROCESSABLE)
    chart = charts.special_curve_chart(estimate, index)
    if chart is None:
        return JsonResponse({"detail": f"The design has no dataset number {index}."}, status=404)
    return JsonResponse(chart)


def measured_chart_response(design: PoolDesign, metric: str | None) -> JsonResponse:
    if metric is not None and metric not in METRICS:
        return JsonResponse({"detail": f"metric must be one of {', '.join(METRICS)}"}, status=400)
    try:
        rows = [c.as_dict() for c in measured_vs_predicted(design, metric)]
    except InvalidDesign as exc:
        return JsonResponse({"detail": str(exc)}, status=UNPROCESSABLE)
    return JsonResponse(charts.measured_chart(rows, metric))


def _metric(request: HttpRequest) -> str | None:
    return request.GET.get("metric") or None


@login_required
@require_http_methods(["GET"])
def chart_special(request: HttpRequest, pk: int, index: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return special_chart_response(design, index)


@login_required
@require_http_methods(["GET"])
def chart_measured(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return measured_chart_response(design, _metric(request))


@require_http_methods(["GET"])
def share_chart_special(request: HttpRequest, token: str, index: int) -> JsonResponse:
    return special_chart_response(get_shared_design(token), index)


@require_http_methods(["GET"])
def share_chart_measured(request: HttpRequest, token: str) -> JsonResponse:
    return measured_chart_response(get_shared_design(token), _metric(request))

