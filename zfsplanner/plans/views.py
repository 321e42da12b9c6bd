"""HTML pages: the user's designs, a design with its estimate, create/import/edit/delete.

Every view reaches a design through ``get_design_for_user`` (404 outside the team);
changes need an owner or editor (403 otherwise). htmx requests get the ``results``
partial; invalid input comes back re-rendered with status 422 and nothing saved.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from zfsplanner.accounts.models import Team

from . import charts
from .filters import PoolDesignFilterSet
from .forms import DesignDocumentForm, DesignImportForm
from .models import PoolDesign
from .services import estimate_or_error, export_filename, get_design_for_user, save_design_document

UNPROCESSABLE = 422
NEW_DESIGN_TEMPLATE = {
    "format": "zfsplanner.design/1",
    "name": "tank",
    "openzfs_version": "2.3",
    "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "disk": {"catalog": "ST14000NM001G"}}],
    "datasets": [{"name": "tank/data", "recordsize": "1M", "compression": "zstd"}],
}


def _pretty(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


@login_required
@require_http_methods(["GET"])
def home(request: HttpRequest) -> HttpResponse:
    designs = PoolDesign.objects.for_user(request.user).select_related("team").prefetch_related("vdevs", "datasets")
    filterset = PoolDesignFilterSet(request.GET, queryset=designs, request=request)
    rows = [(d, estimate_or_error(d)[0]) for d in filterset.qs]
    teams = [(t, [r for r in rows if r[0].team_id == t.pk]) for t in Team.objects.for_user(request.user)]
    context = {
        "teams": teams,
        "filter": filterset,
        "import_form": DesignImportForm(user=request.user),
        "can_create": DesignImportForm(user=request.user).fields["team"].queryset.exists(),
    }
    return render(request, "plans/design_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def design_new(request: HttpRequest) -> HttpResponse:
    initial = {"document": _pretty(NEW_DESIGN_TEMPLATE), "team": request.GET.get("team")}
    form = DesignDocumentForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            design = save_design_document(form.cleaned_data["team"], form.cleaned_data["document"], request.user)
            messages.success(request, f"Design {design.name} created.")
            return redirect("plans:design-detail", pk=design.pk)
        return render(request, "plans/design_new.html", {"form": form}, status=UNPROCESSABLE)
    return render(request, "plans/design_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def design_import(request: HttpRequest) -> HttpResponse:
    form = DesignImportForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            design = save_design_document(form.cleaned_data["team"], form.cleaned_data["file"], request.user)
            messages.success(request, f"Imported design {design.name}.")
            return redirect("plans:design-detail", pk=design.pk)
        return render(request, "plans/design_import.html", {"form": form}, status=UNPROCESSABLE)
    return render(request, "plans/design_import.html", {"form": form})


def _detail(
    request: HttpRequest, design: PoolDesign, can_write: bool, form: DesignDocumentForm | None = None, status: int = 200
) -> HttpResponse:
    """The design page, or only its ``results`` partial for htmx."""
    estimate, estimate_error = estimate_or_error(design)
    if form is None and can_write:
        initial = {"document": _pretty(design.to_document()), "revision": design.revision}
        form = DesignDocumentForm(user=request.user, with_team=False, initial=initial)
    context = {
        "design": design,
        "can_write": can_write,
        "estimate": estimate,
        "estimate_error": estimate_error,
        "form": form,
        "has_efficiency": bool(estimate and charts.efficiency_chart(estimate)),
    }
    template = "plans/design_detail.html"
    if getattr(request, "htmx", False) and not request.htmx.boosted:
        template += "#results"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET"])
def design_detail(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    return _detail(request, design, can_write)


@login_required
@require_http_methods(["POST"])
def design_edit(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can change this design.")
    form = DesignDocumentForm(request.POST, user=request.user, with_team=False)
    if not form.is_valid():
        return _detail(request, design, can_write, form, status=UNPROCESSABLE)
    if form.cleaned_data["revision"] not in (None, design.revision):
        form.add_error(None, f"Someone saved revision {design.revision} meanwhile; reload the page and edit again.")
        return _detail(request, design, can_write, form, status=409)
    design = save_design_document(design.team, form.cleaned_data["document"], request.user, instance=design)
    messages.success(request, f"Saved revision {design.revision}.")
    if request.htmx:
        return _detail(request, design, can_write)
    return redirect("plans:design-detail", pk=design.pk)


@login_required
@require_http_methods(["GET", "POST"])
def design_delete(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can delete this design.")
    if request.method == "POST":
        name = design.name
        design.delete()
        messages.success(request, f"Deleted design {name}.")
        return HttpResponseClientRedirect(reverse("plans:home")) if request.htmx else redirect("plans:home")
    return render(request, "plans/design_delete.html", {"design": design})


@login_required
@require_http_methods(["GET"])
def design_export(request: HttpRequest, pk: int) -> HttpResponse:
    design, _ = get_design_for_user(request, pk)
    response = HttpResponse(_pretty(design.to_document()) + "\n", content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(design)}"'
    return response


@login_required
@require_http_methods(["GET"])
def chart_capacity(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    estimate, error = estimate_or_error(design)
    if estimate is None:
        return JsonResponse({"detail": error}, status=UNPROCESSABLE)
    return JsonResponse(charts.capacity_chart(estimate))


@login_required
@require_http_methods(["GET"])
def chart_efficiency(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    estimate, _ = estimate_or_error(design)
    chart = charts.efficiency_chart(estimate) if estimate else None
    if chart is None:
        return JsonResponse({"detail": "The estimate has no efficiency table for this design."}, status=404)
    return JsonResponse(chart)
