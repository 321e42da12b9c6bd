"""The quick planner at ``/plan/``: an estimate from one short form, with no account.

The query string is the state (``/plan/?layout=raidz2&disks=8&vdevs=1&size=16TB&version=2.4``):
one URL serves the whole page and, to htmx, the ``update`` partial (the results and the
field messages), and each answer tells the browser the canonical URL to show
(``HX-Replace-Url``), so a link reproduces it. Nothing is written and no task runs: the
parameters become a document (``quick_forms.quick_document``) that is estimated as
``POST /api/estimate/`` estimates one (``estimate_with_catalog(validate_document(doc))``).

Requests count against the ``estimate`` rate, like the estimate API. An estimate is cached
per document and the rendered page per parameter set (``page_cache``; cache keys carry the
build). "Save as a design" stores the same document in the user's first writable team (a
personal team for a newcomer) after logging in or signing up, and opens the designer.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import request_unit
from zfsplanner.accounts.services import personal_team
from zfsplanner.core.commands import all_commands
from zfsplanner.core.design import Design, InvalidDesign
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_size
from zfsplanner.page_cache import render_cached
from zfsplanner.throttling import page_throttled

from .designer_views import pretty_json
from .planning import estimate_with_catalog
from .presentation import DesignSummary, VdevLine, breakdown_chart, summarize
from .quick_forms import FIELDS, QuickPlanForm, canonical_query, catalog_price, field_errors, form_data
from .services import (
    ESTIMATE_CACHE_SECONDS,
    planning_stamp,
    resolve_catalog,
    save_design_document,
    validate_document,
    writable_teams,
)

TEMPLATE = "plans/quick_plan.html"
UNPROCESSABLE = 422


@dataclass(frozen=True)
class QuickCost:
    """What the data disks cost at the price typed in (else the catalog disk's), and per usable TB (10^12 bytes)."""

    price: Decimal
    disks: int
    total: Decimal
    per_usable_tb: Decimal | None
    source: str = "typed"  # or "catalog": the catalog's price of the chosen disk


@dataclass(frozen=True)
class QuickAnswer:
    document: dict[str, Any]
    estimate: dict[str, Any]
    commands: dict[str, list[str]]
    summary: DesignSummary
    cost: QuickCost | None

    @property
    def version(self) -> str:
        return str(self.document["openzfs_version"])

    @property
    def survivors(self) -> list[VdevLine]:
        """The vdev groups that hold pool data, with the failures each survives."""
        return [v for v in self.summary.vdevs if v.survives is not None]

    @property
    def usable_other_unit(self) -> str:
        """The headline in the unit the reader did not pick (TB beside TiB, or the reverse)."""
        return format_size(self.summary.usable.bytes, self.summary.other_unit)


def computed(doc: dict[str, Any]) -> tuple[Design, dict[str, Any], dict[str, list[str]]]:
    """The estimate and commands of a quick-planner document; ``InvalidDesign`` when the core refuses it.

    The estimate is the one ``POST /api/estimate/`` and ``manage.py estimate`` give; both are
    cached per document and catalog state (invalid documents are not cached)."""
    stamp = planning_stamp()
    key = f"quick-plan:{_digest(doc)}:{stamp}"
    stored = cache.get(key)
    if stored is None:
        spec = validate_document(doc)
        # The commands do not change with the data planned or the price: typing those reuses them.
        shape = {**doc, "datasets": [{k: v for k, v in ds.items() if k != "contents"} for ds in doc["datasets"]]}
        shape["vdevs"] = [{k: v for k, v in g.items() if k != "price_per_disk"} for g in doc["vdevs"]]
        commands_key = f"quick-plan-commands:{_digest(shape)}"
        commands = cache.get(commands_key)
        if commands is None:
            commands = {"commands": all_commands(spec)}
            cache.set(commands_key, commands, timeout=ESTIMATE_CACHE_SECONDS)
        stored = (spec, estimate_with_catalog(spec), commands)
        cache.set(key, stored, timeout=ESTIMATE_CACHE_SECONDS)
    return stored


def _digest(doc: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def answer(form: QuickPlanForm) -> QuickAnswer:
    """The answer to a valid form: ``InvalidDesign`` (paths mapped to fields by the caller) otherwise."""
    doc = form.document()
    spec, estimate, commands = computed(doc)
    d = form.cleaned_data
    shown = resolve_catalog(doc) if d.get("disk") else doc  # a catalog disk named by its vendor and model
    summary = summarize(estimate, shown, with_fixes=False, spec=spec, unit=d.get("unit") or DEFAULT_SIZE_UNIT)
    cost = None
    price, source = d.get("price"), "typed"
    if price is None and d.get("disk"):
        price, source = catalog_price(d["disk"]), "catalog"
    if price is not None:
        disks = d["disks"] * d["vdevs"]
        total = price * disks
        usable_tb = Decimal(summary.usable.bytes) / Decimal(10**12)
        cost = QuickCost(price, disks, total, total / usable_tb if usable_tb else None, source)
    return QuickAnswer(doc, estimate, commands, summary, cost)


def _wants_partial(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def _valid(form: QuickPlanForm) -> bool:
    """Whether the form describes a pool the core accepts; if not, the problems are on its fields.

    A valid document's estimate is computed (or found in the cache) here, so the answer that
    follows costs no second estimate."""
    if not form.is_valid():
        return False
    try:
        computed(form.document())
    except InvalidDesign as exc:
        for field, message in field_errors(exc.errors, form.cleaned_data):
            form.add_error(field, message)
        return False
    return True


def _answer_or_errors(form: QuickPlanForm) -> QuickAnswer | None:
    """The answer, or None with the problems added to the form's fields."""
    return answer(form) if _valid(form) else None


@transaction.non_atomic_requests  # reads only
@require_http_methods(["GET"])
def quick_plan(request: HttpRequest) -> HttpResponse:
    """The planner: the form and its estimate (the whole page, or the ``update`` partial for htmx)."""
    return page_throttled(request, "estimate") or _quick_plan(request)


def _quick_plan(request: HttpRequest) -> HttpResponse:
    data = form_data(request.GET, unit=request_unit(request))
    form = QuickPlanForm(data)
    template = f"{TEMPLATE}#update" if _wants_partial(request) else TEMPLATE
    if not _valid(form):
        response = render(request, template, _context(form, None, data), status=UNPROCESSABLE)
    else:  # rendered once per parameter set: a repeated request is served from the page cache
        key = (canonical_query(data), planning_stamp())
        response = render_cached(request, template, key, lambda: _context(form, answer(form), data))
    if _wants_partial(request):
        response["HX-Replace-Url"] = f"{reverse('plans:quick-plan')}?{canonical_query(data)}"
    return response


def _context(form: QuickPlanForm, result: QuickAnswer | None, data: dict[str, Any]) -> dict[str, Any]:
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
    }


@transaction.non_atomic_requests
@require_http_methods(["GET"])
def quick_plan_chart(request: HttpRequest) -> JsonResponse:
    """Where the raw capacity goes (the designer's breakdown chart), for the same query string."""
    throttled = page_throttled(request, "estimate")
    if throttled is not None:
        return throttled  # type: ignore[return-value]
    form = QuickPlanForm(form_data(request.GET, unit=request_unit(request)))
    result = _answer_or_errors(form)
    if result is None:
        return JsonResponse({"detail": _error_text(form)}, status=UNPROCESSABLE)
    return JsonResponse(breakdown_chart([(_label(form), result.summary)]))


@transaction.non_atomic_requests
@require_http_methods(["GET"])
def quick_plan_json(request: HttpRequest) -> HttpResponse:
    """The design document of the query string: for ``manage.py estimate``, the API or an import."""
    form = QuickPlanForm(form_data(request.GET))
    if not form.is_valid():
        return JsonResponse({"detail": _error_text(form)}, status=UNPROCESSABLE)
    response = HttpResponse(pretty_json(form.document()) + "\n", content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="tank-quick-plan.json"'
    return response


def _label(form: QuickPlanForm) -> str:
    d = form.cleaned_data
    disk = d["disk"] or d["size"]
    return f"{d['vdevs']} × {d['layout']} of {d['disks']} × {disk}"


def _error_text(form: QuickPlanForm) -> str:
    return " ".join(
        f"{form.fields[f].label if f in form.fields else ''}: {' '.join(e)}".lstrip(": ")
        for f, e in form.errors.items()
    )


@login_required
@require_http_methods(["GET", "POST"])
def quick_plan_save(request: HttpRequest) -> HttpResponse:
    """GET: what will be saved, and where (after logging in or signing up, from the planner's link).
    POST: the design, in the user's first writable team or their personal team; then the designer."""
    data = form_data(request.POST if request.method == "POST" else request.GET, unit=request_unit(request))
    form = QuickPlanForm({k: v for k, v in data.items() if k in FIELDS})
    result = _answer_or_errors(form)
    back = f"{reverse('plans:quick-plan')}?{canonical_query(data)}"
    if result is None:
        messages.error(request, "The pool can't be saved as it is: fix the fields marked below.")
        return redirect(back)
    team = writable_teams(request.user).order_by("name", "pk").first()
    if request.method == "GET":
        context = {**_context(form, result, data), "team": team, "back_url": back}
        return render(request, "plans/quick_plan_save.html", context)
    team = team or personal_team(request.user)
    design = save_design_document(team, result.document, request.user, summary="from the quick planner")
    messages.success(request, f"Design {design.name} saved in {team.name}. Add vdevs and datasets below.")
    return redirect("plans:designer", pk=design.pk)
