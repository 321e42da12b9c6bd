"""Schemas of the compression API (for the OpenAPI document; the views build the JSON)."""

from __future__ import annotations

from rest_framework import serializers

from zfsplanner.core.geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE
from zfsplanner.core.units import format_zfs_size
from zfsplanner.core.versions import default_version
from zfsplanner.plans.choices import OPENZFS_VERSION_NAMES


class MeasureRequestSerializer(serializers.Serializer):
    """One or more sample files and how to compress them (multipart/form-data)."""

    file = serializers.ListField(
        child=serializers.FileField(allow_empty_file=False), help_text="The sample file(s); repeat the field."
    )
    algorithms = serializers.CharField(
        required=False,
        default="lz4,zstd",
        help_text="Comma list: lz4, zstd, zstd-7, zstd-fast-1, gzip-9, zle, lzjb, on.",
    )
    recordsize = serializers.CharField(
        required=False, default=format_zfs_size(DEFAULT_RECORDSIZE), help_text="Comma list: 128K,1M."
    )
    ashift = serializers.IntegerField(required=False, default=12, min_value=ASHIFT_MIN, max_value=ASHIFT_MAX)
    openzfs_version = serializers.ChoiceField(choices=OPENZFS_VERSION_NAMES, required=False, default=default_version)


class ResultSerializer(serializers.Serializer):
    algorithm = serializers.CharField(help_text="As ZFS resolves it: zstd -> zstd-3.")
    setting = serializers.CharField(help_text="As given.")
    recordsize = serializers.IntegerField()
    logical_bytes = serializers.IntegerField(help_text="The files' own sizes.")
    stored_bytes = serializers.IntegerField(help_text="What du -B1 on ZFS would count.")
    compressratio = serializers.FloatField(help_text="As zfs get compressratio prints it (truncated).")
    compressratio_exact = serializers.FloatField()
    throughput_bytes_per_s = serializers.IntegerField(allow_null=True)
    method = serializers.ChoiceField(choices=["exact", "approximate"])
    block_size_histogram = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class FileResultSerializer(serializers.Serializer):
    path = serializers.CharField()
    size_bytes = serializers.IntegerField()
    results = ResultSerializer(many=True)


class TotalSerializer(serializers.Serializer):
    files = serializers.IntegerField()
    results = ResultSerializer(many=True)


class MeasurementSerializer(serializers.Serializer):
    """The zfsplanner.compression/1 document (as manage.py measure_compression prints it)."""

    format = serializers.CharField()
    openzfs_version = serializers.CharField()
    ashift = serializers.IntegerField()
    files = FileResultSerializer(many=True)
    total = TotalSerializer()
    notes = serializers.ListField(child=serializers.CharField())


class SampleSerializer(serializers.Serializer):
    """A stored sample measured by a worker: poll ``url`` until ``status`` is done or failed."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    file = serializers.CharField()
    size_bytes = serializers.IntegerField()
    sha256 = serializers.CharField()
    algorithms = serializers.ListField(child=serializers.CharField())
    recordsizes = serializers.ListField(child=serializers.IntegerField())
    ashift = serializers.IntegerField()
    openzfs_version = serializers.CharField()
    status = serializers.CharField(help_text="pending, measuring, done or failed.")
    progress = serializers.IntegerField()
    error = serializers.CharField()
    result = MeasurementSerializer(allow_null=True)
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
