"""The quick planner at ``/plan/``: an estimate from one short form, with no account.

The query string is the state (``/plan/?layout=raidz2&disks=8&vdevs=1&size=16TB&version=2.4``):
one URL serves the whole page and, to htmx, the ``update`` partial (the results and the
field messages), and each answer tells the browser the canonical URL to show
(``HX-Replace-Url``), so a link reproduces it. Nothing is written and no task runs: the
parameters become a document (``forms.quick.quick_document``) that is estimated as
``POST /api/estimate/`` estimates one (``estimate_with_catalog(validate_document(doc))``).

Requests count against the ``estimate`` rate, like the estimate API. An estimate is cached
per document and the rendered page per parameter set (``page_cache``; cache keys carry the
build). "Save as a design" stores the same document in the user's first writable team (a
personal team for a newcomer) after logging in, and opens the designer; the unit the plan was read in
becomes the account's. Signing up from that link saves the plan at sign-up (``plans.signup``), and the
link then opens the saved design instead of saving it twice.
The answer and the page itself are built in ``presentation.quick`` (the home page shows it too).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from zfsplanner.accounts.models import Team, keep_unit, request_unit
from zfsplanner.accounts.services import personal_team
from zfsplanner.web.throttling import page_throttled

from ..forms.quick import FIELDS, QuickPlanForm, canonical_query, form_data
from ..presentation.pages import pretty_json
from ..presentation.quick import UNPROCESSABLE, answer_or_errors, page_context
from ..presentation.summary import breakdown_chart
from ..services.designs import save_design_document, saved_unchanged
from .responses import quick_plan_page


@transaction.non_atomic_requests  # reads only
@require_http_methods(["GET"])
def quick_plan(request: HttpRequest) -> HttpResponse:
    """The planner: the form and its estimate (the whole page, or the ``update`` partial for htmx)."""
    return page_throttled(request, "estimate") or quick_plan_page(request)


@transaction.non_atomic_requests
@require_http_methods(["GET"])
def quick_plan_chart(request: HttpRequest) -> JsonResponse:
    """Where the raw capacity goes (the designer's breakdown chart), for the same query string."""
    throttled = page_throttled(request, "estimate")
    if throttled is not None:
        return throttled  # type: ignore[return-value]
    form = QuickPlanForm(form_data(request.GET, unit=request_unit(request)))
    result = answer_or_errors(form)
    if result is None:
        return JsonResponse({"detail": _error_text(form)}, status=UNPROCESSABLE)
    # The bar's name says the whole pool; on a phone it breaks into lines instead of being cut off.
    return JsonResponse({**breakdown_chart([(_label(form), result.summary)]), "wrap_labels": BAR_LABEL_LINE})


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


BAR_LABEL_LINE = 22  # characters per line of the bar's name


def _label(form: QuickPlanForm) -> str:
    """The bar's name: the whole pool it measures, the special and log mirrors too when there are."""
    d = form.cleaned_data
    disk = d["disk"] or d["size"]
    parts = [f"{d['vdevs']} × {d['layout']} of {d['disks']} × {disk}"]
    if d.get("special"):
        parts.append(f"special mirror of {d['special']}")
    if d.get("slog"):
        parts.append(f"SLOG mirror of {d['slog']}")
    return " + ".join(parts)


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
    result = answer_or_errors(form)
    back = f"{reverse('plans:quick-plan')}?{canonical_query(data)}"
    if result is None:
        messages.error(request, "The pool can't be saved as it is: fix the fields marked below.")
        return redirect(back)
    team = Team.objects.writable_by(request.user).order_by("name", "pk").first()
    if request.method == "GET":
        kept = saved_unchanged(request.user, form.document())
        if kept is not None:  # saved already: when the account was made (signup), or by this link before
            messages.info(request, f"This plan is saved as design {kept.name} in {kept.team.name}.")
            return redirect("plans:designer", pk=kept.pk)
        context = {**page_context(form, result, data), "team": team, "back_url": back}
        return render(request, "plans/quick_plan_save.html", context)
    team = team or personal_team(request.user)
    design = save_design_document(team, form.document(), request.user, summary="from the quick planner")
    keep_unit(request.user, str(data["unit"]))  # the designer shows the sizes in the unit the plan was read in
    messages.success(request, f"Design {design.name} saved in {team.name}. Add vdevs and datasets below.")
    return redirect("plans:designer", pk=design.pk)
