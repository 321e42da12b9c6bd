from typing import Any

from django.contrib import admin, messages

from . import services
from .models import BenchResult, BenchRun, BenchSeries, BenchUpload, UploadStatus


@admin.action(description="Re-parse the selected uploads (their stored bytes, with the current parsers)")
def reparse_selected(modeladmin: Any, request: Any, queryset: Any) -> None:
    result = services.reparse_uploads(queryset)
    modeladmin.message_user(request, f"{result.queued} upload(s) queued for parsing again.", messages.SUCCESS)
    if result.busy:
        modeladmin.message_user(request, f"{result.busy} upload(s) are being parsed right now.", messages.WARNING)


@admin.action(description="Re-parse all failed uploads (not only the selected ones)")
def reparse_all_failed(modeladmin: Any, request: Any, queryset: Any) -> None:
    reparse_selected(modeladmin, request, BenchUpload.objects.filter(status=UploadStatus.FAILED))


@admin.register(BenchUpload)
class BenchUploadAdmin(admin.ModelAdmin):
    list_display = ["id", "original_name", "team", "status", "progress", "detected_format", "attempts", "created"]
    list_filter = ["status", "team", "detected_format"]
    search_fields = ["original_name", "sha256", "error"]
    readonly_fields = ["sha256", "size", "created", "updated", "started", "finished", "task_id"]
    actions = [reparse_selected, reparse_all_failed]


class BenchResultInline(admin.TabularInline):
    model = BenchResult
    extra = 0
    fields = ["index", "name", "bandwidth_bytes_per_s", "iops", "latency_mean_us", "latency_max_us", "ops_per_s"]


@admin.register(BenchRun)
class BenchRunAdmin(admin.ModelAdmin):
    list_display = ["id", "label", "team", "tool", "tool_version", "target", "created"]
    readonly_fields = ["warnings"]
    list_filter = ["team", "tool", "target_kind"]
    search_fields = ["label", "target", "upload__original_name"]
    raw_id_fields = ["upload", "design", "catalog_disk"]
    inlines = [BenchResultInline]


@admin.register(BenchSeries)
class BenchSeriesAdmin(admin.ModelAdmin):
    list_display = ["id", "run", "name", "metric", "unit", "point_count"]
    exclude = ["points"]
