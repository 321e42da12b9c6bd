"""A sample of data stored to measure how ZFS would compress it, and the measurement.

The sample is kept as uploaded (with its sha256) until its owner deletes it, so a
measurement can be repeated with other settings. The result is the
``zfsplanner.compression/1`` document of ``manage.py measure_compression``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models

from zfsplanner.plans.choices import DEFAULT_OPENZFS_VERSION, OpenZFSVersion


class SampleStatus(models.TextChoices):
    PENDING = "pending", "Queued"
    MEASURING = "measuring", "Measuring"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


FINISHED = (SampleStatus.DONE, SampleStatus.FAILED)


def sample_path(instance: CompressionSample, filename: str) -> str:
    """Stored name: by owner and a random id, never the client's file name."""
    return f"compression/{instance.owner_id}/{instance.uid}"


class CompressionSampleQuerySet(models.QuerySet["CompressionSample"]):
    def for_user(self, user: Any) -> CompressionSampleQuerySet:
        """The samples ``user`` may see: their own (the one place sample access is scoped)."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(owner=user)


class CompressionSample(models.Model):
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="compression_samples")
    file = models.FileField(upload_to=sample_path, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.BigIntegerField(help_text="Bytes stored.")
    sha256 = models.CharField(max_length=64)
    algorithms = models.JSONField(default=list, help_text="As given: lz4, zstd, zstd-7, gzip-9 ...")
    recordsizes = models.JSONField(default=list, help_text="Bytes.")
    ashift = models.PositiveSmallIntegerField(default=12)
    openzfs_version = models.CharField(max_length=4, choices=OpenZFSVersion.choices, default=DEFAULT_OPENZFS_VERSION)
    status = models.CharField(max_length=10, choices=SampleStatus.choices, default=SampleStatus.PENDING)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0-100 while measuring.")
    error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True, help_text="The zfsplanner.compression/1 document.")
    task_id = models.CharField(max_length=64, blank=True, help_text="The task that holds the claim.")
    attempts = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = CompressionSampleQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED
