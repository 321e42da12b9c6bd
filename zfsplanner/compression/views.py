"""Pages: upload a sample, watch it being measured, read the result.

``/compression/`` takes a sample and lists yours; ``/compression/samples/<id>/`` shows one,
polling itself every 2 s while a worker measures it (htmx; 286 stops the polling). A
sample up to ``COMPRESSION_INLINE_MAX_BYTES`` is measured before the answer comes back.
Both call :mod:`.services`, as the API does.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling, reswap, retarget

from zfsplanner.uploads.handler import check_content_length, install_upload_handler
from zfsplanner.uploads.text import UploadRefused
from zfsplanner.web.htmx import htmx_partial

from . import services
from .access import get_sample_for_user
from .forms import SampleForm
from .models import COMPRESSION_SAMPLES, CompressionSample


def sample_context(sample: CompressionSample) -> dict[str, Any]:
    rows = []
    snippet = None
    if sample.result:
        rows = sample.result["total"]["results"]
        best = min(rows, key=lambda r: r["stored_bytes"]) if rows else None
        if best is not None:
            snippet = json.dumps(
                {
                    "compression": best["setting"],
                    "recordsize": best["recordsize"],
                    "contents": {"block_size_histogram": best["block_size_histogram"]},
                }
            )
    return {"sample": sample, "rows": rows, "snippet": snippet}


@csrf_exempt  # CSRF is checked by _store, once the streaming handler is in place
@login_required
@require_http_methods(["GET", "POST"])
def sample_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # The one streaming upload handler must be in place before anything (CSRF included) reads the body.
        install_upload_handler(request, COMPRESSION_SAMPLES)
        try:
            check_content_length(request, COMPRESSION_SAMPLES)
            return _store(request)
        except UploadRefused as exc:  # a form error like any other (422), nothing stored
            form = SampleForm()
            form.errors["file"] = form.error_class([str(exc.detail)])
            return _form_response(request, form, status=422)
    return _form_response(request, SampleForm(), status=200)


@csrf_protect
def _store(request: HttpRequest) -> HttpResponse:
    form = SampleForm(request.POST, request.FILES)
    if not form.is_valid():
        return _form_response(request, form, status=422)
    sample = services.store_sample(request.user, form.cleaned_data["file"], form.cleaned_data["options"])
    if htmx_partial(request):
        sample.refresh_from_db()
        return render(request, "compression/sample_detail.html#sample-status", sample_context(sample))
    return redirect("compression:sample-detail", sample.pk)


def _form_response(request: HttpRequest, form: SampleForm, status: int) -> HttpResponse:
    samples = CompressionSample.objects.for_user(request.user)[:50]
    ctx = {"form": form, "samples": samples, "inline_limit": services.inline_limit()}
    if status != 200 and htmx_partial(request):
        response = render(request, "compression/sample_list.html#sample-form", ctx, status=status)
        return reswap(retarget(response, "#sample-form"), "outerHTML")
    return render(request, "compression/sample_list.html", ctx, status=status)


@login_required
def sample_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sample = get_sample_for_user(request, pk)
    if htmx_partial(request):
        response = render(request, "compression/sample_detail.html#sample-status", sample_context(sample))
        if sample.is_finished:
            response.status_code = HttpResponseStopPolling.status_code
        return response
    return render(request, "compression/sample_detail.html", sample_context(sample))


@login_required
@require_POST
def sample_delete(request: HttpRequest, pk: int) -> HttpResponse:
    sample = get_sample_for_user(request, pk)
    sample.file.delete(save=False)
    sample.delete()
    return redirect("compression:sample-list")
