"""HTML pages: the runs list with uploads, upload status (polled), run detail, edit and delete, compare."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from zfsplanner.accounts.models import Team
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import UploadTooLarge, check_content_length, install_upload_handler
from zfsplanner.uploads.text import UploadRefused
from zfsplanner.web.htmx import htmx_partial
from zfsplanner.web.throttling import page_throttled

from . import charts, services
from .access import get_run_for_user, get_upload_for_user, parse_run_ids, runs_for_user
from .filters import BenchRunFilterSet
from .forms import RunForm, UploadForm
from .models import (
    BENCHMARK_LOGS,
    CHECK_REASON_MAX_LENGTH,
    LABEL_MAX_LENGTH,
    PARSED_STATUSES,
    TARGET_MAX_LENGTH,
    BenchRun,
    BenchUpload,
)
from .presentation import meta_rows
from .repeats import changes_of, comparable_runs, repeat_figures, repeats_of
from .run_settings import describe_run_settings
from .validity import run_validity

LIST_LIMIT = 200
# Filters offered above the runs list and on the compare page (all of them work in the API too).
LIST_FILTERS = ("q", "status", "tool", "target_kind", "sync", "zil")
COMPARE_FILTERS = ("q", "team", "tool", "target_kind", "sync", "zil", "slog_device", "compression", "recordsize")



def _row_context(request: HttpRequest, upload: BenchUpload, **extra: Any) -> dict[str, Any]:
    return {
        "run": upload.run,
        "writable_team_ids": {upload.team_id} if upload.team.can_write(request.user) else set(),
    } | extra


@login_required
@require_GET
def run_list(request: HttpRequest) -> HttpResponse:
    runs = BenchRun.objects.for_user(request.user).select_related("upload", "team").order_by("-created", "-pk")
    filterset = BenchRunFilterSet(request.GET or None, queryset=runs)
    teams = Team.objects.writable_by(request.user)
    ctx = {
        "filter": filterset,
        "filter_fields": [filterset.form[name] for name in LIST_FILTERS],
        "runs": filterset.qs[:LIST_LIMIT],
        "limit": LIST_LIMIT,
        "form": UploadForm(teams=teams) if teams.exists() else None,
        "writable_team_ids": set(teams.values_list("pk", flat=True)),
        "max_bytes": BENCHMARK_LOGS.max_bytes(),
        "label_max": LABEL_MAX_LENGTH,
        "target_max": TARGET_MAX_LENGTH,
    }
    template = "benchmarks/benchrun_list.html"
    return render(request, template + "#runs-table" if htmx_partial(request) else template, ctx)


@csrf_exempt
@login_required
@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    # The streaming handler must be in place before anything (CSRF included) reads the body.
    install_upload_handler(request, BENCHMARK_LOGS)
    throttled = page_throttled(request, "uploads")
    if throttled is not None:
        return throttled
    try:
        check_content_length(request, BENCHMARK_LOGS)
        return _upload(request)
    except UploadRefused as exc:  # too large or not a log: nothing stored
        return _upload_error(request, str(exc.detail), status=413 if isinstance(exc, UploadTooLarge) else 422)


@csrf_protect
def _upload(request: HttpRequest) -> HttpResponse:
    teams = Team.objects.writable_by(request.user)
    if not teams.exists():
        raise PermissionDenied("Your role in your teams may only read (owners and editors may upload).")
    form = UploadForm(request.POST, request.FILES, teams=teams)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" if k != "__all__" else " ".join(v) for k, v in form.errors.items())
        return _upload_error(request, errors, status=422)
    stored = [
        services.store_upload(team=form.cleaned_data["team"], user=request.user, file=f, run_fields=form.run_fields())
        for f in form.cleaned_data["files"]
    ]
    if not htmx_partial(request):
        for s in stored:
            (messages.warning if s.duplicate else messages.success)(request, s.message)
        return redirect("benchmarks:run-list")
    rows = [_row_context(request, s.upload, duplicate=s.duplicate, message=s.message) for s in stored]
    return render(request, "benchmarks/benchrun_list.html#upload-results", {"rows": rows})


def _upload_error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if not htmx_partial(request):
        messages.error(request, message)
        return redirect("benchmarks:run-list")
    return render(request, "benchmarks/benchrun_list.html#upload-error", {"message": message}, status=status)


@login_required
@require_GET
def upload_status(request: HttpRequest, pk: int) -> HttpResponse:
    upload, _ = get_upload_for_user(request, pk)
    response = render(request, "benchmarks/benchrun_list.html#run-row", _row_context(request, upload))
    if upload.is_finished:
        response.status_code = HttpResponseStopPolling.status_code
    return response


@login_required
@require_POST
def upload_retry(request: HttpRequest, pk: int) -> HttpResponse:
    upload, can_write = get_upload_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Your role in this team may only read.")
    queued = lifecycle.retry(BENCHMARK_LOGS, upload)
    if not queued:
        messages.warning(request, f"{upload.original_name} is being parsed right now; retry once it has finished.")
    if htmx_partial(request):
        return render(request, "benchmarks/benchrun_list.html#run-row", _row_context(request, upload))
    return redirect("benchmarks:run-detail", upload.run.pk)


@login_required
@require_GET
def upload_download(request: HttpRequest, pk: int) -> FileResponse:
    upload, _ = get_upload_for_user(request, pk)
    return FileResponse(upload.file.open("rb"), as_attachment=True, filename=upload.original_name)


def _available_metrics(chart_runs: list[charts.RunData]) -> list[str]:
    out = []
    for name, m in charts.METRICS.items():
        if any(r.get(m.field) is not None for run in chart_runs for r in run.results):
            out.append(name)
    if any(r.get("latency_percentiles_us") for run in chart_runs for r in run.results):
        out.append("percentiles")
    return out


def _chart_links(ids: list[int], metrics: list[str]) -> list[dict[str, str]]:
    runs_param = ",".join(str(i) for i in ids)
    base, csv = reverse("benchmarks-api:chart"), reverse("benchmarks-api:chart-csv")
    return [
        {
            "metric": m,
            "title": charts.METRICS[m].title if m in charts.METRICS else "Latency percentiles",
            "url": f"{base}?runs={runs_param}&metric={m}",
            "csv": f"{csv}?runs={runs_param}&metric={m}",
        }
        for m in metrics
    ]


@login_required
@require_GET
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run, can_write = get_run_for_user(request, pk)
    data = charts.run_data([run], with_series=False)
    comparable = comparable_runs(run)
    repeats = repeats_of(run, comparable)
    ctx = {
        "run": run,
        "can_write": can_write,
        "settings_rows": describe_run_settings(run.settings or {}),
        "meta_rows": meta_rows(run.meta),
        "results": run.results.all(),
        "series_metrics": sorted(set(run.series.values_list("metric", flat=True))),
        "charts": _chart_links([run.pk], _available_metrics(data)),
        "validity": run_validity(run, repeats=len(repeats)),
        "repeats": repeats if len(repeats) > 1 else [],
        "repeat_figures": repeat_figures(repeats) if len(repeats) > 1 else [],
        "changes": changes_of(run, comparable),
        "reason_max": CHECK_REASON_MAX_LENGTH,
    }
    return render(request, "benchmarks/benchrun_detail.html", ctx)


@login_required
@require_POST
def run_validity_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark the run's validity warnings as checked with a reason (``clear`` undoes it)."""
    run, can_write = get_run_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Your role in this team may only read.")
    if request.POST.get("clear"):
        services.clear_validity_check(run)
        messages.success(request, "The validity warnings count again.")
    else:
        try:
            services.mark_validity_checked(run, request.user, request.POST.get("reason", ""))
            messages.success(request, "Marked as checked: charts no longer mark this run.")
        except services.CheckRefused as exc:
            messages.error(request, f"Not marked: {exc}.")
    return redirect(reverse("benchmarks:run-detail", args=[run.pk]) + "#run-validity")


@login_required
@require_http_methods(["GET", "POST"])
def run_delete(request: HttpRequest, pk: int) -> HttpResponse:
    run, can_write = get_run_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Your role in this team may only read.")
    if request.method == "POST":
        label = run.display_label
        try:
            services.delete_run(run)
        except services.RunBusy as exc:
            messages.error(request, str(exc))
            return redirect("benchmarks:run-detail", run.pk)
        messages.success(request, f"Deleted {label} with its uploaded file.")
        return redirect("benchmarks:run-list")
    return render(request, "benchmarks/benchrun_confirm_delete.html", {"run": run})


@login_required
@require_http_methods(["GET", "POST"])
def run_edit(request: HttpRequest, pk: int) -> HttpResponse:
    run, can_write = get_run_for_user(request, pk)
    if not can_write:
        raise PermissionDenied("Your role in this team may only read.")
    form = RunForm(request.POST or None, instance=run)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, "Run details saved.")
            return redirect("benchmarks:run-detail", run.pk)
        template = (
            "benchmarks/benchrun_form.html#run-form" if htmx_partial(request) else "benchmarks/benchrun_form.html"
        )
        return render(request, template, {"run": run, "form": form}, status=422)
    return render(request, "benchmarks/benchrun_form.html", {"run": run, "form": form})


@login_required
@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    try:
        ids = parse_run_ids(request.GET.getlist("runs"))
    except ValueError as exc:
        messages.error(request, str(exc))
        ids = []
    chosen = runs_for_user(request, ids) if ids else []
    parsed = (
        BenchRun.objects.for_user(request.user)
        .filter(upload__status__in=PARSED_STATUSES)
        .select_related("upload", "team")
        .order_by("-created", "-pk")
    )
    filter_data = request.GET.copy()
    filter_data.pop("runs", None)
    filterset = BenchRunFilterSet(filter_data or None, queryset=parsed)
    candidates = list(filterset.qs[:LIST_LIMIT]) if filterset.is_valid() else list(parsed[:LIST_LIMIT])
    shown = {r.pk for r in candidates}
    data = charts.run_data(chosen, with_series=True)
    series_metrics = sorted({s["metric"] for run in data for s in run.series})
    runs_param = ",".join(str(i) for i in ids)
    ctx = {
        "chosen": chosen,
        "chosen_ids": set(ids),
        # runs already chosen stay listed (and ticked) whatever the filters say
        "candidates": [r for r in chosen if r.pk not in shown] + candidates,
        "filter": filterset,
        "filter_fields": [filterset.form[name] for name in COMPARE_FILTERS],
        "filtered": any(filter_data.get(name) for name in COMPARE_FILTERS),
        "runs_param": runs_param,
        "charts": _chart_links(ids, _available_metrics(data)),
        "series_charts": [
            {
                "metric": m,
                "url": f"{reverse('benchmarks-api:series-compare')}?runs={runs_param}&metric={m}",
                "csv": f"{reverse('benchmarks-api:series-compare-csv')}?runs={runs_param}&metric={m}",
            }
            for m in series_metrics
        ],
        "limit": LIST_LIMIT,
        # runs the charts mark with ⚠, with the codes of their validity warnings
        "warned": [(run, d.warnings) for run, d in zip(chosen, data, strict=True) if d.warnings],
    }
    return render(request, "benchmarks/benchrun_compare.html", ctx)
