from django.contrib import admin

from .models import HistogramUpload, PoolImport


@admin.register(PoolImport)
class PoolImportAdmin(admin.ModelAdmin):
    list_display = ("pk", "created_by", "pool", "status", "design", "created")
    list_filter = ("status",)
    readonly_fields = ("created", "updated", "started", "finished")


@admin.register(HistogramUpload)
class HistogramUploadAdmin(admin.ModelAdmin):
    list_display = ("pk", "original_name", "design", "dataset", "status", "progress", "created")
    list_filter = ("status",)
    readonly_fields = ("created", "updated", "started", "finished")
