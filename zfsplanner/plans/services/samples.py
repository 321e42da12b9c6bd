"""Measuring compression on an uploaded sample: the upload handler, input checks, the result as JSON.

The sample is read from the request as it arrives and kept in memory only up to
``COMPRESSION_SAMPLE_MAX_BYTES``: :class:`SampleUploadHandler` drops a larger file at the
first chunk past the limit and flags it, so the view answers 400/422 naming ``file``.
The views install the handler before anything reads the request body.
"""

from __future__ import annotations

import io
import math
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest

from zfsplanner.core.compression.measured import MeasuredCompression, compressed_size, measure_compression
from zfsplanner.core.compression.rules import CompressionError, resolve_algorithm
from zfsplanner.core.units import UnitError, format_iec, format_zfs_size, is_power_of_two, parse_zfs_size
from zfsplanner.core.versions import Version

SAMPLE_FIELD = "file"
MIN_RECORDSIZE = 512
MAX_RECORDSIZE = 16 * 1024 * 1024


class SampleUploadHandler(FileUploadHandler):
    """Keeps the ``file`` part in memory up to ``limit`` bytes; a larger one is skipped and ``too_big`` set."""

    def __init__(self, limit: int, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.limit = limit
        self.too_big = False
        self.buffer = io.BytesIO()

    def new_file(self, field_name: str, *args: Any, **kwargs: Any) -> None:
        super().new_file(field_name, *args, **kwargs)
        if field_name != SAMPLE_FIELD:
            raise SkipFile
        if self.content_length is not None and self.content_length > self.limit:
            self.too_big = True
            raise SkipFile
        self.buffer = io.BytesIO()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if start + len(raw_data) > self.limit:
            self.too_big = True
            self.buffer = io.BytesIO()
            raise SkipFile
        self.buffer.write(raw_data)

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.buffer.seek(0)
        return InMemoryUploadedFile(
            self.buffer, self.field_name, self.file_name, self.content_type, file_size, self.charset
        )


def install_sample_handler(request: HttpRequest) -> SampleUploadHandler:
    """Make ``request`` parse its upload with a :class:`SampleUploadHandler` (before the body is read)."""
    handler = SampleUploadHandler(settings.COMPRESSION_SAMPLE_MAX_BYTES, request)
    request.upload_handlers = [handler]
    return handler


def too_big_message() -> str:
    limit = settings.COMPRESSION_SAMPLE_MAX_BYTES
    return f"the sample is larger than {format_iec(limit)} ({limit:,} bytes); upload a smaller part of the data"


def check_algorithm(value: str, version: str) -> str:
    """The algorithm as ZFS resolves it (``zstd`` -> ``zstd-3``); ``ValueError`` if unknown or not measurable."""
    try:
        algorithm = resolve_algorithm(value.strip() or None, Version.parse(version))
        if algorithm != "off":
            compressed_size(b"zfsplanner sample", algorithm)
    except CompressionError as exc:
        raise ValueError(str(exc)) from exc
    return algorithm


def check_recordsize(value: Any) -> int:
    """Bytes of a ``recordsize`` (``128K``, ``1M`` or a byte count): a power of two from 512 B to 16 MiB."""
    try:
        size = parse_zfs_size(int(value) if isinstance(value, str) and value.strip().isdigit() else value)
    except UnitError as exc:
        raise ValueError(str(exc)) from exc
    if not (MIN_RECORDSIZE <= size <= MAX_RECORDSIZE and is_power_of_two(size)):
        raise ValueError(f"must be a power of two from 512 to 16M, not {value!r}")
    return size


def measure_sample(data: bytes, algorithm: str, recordsize: int, ashift: int, version: str) -> dict[str, Any]:
    return measurement_document(measure_compression(data, algorithm, recordsize, ashift, Version.parse(version)))


def compressor_ratio(m: MeasuredCompression) -> float:
    """Input / compressor output before sector rounding, floored to hundredths (at least 1.00).

    This is the ``ratio`` a design's ``contents.compressibility`` takes: the estimate
    applies ZFS's acceptance and rounding rules to it itself (docs/datasets.md).
    """
    if m.raw_fraction <= 0 or m.raw_fraction >= 1:
        return 1.0
    return max(1.0, math.floor(100 / m.raw_fraction) / 100)


def measurement_document(m: MeasuredCompression) -> dict[str, Any]:
    """The measurement as JSON: every field of :class:`MeasuredCompression`, plus ``compressor_ratio``."""
    out = asdict(m)
    out["psize_histogram"] = [{"psize_bytes": psize, "blocks": n} for psize, n in m.psize_histogram]
    out["recordsize_text"] = str(format_zfs_size(m.recordsize))
    out["compressor_ratio"] = compressor_ratio(m)
    out["data_blocks"] = m.blocks - m.hole_blocks
    return out
