"""The designer: build and change a design with forms, see the estimate change after each step.

Every change posts one small form (pool settings, a vdev group, a dataset, a row button,
a one-click fix, undo/redo). The view applies it to the current document
(``editing``), saves the result as one new revision (``save_design_document``: all or
nothing) and answers with the re-rendered ``designer`` partial, estimate included.
Invalid input comes back with the message at the field and status 422; a change made
on an older revision than the stored one answers 409, keeps what the user typed and
says who saved what.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import request_unit
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.geometry.ashift import automatic
from zfsplanner.core.geometry.vdev_shape import fault_tolerance

from ..forms.designer import (
    FLASH_ROLES,
    CatalogFilterForm,
    DatasetForm,
    PoolForm,
    VdevGroupForm,
    field_for_path,
    flash_disks,
    role_defaults,
)
from ..forms.designs import DesignDocumentForm
from ..forms.host import HostPlanningForm, inherited
from ..models import CatalogDisk, PoolDesign
from ..presentation.pages import UNPROCESSABLE, breakdown_response, design_summary, pretty_json
from ..presentation.summary import DesignSummary
from ..services.access import get_design_for_user
from ..services.designs import (
    EditConflict,
    NothingToWalk,
    can_undo_redo,
    duplicate_design,
    save_design_document,
    walk_revisions,
)
from ..services.editing import EditError, apply_operation, change_summary, error_text, error_texts, put_item, set_pool
from ..services.estimates import estimate_or_error
from ..services.fixes import FixRefused, FixUnavailable, apply_fix
from ..services.planning import design_inputs

CONFLICT = 409


def _spec_or_none(design: PoolDesign) -> Design | None:
    try:
        return design.to_spec()
    except InvalidDesign:
        return None


def _writable(request: HttpRequest, pk: int) -> PoolDesign:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can change this design.")
    return design


def _revision(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("revision", ""))
    except ValueError:
        return None


def _vdev_items(doc: dict[str, Any], summary: DesignSummary | None) -> list[Any]:
    """One row per vdev group: what the estimate says of it (its edit form loads when opened)."""
    lines = {v.index: v for v in summary.vdevs} if summary else {}
    return [{"index": i, "line": lines.get(i), "role": g.get("role")} for i, g in enumerate(doc.get("vdevs") or [])]


def _dataset_items(doc: dict[str, Any], summary: DesignSummary | None) -> list[Any]:
    lines = {d.name: d for d in summary.datasets} if summary else {}
    return [
        {"index": i, "line": lines.get(str(ds.get("name"))), "name": ds.get("name"), "type": ds.get("type")}
        for i, ds in enumerate(doc.get("datasets") or [])
    ]


def _pool_ashift(doc: Mapping[str, Any]) -> int | None:
    value = doc.get("ashift")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _auto_ashift_help(spec: Design | None, index: int | None, pool_ashift: int | None) -> str:
    """What the blank ashift of an existing group means, and what zpool would choose from its sectors."""
    if spec is None or index is None or not 0 <= index < len(spec.vdevs):
        return ""
    auto, source = automatic(spec.vdevs[index], spec.version)
    alone = f"zpool alone would choose {auto} here ({source})."
    if pool_ashift is None:
        return f"Blank: auto, {alone[0].lower()}{alone[1:]}"
    return f"Blank: the pool's ashift ({pool_ashift}); {alone}"


def vdev_form(
    doc: dict[str, Any],
    index: int | None,
    catalog: Any = None,
    *,
    spec: Design | None = None,
    role: str | None = None,
    typed: Mapping[str, Any] | None = None,
    defaults_url: str = "",
) -> VdevGroupForm:
    """A vdev group's form: an existing group's values, or a new group with the defaults of its role.

    ``role`` with ``typed`` (the form's current values): the role was just changed, so the group
    takes that role's defaults (:func:`role_defaults`) over what was typed. ``defaults_url``: where
    the role select asks for them.
    """
    groups = doc.get("vdevs") or []
    like = next((g for g in groups if isinstance(g, dict) and g.get("role") == "data"), None)
    tolerance = min((fault_tolerance(g) for g in spec.vdevs if g.role == "data"), default=1) if spec else 1
    if index is None:
        prefix, initial = "vnew", {}
    else:
        prefix, initial = f"v{index}", VdevGroupForm.initial_from(groups[index])
    if typed is not None:
        initial.update(typed)
    if role is not None or index is None:
        initial.update(role_defaults(role or "data", like, tolerance))
    if catalog is None and initial.get("role") in FLASH_ROLES:
        catalog = flash_disks()
    pool_ashift = _pool_ashift(doc)
    form = VdevGroupForm(
        initial=initial,
        catalog=catalog,
        prefix=prefix,
        pool_ashift=pool_ashift,
        ashift_help=_auto_ashift_help(spec, index, pool_ashift),
    )
    if defaults_url:
        form.fields["role"].widget.attrs.update(
            {
                "hx-get": defaults_url,
                "hx-trigger": "change",
                "hx-include": "closest form",
                "hx-target": "closest form",
                "hx-swap": "outerHTML",
            }
        )
    return form


def _defaults_url(design: PoolDesign, index: int | None) -> str:
    where = "new" if index is None else str(index)
    return reverse("plans:designer-form", args=[design.pk]) + f"?section=vdevs&index={where}&defaults=1"


def _typed_vdev(data: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """The values of a vdev form as typed (a role change keeps what its defaults do not set)."""
    typed: dict[str, Any] = {}
    for name in VdevGroupForm.base_fields:
        key = f"{prefix}-{name}"
        if key in data:
            typed[name] = data[key]
    typed["custom_plp"] = f"{prefix}-custom_plp" in data
    return typed


def dataset_form(doc: dict[str, Any], index: int | None, summary: DesignSummary | None) -> DatasetForm:
    """A dataset's form; "inherit" says what the dataset gets (from the estimate)."""
    if index is None:
        return DatasetForm(prefix="dnew", initial={"name": f"{doc.get('name')}/"})
    ds = (doc.get("datasets") or [])[index]
    form = DatasetForm(initial=DatasetForm.initial_from(ds), prefix=f"d{index}")
    lines = {d.name: d for d in summary.datasets} if summary else {}
    line = lines.get(str(ds.get("name")))
    if line is not None:
        recordsize, compression = form.fields["recordsize"], form.fields["compression"]
        recordsize.choices = [("", f"inherit ({line.block or '128K'})"), *recordsize.choices[1:]]
        compression.choices = [("", f"inherit ({line.compression or 'default'})"), *compression.choices[1:]]
    return form


def designer_context(request: HttpRequest, design: PoolDesign, **override: Any) -> dict[str, Any]:
    """Everything the designer shows; ``override`` puts a bound (invalid or conflicting) form in place."""
    summary, error = design_summary(design, unit=request_unit(request))
    doc = design.document_view()
    undo, redo = can_undo_redo(design)
    context: dict[str, Any] = {
        "design": design,
        "summary": summary,
        "estimate_error": error,
        "can_write": True,
        "can_undo": undo,
        "can_redo": redo,
        "pool_form": PoolForm(
            initial={**doc, "disk_partitioning": doc.get("disk_partitioning", ""), "ashift": _pool_ashift(doc)}
        ),
        "vdev_items": _vdev_items(doc, summary),
        "dataset_items": _dataset_items(doc, summary),
        "filter_form": CatalogFilterForm(),
        "json_form": DesignDocumentForm(
            user=request.user, with_team=False, initial={"document": pretty_json(doc), "revision": design.revision}
        ),
        "breakdown_url": reverse("plans:chart-breakdown", args=[design.pk]),
        "tab": "form",
    }
    context.update(override)
    if context.get("open_new") == "vdevs" and "new_vdev_form" not in override:
        spec = design.to_spec() if summary is not None else None
        context["new_vdev_form"] = vdev_form(doc, None, spec=spec, defaults_url=_defaults_url(design, None))
    if context.get("open_new") == "datasets" and "new_dataset_form" not in override:
        context["new_dataset_form"] = dataset_form(doc, None, summary)
    return context


def render_designer(request: HttpRequest, design: PoolDesign, status: int = 200, **override: Any) -> HttpResponse:
    template = "plans/designer.html"
    if getattr(request, "htmx", False) and not request.htmx.boosted:
        template += "#designer"
    return render(request, template, designer_context(request, design, **override), status=status)


@login_required
@require_http_methods(["GET"])
def designer(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        return redirect("plans:design-detail", pk=pk)
    keep_open = request.GET.get("add")
    opened = {"open_new": keep_open} if keep_open in ("vdevs", "datasets") else {}
    return render(request, "plans/designer.html", designer_context(request, design, **opened))


@login_required
@require_http_methods(["POST"])
def design_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The designer's Advanced tab: the whole document as JSON, saved as one new revision."""
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can change this design.")
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


def _save(
    request: HttpRequest,
    design: PoolDesign,
    doc: dict[str, Any],
    summary: str,
    on_error: Callable[[InvalidDesign], dict[str, Any]],
    on_conflict: Callable[[EditConflict], dict[str, Any]],
    kind: str = "edit",
    keep_open: str | None = None,
) -> HttpResponse:
    """Save ``doc`` as the next revision and answer with the designer (422/409 with the form kept).

    ``keep_open``: the section whose "Add" panel stays open for the next item after a save."""
    try:
        design = save_design_document(
            design.team,
            doc,
            request.user,
            instance=design,
            expected_revision=_revision(request),
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
    return _saved(request, design, summary, keep_open)


def _saved(request: HttpRequest, design: PoolDesign, summary: str, keep_open: str | None = None) -> HttpResponse:
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
    design = _writable(request, pk)
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
        typed = _typed_vdev(request.GET, prefix) if role else None
        spec = _spec_or_none(design)
        url = _defaults_url(design, index)
        context["form"] = vdev_form(doc, index, spec=spec, role=role, typed=typed, defaults_url=url)
        return render(request, "plans/_vdev_form.html", context)
    summary, _ = design_summary(design, with_fixes=False)
    context["form"] = dataset_form(doc, index, summary)
    return render(request, "plans/_dataset_form.html", context)


@login_required
@require_http_methods(["POST"])
def designer_pool(request: HttpRequest, pk: int) -> HttpResponse:
    design = _writable(request, pk)
    form = PoolForm(request.POST)
    if not form.is_valid():
        return render_designer(request, design, status=UNPROCESSABLE, pool_form=form)
    doc = set_pool(design.to_document(), form.to_document())

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        for path, message in exc.errors:
            key = path if path in form.fields else None
            form.add_error(key, message if key else error_text(doc, path, message))
        return {"pool_form": form}

    return _save(request, design, doc, "pool settings changed", on_error, lambda exc: {"pool_form": form})


def _index(request: HttpRequest) -> int | None:
    raw = request.POST.get("index", "")
    if raw in ("", "new"):
        return None
    try:
        return int(raw)
    except ValueError as exc:
        raise Http404("No such row.") from exc


def _item_view(request: HttpRequest, pk: int, section: str) -> HttpResponse:
    design = _writable(request, pk)
    index = _index(request)
    prefix = ("v" if section == "vdevs" else "d") + ("new" if index is None else str(index))
    doc = design.to_document()
    if index is not None and not 0 <= index < len(doc.get(section) or []):
        raise Http404("That row no longer exists; reload the designer.")
    form: Any
    if section == "vdevs":
        form = VdevGroupForm(request.POST, prefix=prefix, pool_ashift=_pool_ashift(doc))
        form.fields["role"].widget.attrs.update(
            {"hx-get": _defaults_url(design, index), "hx-trigger": "change", "hx-include": "closest form"}
            | {"hx-target": "closest form", "hx-swap": "outerHTML"}
        )
    else:
        form = DatasetForm(request.POST, prefix=prefix)

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
    return _save(request, design, new_doc, summary, on_error, lambda exc: placed(form), keep_open=keep_open)


@login_required
@require_http_methods(["POST"])
def designer_vdev(request: HttpRequest, pk: int) -> HttpResponse:
    return _item_view(request, pk, "vdevs")


@login_required
@require_http_methods(["POST"])
def designer_dataset(request: HttpRequest, pk: int) -> HttpResponse:
    return _item_view(request, pk, "datasets")


@login_required
@require_http_methods(["POST"])
def designer_op(request: HttpRequest, pk: int) -> HttpResponse:
    """Row buttons: remove, duplicate, move up/down a vdev group or a dataset."""
    design = _writable(request, pk)
    op, section, index = request.POST.get("op", ""), request.POST.get("section", ""), _index(request)
    if index is None:
        raise Http404("No row given.")
    before = design.to_document()
    try:
        doc = apply_operation(before, op, section, index)
    except EditError as exc:
        raise Http404(str(exc)) from exc
    summary = change_summary(op, before, section, index)

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        attempt = change_summary(op, before, section, index, attempted=True)
        return {"op_error": f"Not done: {attempt} is refused. {'; '.join(error_texts(doc, exc.errors))}."}

    return _save(request, design, doc, summary, on_error, lambda exc: {})


@login_required
@require_http_methods(["POST"])
def design_fix_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """Apply a risk's one-click fix as a new revision (``services.fixes.apply_fix``, as the API does)."""
    design = _writable(request, pk)
    code, subject = request.POST.get("code", ""), request.POST.get("subject", "")
    try:
        design, summary = apply_fix(design, code, subject, request.user, _revision(request))
    except (FixUnavailable, InvalidDesign):
        return render_designer(
            request, design, status=CONFLICT, op_error="That risk is gone or has no one-click fix any more."
        )
    except FixRefused as exc:
        op_error = f"The fix could not be applied: {'; '.join(error_texts(exc.document, exc.errors))}"
        return render_designer(request, design, status=UNPROCESSABLE, op_error=op_error)
    except EditConflict as exc:
        design.refresh_from_db()
        return render_designer(request, design, status=CONFLICT, conflict=conflict_text(design, exc))
    return _saved(request, design, summary)


def _walk(request: HttpRequest, pk: int, direction: str) -> HttpResponse:
    design = _writable(request, pk)
    try:
        design = walk_revisions(design, direction, request.user, expected_revision=_revision(request))
    except NothingToWalk:
        return render_designer(request, design, status=CONFLICT, op_error=f"There is nothing to {direction}.")
    except EditConflict as exc:
        design.refresh_from_db()
        return render_designer(request, design, status=CONFLICT, conflict=conflict_text(design, exc))
    if not request.htmx:
        return redirect("plans:designer", pk=design.pk)
    return render_designer(request, design, saved=f"{direction.capitalize()}: now at revision {design.revision}.")


@login_required
@require_http_methods(["POST"])
def design_undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _walk(request, pk, "undo")


@login_required
@require_http_methods(["POST"])
def design_redo(request: HttpRequest, pk: int) -> HttpResponse:
    return _walk(request, pk, "redo")


@login_required
@require_http_methods(["POST"])
def design_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    design = _writable(request, pk)
    variant = duplicate_design(design, request.user)
    messages.success(request, f"Created {variant.name}, a variant of {design.name}. Change it, then compare the two.")
    return redirect("plans:designer", pk=variant.pk)


@login_required
@require_http_methods(["GET"])
def catalog_options(request: HttpRequest) -> HttpResponse:
    """The disk ``<select>`` options narrowed by the catalog filter (htmx)."""
    form = CatalogFilterForm(request.GET)
    disks = form.filter(CatalogDisk.objects.all())
    field = VdevGroupForm(catalog=disks, prefix=request.GET.get("prefix", "vnew"))["disk"]
    return render(request, "plans/_disk_select.html", {"field": field, "count": disks.count()})


@login_required
@require_http_methods(["GET"])
def chart_breakdown(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return breakdown_response([design], request_unit(request))


def host_form(design: PoolDesign, data: Any = None) -> HostPlanningForm:
    """The "Host and planning" form of a design, each field saying what it inherits and from where."""
    spec = design.to_spec()
    estimate, _ = estimate_or_error(design)
    planned = bool(estimate and estimate.pool.zfs_used_bytes)
    defaults = inherited(spec, design_inputs(design, spec), planned)
    initial = HostPlanningForm.initial_from(design.document_view(), spec)
    return HostPlanningForm(data, initial=initial, spec=spec, defaults=defaults, prefix="host")


@login_required
@require_http_methods(["GET", "POST"])
def designer_host(request: HttpRequest, pk: int) -> HttpResponse:
    """RAM, failure rates, read-error rates, the wait for a new disk and the fill level: GET the form
    (loaded when its fold opens), POST it to save one new revision."""
    design = _writable(request, pk)
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

    return _save(request, design, doc, "host and planning inputs changed", on_error, lambda exc: {"host_form": form})
