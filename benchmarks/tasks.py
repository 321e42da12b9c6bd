"""The task that parses one benchmark log (the upload lifecycle: :mod:`zfsplanner.uploads.tasks`)."""

from __future__ import annotations

from zfsplanner.uploads.tasks import upload_task

from . import services
from .models import BENCHMARK_LOGS, BenchUpload


@upload_task(BENCHMARK_LOGS)
def parse_upload_task(upload: BenchUpload) -> None:
    """Parse a benchmark log: done, partly read or failed with the parser's message."""
    services.parse_upload(upload)
