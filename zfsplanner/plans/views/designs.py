"""HTML pages: the user's designs, a design with its estimate, create/import/edit/delete.

Every view reaches a design through ``get_design_for_user`` (404 outside the team);
changes need an owner or editor (403 otherwise). htmx requests get the ``results``
partial; invalid input comes back re-rendered with status 422 and nothing saved.
Share links (managed here, opened without login) are in ``sharing.py``; the JSON editor's save
(``design_edit``) is the designer's (``designer.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from zfsplanner.accounts.models import Team, request_unit
from zfsplanner.accounts.services import TeamError, create_team, personal_team, personal_team_name
from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.properties.resolve import block_size, resolve
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_iec, format_zfs_size
from zfsplanner.web.htmx import htmx_partial
from zfsplanner.web.page_cache import PAGE_CACHE_SECONDS, render_cached
from zfsplanner.web.throttling import page_throttled

from ..access import design_state, get_design_for_user, get_writable_design_for_user
from ..choices import DEFAULT_OPENZFS_VERSION, DatasetType
from ..filters import PoolDesignFilterSet
from ..forms.designer import NewDesignForm
from ..forms.designs import (
    CompressionSampleForm,
    DesignDocumentForm,
    DesignImportForm,
    MeasuredRatioForm,
    ShareLinkForm,
)
from ..forms.parts import field_for_path
from ..forms.vdevs import CatalogFilterForm, VdevGroupForm
from ..models import PoolDesign
from ..presentation.pages import (
    UNPROCESSABLE,
    capacity_chart_for,
    data_field_url,
    design_context,
    efficiency_chart_for,
    export_file,
    pretty_json,
    timeline_chart_for,
)
from ..services.designs import (
    apply_measured_ratio,
    design_ashift,
    duplicate_design,
    save_design,
    save_design_document,
)
from ..services.editing import error_text
from ..services.estimates import estimate_or_error, planning_stamp
from ..services.samples import SampleUploadHandler, install_sample_handler, measure_sample
from .responses import chart_response, download_response, quick_plan_page

logger = logging.getLogger(__name__)
NEW_DESIGN_TEMPLATE = {
    "format": "zfsplanner.design/1",
    "name": "tank",
    "openzfs_version": DEFAULT_OPENZFS_VERSION,
    "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "disk": {"catalog": "ST14000NM001G"}}],
    "datasets": [{"name": "tank/data", "recordsize": "1M", "compression": "zstd"}],
}



DESIGNS_PER_PAGE = 50


def _list_estimate(design: PoolDesign) -> Estimate | None:
    """The row's estimate, or None: one design that cannot be estimated never breaks the list."""
    try:
        return estimate_or_error(design)[0]
    except Exception:
        logger.exception("design %s: the estimate failed; listed without its figures", design.pk)
        return None


@transaction.non_atomic_requests  # reads only, like the quick planner it may show
@require_http_methods(["GET"])
def home(request: HttpRequest) -> HttpResponse:
    """The user's designs; the quick planner for a visitor who is not logged in."""
    if not request.user.is_authenticated:
        return page_throttled(request, "estimate") or quick_plan_page(request)
    designs = PoolDesign.objects.for_user(request.user).select_related("team").prefetch_related("vdevs", "datasets")
    filterset = PoolDesignFilterSet(request.GET, queryset=designs, request=request)
    page = Paginator(filterset.qs.order_by("team__name", "name", "pk"), DESIGNS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = [(d, _list_estimate(d)) for d in page.object_list]
    teams = [(t, [r for r in rows if r[0].team_id == t.pk]) for t in Team.objects.for_user(request.user)]
    query = request.GET.copy()
    query.pop("page", None)
    import_form = DesignImportForm(user=request.user, auto_id="import_%s")  # the filter has a team field too
    can_create = import_form.fields["team"].queryset.exists()
    own_team = None if can_create else personal_team_name(request.user)
    _offer_own_team(import_form, own_team)
    context = {
        "teams": teams,
        "page_obj": page,
        "page_query": query.urlencode(),
        "filter": filterset,
        "import_form": import_form,
        "can_create": can_create,
        "own_team": own_team,
    }
    return render(request, "plans/design_list.html", context)


def _own_team_offer(user: Any) -> str | None:
    """The name of the user's own team when they have no team to write to (it is made with their
    first design), else None."""
    return None if Team.objects.writable_by(user).exists() else personal_team_name(user)


def _offer_own_team(form: Any, own_team: str | None) -> None:
    """A user with no team to write to picks their own team, made when the design is saved."""
    if own_team is not None:
        field = form.fields["team"]
        field.required = False
        field.empty_label = f"{own_team} (new)"
        field.help_text = "Your own team, made with the design; invite others to it later, or name a new team."


def _design_team(user: Any, chosen: Team | None, new_team: str = "") -> Team:
    """Where a new design goes: a new team when one is named, else the chosen team, else the user's own."""
    if new_team:
        return create_team(user, new_team)
    return chosen if chosen is not None else personal_team(user)


@login_required
@require_http_methods(["GET", "POST"])
def design_new(request: HttpRequest) -> HttpResponse:
    """A new design from a form (pool name, version, first data vdev group), or from a JSON document."""
    teams = Team.objects.writable_by(request.user)
    own_team = _own_team_offer(request.user)
    data = request.POST if request.method == "POST" else None
    if data is not None and "document" in data:
        return _design_new_json(request, own_team)
    initial = {"team": request.GET.get("team")}
    if data is not None:
        data = data.copy()
        data["first-role"] = "data"  # the first group is the data vdevs; the others come in the designer
    form = NewDesignForm(data, teams=teams, initial=initial)
    _offer_own_team(form, own_team)
    group = VdevGroupForm(data, prefix="first", initial={"role": "data", "layout": "raidz2", "width": 6, "count": 1})
    group.fields["role"].choices = [("data", "data")]
    if data is not None:
        if form.is_valid() and group.is_valid():
            new: Design | None = None
            try:
                new = form.to_design(group.to_group(None, 0))
                with transaction.atomic():  # a team made for the design goes if the design is refused
                    team = _design_team(request.user, form.cleaned_data["team"], form.cleaned_data["new_team"])
                    design = save_design(team, new, request.user)
            except TeamError as exc:
                form.add_error("new_team", f"The team name {exc.message}.")
            except InvalidDesign as exc:
                named: Any = new if new is not None else {"vdevs": [group.read]}
                for path, message in exc.errors:
                    target = field_for_path("vdevs", 0, path)
                    if target in group.fields:
                        group.add_error(target, message)
                    else:
                        form.add_error(
                            "name" if path == "name" else None,
                            message if path == "name" else error_text(named, path, message),
                        )
            else:
                messages.success(
                    request, f"Design {design.name} created. Add special, log and cache vdevs and datasets below."
                )
                return redirect("plans:designer", pk=design.pk)
        status = UNPROCESSABLE
    else:
        status = 200
    json_form = DesignDocumentForm(
        user=request.user,
        initial={"document": pretty_json(NEW_DESIGN_TEMPLATE), "team": request.GET.get("team")},
        auto_id=JSON_FORM_IDS,
    )
    _offer_own_team(json_form, own_team)
    context = {"form": form, "group": group, "filter_form": CatalogFilterForm(), "json_form": json_form}
    return render(request, "plans/design_new.html", context, status=status)


JSON_FORM_IDS = "json_%s"  # the new-design page has two forms with a team field


def _design_new_json(request: HttpRequest, own_team: str | None) -> HttpResponse:
    form = DesignDocumentForm(request.POST, user=request.user, auto_id=JSON_FORM_IDS)
    _offer_own_team(form, own_team)
    if form.is_valid():
        team = _design_team(request.user, form.cleaned_data["team"])
        design = save_design_document(team, form.cleaned_data["document"], request.user)
        messages.success(request, f"Design {design.name} created.")
        return redirect("plans:design-detail", pk=design.pk)
    new_form = NewDesignForm(teams=Team.objects.writable_by(request.user))
    _offer_own_team(new_form, own_team)
    context = {"json_form": form, "form": new_form, "json_open": True}
    context["group"] = VdevGroupForm(prefix="first")
    context["filter_form"] = CatalogFilterForm()
    return render(request, "plans/design_new.html", context, status=UNPROCESSABLE)


@login_required
@require_http_methods(["GET", "POST"])
def design_import(request: HttpRequest) -> HttpResponse:
    form = DesignImportForm(request.POST or None, request.FILES or None, user=request.user)
    _offer_own_team(form, _own_team_offer(request.user))
    if request.method == "POST":
        if form.is_valid():
            team = _design_team(request.user, form.cleaned_data["team"])
            design = save_design_document(team, form.cleaned_data["file"], request.user)
            messages.success(request, f"Imported design {design.name}.")
            return redirect("plans:design-detail", pk=design.pk)
        return render(request, "plans/design_import.html", {"form": form}, status=UNPROCESSABLE)
    return render(request, "plans/design_import.html", {"form": form})


def _detail(request: HttpRequest, design: PoolDesign, can_write: bool) -> HttpResponse:
    """The design page: the summary first, then risks, details, commands, sharing."""
    return render(request, _detail_template(request), _detail_context(design, can_write, request_unit(request)))


def _detail_template(request: HttpRequest) -> str:
    """The whole page, or only its results for an htmx request that swaps them in."""
    if htmx_partial(request):
        return "plans/design_detail.html#results"
    return "plans/design_detail.html"


def _detail_context(design: PoolDesign, can_write: bool, unit: str = DEFAULT_SIZE_UNIT) -> dict[str, Any]:
    return {
        **design_context(design, "plans:chart-capacity", "plans:chart-efficiency", design.pk, unit),
        "can_write": can_write,
        "share_links": list(design.share_links.select_related("created_by")),
        "share_form": ShareLinkForm(),
        "samples": _sample_items(design),
        "sample_limit": format_iec(settings.COMPRESSION_SAMPLE_MAX_BYTES),
        "breakdown_url": reverse("plans:chart-breakdown", args=[design.pk]),
        "data_field_url": data_field_url(design),
    }


def _until_next_expiry(context: dict[str, Any]) -> int:
    """Seconds until the first of the page's share links expires (its state changes then)."""
    now = timezone.now()
    ahead = [link.expires for link in context["share_links"] if link.expires and link.expires > now]
    return int((min(ahead) - now).total_seconds()) if ahead else PAGE_CACHE_SECONDS


def _sample_items(design: PoolDesign) -> list[dict[str, Any]]:
    """One "measure on a sample" form per filesystem dataset, set up with its compression and recordsize."""
    ashift = design_ashift(design)
    try:
        spec: Design | None = design.to_spec()
    except InvalidDesign:
        spec = None
    in_force = {d.name: d for d in spec.datasets} if spec is not None else {}
    items = []
    for index, ds in enumerate(design.datasets.all()):
        if ds.type != DatasetType.FILESYSTEM:
            continue
        core_ds = in_force.get(ds.name)
        initial = {
            "dataset": ds.name,
            # what the dataset writes with: set, inherited from a parent, or the release's default
            "algorithm": resolve(spec, core_ds, "compression").value if spec and core_ds else ds.compression,
            "recordsize": format_zfs_size(block_size(spec, core_ds)) if spec and core_ds else None,
            "ashift": ashift,
            "openzfs_version": design.openzfs_version,
        }
        items.append(
            {"index": index, "ds": ds, "form": CompressionSampleForm(initial=initial, auto_id=f"id_m{index}_%s")}
        )
    return items


@transaction.non_atomic_requests  # reads only: no transaction to open and commit around it
@login_required
@require_http_methods(["GET"])
def design_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Rendered once per revision, share-link state, catalog/benchmark state and visitor, then
    served from the cache (``zfsplanner.web.page_cache``) until one of them changes or the next
    share link expires."""
    state = design_state(request.user, pk)
    if state is None:
        raise Http404("No such design.")

    def context() -> dict[str, Any]:
        design, can_write = get_design_for_user(request, pk)
        return _detail_context(design, can_write, unit)

    unit = request_unit(request)
    key = (state.revision_key, state.team_name, state.can_write, state.share_stamp, planning_stamp(), unit)
    return render_cached(request, _detail_template(request), key, context, timeout=_until_next_expiry)


@login_required
@require_http_methods(["GET", "POST"])
def design_delete(request: HttpRequest, pk: int) -> HttpResponse:
    design = get_writable_design_for_user(request, pk, "delete this design")
    if request.method == "POST":
        name = design.name
        design.delete()
        messages.success(request, f"Deleted design {name}.")
        return HttpResponseClientRedirect(reverse("plans:home")) if request.htmx else redirect("plans:home")
    return render(request, "plans/design_delete.html", {"design": design})


@login_required
@require_http_methods(["GET"])
def design_export(request: HttpRequest, pk: int) -> HttpResponse:
    design, _ = get_design_for_user(request, pk)
    return download_response(export_file(design))


@login_required
@require_http_methods(["GET"])
def chart_capacity(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return chart_response(capacity_chart_for(design))


@login_required
@require_http_methods(["GET"])
def chart_timeline(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return chart_response(timeline_chart_for(design))


@login_required
@require_http_methods(["POST"])
def design_growth_choose(request: HttpRequest, pk: int, index: int) -> HttpResponse:
    """A growth option of the Growth section made into a variant design, shown next to this one in Compare."""
    design = get_writable_design_for_user(request, pk, "create a variant")
    estimate, _ = estimate_or_error(design)
    options = estimate.timeline.options if estimate is not None and estimate.timeline is not None else ()
    if not 0 <= index < len(options):
        raise Http404("No such growth option (the design changed since the page was shown).")
    option = options[index]
    variant = duplicate_design(design, request.user, spec=option.design, why=option.title.lower())
    messages.success(request, f"Created {variant.name}: {option.title.lower()}. Here it is next to {design.name}.")
    url = reverse("plans:design-compare") + f"?ids={design.pk},{variant.pk}"
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_http_methods(["GET"])
def chart_efficiency(request: HttpRequest, pk: int) -> JsonResponse:
    design, _ = get_design_for_user(request, pk)
    return chart_response(efficiency_chart_for(design))


@csrf_exempt
@login_required
@require_http_methods(["POST"])
def design_measure(request: HttpRequest, pk: int) -> HttpResponse:
    """Measure compression on an uploaded sample (streamed, at most COMPRESSION_SAMPLE_MAX_BYTES)."""
    handler = install_sample_handler(request)  # before CSRF or anything else reads the body
    return page_throttled(request, "compression") or _design_measure(request, pk, handler)


@csrf_protect
def _design_measure(request: HttpRequest, pk: int, handler: SampleUploadHandler) -> HttpResponse:
    design, can_write = get_design_for_user(request, pk)
    items = {item["ds"].name: item for item in _sample_items(design)}
    item = items.get(request.POST.get("dataset", ""))
    if item is None:
        raise Http404("The design has no filesystem dataset of that name.")
    auto_id = f"id_m{item['index']}_%s"
    form = item["form"] = CompressionSampleForm(request.POST, request.FILES, too_big=handler.too_big, auto_id=auto_id)
    status = UNPROCESSABLE
    if form.is_valid():
        d = form.cleaned_data
        item["result"] = measure_sample(
            d["file"].read(), d["algorithm"], d["recordsize"], d["ashift"], d["openzfs_version"]
        )
        item["ratio_form"] = MeasuredRatioForm(initial=_ratio_initial(item["ds"].name, item["result"]))
        status = 200
    context = {"design": design, "can_write": can_write, "item": item}
    return render(request, "plans/design_detail.html#measure", context, status=status)


def _ratio_initial(dataset: str, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "ratio": result["compressor_ratio"],
        "algorithm": result["algorithm"],
        "recordsize": result["recordsize"],
    }


@login_required
@require_http_methods(["POST"])
def design_use_ratio(request: HttpRequest, pk: int) -> HttpResponse:
    """Store a measured ratio as the dataset's ``contents.compressibility`` (owners and editors)."""
    design = get_writable_design_for_user(request, pk)
    form = MeasuredRatioForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(form.errors.as_text(), content_type="text/plain")
    d = form.cleaned_data
    try:
        design = apply_measured_ratio(design, d["dataset"], d["ratio"], d["algorithm"], d["recordsize"], request.user)
    except LookupError as exc:
        raise Http404(str(exc)) from exc
    messages.success(request, f"{d['dataset']}: compressibility set to {d['ratio']:.2f}x (revision {design.revision}).")
    if request.htmx:
        return _detail(request, design, can_write=True)
    return redirect("plans:design-detail", pk=design.pk)
