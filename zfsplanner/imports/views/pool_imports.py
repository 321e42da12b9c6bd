"""Pages: import a pool from its outputs (preview, model vs pool, save).

A pool import is stored, then read while the user waits; the preview is kept (``PoolImport``)
so it can be saved for any team the user writes to. Outputs that cannot be read stay stored with
the reason, and "Read again" reads them after an update.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import error_text
from zfsplanner.uploads.handler import check_content_length, install_upload_handler
from zfsplanner.uploads.text import UploadRefused

from .. import services
from ..access import get_import_for_user, get_read_import_for_user
from ..attached import layout_warning
from ..forms import PoolImportForm, SaveImportForm
from ..models import POOL_OUTPUTS, DesignLink, PoolImport
from ..presentation import answer_error, preview, with_answers

UNPROCESSABLE = 422





@csrf_exempt
@login_required
@require_http_methods(["GET", "POST"])
def pool_import_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, "imports/pool_import_new.html", {"form": PoolImportForm()})
    # The streaming handler must be in place before anything (CSRF included) reads the body.
    install_upload_handler(request, POOL_OUTPUTS)
    try:
        check_content_length(request, POOL_OUTPUTS)
        return _pool_import_create(request)
    except UploadRefused as exc:  # too large or not text: a form error (422, which htmx swaps), nothing stored
        context = {"form": PoolImportForm(), "upload_error": str(exc.detail)}
        return render(request, "imports/pool_import_new.html", context, status=UNPROCESSABLE)


@csrf_protect
def _pool_import_create(request: HttpRequest) -> HttpResponse:
    form = PoolImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "imports/pool_import_new.html", {"form": form}, status=UNPROCESSABLE)
    record = services.create_pool_import(request.user, form.sources(), form.cleaned_data.get("pool", ""))
    if not record.is_read:  # stored with the reason: the form again with the paste, and the way to read it again
        context = {"form": form, "import_error": record.error, "record": record}
        return render(request, "imports/pool_import_new.html", context, status=UNPROCESSABLE)
    return redirect("imports:pool-import-detail", pk=record.pk)


def _preview_response(request: HttpRequest, record: PoolImport, form: SaveImportForm | None = None,
                      status: int = 200, **extra: Any) -> HttpResponse:
    if not record.is_read:  # stored outputs that could not be read (yet): the reason and "Read again"
        return render(request, "imports/pool_import_unread.html", {"record": record} | extra, status=status)
    teams = Team.objects.writable_by(request.user)
    if form is None:
        form = SaveImportForm(teams=teams, initial={"name": record.document.get("name"), "team": teams.first()})
    linked = PoolDesign.objects.for_user(request.user).filter(pk=record.design_id).first() if record.design_id else None
    context = {"record": record, "preview": preview(record.document), "form": form, "can_save": teams.exists(),
               "linked_design": linked, "saved": linked is not None and record.design_link == DesignLink.SAVED}
    if linked is not None and not context["saved"]:
        context["layout_warning"] = layout_warning(linked, record)
    return render(request, "imports/pool_import_detail.html", context | extra, status=status)


@login_required
@require_GET
def pool_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _preview_response(request, get_import_for_user(request, pk))


@login_required
@require_POST
def pool_import_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Read the stored outputs again (after an update)."""
    record = get_import_for_user(request, pk)
    if not services.read_again(record):
        return _preview_response(request, record, status=409, retry_error="The outputs are being read right now.")
    return redirect("imports:pool-import-detail", pk=record.pk)


@login_required
@require_POST
def pool_import_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The member sizes the preview asked for (zpool status alone): typed or chosen from the catalog."""
    record = get_read_import_for_user(request, pk)
    try:
        services.answer_pool_import(record, request.POST)
    except ValueError as exc:  # UnreadableOutput and InvalidDesign (a size too small for ZFS) are ValueErrors
        return _preview_response(request, record, status=UNPROCESSABLE, answer_error=answer_error(exc, record.document),
                                 asked=with_answers(record.document, request.POST))
    return redirect("imports:pool-import-detail", pk=record.pk)


@login_required
@require_POST
def pool_import_save(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_read_import_for_user(request, pk)
    form = SaveImportForm(request.POST, teams=Team.objects.writable_by(request.user))
    if not form.is_valid():
        return _preview_response(request, record, form, UNPROCESSABLE)
    try:
        design = services.save_pool_import(record, form.cleaned_data["team"], request.user, form.cleaned_data["name"])
    except InvalidDesign as exc:
        for path, message in exc.errors:
            on_name = path in ("name", "") or path.endswith(".name")
            form.add_error("name" if on_name else None, error_text(record.document, path, message))
        return _preview_response(request, record, form, UNPROCESSABLE)
    return redirect("plans:design-detail", pk=design.pk)
