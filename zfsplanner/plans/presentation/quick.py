"""The quick planner's answer and page: one short form's ``Design``, estimated and presented.

The view module ``views.quick`` serves ``/plan/`` and its chart, JSON and save; the home page
(``views.designs.home``) shows the same page to a visitor who is not logged in. Both render it
through ``views.responses.quick_plan_page``. The form's parameters become a document once and that document
a ``Design`` once (:func:`computed`); the answer and the page read the ``Design`` and the estimate
by attribute. The estimate is the one ``POST /api/estimate/`` gives
(``estimate_with_catalog(validate_document(doc))``), cached per document and catalog state; the
rendered page is cached per parameter set (``page_cache``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl

from django.core.cache import cache
from django.urls import reverse

from zfsplanner.core.commands.create import all_commands, command_lines
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_size

from ..forms.quick import QuickPlanForm, canonical_query, catalog_price, field_errors
from ..services.designs import validate_document
from ..services.disk_inputs import estimate_with_catalog
from ..services.estimates import ESTIMATE_CACHE_SECONDS, planning_stamp
from .growth import GrowthSection, growth_section
from .summary import DesignSummary, VdevLine, summarize

TEMPLATE = "plans/quick_plan.html"
SHOWN_LAYOUT = "from_layout"  # the hidden field: the layout the form showed, to tell a switch from a link
UNPROCESSABLE = 422


@dataclass(frozen=True)
class QuickAnswer:
    design: Design  # what the form's parameters describe, catalog disks filled in
    estimate: Estimate
    commands: dict[str, list[str]]
    summary: DesignSummary  # its cost is the designer's rule (summary.design_cost): every disk, SSDs too

    @property
    def version(self) -> str:
        return self.design.version

    @property
    def survivors(self) -> list[VdevLine]:
        """The vdev groups that hold pool data, with the failures each survives."""
        return [v for v in self.summary.vdevs if v.survives is not None]

    @property
    def growth(self) -> GrowthSection | None:
        """When the pool fills at the growth typed in (None without one)."""
        return growth_section(self.estimate, self.summary.unit)

    @property
    def usable_other_unit(self) -> str:
        """The headline in the unit the reader did not pick (TB beside TiB, or the reverse)."""
        return format_size(self.summary.usable.bytes, self.summary.other_unit)


def computed(form: QuickPlanForm) -> tuple[Design, Estimate, dict[str, list[str]]]:
    """The ``Design`` of a valid form, its estimate and its commands; ``InvalidDesign`` when the core
    refuses it.

    The form's parameters are written as the quick planner's document (what ``design.json`` and
    "Save as a design" give) and parsed once, as ``POST /api/estimate/`` parses one; the estimate is
    the one that API and ``manage.py estimate`` give. All three are cached per document and catalog
    state (invalid documents are not cached)."""
    doc = form.document()
    key = f"quick-plan-typed:{_digest(doc)}:{planning_stamp()}"
    stored = cache.get(key)
    if stored is None:
        spec = validate_document(doc)
        stored = (spec, estimate_with_catalog(spec), _commands(spec))
        cache.set(key, stored, timeout=ESTIMATE_CACHE_SECONDS)
    return stored


def _commands(spec: Design) -> dict[str, list[str]]:
    """The ``zpool create`` and ``zfs create`` commands, cached per pool shape: they do not change
    with the data planned or the price, so typing those reuses them."""
    shape = replace(
        spec,
        vdevs=tuple(replace(g, price_per_disk=None) for g in spec.vdevs),
        datasets=tuple(replace(ds, contents=None) for ds in spec.datasets),
    )
    key = f"quick-plan-commands:wrapped:{hashlib.sha256(repr(shape).encode()).hexdigest()}"
    commands = cache.get(key)
    if commands is None:
        wrapped = all_commands(spec, wrapped=True)
        commands = {"commands": wrapped, "lines": command_lines(wrapped)}
        cache.set(key, commands, timeout=ESTIMATE_CACHE_SECONDS)
    return commands  # type: ignore[no-any-return]


def _digest(doc: object) -> str:
    """The cache key of the form's document (its parameters, written out)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def answer(form: QuickPlanForm) -> QuickAnswer:
    """The answer to a valid form: ``InvalidDesign`` (paths mapped to fields by the caller) otherwise."""
    spec, estimate, commands = computed(form)
    d = form.cleaned_data
    # The price typed is the data group's price_per_disk; else the catalog's price of the chosen disk.
    listed = catalog_price(d["disk"]) if d.get("disk") else None
    prices = {d["disk"]: listed} if listed is not None else {}
    summary = summarize(estimate, spec, prices, with_fixes=False, unit=d.get("unit") or DEFAULT_SIZE_UNIT)
    return QuickAnswer(spec, estimate, commands, summary)


def valid_plan(form: QuickPlanForm) -> bool:
    """Whether the form describes a pool the core accepts; if not, the problems are on its fields.

    A valid document's estimate is computed (or found in the cache) here, so the answer that
    follows costs no second estimate."""
    if not form.is_valid():
        return False
    try:
        computed(form)
    except InvalidDesign as exc:
        for field, message in field_errors(exc.errors, form.cleaned_data):
            form.add_error(field, message)
        return False
    return True


def answer_or_errors(form: QuickPlanForm) -> QuickAnswer | None:
    """The answer, or None with the problems added to the form's fields."""
    return answer(form) if valid_plan(form) else None


def page_context(
    form: QuickPlanForm, result: QuickAnswer | None, data: dict[str, Any], *, reshaped: bool = False
) -> dict[str, Any]:
    """``reshaped``: the disks and vdevs fields were changed with the layout, so the partial sends them too."""
    query = canonical_query(data)
    optional = ("special", "slog", "recordsize", "compression", "data", "price")
    return {
        "form": form,
        "result": result,
        "summary": result.summary if result else None,
        "commands": result.commands if result else None,
        "query": query,
        "state": parse_qsl(query),
        "more_open": any(data.get(k) for k in optional) or any(form.errors.get(k) for k in optional),
        "chart_url": f"{reverse('plans:quick-plan-chart')}?{query}",
        "json_url": f"{reverse('plans:quick-plan-json')}?{query}",
        "save_url": f"{reverse('plans:quick-plan-save')}?{query}",
        "can_write": False,
        "reshaped": reshaped,
        "shown_layout_name": SHOWN_LAYOUT,
    }
