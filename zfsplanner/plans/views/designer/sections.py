"""The designer's section editors: pool settings, a vdev group, a dataset, host and planning inputs;
each row's form loads when it opens, and the disk list narrows with the catalog filter."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from zfsplanner.core.design.types import Design, InvalidDesign

from ...access import get_writable_design_for_user
from ...forms.designer import DatasetForm, PoolForm
from ...forms.parts import put_errors
from ...forms.vdevs import CatalogFilterForm, VdevGroupForm, switched_layout
from ...models import CatalogDisk, PoolDesign
from ...presentation.pages import UNPROCESSABLE, design_summary
from ...services.editing import EditError, change_summary, error_text, put_dataset, put_group
from .editors import dataset_applies, dataset_form, host_form, typed_vdev, vdev_form, wire_vdev_form
from .page import posted_index, render_designer, save_change


def _stored(design: PoolDesign) -> Design:
    """The design as saved, to change; a saved design that no longer reads can only be changed as JSON."""
    try:
        return design.to_spec()
    except InvalidDesign as exc:
        raise Http404("This design does not read any more; change it in the JSON editor.") from exc


@login_required
@require_http_methods(["GET"])
def designer_form(request: HttpRequest, pk: int) -> HttpResponse:
    """The edit form of one row, or the add form (``index=new``), loaded when the user opens it."""
    design = get_writable_design_for_user(request, pk)
    section = request.GET.get("section", "")
    raw = request.GET.get("index", "")
    index = None if raw == "new" else int(raw) if raw.isdigit() else -1
    spec = _stored(design)
    rows = spec.vdevs if section == "vdevs" else spec.datasets
    if section not in ("vdevs", "datasets") or (index is not None and not 0 <= index < len(rows)):
        raise Http404("That row no longer exists; reload the designer.")
    context: dict[str, Any] = {"design": design, "index": index, "filter_form": CatalogFilterForm()}
    if section == "vdevs":
        prefix = "vnew" if index is None else f"v{index}"
        role = request.GET.get(f"{prefix}-role") if request.GET.get("defaults") else None
        switched = bool(request.GET.get("relayout"))
        typed = typed_vdev(request.GET, prefix) if role or switched else None
        if switched and typed is not None:  # the same disks in the layout just chosen
            switched_layout(typed, request.GET.get("from_layout"))
        context["form"] = vdev_form(spec, index, role=role, typed=typed, design=design, switched=switched)
        return render(request, "plans/_vdev_form.html", context)
    summary, _ = design_summary(design, with_fixes=False)
    context["form"] = dataset_form(spec, index, summary)
    return render(request, "plans/_dataset_form.html", context)


@login_required
@require_http_methods(["POST"])
def designer_pool(request: HttpRequest, pk: int) -> HttpResponse:
    design = get_writable_design_for_user(request, pk)
    form = PoolForm(request.POST)
    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, pool_form=form)
    changed = form.apply(_stored(design))

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        for path, message in exc.errors:
            key = form.field_for(path)
            form.add_error(key, message if key else error_text(changed, path, message))
        return {"pool_form": form}

    return save_change(request, design, changed, "pool settings changed", on_error, lambda exc: {"pool_form": form})


def _item_view(request: HttpRequest, pk: int, section: str) -> HttpResponse:
    design = get_writable_design_for_user(request, pk)
    index = posted_index(request)
    prefix = ("v" if section == "vdevs" else "d") + ("new" if index is None else str(index))
    spec = _stored(design)
    rows = spec.vdevs if section == "vdevs" else spec.datasets
    if index is not None and not 0 <= index < len(rows):
        raise Http404("That row no longer exists; reload the designer.")
    form: Any
    if section == "vdevs":
        form = VdevGroupForm(request.POST, prefix=prefix, pool_ashift=spec.ashift)
        wire_vdev_form(form, design, index)
    else:
        form = DatasetForm(request.POST, prefix=prefix, **dataset_applies(spec, index))

    def placed(f: Any) -> dict[str, Any]:
        if index is None:
            return {f"new_{'vdev' if section == 'vdevs' else 'dataset'}_form": f, "open_new": section}
        return {"bound": (section, index, f)}

    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, **placed(form))
    target = len(rows) if index is None else index
    old = rows[index] if index is not None else None
    try:
        if section == "vdevs":
            changed = put_group(spec, index, form.to_group(old, target))
        else:
            changed = put_dataset(spec, index, form.to_dataset(old, target, spec.name))
    except InvalidDesign as exc:  # the part itself does not read: its errors at its fields
        put_errors(form, section, target, exc.errors)
        return render_designer(request, design, status=UNPROCESSABLE, **placed(form))
    except EditError as exc:
        raise Http404(str(exc)) from exc
    summary = change_summary("add" if index is None else "change", changed, section, target)

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        put_errors(form, section, target, exc.errors, changed)
        return placed(form)

    keep_open = section if index is None else None  # the "Add" panel stays open for the next one
    return save_change(request, design, changed, summary, on_error, lambda exc: placed(form), keep_open=keep_open)


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
    try:
        changed = form.apply(_stored(design))
    except InvalidDesign as exc:
        _host_errors(form, exc)
        return render_designer(request, design, status=UNPROCESSABLE, host_form=form)

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        _host_errors(form, exc)
        return {"host_form": form}

    return save_change(
        request, design, changed, "host and planning inputs changed", on_error, lambda exc: {"host_form": form}
    )


def _host_errors(form: Any, exc: InvalidDesign) -> None:
    for path, message in exc.errors:
        form.add_error(form.field_for(path), message)  # every path this form writes has its field; others: the top
