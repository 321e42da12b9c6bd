"""A sample of data stored to measure how ZFS would compress it, and the measurement.

The sample is kept as uploaded (with its sha256) until its owner deletes it, so a
measurement can be repeated with other settings. The result is the
``zfsplanner.compression/1`` document of ``manage.py measure_compression``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from zfsplanner.accounts.models import OwnerScopedQuerySet
from zfsplanner.plans.choices import DEFAULT_OPENZFS_VERSION
from zfsplanner.uploads.kinds import UploadKind
from zfsplanner.uploads.models import UploadLifecycle
from zfsplanner.uploads.text import TextRule


class SampleStatus(models.TextChoices):
    PENDING = "pending", "Queued"
    MEASURING = "measuring", "Measuring"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


FINISHED = (SampleStatus.DONE, SampleStatus.FAILED)


def sample_path(instance: CompressionSample, filename: str) -> str:
    """Stored name: by owner and a random id, never the client's file name."""
    return f"compression/{instance.owner_id}/{instance.uid}"


class CompressionSampleQuerySet(OwnerScopedQuerySet["CompressionSample"]):
    """The samples ``user`` may see: their own."""

    owner_field = "owner"


class CompressionSample(UploadLifecycle):
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="compression_samples")
    file = models.FileField(upload_to=sample_path, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.BigIntegerField(help_text="Bytes stored.")
    sha256 = models.CharField(max_length=64)
    algorithms = models.JSONField(default=list, help_text="As given: lz4, zstd, zstd-7, gzip-9 ...")
    recordsizes = models.JSONField(default=list, help_text="Bytes.")
    ashift = models.PositiveSmallIntegerField(default=12)
    openzfs_version = models.CharField(max_length=8, default=DEFAULT_OPENZFS_VERSION)  # a series or a release
    status = models.CharField(max_length=10, choices=SampleStatus.choices, default=SampleStatus.PENDING)
    result = models.JSONField(null=True, blank=True, help_text="The zfsplanner.compression/1 document.")

    objects = CompressionSampleQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED


# A sample larger than COMPRESSION_INLINE_MAX_BYTES is measured by a worker; up to
# COMPRESSION_UPLOAD_MAX_BYTES. A large sample takes a while: every recordsize reads the file once
# and every algorithm compresses every block (about 100 MB/s for lz4, 30-60 MB/s for zstd-3 per core).
COMPRESSION_SAMPLES = UploadKind(
    name="compression samples",
    model=CompressionSample,
    setting="COMPRESSION_UPLOAD_MAX_BYTES",
    default_max_bytes=4 * 1024**3,
    spool_subdir="compression",
    prefix="sample-",
    text=TextRule.BINARY,  # any bytes: how they compress is the question
    chunk_size=1024 * 1024,
    running=SampleStatus.MEASURING,
    noun="sample",
    verb="measuring",
    done="measured",
    time_limit=6 * 3600,
)
