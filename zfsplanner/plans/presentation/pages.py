"""What more than one page shows of a stored design, built once here.

The design page (``views.designs``) and the shared page (``views.sharing``) show the same summary,
estimate, risks, commands and charts (:func:`design_context`); the designer, the comparison and
the shared page chart the same breakdown (:func:`breakdown_response`); the export and the shared
export send the same file (:func:`export_response`). The view modules never import each other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson
from django.http import HttpResponse, JsonResponse
from django.urls import reverse

from zfsplanner.core.units import DEFAULT_SIZE_UNIT

from ..models import PoolDesign
from ..services.attached import design_additions
from ..services.designs import catalog_prices, export_filename
from ..services.estimates import commands_or_none, estimate_or_error, planning_stamp
from ..services.measurements import measured_comparisons
from . import charts
from .growth import growth_section
from .summary import DesignSummary, breakdown_chart, summarize

UNPROCESSABLE = 422


def pretty_json(doc: Mapping[str, Any]) -> str:
    """A document as the JSON editor and the export show it: ``json.dumps(doc, indent=2,
    ensure_ascii=False)``, written by orjson when that gives the same text (the standard library
    writes an indented document in Python, a millisecond for a 1,000-bucket histogram)."""
    if _orjson_writes_alike(doc):
        try:
            return orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
        except orjson.JSONEncodeError:
            pass  # keys that are not strings, integers beyond 64 bits, lone surrogates: as json writes them
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _orjson_writes_alike(doc: Any) -> bool:
    """Does orjson spell every number of ``doc`` as ``json`` does? Floats differ only where ``json``
    writes an exponent (``1e-05``, ``1e+16``; orjson ``1e-5``, ``1e16``) or a non-finite value."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, float):
            if not (value == 0 or 1e-4 <= abs(value) < 1e16):
                return False
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            if not all(type(item) is int for item in value):
                stack.extend(value)
    return True


def design_summary(
    design: PoolDesign, with_fixes: bool = True, unit: str = DEFAULT_SIZE_UNIT
) -> tuple[DesignSummary | None, str | None]:
    """The design's presentation (estimate cached per revision), sizes in ``unit``, or why there is none."""
    estimate, error = estimate_or_error(design)
    if estimate is None:
        return None, error
    spec = design.to_spec() if with_fixes else None
    summary = summarize(estimate, design.document_view(), catalog_prices(), with_fixes=with_fixes, spec=spec, unit=unit)
    return summary, None


def breakdown_response(designs: list[PoolDesign], unit: str = DEFAULT_SIZE_UNIT) -> JsonResponse:
    """Where the raw capacity of each design goes, one bar per design (422 naming the first that fails)."""
    rows = []
    for d in designs:
        summary, error = design_summary(d, with_fixes=False, unit=unit)
        if summary is None:
            return JsonResponse({"detail": f"{d.name}: {error}"}, status=UNPROCESSABLE)
        rows.append((f"{d.name} (r{d.revision})", summary))
    return JsonResponse(breakdown_chart(rows))


def design_context(
    design: PoolDesign, capacity_url: str, efficiency_url: str, key: object, unit: str = DEFAULT_SIZE_UNIT
) -> dict[str, Any]:
    """What the design page and the shared page both show: summary, estimate, risks, commands, charts;
    sizes in ``unit`` (``request_unit``: ``?unit=``, else the reader's preference)."""
    estimate, estimate_error = estimate_or_error(design)
    summary = None
    if estimate is not None:
        summary = summarize(estimate, design.to_document(), catalog_prices(), spec=design.to_spec(), unit=unit)
    return {
        "design": design,
        "estimate": estimate,
        "summary": summary,
        # Fragments of the page are cached per revision and per state of the catalog and benchmarks.
        "render_stamp": f"{design.updated.timestamp() if design.updated else 0}-{planning_stamp()}-{unit}",
        "estimate_error": estimate_error,
        "commands": commands_or_none(design),
        "has_efficiency": estimate is not None and charts.efficiency_chart(estimate) is not None,
        "capacity_chart_url": reverse(capacity_url, args=[key]),
        "efficiency_chart_url": reverse(efficiency_url, args=[key]),
        "measured": measured_comparisons(design),
        "growth": growth_section(estimate, unit),
        **design_additions(design, estimate),
    }


def capacity_chart_response(design: PoolDesign) -> JsonResponse:
    estimate, error = estimate_or_error(design)
    if estimate is None:
        return JsonResponse({"detail": error}, status=UNPROCESSABLE)
    return JsonResponse(charts.capacity_chart(estimate))


def timeline_chart_response(design: PoolDesign) -> JsonResponse:
    estimate, _ = estimate_or_error(design)
    chart = charts.timeline_chart(estimate) if estimate is not None else None
    if chart is None:
        return JsonResponse({"detail": "The design has no growth block."}, status=404)
    return JsonResponse(chart)


def efficiency_chart_response(design: PoolDesign) -> JsonResponse:
    estimate, _ = estimate_or_error(design)
    chart = charts.efficiency_chart(estimate) if estimate is not None else None
    if chart is None:
        return JsonResponse({"detail": "The estimate has no efficiency table for this design."}, status=404)
    return JsonResponse(chart)


def export_response(design: PoolDesign) -> HttpResponse:
    """The design document as a download."""
    response = HttpResponse(pretty_json(design.to_document()) + "\n", content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(design)}"'
    return response


def data_field_url(design: PoolDesign) -> str:
    """The designer with the "Data to store" field of the first dataset that has none open and in view
    (a design without datasets: the new dataset form's), for the figures that need it."""
    base = reverse("plans:designer", args=[design.pk])
    datasets = design.document_view().get("datasets") or []
    for i, ds in enumerate(datasets):
        if not ((ds or {}).get("contents") or {}).get("logical_bytes"):
            return f"{base}?edit=datasets-{i}#id_d{i}-logical_size"
    return f"{base}?add=datasets#id_dnew-logical_size"
