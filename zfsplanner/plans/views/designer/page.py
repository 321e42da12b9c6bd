"""The designer page, and how every change made on it is saved and answered: the new revision, or the
form kept with its message (422) or the latest revision beside it (409)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import request_unit
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.web.htmx import htmx_partial

from ...access import get_design_for_user, get_writable_design_for_user
from ...forms.designer import PoolForm
from ...forms.designs import DesignDocumentForm
from ...forms.vdevs import CatalogFilterForm
from ...models import PoolDesign
from ...presentation.pages import UNPROCESSABLE, breakdown_chart_for, data_field_url, design_summary, pretty_json
from ...presentation.summary import DesignSummary
from ...services.designs import (
    EditConflict,
    can_undo_redo,
    save_design,
    save_design_document,
)
from ..responses import chart_response
from .editors import dataset_form, vdev_form

CONFLICT = 409


def spec_or_none(design: PoolDesign) -> Design | None:
    try:
        return design.to_spec()
    except InvalidDesign:
        return None


def posted_revision(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("revision", ""))
    except ValueError:
        return None


def _vdev_items(spec: Design | None, summary: DesignSummary | None) -> list[Any]:
    """One row per vdev group: what the estimate says of it (its edit form loads when opened). A stored
    design that no longer reads has no rows: it is changed in the JSON editor."""
    lines = {v.index: v for v in summary.vdevs} if summary else {}
    groups = spec.vdevs if spec is not None else ()
    return [{"index": i, "line": lines.get(i), "role": g.role.value} for i, g in enumerate(groups)]


def _dataset_items(spec: Design | None, summary: DesignSummary | None) -> list[Any]:
    lines = {d.name: d for d in summary.datasets} if summary else {}
    datasets = spec.datasets if spec is not None else ()
    return [
        {"index": i, "line": lines.get(ds.name), "name": ds.name, "type": ds.type.value}
        for i, ds in enumerate(datasets)
    ]


def designer_context(request: HttpRequest, design: PoolDesign, **override: Any) -> dict[str, Any]:
    """Everything the designer shows; ``override`` puts a bound (invalid or conflicting) form in place."""
    summary, error = design_summary(design, unit=request_unit(request))
    doc = design.document_view()
    stored = spec_or_none(design)
    undo, redo = can_undo_redo(design)
    context: dict[str, Any] = {
        "design": design,
        "summary": summary,
        "estimate_error": error,
        "can_write": True,
        "can_undo": undo,
        "can_redo": redo,
        "pool_form": PoolForm(initial=PoolForm.initial_from(stored)) if stored is not None else PoolForm(),
        "vdev_items": _vdev_items(stored, summary),
        "dataset_items": _dataset_items(stored, summary),
        "filter_form": CatalogFilterForm(),
        "json_form": DesignDocumentForm(
            user=request.user, with_team=False, initial={"document": pretty_json(doc), "revision": design.revision}
        ),
        "breakdown_url": reverse("plans:chart-breakdown", args=[design.pk]),
        "data_field_url": data_field_url(design),
        "tab": "form",
    }
    context.update(override)
    spec = stored if summary is not None else None
    if spec is not None and context.get("open_new") == "vdevs" and "new_vdev_form" not in override:
        context["new_vdev_form"] = vdev_form(spec, None, design=design)
    if spec is not None and context.get("open_new") == "datasets" and "new_dataset_form" not in override:
        context["new_dataset_form"] = dataset_form(spec, None, summary)
    edit = context.get("edit_dataset")
    if spec is not None and isinstance(edit, int) and "bound" not in override and 0 <= edit < len(spec.datasets):
        context["bound"] = ("datasets", edit, dataset_form(spec, edit, summary))
    return context


def render_designer(request: HttpRequest, design: PoolDesign, status: int = 200, **override: Any) -> HttpResponse:
    template = "plans/designer.html"
    if htmx_partial(request):
        template += "#designer"
    return render(request, template, designer_context(request, design, **override), status=status)


@login_required
@require_http_methods(["GET"])
def designer(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        return redirect("plans:design-detail", pk=pk)
    keep_open = request.GET.get("add")
    opened: dict[str, Any] = {"open_new": keep_open} if keep_open in ("vdevs", "datasets") else {}
    edit = request.GET.get("edit", "")  # "datasets-2": that dataset's form, open (a link to one of its fields)
    if edit.startswith("datasets-") and edit[len("datasets-") :].isdigit():
        opened["edit_dataset"] = int(edit[len("datasets-") :])
    return render(request, "plans/designer.html", designer_context(request, design, **opened))


@login_required
@require_http_methods(["POST"])
def design_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The designer's Advanced tab: the whole document as JSON, saved as one new revision."""
    design = get_writable_design_for_user(request, pk)
    form = DesignDocumentForm(request.POST, user=request.user, with_team=False)
    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, json_form=form, tab="json")
    try:
        design = save_design_document(
            design.team,
            form.cleaned_data["document"],
            request.user,
            instance=design,
            expected_revision=form.cleaned_data["revision"],
            summary="document edited as JSON",
        )
    except EditConflict as exc:
        design.refresh_from_db()
        form.add_error(None, f"Someone saved revision {exc.current} meanwhile; your text is kept below.")
        return render_designer(
            request, design, status=409, json_form=form, tab="json", conflict=conflict_text(design, exc)
        )
    if request.htmx:
        return render_designer(request, design, saved=f"Saved revision {design.revision}.", tab="json")
    messages.success(request, f"Saved revision {design.revision}.")
    return redirect("plans:designer", pk=design.pk)


def save_change(
    request: HttpRequest,
    design: PoolDesign,
    changed: Design,
    summary: str,
    on_error: Callable[[InvalidDesign], dict[str, Any]],
    on_conflict: Callable[[EditConflict], dict[str, Any]],
    kind: str = "edit",
    keep_open: str | None = None,
) -> HttpResponse:
    """Save ``changed`` as the next revision and answer with the designer (422/409 with the form kept).

    ``keep_open``: the section whose "Add" panel stays open for the next item after a save."""
    try:
        design = save_design(
            design.team,
            changed,
            request.user,
            instance=design,
            expected_revision=posted_revision(request),
            kind=kind,
            summary=summary,
        )
    except EditConflict as exc:
        design.refresh_from_db()
        override = on_conflict(exc)
        override["conflict"] = conflict_text(design, exc)
        return render_designer(request, design, status=CONFLICT, **override)
    except InvalidDesign as exc:
        return render_designer(request, design, status=UNPROCESSABLE, **on_error(exc))
    return answer_saved(request, design, summary, keep_open)


def answer_saved(request: HttpRequest, design: PoolDesign, summary: str, keep_open: str | None = None) -> HttpResponse:
    """The answer to a saved change: the designer (htmx) or a redirect to it, saying what was saved."""
    if not request.htmx:
        messages.success(request, f"Saved revision {design.revision}: {summary}.")
        target = reverse("plans:designer", args=[design.pk])
        return redirect(f"{target}?add={keep_open}" if keep_open else target)
    opened = {"open_new": keep_open} if keep_open else {}
    return render_designer(request, design, saved=f"Saved revision {design.revision}: {summary}.", **opened)


def conflict_text(design: PoolDesign, exc: EditConflict) -> str:
    who = f" by {design.updated_by}" if design.updated_by else ""
    return (
        f"This design changed while you were editing: revision {exc.current} was saved{who} after the revision "
        f"{exc.expected} you started from. Your change was not saved and is still in the form below; the rest of "
        "the page shows the latest revision. Save again to apply your change on top of it."
    )


def posted_index(request: HttpRequest) -> int | None:
    raw = request.POST.get("index", "")
    if raw in ("", "new"):
        return None
    try:
        return int(raw)
    except ValueError as exc:
        raise Http404("No such row.") from exc


@login_required
@require_http_methods(["GET"])
def chart_breakdown(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return chart_response(breakdown_chart_for([design], request_unit(request)))
