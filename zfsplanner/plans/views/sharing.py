"""Read-only share links: managed on the design page, opened by anyone who has the link.

Owners and editors create and revoke links (htmx, ``share-links`` partial); viewers see
them. ``/share/<token>/`` needs no login and only ever reads: GET only, no forms, no
team details beyond its name. Unknown, revoked and expired tokens all answer 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import request_unit
from zfsplanner.web.page_cache import render_cached

from ..access import get_shared_design, get_writable_design_for_user
from ..forms.designs import ShareLinkForm
from ..models import PoolDesign
from ..presentation.pages import (
    UNPROCESSABLE,
    breakdown_chart_for,
    capacity_chart_for,
    design_context,
    efficiency_chart_for,
    export_file,
)
from ..services.estimates import planning_stamp, revision_key
from ..services.sharing import create_share_link, revoke_share_link
from .responses import chart_response, download_response


def _links(
    request: HttpRequest, design: PoolDesign, form: ShareLinkForm | None = None, status: int = 200
) -> HttpResponse:
    """The ``share-links`` card for htmx, else back to the design page."""
    if not request.htmx:
        return redirect("plans:design-detail", pk=design.pk)
    context = {
        "design": design,
        "can_write": True,
        "share_links": design.share_links.select_related("created_by"),
        "share_form": form or ShareLinkForm(),
    }
    return render(request, "plans/design_detail.html#share-links", context, status=status)


@login_required
@require_http_methods(["POST"])
def share_link_create(request: HttpRequest, pk: int) -> HttpResponse:
    design = get_writable_design_for_user(request, pk, "share this design or revoke links")
    form = ShareLinkForm(request.POST)
    if not form.is_valid():
        return _links(request, design, form, status=UNPROCESSABLE)
    create_share_link(design, request.user, expires=form.expires())
    return _links(request, design)


@login_required
@require_http_methods(["POST"])
def share_link_revoke(request: HttpRequest, pk: int, link_id: int) -> HttpResponse:
    design = get_writable_design_for_user(request, pk, "share this design or revoke links")
    revoke_share_link(get_object_or_404(design.share_links, pk=link_id))
    return _links(request, design)


def _private(response: HttpResponse) -> HttpResponse:
    """Keep a shared page out of search engines, caches and other sites' Referer headers."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
@require_http_methods(["GET"])
def share_detail(request: HttpRequest, token: str) -> HttpResponse:
    """Rendered once per revision and catalog state (and visitor: the navigation differs when
    logged in), then served from the cache; the link is checked on every request first."""
    design = get_shared_design(token)

    def context() -> dict[str, Any]:
        values = design_context(design, "plans:share-chart-capacity", "plans:share-chart-efficiency", token, unit)
        values["token"] = token
        values["breakdown_url"] = reverse("plans:share-chart-breakdown", args=[token])
        return values

    unit = request_unit(request)  # ?unit= works for anonymous readers too
    key = (token, revision_key(design), design.team.name, planning_stamp(), unit)
    return _private(render_cached(request, "plans/share_detail.html", key, context))


@never_cache
@require_http_methods(["GET"])
def share_export(request: HttpRequest, token: str) -> HttpResponse:
    return _private(download_response(export_file(get_shared_design(token))))


@never_cache
@require_http_methods(["GET"])
def share_chart_capacity(request: HttpRequest, token: str) -> JsonResponse:
    return _private(chart_response(capacity_chart_for(get_shared_design(token))))


@never_cache
@require_http_methods(["GET"])
def share_chart_efficiency(request: HttpRequest, token: str) -> JsonResponse:
    return _private(chart_response(efficiency_chart_for(get_shared_design(token))))


@never_cache
@require_http_methods(["GET"])
def share_chart_breakdown(request: HttpRequest, token: str) -> JsonResponse:
    return _private(chart_response(breakdown_chart_for([get_shared_design(token)], request_unit(request))))  # type: ignore[return-value]
