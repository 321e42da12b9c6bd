"""The design report: a print-friendly page, Markdown and CSV, for members, share links and the API.

* ``/designs/<pk>/report/`` and ``/share/<token>/report/``: the report as a page that prints
  cleanly (the browser's print to PDF); share links read it without logging in;
* ``/share/<token>/report.md`` and ``/share/<token>/estimate.csv``: the downloads of a share link;
* ``/api/designs/<id>/report.md``, ``/api/designs/<id>/estimate.csv``, and
  ``/api/designs/<id>/report/`` which answers by ``Accept`` (``text/markdown``, ``text/csv``,
  ``text/html`` or JSON) or ``?format=md|csv|html|json``.

Sizes are in one unit, ``?unit=TiB|TB`` or else the reader's preference (TiB by default); the
CSV keeps exact byte counts.

The report itself is ``zfsplanner.core.report``: one Markdown source, rendered to HTML for the page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from zfsplanner.accounts.models import request_unit
from zfsplanner.core import report
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.units import DEFAULT_SIZE_UNIT

from ..access import get_design_for_user, get_shared_design
from ..models import PoolDesign
from ..presentation.summary import summarize
from ..services.editing import error_texts
from ..services.estimates import estimate_design


def _safe_name(design: PoolDesign) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in design.name)


def report_filename(design: PoolDesign, ext: str) -> str:
    """``tank-r3-report.md`` / ``tank-r3-estimate.csv``."""
    kind = "estimate" if ext == "csv" else "report"
    return f"{_safe_name(design)}-r{design.revision}-{kind}.{ext}"


def _meta(design: PoolDesign, link: str | None) -> dict[str, str]:
    meta = {"team": design.team.name, "revision": str(design.revision),
            "generated": timezone.now().strftime("%Y-%m-%d %H:%M UTC")}
    if link:
        meta["link"] = link
    return meta


def report_texts(design: PoolDesign, link: str | None = None, unit: str = DEFAULT_SIZE_UNIT) -> tuple[str, str]:
    """(Markdown, CSV) of a stored design, sizes in ``unit``; ``InvalidDesign`` when the core rejects it now.

    The headline figures come from the design page's presentation (the same ``summarize``), so the
    report and the page cannot disagree on them."""
    spec = design.to_spec()
    est = estimate_design(design)
    summary = summarize(est, design.document_view(), with_fixes=False, unit=unit)
    markdown = report.markdown(spec, est, meta=_meta(design, link), unit=summary.unit, top=summary.headline)
    return markdown, report.csv_text(spec, est)


def _download(text: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _page(request: HttpRequest, design: PoolDesign, link: str, downloads: dict[str, str], shared: bool,
          **extra: Any) -> HttpResponse:
    unit = request_unit(request)
    unit_query = f"?unit={unit}" if request.GET.get("unit") == unit else ""  # carried to the Markdown and back
    downloads = {k: f"{v}{unit_query}" if k == "Markdown" else v for k, v in downloads.items()}
    try:
        markdown, _ = report_texts(design, request.build_absolute_uri(link), unit)
        body, error = report.markdown_to_html(markdown), None
    except InvalidDesign as exc:
        body, error = "", "; ".join(error_texts(design.to_document(), exc.errors))
    context = {"design": design, "report_html": body, "error": error, "downloads": downloads, "shared": shared,
               "link": request.build_absolute_uri(link), "unit_query": unit_query} | extra
    return render(request, "plans/design_report.html", context, status=200 if error is None else 422)


@login_required
@require_GET
def design_report(request: HttpRequest, pk: int) -> HttpResponse:
    design, _ = get_design_for_user(request, pk)
    downloads = {
        "Markdown": reverse("plans-api:design-report-md", args=[design.pk]),
        "CSV": reverse("plans-api:design-estimate-csv", args=[design.pk]),
    }
    return _page(request, design, reverse("plans:design-detail", args=[design.pk]), downloads, shared=False)


@never_cache
@require_GET
def share_report(request: HttpRequest, token: str) -> HttpResponse:
    design = get_shared_design(token)
    downloads = {"Markdown": reverse("plans:share-report-md", args=[token]),
                 "CSV": reverse("plans:share-estimate-csv", args=[token])}
    link = reverse("plans:share-report", args=[token])
    return _private(_page(request, design, link, downloads, shared=True))


@never_cache
@require_GET
def share_report_markdown(request: HttpRequest, token: str) -> HttpResponse:
    design = get_shared_design(token)
    link = request.build_absolute_uri(reverse("plans:share-report", args=[token]))
    markdown, _ = report_texts(design, link, request_unit(request))
    return _private(_download(markdown, "text/markdown", report_filename(design, "md")))


@never_cache
@require_GET
def share_estimate_csv(request: HttpRequest, token: str) -> HttpResponse:
    design = get_shared_design(token)
    _, csv_text = report_texts(design)
    return _private(_download(csv_text, "text/csv", report_filename(design, "csv")))


# --------------------------------------------------------------------------- API


class MarkdownRenderer(BaseRenderer):
    media_type = "text/markdown"
    format = "md"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> str:
        return data["markdown"] if isinstance(data, dict) and "markdown" in data else _error_text(data)


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> str:
        return data["csv"] if isinstance(data, dict) and "csv" in data else _error_text(data)


class HtmlReportRenderer(BaseRenderer):
    media_type = "text/html"
    format = "html"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> str:
        if isinstance(data, dict) and "markdown" in data:
            return report.markdown_to_html(data["markdown"])
        return f"<p>{_error_text(data)}</p>"


def _error_text(data: Any) -> str:
    detail = data.get("detail", data) if isinstance(data, dict) else data
    return f"{detail}\n"


class DesignReportView(APIView):
    """The design report: Markdown (``report.md``), the estimate as CSV (``estimate.csv``), or by ``Accept``."""

    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [JSONRenderer, MarkdownRenderer, CsvRenderer, HtmlReportRenderer]

    @extend_schema(
        parameters=[OpenApiParameter("format", str, OpenApiParameter.QUERY, enum=["json", "md", "csv", "html"],
                                     description="Instead of an Accept header."),
                    OpenApiParameter("unit", str, OpenApiParameter.QUERY, enum=["TiB", "TB"],
                                     description="Sizes in the report: TiB (binary) or TB (decimal); default: "
                                     "the user's preference, else TiB.")],
        responses={
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT,
                                                       description='{"markdown": "...", "csv": "..."}'),
            (200, "text/markdown"): OpenApiResponse(OpenApiTypes.STR, description="The report in Markdown."),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="One row per pool, vdev and dataset."),
            (200, "text/html"): OpenApiResponse(OpenApiTypes.STR, description="The report as an HTML fragment."),
        },
    )
    def get(self, request: Request, pk: int, format: str | None = None) -> Response:  # noqa: A002 - DRF's name
        design, _ = get_design_for_user(request, pk)
        try:
            markdown, csv_text = report_texts(design, request.build_absolute_uri(
                reverse("plans:design-detail", args=[design.pk])), request_unit(request))
        except InvalidDesign as exc:
            return Response({"detail": str(exc)}, status=400)
        response = Response({"markdown": markdown, "csv": csv_text})
        chosen = getattr(request, "accepted_renderer", None)
        if chosen is not None and chosen.format in ("md", "csv"):
            response["Content-Disposition"] = f'attachment; filename="{report_filename(design, chosen.format)}"'
        return response
