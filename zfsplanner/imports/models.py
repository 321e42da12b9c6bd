"""What users bring from their real systems.

* :class:`PoolImport`: the outputs of ``zpool status`` & co. pasted or uploaded, the design
  the importer made of them (with what the pool reported), and the design it was saved as.
  The outputs are stored on the row first, then read while the user waits (they are small,
  and the preview is needed at once); outputs that cannot be read stay stored with the reason
  (failed) and are read again on request. The lifecycle is the uploads' (kind ``POOL_OUTPUTS``):
  an import whose request died before it was read is read by a worker after the sweep.
* :class:`HistogramUpload`: a file listing (``find``, ``du -ab``, ``size,count`` CSV) or a
  ``zdb -Lbbbs`` dump for one dataset of a design. It can be hundreds of megabytes, so it
  is stored byte for byte first and bucketed by a Celery worker (pending -> parsing ->
  done/failed, with progress); when done, the dataset's contents get the histogram (a new
  revision of the design). A failed or outdated upload can be bucketed again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from zfsplanner.accounts.models import OwnerScopedQuerySet, Team, TeamScopedQuerySet
from zfsplanner.plans.models import PoolDesign
from zfsplanner.uploads.kinds import UploadKind
from zfsplanner.uploads.models import UploadLifecycle
from zfsplanner.uploads.text import TextRule


class PoolImportQuerySet(OwnerScopedQuerySet["PoolImport"]):
    """A preview belongs to whoever made it (their teams see the design once it is saved)."""

    owner_field = "created_by"


class PoolImportStatus(models.TextChoices):
    PENDING = "pending", "Stored, not read yet"
    PARSING = "parsing", "Reading"
    DONE = "done", "Read"
    FAILED = "failed", "Could not be read"


class DesignLink(models.TextChoices):
    """How an import is tied to its design: made into it, or sent for one that already existed."""

    SAVED = "saved", "Saved as this design"
    ATTACHED = "attached", "Sent for this design (collect.sh --design)"


class PoolImport(UploadLifecycle):
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sources = models.JSONField(default=list, help_text='[{"name": ..., "text": ...}]: what was pasted or uploaded.')
    pool = models.CharField(max_length=255, blank=True, help_text="The pool to import when the outputs show several.")
    status = models.CharField(max_length=10, choices=PoolImportStatus.choices, default=PoolImportStatus.PENDING)
    document = models.JSONField(
        default=dict, blank=True,
        help_text="The design the importer made (zfsplanner.design/1, with 'imported'); empty until read.",
    )
    error_line = models.PositiveIntegerField(null=True, blank=True)
    error_source = models.CharField(max_length=255, blank=True, help_text="The output (file or paste) the error is in.")
    error_format = models.CharField(max_length=32, blank=True, help_text="What it was read as (zpool status, ...).")
    design = models.ForeignKey(PoolDesign, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    design_link = models.CharField(max_length=10, choices=DesignLink.choices, blank=True,
                                   help_text="Whether the design was made from the import or the import sent for it.")

    objects = PoolImportQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"import {self.pk}: {self.document.get('name') or self.pool or 'pool'} ({self.status})"

    @property
    def is_read(self) -> bool:
        """The outputs were read: the preview holds the design."""
        return self.status == PoolImportStatus.DONE

    @classmethod
    def failed(cls, pk: int) -> None:
        cls.objects.filter(pk=pk).update(document={})  # a design from an earlier read is no longer what they say


class HistogramStatus(models.TextChoices):
    PENDING = "pending", "Queued"
    PARSING = "parsing", "Bucketing"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


FINISHED = (HistogramStatus.DONE, HistogramStatus.FAILED)


class HistogramFormat(models.TextChoices):
    AUTO = "auto", "Detect"
    SIZES = "sizes", "Sizes, one per line (find -printf '%s\\n')"
    DU = "du", "Size and path (du -ab, find -printf '%s %p\\n')"
    CSV = "csv", "size,count CSV"
    ZDB = "zdb", "zdb -Lbbbs block histogram"


def histogram_path(instance: HistogramUpload, filename: str) -> str:
    """Stored by team and content hash, never by the client's file name."""
    return f"histograms/{instance.team_id}/{instance.sha256[:2]}/{instance.sha256}"


class HistogramUploadQuerySet(TeamScopedQuerySet["HistogramUpload"]):
    """The histograms of the teams ``user`` belongs to."""


class HistogramUpload(UploadLifecycle):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="histogram_uploads")
    design = models.ForeignKey(PoolDesign, on_delete=models.CASCADE, related_name="histogram_uploads")
    dataset = models.CharField(max_length=255, help_text="The dataset of the design whose contents it describes.")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    file = models.FileField(upload_to=histogram_path, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.BigIntegerField(help_text="Bytes stored.")
    sha256 = models.CharField(max_length=64)
    format = models.CharField(max_length=8, choices=HistogramFormat.choices, default=HistogramFormat.AUTO)
    detected_format = models.CharField(max_length=8, blank=True)
    status = models.CharField(max_length=10, choices=HistogramStatus.choices, default=HistogramStatus.PENDING)
    error_line = models.PositiveIntegerField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="The bucketed histogram (manage.py histogram's JSON).")
    applied_revision = models.PositiveIntegerField(
        null=True, blank=True, help_text="The design revision that took the histogram into the dataset's contents."
    )

    objects = HistogramUploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.original_name} for {self.dataset} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED


# File listings are stored as they stream in, up to IMPORT_UPLOAD_MAX_BYTES, and bucketed by a worker.
FILE_LISTINGS = UploadKind(
    name="file listings",
    model=HistogramUpload,
    setting="IMPORT_UPLOAD_MAX_BYTES",
    default_max_bytes=4 * 1000 * 1000 * 1000,
    spool_subdir="histograms",
    prefix="listing-",
    text=TextRule.LINES,  # the paths are the file system's bytes; no NUL
    chunk_size=1024 * 1024,
    running=HistogramStatus.PARSING,
    noun="listing",
    verb="bucketing",
    done="bucketed",
    reset=(("error_line", None),),
)


# Pool outputs are stored on the import row and read while the request waits (a worker reads
# one whose request died); each file streams in up to POOL_IMPORT_MAX_BYTES, and so do all of them.
POOL_OUTPUTS = UploadKind(
    name="pool outputs",
    model=PoolImport,
    setting="POOL_IMPORT_MAX_BYTES",
    default_max_bytes=4 * 1024 * 1024,
    spool_subdir="pool-imports",
    prefix="outputs-",
    text=TextRule.UTF8,
    chunk_size=64 * 1024,
    running=PoolImportStatus.PARSING,
    noun="import",
    verb="reading the outputs",
    done="read",
    reset=(("error_line", None), ("error_source", ""), ("error_format", "")),
    too_large_hint="The outputs of a pool are a few kilobytes to a few megabytes: is it the right file?",
)
