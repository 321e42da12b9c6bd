"""The task that measures one stored sample (the upload lifecycle: :mod:`zfsplanner.uploads.tasks`)."""

from __future__ import annotations

from zfsplanner.uploads.tasks import upload_task

from . import services
from .models import COMPRESSION_SAMPLES, CompressionSample


@upload_task(COMPRESSION_SAMPLES)
def measure_sample(sample: CompressionSample) -> None:
    """Measure a sample with ZFS's own compressors: done with the result, or failed with the reason."""
    services.measure(sample)
