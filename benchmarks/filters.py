"""One FilterSet for the runs list, shared by the HTML pages (list and compare) and the API."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from zfsplanner.core.units import UnitError, parse_zfs_size

from .choices import SyncSetting, ZilLocation
from .models import PARSED_STATUSES, BenchRun, TargetKind, UploadStatus


class IdField(forms.IntegerField):
    """A row id: a whole number a database key can hold, so ``?design=-4e22`` is a 400 naming the field."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class IdFilter(django_filters.NumberFilter):
    field_class = IdField


class NumberInFilter(django_filters.BaseInFilter, django_filters.NumberFilter):
    """``1,2,3``: each item must be a number, so ``?ids=x`` is a 400 naming ``ids``, not a failed query."""


class SizeField(forms.CharField):
    """``128K``, ``1M`` or bytes, as ZFS writes sizes; cleaned to int bytes."""

    def clean(self, value: str | None) -> int | None:  # type: ignore[override]
        value = super().clean(value)
        if not value:
            return None
        try:
            return int(parse_zfs_size(value))
        except (UnitError, TypeError, ValueError) as exc:
            raise forms.ValidationError(f"{value!r} is not a size such as 128K or 131072") from exc


@extend_schema_field(OpenApiTypes.STR)
class SizeFilter(django_filters.Filter):
    """A size in a run's settings (a JSON key, so the schema says its type here)."""

    field_class = SizeField


class BenchRunFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    team = django_filters.CharFilter(field_name="team__slug", label="Team (slug)")
    status = django_filters.ChoiceFilter(field_name="upload__status", choices=UploadStatus.choices, empty_label="any")
    parsed = django_filters.BooleanFilter(method="only_parsed", label="Parsed (done or partly read)")
    tool = django_filters.CharFilter(field_name="tool", lookup_expr="iexact")
    target_kind = django_filters.ChoiceFilter(choices=TargetKind.choices, empty_label="any")
    design = IdFilter(field_name="design_id")
    catalog_disk = IdFilter(field_name="catalog_disk_id")
    sync = django_filters.ChoiceFilter(
        field_name="settings__sync", choices=SyncSetting.choices, label="sync", empty_label="any"
    )
    zil = django_filters.ChoiceFilter(
        field_name="settings__zil", choices=ZilLocation.choices, label="ZIL", empty_label="any"
    )
    slog_device = django_filters.CharFilter(
        field_name="settings__slog_device", lookup_expr="icontains", label="SLOG device"
    )
    compression = django_filters.CharFilter(field_name="settings__compression", lookup_expr="iexact")
    recordsize = SizeFilter(field_name="settings__recordsize_bytes", label="recordsize")
    volblocksize = SizeFilter(field_name="settings__volblocksize_bytes", label="volblocksize")
    ids = NumberInFilter(field_name="id", label="Run ids (comma-separated)")

    class Meta:
        model = BenchRun
        fields = [
            "q",
            "team",
            "status",
            "parsed",
            "tool",
            "target_kind",
            "design",
            "catalog_disk",
            "sync",
            "zil",
            "slog_device",
            "compression",
            "recordsize",
            "volblocksize",
            "ids",
        ]

    def search(self, queryset: QuerySet[BenchRun], name: str, value: str) -> QuerySet[BenchRun]:
        return queryset.filter(
            Q(label__icontains=value)
            | Q(target__icontains=value)
            | Q(upload__original_name__icontains=value)
            | Q(notes__icontains=value)
        )

    def only_parsed(self, queryset: QuerySet[BenchRun], name: str, value: bool | None) -> QuerySet[BenchRun]:
        if value is None:
            return queryset
        parsed = Q(upload__status__in=PARSED_STATUSES)
        return queryset.filter(parsed) if value else queryset.exclude(parsed)
