"""The task that buckets one file listing (the upload lifecycle: :mod:`zfsplanner.uploads.tasks`)."""

from __future__ import annotations

from zfsplanner.uploads.tasks import upload_task

from . import services
from .models import FILE_LISTINGS, HistogramUpload


@upload_task(FILE_LISTINGS)
def bucket_histogram_task(upload: HistogramUpload) -> None:
    """Bucket a file listing and put the histogram into its dataset: done, or failed naming the line."""
    services.bucket_histogram(upload)
