"""What more than one page shows of a stored design, built once here.

The design page (``views.designs``) and the shared page (``views.sharing``) show the same summary,
estimate, risks, commands and charts (:func:`design_context`); the designer, the comparison and
the shared page chart the same breakdown (:func:`breakdown_chart_for`); the export and the shared
export send the same file (:func:`export_file`). The view modules never import each other.

These are data (a :class:`ChartAnswer`, an :class:`ExportFile`): the views turn them into responses
(``views/responses.py``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from django.urls import reverse

from zfsplanner.core.design.types import InvalidDesign
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
NOT_FOUND = 404


@dataclass(frozen=True)
class ChartAnswer:
    """A chart endpoint's answer: the chart's JSON, or in words why there is none and the HTTP status
    that says so (422: the design does not estimate; 404: the design has no such chart)."""

    chart: dict[str, Any] | None
    detail: str = ""
    status: int = 200

    @classmethod
    def missing(cls, detail: str | None, status: int) -> ChartAnswer:
        return cls(None, detail or "", status)


@dataclass(frozen=True)
class ExportFile:
    """The design document as the export downloads it."""

    text: str
    filename: str


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
    summary = summarize(estimate, design.to_spec(), catalog_prices(), with_fixes=with_fixes, unit=unit)
    return summary, None


def breakdown_chart_for(designs: list[PoolDesign], unit: str = DEFAULT_SIZE_UNIT) -> ChartAnswer:
    """Where the raw capacity of each design goes, one bar per design (422 naming the first that fails)."""
    rows = []
    for d in designs:
        summary, error = design_summary(d, with_fixes=False, unit=unit)
        if summary is None:
            return ChartAnswer.missing(f"{d.name}: {error}", UNPROCESSABLE)
        rows.append((f"{d.name} (r{d.revision})", summary))
    return ChartAnswer(breakdown_chart(rows))


def design_context(
    design: PoolDesign, capacity_url: str, efficiency_url: str, key: object, unit: str = DEFAULT_SIZE_UNIT
) -> dict[str, Any]:
    """What the design page and the shared page both show: summary, estimate, risks, commands, charts;
    sizes in ``unit`` (``request_unit``: ``?unit=``, else the reader's preference)."""
    estimate, estimate_error = estimate_or_error(design)
    summary = None
    if estimate is not None:
        summary = summarize(estimate, design.to_spec(), catalog_prices(), unit=unit)
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


def capacity_chart_for(design: PoolDesign) -> ChartAnswer:
    estimate, error = estimate_or_error(design)
    if estimate is None:
        return ChartAnswer.missing(error, UNPROCESSABLE)
    return ChartAnswer(charts.capacity_chart(estimate))


def timeline_chart_for(design: PoolDesign) -> ChartAnswer:
    estimate, _ = estimate_or_error(design)
    chart = charts.timeline_chart(estimate) if estimate is not None else None
    if chart is None:
        return ChartAnswer.missing("The design has no growth block.", NOT_FOUND)
    return ChartAnswer(chart)


def efficiency_chart_for(design: PoolDesign) -> ChartAnswer:
    estimate, _ = estimate_or_error(design)
    chart = charts.efficiency_chart(estimate) if estimate is not None else None
    if chart is None:
        return ChartAnswer.missing("The estimate has no efficiency table for this design.", NOT_FOUND)
    return ChartAnswer(chart)


def export_file(design: PoolDesign) -> ExportFile:
    """The design document as a download: pretty JSON and the file name."""
    return ExportFile(pretty_json(design.to_document()) + "\n", export_filename(design))


def data_field_url(design: PoolDesign) -> str:
    """The designer with the "Data to store" field of the first dataset that has none open and in view
    (a design without datasets: the new dataset form's), for the figures that need it."""
    base = reverse("plans:designer", args=[design.pk])
    try:
        datasets = design.to_spec().datasets
    except InvalidDesign:  # a stored design that no longer reads: the new dataset form, as with none
        datasets = ()
    for i, ds in enumerate(datasets):
        if ds.contents is None or not ds.contents.logical_bytes:
            return f"{base}?edit=datasets-{i}#id_d{i}-logical_size"
    return f"{base}?add=datasets#id_dnew-logical_size"
