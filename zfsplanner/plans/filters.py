"""FilterSets shared by the HTML pages and the API (NetBox style)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet

from zfsplanner.accounts.models import Team

from .choices import OPENZFS_SERIES_CHOICES, Media
from .models import CatalogDisk, PoolDesign


def _user_teams(request: Any) -> QuerySet[Team]:
    """Only the requester's teams are offered (and accepted) as a filter value."""
    if request is None:
        return Team.objects.none()
    return Team.objects.for_user(request.user)


class PoolDesignFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Name contains")
    team = django_filters.ModelChoiceFilter(queryset=_user_teams)
    openzfs_version = django_filters.ChoiceFilter(
        choices=OPENZFS_SERIES_CHOICES, method="in_series", label="OpenZFS version"
    )

    class Meta:
        model = PoolDesign
        fields = ["q", "team", "openzfs_version"]

    def in_series(self, queryset: QuerySet[PoolDesign], name: str, value: str) -> QuerySet[PoolDesign]:
        """Designs of a series: named by the series ("2.3") or by one of its releases ("2.3.9")."""
        return queryset.filter(Q(openzfs_version=value) | Q(openzfs_version__startswith=f"{value}."))

    def search(self, queryset: QuerySet[PoolDesign], name: str, value: str) -> QuerySet[PoolDesign]:
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(name__icontains=value) | Q(description__icontains=value))


class CatalogDiskFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Vendor or model contains")
    media = django_filters.ChoiceFilter(choices=Media.choices)
    plp = django_filters.BooleanFilter()
    min_capacity_bytes = django_filters.NumberFilter(field_name="capacity_bytes", lookup_expr="gte")

    class Meta:
        model = CatalogDisk
        fields = ["q", "media", "plp", "vendor", "logical_sector_bytes", "physical_sector_bytes"]

    def search(self, queryset: QuerySet[CatalogDisk], name: str, value: str) -> QuerySet[CatalogDisk]:
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(vendor__icontains=value) | Q(model__icontains=value) | Q(name__icontains=value))
