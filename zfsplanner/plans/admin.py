from django.contrib import admin

from .models import CatalogDisk, DatasetPlan, PoolDesign, VdevGroup


@admin.register(CatalogDisk)
class CatalogDiskAdmin(admin.ModelAdmin):
    list_display = [
        "vendor", "model", "name", "capacity_bytes", "sector_format", "media", "rpm", "plp",
        "price", "price_date", "afr",
    ]
    list_filter = ["vendor", "media", "plp", "logical_sector_bytes"]
    search_fields = ["vendor", "model", "name"]
    fieldsets = [
        (None, {"fields": ["vendor", "model", "name", "datasheet_url", "notes"]}),
        ("Capacity and sectors", {"fields": ["capacity_bytes", "logical_sector_bytes", "physical_sector_bytes"]}),
        ("Kind", {"fields": ["media", "rpm", "plp", "watts"]}),
        ("Price (layout advisor: cost per usable TB)",
         {"fields": ["price", "price_currency", "price_date", "price_source", "price_note"]}),
        ("Reliability and speed (blank: the media-class default)",
         {"fields": ["afr", "afr_source", "seq_read_bytes_per_s", "seq_write_bytes_per_s",
                     "random_read_iops", "random_write_iops"]}),
    ]


class VdevGroupInline(admin.TabularInline):
    model = VdevGroup
    extra = 0
    fields = ["position", "role", "layout", "width", "count", "ashift", "catalog_disk", "disks", "extra"]
    readonly_fields = fields
    can_delete = False


class DatasetPlanInline(admin.TabularInline):
    model = DatasetPlan
    extra = 0
    fields = ["position", "name", "type", "recordsize", "volblocksize", "compression", "special_small_blocks"]
    readonly_fields = fields
    can_delete = False


@admin.register(PoolDesign)
class PoolDesignAdmin(admin.ModelAdmin):
    """Read-mostly: a design is changed as a whole document (pages, API), which keeps it valid."""

    list_display = ["name", "team", "openzfs_version", "revision", "updated", "updated_by"]
    list_filter = ["team", "openzfs_version"]
    search_fields = ["name", "description", "team__name"]
    inlines = [VdevGroupInline, DatasetPlanInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
