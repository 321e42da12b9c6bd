"""The responses more than one view module sends, built from the presentation's data: a chart's JSON
(or ``{"detail": ...}`` with the status the presentation chose) and the design export's download.

The view modules never import each other; what they share as HTTP is here.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse

from ..presentation.pages import ChartAnswer, ExportFile


def chart_response(answer: ChartAnswer) -> JsonResponse:
    if answer.chart is None:
        return JsonResponse({"detail": answer.detail}, status=answer.status)
    return JsonResponse(answer.chart, status=answer.status)


def download_response(export: ExportFile) -> HttpResponse:
    response = HttpResponse(export.text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response
