"""Benchmark logs are stored as they stream in, up to ``BENCHMARK_UPLOAD_MAX_BYTES``.

The mechanism is :mod:`zfsplanner.uploads`; this module is this app's limit and spool folder.
"""

from __future__ import annotations

from django.http import HttpRequest

from zfsplanner import uploads
from zfsplanner.uploads import discard

POLICY = uploads.UploadPolicy("BENCHMARK_UPLOAD_MAX_BYTES", 200 * 1000 * 1000, "benchmarks", "upload-", 256 * 1024)

__all__ = [
    "POLICY",
    "UploadTooLarge",
    "check_content_length",
    "discard",
    "install_upload_handler",
    "max_upload_bytes",
]


UploadTooLarge = uploads.UploadTooLarge  # what the handler raises, whichever app installed it


def max_upload_bytes() -> int:
    return POLICY.max_bytes()


def check_content_length(request: HttpRequest) -> None:
    uploads.check_content_length(request, POLICY)


def install_upload_handler(request: HttpRequest) -> None:
    uploads.install_upload_handler(request, POLICY)
