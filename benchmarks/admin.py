from django.contrib import admin

from .models import BenchResult, BenchRun, BenchSeries, BenchUpload


@admin.register(BenchUpload)
class BenchUploadAdmin(admin.ModelAdmin):
    list_display = ["id", "original_name", "team", "status", "progress", "detected_format", "attempts", "created"]
    list_filter = ["status", "team", "detected_format"]
    search_fields = ["original_name", "sha256", "error"]
    readonly_fields = ["sha256", "size", "created", "updated", "started", "finished", "task_id"]


class BenchResultInline(admin.TabularInline):
    model = BenchResult
    extra = 0
    fields = ["index", "name", "bandwidth_bytes_per_s", "iops", "latency_mean_us", "latency_max_us", "ops_per_s"]


@admin.register(BenchRun)
class BenchRunAdmin(admin.ModelAdmin):
    list_display = ["id", "label", "team", "tool", "tool_version", "target", "created"]
    list_filter = ["team", "tool", "target_kind"]
    search_fields = ["label", "target", "upload__original_name"]
    raw_id_fields = ["upload", "design", "catalog_disk"]
    inlines = [BenchResultInline]


@admin.register(BenchSeries)
class BenchSeriesAdmin(admin.ModelAdmin):
    list_display = ["id", "run", "name", "metric", "unit", "point_count"]
    exclude = ["points"]
