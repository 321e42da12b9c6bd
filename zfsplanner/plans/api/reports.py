"""The design report in the API: ``/api/designs/<id>/report.md``, ``/api/designs/<id>/estimate.csv``,
and ``/api/designs/<id>/report/`` which answers by ``Accept`` (``text/markdown``, ``text/csv``,
``text/html`` or JSON) or ``?format=md|csv|html|json``. Sizes in ``?unit=TiB|TB`` or the reader's
preference; the texts are ``presentation/reports.py``'s, as on the report page.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
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

from ..access import get_design_for_user
from ..presentation.reports import report_filename, report_texts


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
