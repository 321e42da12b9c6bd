"""The designer's section editors: pool settings, a vdev group, a dataset, host and planning inputs;
each row's form loads when it opens, and the disk list narrows with the catalog filter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from zfsplanner.core.design.types import InvalidDesign

from ...access import get_writable_design_for_user
from ...forms.designer import DatasetForm, PoolForm, field_for_path, pool_ashift
from ...forms.vdevs import CatalogFilterForm, VdevGroupForm, switched_layout
from ...models import CatalogDisk
from ...presentation.pages import UNPROCESSABLE, design_summary
from ...services.editing import EditError, change_summary, error_text, put_item, set_pool
from .editors import dataset_applies, dataset_form, host_form, spec_or_none, typed_vdev, vdev_form, wire_vdev_form
from .page import posted_index, render_designer, save_change


def _form_errors(form: Any, section: str, index: int, exc: InvalidDesign, doc: Mapping[str, Any]) -> None:
    for path, message in exc.errors:
        field = field_for_path(section, index, path)
        if field is not None and field in form.fields:
            form.add_error(field, message)
        else:
            form.add_error(None, error_text(doc, path, message))


@login_required
@require_http_methods(["GET"])
def designer_form(request: HttpRequest, pk: int) -> HttpResponse:
    """The edit form of one row, or the add form (``index=new``), loaded when the user opens it."""
    design = get_writable_design_for_user(request, pk)
    section = request.GET.get("section", "")
    raw = request.GET.get("index", "")
    index = None if raw == "new" else int(raw) if raw.isdigit() else -1
    doc = design.to_document()
    if section not in ("vdevs", "datasets") or (index is not None and not 0 <= index < len(doc.get(section) or [])):
        raise Http404("That row no longer exists; reload the designer.")
    context: dict[str, Any] = {"design": design, "index": index, "filter_form": CatalogFilterForm()}
    if section == "vdevs":
        prefix = "vnew" if index is None else f"v{index}"
        role = request.GET.get(f"{prefix}-role") if request.GET.get("defaults") else None
        switched = bool(request.GET.get("relayout"))
        typed = typed_vdev(request.GET, prefix) if role or switched else None
        if switched and typed is not None:  # the same disks in the layout just chosen
            switched_layout(typed, request.GET.get("from_layout"))
        spec = spec_or_none(design)
        context["form"] = vdev_form(doc, index, spec=spec, role=role, typed=typed, design=design, switched=switched)
        return render(request, "plans/_vdev_form.html", context)
    summary, _ = design_summary(design, with_fixes=False)
    context["form"] = dataset_form(doc, index, summary, spec_or_none(design))
    return render(request, "plans/_dataset_form.html", context)


@login_required
@require_http_methods(["POST"])
def designer_pool(request: HttpRequest, pk: int) -> HttpResponse:
    design = get_writable_design_for_user(request, pk)
    form = PoolForm(request.POST)
    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, pool_form=form)
    before = design.to_document()
    doc = set_pool(before, form.to_document(before))

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        for path, message in exc.errors:
            key = form.field_for(path)
            form.add_error(key, message if key else error_text(doc, path, message))
        return {"pool_form": form}

    return save_change(request, design, doc, "pool settings changed", on_error, lambda exc: {"pool_form": form})


def _item_view(request: HttpRequest, pk: int, section: str) -> HttpResponse:
    design = get_writable_design_for_user(request, pk)
    index = posted_index(request)
    prefix = ("v" if section == "vdevs" else "d") + ("new" if index is None else str(index))
    doc = design.to_document()
    if index is not None and not 0 <= index < len(doc.get(section) or []):
        raise Http404("That row no longer exists; reload the designer.")
    form: Any
    if section == "vdevs":
        form = VdevGroupForm(request.POST, prefix=prefix, pool_ashift=pool_ashift(doc))
        wire_vdev_form(form, design, index)
    else:
        form = DatasetForm(request.POST, prefix=prefix, **dataset_applies(doc, index, spec_or_none(design)))

    def placed(f: Any) -> dict[str, Any]:
        if index is None:
            return {f"new_{'vdev' if section == 'vdevs' else 'dataset'}_form": f, "open_new": section}
        return {"bound": (section, index, f)}

    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, **placed(form))
    old = (doc.get(section) or [])[index] if index is not None else None
    part = form.to_document() if section == "vdevs" else form.to_document(old)
    try:
        new_doc = put_item(doc, section, index, part)
    except EditError as exc:
        raise Http404(str(exc)) from exc
    target = len(doc.get(section) or []) if index is None else index
    summary = change_summary("add" if index is None else "change", new_doc, section, target)

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        _form_errors(form, section, target, exc, new_doc)
        return placed(form)

    keep_open = section if index is None else None  # the "Add" panel stays open for the next one
    return save_change(request, design, new_doc, summary, on_error, lambda exc: placed(form), keep_open=keep_open)


@login_required
@require_http_methods(["POST"])
def designer_vdev(request: HttpRequest, pk: int) -> HttpResponse:
    return _item_view(request, pk, "vdevs")


@login_required
@require_http_methods(["POST"])
def designer_dataset(request: HttpRequest, pk: int) -> HttpResponse:
    return _item_view(request, pk, "datasets")


@login_required
@require_http_methods(["GET"])
def catalog_options(request: HttpRequest) -> HttpResponse:
    """The disk ``<select>`` options narrowed by the catalog filter (htmx)."""
    form = CatalogFilterForm(request.GET)
    disks = form.filter(CatalogDisk.objects.all())
    field = VdevGroupForm(catalog=disks, prefix=request.GET.get("prefix", "vnew"))["disk"]
    return render(request, "plans/_disk_select.html", {"field": field, "count": disks.count()})


@login_required
@require_http_methods(["GET", "POST"])
def designer_host(request: HttpRequest, pk: int) -> HttpResponse:
    """RAM, failure rates, read-error rates, the wait for a new disk and the fill level: GET the form
    (loaded when its fold opens), POST it to save one new revision."""
    design = get_writable_design_for_user(request, pk)
    if request.method == "GET":
        return render(request, "plans/_host_form.html#form", {"design": design, "host_form": host_form(design)})
    form = host_form(design, request.POST)
    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, host_form=form)
    doc = form.apply(design.to_document())

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        for path, message in exc.errors:
            field = form.field_for(path)
            form.add_error(field, message)  # every path this form writes has its field; others: the form's top
        return {"host_form": form}

    return save_change(
        request, design, doc, "host and planning inputs changed", on_error, lambda exc: {"host_form": form}
    )
