"""Pages: file-size histograms of a design's datasets.

Histogram listings are stored first and bucketed by a worker; their rows poll themselves until
done (htmx, 286 stops the polling).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from zfsplanner.plans.access import get_design_for_user
from zfsplanner.plans.models import PoolDesign
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import UploadTooLarge, check_content_length, install_upload_handler
from zfsplanner.uploads.text import UploadRefused
from zfsplanner.web.htmx import htmx_partial

from .. import services
from ..access import get_histogram_for_user
from ..forms import HistogramForm
from ..models import FILE_LISTINGS

UNPROCESSABLE = 422


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
