from django.contrib import admin

from .models import CompressionSample


@admin.register(CompressionSample)
class CompressionSampleAdmin(admin.ModelAdmin):
    list_display = ["original_name", "owner", "size", "status", "progress", "created"]
    list_filter = ["status", "openzfs_version"]
    readonly_fields = ["uid", "sha256", "result", "task_id", "attempts", "started", "finished"]
