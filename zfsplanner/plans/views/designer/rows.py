"""The designer's row buttons and whole-design steps: remove, duplicate, move a row; a risk's
one-click fix; undo and redo; a variant of the design."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from zfsplanner.core.design.types import InvalidDesign

from ...access import get_writable_design_for_user
from ...presentation.pages import UNPROCESSABLE
from ...services.designs import (
    EditConflict,
    NothingToWalk,
    duplicate_design,
    walk_revisions,
)
from ...services.editing import EditError, apply_operation, change_summary, error_texts
from ...services.fixes import FixRefused, FixUnavailable, apply_fix
from .page import (
    CONFLICT,
    answer_saved,
    conflict_text,
    posted_index,
    posted_revision,
    render_designer,
    save_change,
)


@login_required
@require_http_methods(["POST"])
def designer_op(request: HttpRequest, pk: int) -> HttpResponse:
    """Row buttons: remove, duplicate, move up/down a vdev group or a dataset."""
    design = get_writable_design_for_user(request, pk)
    op, section, index = request.POST.get("op", ""), request.POST.get("section", ""), posted_index(request)
    if index is None:
        raise Http404("No row given.")
    try:
        before = design.to_spec()
        changed = apply_operation(before, op, section, index)
    except (EditError, InvalidDesign) as exc:
        raise Http404(str(exc)) from exc
    summary = change_summary(op, before, section, index)

    def on_error(exc: InvalidDesign) -> dict[str, Any]:
        attempt = change_summary(op, before, section, index, attempted=True)
        return {"op_error": f"Not done: {attempt} is refused. {'; '.join(error_texts(changed, exc.errors))}."}

    return save_change(request, design, changed, summary, on_error, lambda exc: {})


@login_required
@require_http_methods(["POST"])
def design_fix_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """Apply a risk's one-click fix as a new revision (``services.fixes.apply_fix``, as the API does)."""
    design = get_writable_design_for_user(request, pk)
    code, subject = request.POST.get("code", ""), request.POST.get("subject", "")
    try:
        design, summary = apply_fix(design, code, subject, request.user, posted_revision(request))
    except (FixUnavailable, InvalidDesign):
        return render_designer(
            request, design, status=CONFLICT, op_error="That risk is gone or has no one-click fix any more."
        )
    except FixRefused as exc:
        op_error = f"The fix could not be applied: {'; '.join(error_texts(exc.design, exc.errors))}"
        return render_designer(request, design, status=UNPROCESSABLE, op_error=op_error)
    except EditConflict as exc:
        design.refresh_from_db()
        return render_designer(request, design, status=CONFLICT, conflict=conflict_text(design, exc))
    return answer_saved(request, design, summary)


def _walk(request: HttpRequest, pk: int, direction: str) -> HttpResponse:
    design = get_writable_design_for_user(request, pk)
    try:
        design = walk_revisions(design, direction, request.user, expected_revision=posted_revision(request))
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
    design = get_writable_design_for_user(request, pk)
    variant = duplicate_design(design, request.user)
    messages.success(request, f"Created {variant.name}, a variant of {design.name}. Change it, then compare the two.")
    return redirect("plans:designer", pk=variant.pk)
