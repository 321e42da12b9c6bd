"""The glossary at ``/glossary/``: the ZFS words the pages use, each explained once (``plans.glossary``)."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from ..glossary import TERMS


@transaction.non_atomic_requests  # reads nothing
@require_http_methods(["GET"])
def glossary(request: HttpRequest) -> HttpResponse:
    return render(request, "plans/glossary.html", {"terms": TERMS})
