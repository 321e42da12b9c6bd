"""Who reaches an import or a histogram upload, or a 404: the one place this app decides it.

An import preview is its maker's alone (``PoolImport.objects.for_user``); a histogram upload
belongs to a design's team, whose owners and editors may change it. An outsider gets a 404, so
it cannot even learn that an id exists.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import HistogramUpload, PoolImport


def get_import_for_user(request: HttpRequest, pk: int) -> PoolImport:
    return get_object_or_404(PoolImport.objects.for_user(request.user), pk=pk)


def get_read_import_for_user(request: HttpRequest, pk: int) -> PoolImport:
    """The user's import whose outputs were read (asking sizes or saving needs the preview)."""
    record = get_import_for_user(request, pk)
    if not record.is_read:
        raise Http404("The outputs of this import are not read.")
    return record


def get_histogram_for_user(request: HttpRequest, upload_id: int) -> tuple[HistogramUpload, bool]:
    """The histogram upload if the user is in its design's team (else 404), and whether they may change it."""
    upload = HistogramUpload.objects.for_user(request.user).select_related("design__team").filter(pk=upload_id).first()
    if upload is None:
        raise Http404("No such histogram upload")
    return upload, upload.design.team.can_write(request.user)
