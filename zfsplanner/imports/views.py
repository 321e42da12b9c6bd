"""Pages: import a pool from its outputs (preview, model vs pool, save), and file-size histograms of datasets.

A pool import is stored, then read while the user waits; the preview is kept (``PoolImport``)
so it can be saved for any team the user writes to. Outputs that cannot be read stay stored with
the reason, and "Read again" reads them after an update. Histogram listings are stored first and bucketed
by a worker; their rows poll themselves until done (htmx, 286 stops the polling).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.plans.access import get_design_for_user
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import error_text
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import UploadTooLarge, check_content_length, install_upload_handler
from zfsplanner.uploads.text import UploadRefused
from zfsplanner.web.htmx import htmx_partial

from . import services
from .access import get_histogram_for_user, get_import_for_user, get_read_import_for_user
from .attached import layout_warning
from .forms import HistogramForm, PoolImportForm, SaveImportForm
from .models import FILE_LISTINGS, POOL_OUTPUTS, DesignLink, PoolImport
from .presentation import answer_error, preview, with_answers

UNPROCESSABLE = 422



# --------------------------------------------------------------------------- pool imports


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


# --------------------------------------------------------------------------- histograms


def _histogram_context(request: HttpRequest, design: PoolDesign, can_write: bool, form: HistogramForm | None = None,
                       **extra: Any) -> dict[str, Any]:
    datasets = list(design.datasets.values_list("name", flat=True))
    return {
        "design": design,
        "can_write": can_write,
        "form": form or HistogramForm(datasets=datasets, initial={"dataset": request.GET.get("dataset")}),
        "uploads": design.histogram_uploads.select_related("uploaded_by")[:50],
        "max_bytes": FILE_LISTINGS.max_bytes(),
        "has_datasets": bool(datasets),
    } | extra


@login_required
@require_GET
def histogram_list(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    return render(request, "imports/histogram_list.html", _histogram_context(request, design, can_write))


@csrf_exempt
@login_required
@require_POST
def histogram_upload(request: HttpRequest, pk: int) -> HttpResponse:
    # The streaming handler must be in place before anything (CSRF included) reads the body.
    install_upload_handler(request, FILE_LISTINGS)
    try:
        check_content_length(request, FILE_LISTINGS)
        return _histogram_upload(request, pk)
    except UploadRefused as exc:  # nothing stored
        design, can_write = get_design_for_user(request, pk)
        context = _histogram_context(request, design, can_write, upload_error=str(exc.detail))
        return render(request, "imports/histogram_list.html", context,
                      status=413 if isinstance(exc, UploadTooLarge) else UNPROCESSABLE)


@csrf_protect
def _histogram_upload(request: HttpRequest, pk: int) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can change the design's datasets.")
    datasets = list(design.datasets.values_list("name", flat=True))
    form = HistogramForm(request.POST, request.FILES, datasets=datasets)
    if not form.is_valid():
        context = _histogram_context(request, design, can_write, form)
        return render(request, "imports/histogram_list.html", context, status=UNPROCESSABLE)
    d = form.cleaned_data
    source: Any = d["file"] if d.get("file") else d["text"].encode()
    name = d["file"].name if d.get("file") else "pasted listing"
    services.store_histogram(design=design, dataset=d["dataset"], user=request.user, file=source, name=name,
                             fmt=d["format"])
    return redirect("imports:histogram-list", pk=design.pk)


@login_required
@require_GET
def histogram_status(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload, can_write = get_histogram_for_user(request, upload_id)
    if not htmx_partial(request):
        return redirect("imports:histogram-list", pk=upload.design_id)
    response = render(request, "imports/histogram_list.html#upload-row", {"upload": upload, "can_write": can_write})
    if upload.is_finished:
        response.status_code = HttpResponseStopPolling.status_code
    return response


@login_required
@require_POST
def histogram_retry(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload, can_write = get_histogram_for_user(request, upload_id)
    if not can_write:
        raise PermissionDenied("Only owners and editors of the team can change the design's datasets.")
    lifecycle.retry(FILE_LISTINGS, upload)
    if htmx_partial(request):
        return render(request, "imports/histogram_list.html#upload-row", {"upload": upload, "can_write": can_write})
    return redirect("imports:histogram-list", pk=upload.design_id)
