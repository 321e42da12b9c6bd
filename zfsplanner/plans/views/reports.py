"""The design report: a print-friendly page, Markdown and CSV, for members and share links.

* ``/designs/<pk>/report/`` and ``/share/<token>/report/``: the report as a page that prints
  cleanly (the browser's print to PDF); share links read it without logging in;
* ``/share/<token>/report.md`` and ``/share/<token>/estimate.csv``: the downloads of a share link;
* the API's report (``/api/designs/<id>/report.md`` ...) is ``api/reports.py``; both read the
  texts from ``presentation/reports.py``.

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
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from zfsplanner.accounts.models import request_unit
from zfsplanner.core import report
from zfsplanner.core.design.types import InvalidDesign

from ..access import get_design_for_user, get_shared_design
from ..models import PoolDesign
from ..presentation.reports import report_filename, report_texts
from ..services.editing import error_texts


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
