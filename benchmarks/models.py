"""Uploaded benchmark logs, the runs they describe and the normalized results.

An upload is stored byte for byte (with its sha256) before anything reads it, so a
failed parse, or a parser fixed later, can always re-read the same bytes. One upload
is one run; the run carries what was measured and under which settings, the result
rows carry one test each (``BenchResult``) and fio logs add time series (``BenchSeries``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone

from zfsplanner.accounts.models import Team, TeamScopedQuerySet
from zfsplanner.uploads.kinds import UploadKind
from zfsplanner.uploads.models import UploadLifecycle
from zfsplanner.uploads.text import TextRule

from .run_settings import settings_text, short_settings


class UploadStatus(models.TextChoices):
    PENDING = "pending", "Queued"
    PARSING = "parsing", "Parsing"
    DONE = "done", "Done"
    PARTIAL = "partial", "Partly read"  # parsed, but the log lacks something (see BenchRun.warnings)
    FAILED = "failed", "Failed"


FINISHED_STATUSES = (UploadStatus.DONE, UploadStatus.PARTIAL, UploadStatus.FAILED)
# Statuses whose run has results to show and compare.
PARSED_STATUSES = (UploadStatus.DONE, UploadStatus.PARTIAL)

# Length limits of what users type about a run (forms, API and model agree).
LABEL_MAX_LENGTH = 200
TARGET_MAX_LENGTH = 255
NOTES_MAX_LENGTH = 5000
CHECK_REASON_MAX_LENGTH = 1000
USER_MODEL = settings.AUTH_USER_MODEL


class TargetKind(models.TextChoices):
    DISK = "disk", "Disk"
    POOL = "pool", "Pool / dataset"
    ZVOL = "zvol", "zvol"
    ISCSI_LUN = "iscsi_lun", "iSCSI LUN"
    NFS = "nfs", "NFS / SMB share"
    VM_DISK = "vm_disk", "VM disk"
    OTHER = "other", "Other"


def upload_path(instance: BenchUpload, filename: str) -> str:
    """Stored name of an upload: by team and content hash, never by the client's file name."""
    return f"benchmarks/{instance.team_id}/{instance.sha256[:2]}/{instance.sha256}"


class BenchUploadQuerySet(TeamScopedQuerySet["BenchUpload"]):
    """The uploads of the teams ``user`` belongs to."""


class BenchUpload(UploadLifecycle):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="bench_uploads")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    file = models.FileField(upload_to=upload_path, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.BigIntegerField(help_text="Bytes stored.")
    sha256 = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=UploadStatus.choices, default=UploadStatus.PENDING)
    detected_format = models.CharField(max_length=40, blank=True)

    objects = BenchUploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [models.UniqueConstraint(fields=["team", "sha256"], name="unique_upload_per_team")]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @classmethod
    def failed(cls, pk: int) -> None:
        """A failed parse has no figures: rows of an earlier parse of the same bytes would be stale."""
        BenchResult.objects.filter(run__upload_id=pk).delete()
        BenchSeries.objects.filter(run__upload_id=pk).delete()
        BenchRun.objects.filter(upload_id=pk).update(warnings=[], result=None, updated=timezone.now())


# Benchmark logs are stored as they stream in, up to BENCHMARK_UPLOAD_MAX_BYTES, and parsed by a worker.
BENCHMARK_LOGS = UploadKind(
    name="benchmark logs",
    model=BenchUpload,
    setting="BENCHMARK_UPLOAD_MAX_BYTES",
    default_max_bytes=200 * 1000 * 1000,
    spool_subdir="benchmarks",
    prefix="upload-",
    text=TextRule.LOG,  # UTF-16 as CrystalDiskMark writes it, or 8-bit text; no NUL
    chunk_size=256 * 1024,
    running=UploadStatus.PARSING,
    noun="upload",
    verb="parsing",
    done="parsed",
)


class BenchRunQuerySet(TeamScopedQuerySet["BenchRun"]):
    """Runs of the teams ``user`` belongs to."""


class BenchRun(models.Model):
    upload = models.OneToOneField(BenchUpload, on_delete=models.CASCADE, related_name="run")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="bench_runs")
    label = models.CharField(
        max_length=LABEL_MAX_LENGTH, blank=True, help_text="Shown in charts; defaults to the file name."
    )
    catalog_disk = models.ForeignKey(
        "plans.CatalogDisk", null=True, blank=True, on_delete=models.SET_NULL, related_name="bench_runs"
    )
    design = models.ForeignKey(
        "plans.PoolDesign", null=True, blank=True, on_delete=models.SET_NULL, related_name="bench_runs"
    )
    target_kind = models.CharField(max_length=12, choices=TargetKind.choices, blank=True)
    target = models.CharField(
        max_length=TARGET_MAX_LENGTH, blank=True, help_text="e.g. 'tank/vm-101-disk-0 over iSCSI'."
    )
    settings = models.JSONField(default=dict, blank=True, help_text="sync, compression, recordsize, ZIL, tunables.")
    notes = models.TextField(blank=True, validators=[MaxLengthValidator(NOTES_MAX_LENGTH)])
    tool = models.CharField(max_length=40, blank=True)
    tool_version = models.CharField(max_length=40, blank=True)
    meta = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="The normalized document (benchmark-result-format).")
    warnings = models.JSONField(
        default=list, blank=True, help_text="What a partly read log lacks, in words (status 'partial')."
    )
    # A person who looked at the run's validity warnings and judged the figures sound says why.
    validity_checked_by = models.ForeignKey(
        USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    validity_checked_at = models.DateTimeField(null=True, blank=True)
    validity_check_reason = models.TextField(
        blank=True,
        validators=[MaxLengthValidator(CHECK_REASON_MAX_LENGTH)],
        help_text="Why the figures stand despite the validity warnings, as the person who checked them wrote it.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = BenchRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return self.display_label

    @property
    def display_label(self) -> str:
        return self.label or self.upload.original_name or f"run {self.pk}"

    @property
    def status(self) -> str:
        return self.upload.status

    @property
    def short_settings(self) -> list[tuple[str, str]]:
        """The run's settings as short (name, value) pairs, as chart legends show them."""
        return short_settings(self.settings or {})

    @property
    def settings_summary(self) -> str:
        """``sync=always, SLOG: SSD``: the settings in one line, as a legend names them."""
        return settings_text(self.short_settings)

    @property
    def validity_checked(self) -> bool:
        """A person marked the run's validity warnings as checked (with a reason)."""
        return self.validity_checked_at is not None

    @property
    def is_parsed(self) -> bool:
        """True when the run has results (its log was read completely or in part)."""
        return self.upload.status in PARSED_STATUSES


class BenchResult(models.Model):
    """One test of one run, in the units of the field names (bytes/s, IOPS, µs)."""

    run = models.ForeignKey(BenchRun, on_delete=models.CASCADE, related_name="results")
    index = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    op = models.CharField(max_length=40)
    pattern = models.CharField(max_length=20, blank=True)
    block_size_bytes = models.BigIntegerField(null=True, blank=True)
    queue_depth = models.PositiveIntegerField(null=True, blank=True)
    threads = models.PositiveIntegerField(null=True, blank=True)
    bandwidth_bytes_per_s = models.FloatField(null=True, blank=True)
    iops = models.FloatField(null=True, blank=True)
    latency_mean_us = models.FloatField(null=True, blank=True)
    latency_max_us = models.FloatField(null=True, blank=True)
    percentiles = models.JSONField(default=dict, blank=True, help_text="Latency percentiles in µs by percentile.")
    ops_per_s = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="unique_result_index")]

    def __str__(self) -> str:
        return self.name


class BenchSeries(models.Model):
    """A time series from a fio log: a downsampled copy of the points plus the full count."""

    run = models.ForeignKey(BenchRun, on_delete=models.CASCADE, related_name="series")
    index = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    metric = models.CharField(max_length=20)
    unit = models.CharField(max_length=20)
    direction = models.CharField(max_length=20, blank=True)
    block_size_bytes = models.BigIntegerField(null=True, blank=True)
    points = models.JSONField(default=list, help_text="[[seconds, value], ...], at most SERIES_STORED_POINTS.")
    point_count = models.PositiveIntegerField(default=0, help_text="Points in the original log.")

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="unique_series_index")]
        verbose_name_plural = "bench series"

    def __str__(self) -> str:
        return self.name
