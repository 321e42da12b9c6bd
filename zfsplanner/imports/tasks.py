"""The tasks that read pool outputs and bucket file listings (the upload lifecycle: :mod:`zfsplanner.uploads.tasks`)."""

from __future__ import annotations

from zfsplanner.uploads.tasks import upload_task

from . import services
from .models import FILE_LISTINGS, POOL_OUTPUTS, HistogramUpload, PoolImport


@upload_task(FILE_LISTINGS)
def bucket_histogram_task(upload: HistogramUpload) -> None:
    """Bucket a file listing and put the histogram into its dataset: done, or failed naming the line."""
    services.bucket_histogram(upload)


@upload_task(POOL_OUTPUTS)
def read_pool_import_task(record: PoolImport) -> None:
    """Read stored pool outputs whose request did not (it died, or they were queued again): done or failed."""
    services.read_pool_import(record)
