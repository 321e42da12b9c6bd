"""One FilterSet for the runs list, shared by the HTML page and the API."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet

from .models import BenchRun, TargetKind, UploadStatus


class NumberInFilter(django_filters.BaseInFilter, django_filters.NumberFilter):
    """``1,2,3``: each item must be a number, so ``?ids=x`` is a 400 naming ``ids``, not a failed query."""


class BenchRunFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    team = django_filters.CharFilter(field_name="team__slug", label="Team (slug)")
    status = django_filters.ChoiceFilter(field_name="upload__status", choices=UploadStatus.choices)
    tool = django_filters.CharFilter(field_name="tool", lookup_expr="iexact")
    target_kind = django_filters.ChoiceFilter(choices=TargetKind.choices)
    design = django_filters.NumberFilter(field_name="design_id")
    catalog_disk = django_filters.NumberFilter(field_name="catalog_disk_id")
    ids = NumberInFilter(field_name="id", label="Run ids (comma-separated)")

    class Meta:
        model = BenchRun
        fields = ["q", "team", "status", "tool", "target_kind", "design", "catalog_disk", "ids"]

    def search(self, queryset: QuerySet[BenchRun], name: str, value: str) -> QuerySet[BenchRun]:
        return queryset.filter(
            Q(label__icontains=value)
            | Q(target__icontains=value)
            | Q(upload__original_name__icontains=value)
            | Q(notes__icontains=value)
        )
