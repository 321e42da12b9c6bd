"""Pool designs as stored rows, and the disk catalog.

A :class:`PoolDesign` holds one ``zfsplanner.design/1`` document split into rows
(vdev groups, datasets) so it can be queried, with the document's unknown keys kept
in ``extra`` at every level. ``PoolDesign.to_document()`` writes the document back
(catalog references inlined) and ``to_spec()`` gives the core's ``Design``.
Writing goes through ``services.save_design_document`` only, which writes the rows from the
parsed ``Design`` and leaves the saved instance its ``Design`` and document (no parse, no read back).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from zfsplanner.accounts.models import Team, TeamScopedQuerySet
from zfsplanner.core.design import types as core
from zfsplanner.core.document.export import VDEV_OPTIONAL_KEYS, price_text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.document.parts import MAX_DISK_WATTS
from zfsplanner.core.units import format_zfs_size

from .choices import (
    DEFAULT_OPENZFS_VERSION,
    DatasetType,
    Media,
    Partitioning,
    Sync,
    VdevLayout,
    VdevRole,
)


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON document (dicts, lists, scalars), much faster than ``copy.deepcopy``.

    Designs carry histograms of thousands of pairs, copied several times per change.
    """
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and not isinstance(value[0], dict | list):
            return [json_copy(v) if isinstance(v, dict | list) else v for v in value]
        return [json_copy(v) for v in value]
    return value


class CatalogDisk(models.Model):
    """A disk model as its data sheet describes it; designs may reference it by ``model``."""

    vendor = models.CharField(max_length=60)
    model = models.CharField(max_length=80, unique=True)
    name = models.CharField(max_length=120, blank=True, help_text="Product line, e.g. 'Exos X16'.")
    capacity_bytes = models.BigIntegerField(help_text="Exact user capacity in bytes (LBA count × logical sector).")
    logical_sector_bytes = models.PositiveIntegerField(default=512)
    physical_sector_bytes = models.PositiveIntegerField(default=4096)
    media = models.CharField(max_length=8, choices=Media.choices)
    rpm = models.PositiveIntegerField(null=True, blank=True)
    plp = models.BooleanField("power-loss protection", default=False)
    price = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    price_currency = models.CharField(max_length=3, blank=True, help_text="ISO code, e.g. EUR or USD.")
    price_date = models.DateField(null=True, blank=True, help_text="When the price was seen.")
    price_source = models.CharField(max_length=200, blank=True, help_text="Shop, quote or URL the price is from.")
    price_note = models.CharField(max_length=120, blank=True, help_text="Currency, date, per-TB remark.")
    afr = models.FloatField(
        "annualized failure rate",
        null=True,
        blank=True,
        validators=[MinValueValidator(0.000001), MaxValueValidator(1.0)],
        help_text="0.0157 = 1.57 % a year. Blank: the published large-fleet figure for the media class.",
    )
    afr_source = models.CharField(max_length=200, blank=True, help_text="Where the failure rate comes from.")
    seq_read_bytes_per_s = models.BigIntegerField(
        null=True, blank=True, help_text="Sustained sequential read (data sheet), bytes/s."
    )
    seq_write_bytes_per_s = models.BigIntegerField(
        null=True, blank=True, help_text="Sustained sequential write (data sheet), bytes/s; sets resilver time."
    )
    random_read_iops = models.PositiveIntegerField(
        null=True, blank=True, help_text="4 KiB random read, queue depth 32."
    )
    random_write_iops = models.PositiveIntegerField(
        null=True, blank=True, help_text="4 KiB random write, queue depth 32."
    )
    watts = models.FloatField(
        "power draw",
        null=True,
        blank=True,
        validators=[MinValueValidator(0.1), MaxValueValidator(MAX_DISK_WATTS)],
        help_text="Average power in use (data sheet), watts. Blank: not published here.",
    )
    datasheet_url = models.URLField(blank=True)
    notes = models.TextField(blank=True, help_text="Where the capacity and sector sizes come from.")

    class Meta:
        ordering = ["vendor", "model"]
        constraints = [
            models.CheckConstraint(condition=models.Q(capacity_bytes__gt=0), name="catalogdisk_capacity_positive"),
            models.CheckConstraint(
                condition=models.Q(physical_sector_bytes__gte=models.F("logical_sector_bytes")),
                name="catalogdisk_physical_ge_logical",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.vendor} {self.model}"

    @property
    def sector_format(self) -> str:
        if self.logical_sector_bytes == self.physical_sector_bytes:
            return "4Kn" if self.logical_sector_bytes == 4096 else f"{self.logical_sector_bytes}n"
        return f"{self.logical_sector_bytes}e"

    def to_disk_document(self) -> dict[str, Any]:
        """The disk object of the design format, inlined (``{"catalog": ...}`` kept as a link)."""
        out: dict[str, Any] = {
            "size_bytes": self.capacity_bytes,
            "model": self.model,
            "vendor": self.vendor,
            "logical_sector_bytes": self.logical_sector_bytes,
            "physical_sector_bytes": self.physical_sector_bytes,
            "media": self.media,
        }
        if self.rpm is not None:
            out["rpm"] = self.rpm
        out["plp"] = self.plp
        if self.watts is not None:
            out["watts"] = self.watts
        out["catalog"] = self.model
        return out


class PoolDesignQuerySet(TeamScopedQuerySet["PoolDesign"]):
    """Designs of the teams ``user`` belongs to (none for anonymous users)."""


class PoolDesign(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="designs")
    name = models.CharField("pool name", max_length=255)
    description = models.TextField(blank=True)
    # a series ("2.4") or a release ("2.4.4"); the design format decides which names are known
    openzfs_version = models.CharField(max_length=8, default=DEFAULT_OPENZFS_VERSION)
    disk_partitioning = models.CharField(
        max_length=20, choices=Partitioning.choices, blank=True, help_text="Blank: the format's default."
    )
    ashift = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The pool's ashift (zpool create -o ashift); blank: chosen per vdev group."
    )
    extra = models.JSONField(default=dict, blank=True, help_text="Top-level document keys zfsplanner doesn't know.")
    features = models.JSONField(
        null=True,
        blank=True,
        help_text='The pool features the document sets ({"fast_dedup": false}); blank: what zpool create enables.',
    )
    revision = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    variant_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="variants",
        help_text="The design this one was duplicated from, to be compared with it.",
    )

    objects = PoolDesignQuerySet.as_manager()

    class Meta:
        ordering = ["team__name", "name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.team})"

    def to_document(self) -> dict[str, Any]:
        """The design as a ``zfsplanner.design/1`` document, catalog references inlined.

        Built once per instance and revision (a page asks for it several times); every
        caller gets its own copy to change.
        """
        return json_copy(self._document())  # type: ignore[no-any-return]

    def document_view(self) -> dict[str, Any]:
        """The same document, not copied: for callers that only read it (pages, the revision row)."""
        return self._document()

    def remember_saved(self, spec: core.Design, document: dict[str, Any]) -> None:
        """The ``Design`` and document of the revision just saved (what ``to_spec`` and
        ``document_view`` give until the next one), so neither is parsed or read back."""
        key = (self.pk, self.revision, self.updated)
        self._spec_memo = (key, spec)
        self._document_memo = (key, document)

    def _document(self) -> dict[str, Any]:
        key = (self.pk, self.revision, self.updated)
        memo = getattr(self, "_document_memo", None)
        if memo is not None and memo[0] == key:
            return memo[1]  # type: ignore[no-any-return]
        out: dict[str, Any] = {"format": core.FORMAT, "name": self.name}
        if self.description:
            out["description"] = self.description
        out["openzfs_version"] = self.openzfs_version
        if self.disk_partitioning:
            out["disk_partitioning"] = self.disk_partitioning
        if self.ashift is not None:
            out["ashift"] = self.ashift
        if self.features is not None:
            out["features"] = dict(self.features)
        groups = list(self.vdevs.select_related("catalog_disk"))
        refs = {
            d["catalog"] for g in groups for d in g.disks if isinstance(d, dict) and isinstance(d.get("catalog"), str)
        }
        catalog = {g.catalog_disk.model: g.catalog_disk for g in groups if g.catalog_disk_id}
        missing = refs - set(catalog)
        if missing:
            catalog.update({c.model: c for c in CatalogDisk.objects.filter(model__in=missing)})
        out["vdevs"] = [v.to_document(catalog) for v in groups]
        out["datasets"] = [d.to_document() for d in self.datasets.all()]
        out.update(self.extra)
        self._document_memo = (key, out)
        return out

    def to_spec(self) -> core.Design:
        key = (self.pk, self.revision, self.updated)
        memo = getattr(self, "_spec_memo", None)
        if memo is not None and memo[0] == key:
            return memo[1]  # type: ignore[no-any-return]
        spec = parse_design(self._document())
        self._spec_memo = (key, spec)
        return spec

    def layout_summary(self) -> str:
        """``1 × raidz2 of 6 + special mirror of 2``: the data vdevs, then the others."""
        parts = []
        for v in self.vdevs.all():
            text = f"{v.count} × {v.layout} of {v.width}"
            parts.append(text if v.role == VdevRole.DATA else f"{v.role} {text}")
        return ", ".join(parts)


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "":
        out[key] = value


def inline_disk(disk: Any, catalog: dict[str, CatalogDisk]) -> Any:
    """A disk object with a ``{"catalog": MODEL}`` reference filled in from the catalog.

    Keys given in the document win over the catalog's; a key given as null is not given (as
    everywhere in the format), so the catalog's value stands. Unknown models are left as
    they are (``services.resolve_catalog`` reports them before anything is saved).
    """
    if not isinstance(disk, dict) or not isinstance(disk.get("catalog"), str):
        return disk
    entry = catalog.get(disk["catalog"])
    if entry is None:
        return disk
    listed = entry.to_disk_document()
    return {**listed, **{k: v for k, v in disk.items() if v is not None or k not in listed}}


class VdevGroup(models.Model):
    """``count`` identical top-level vdevs of one ``role``/``layout``/``width``."""

    design = models.ForeignKey(PoolDesign, on_delete=models.CASCADE, related_name="vdevs")
    position = models.PositiveIntegerField()
    role = models.CharField(max_length=8, choices=VdevRole.choices)
    layout = models.CharField(max_length=8, choices=VdevLayout.choices)
    width = models.PositiveIntegerField()
    count = models.PositiveIntegerField(default=1)
    ashift = models.PositiveSmallIntegerField(null=True, blank=True)
    draid_data = models.PositiveIntegerField(null=True, blank=True)
    draid_spares = models.PositiveIntegerField(null=True, blank=True)
    disk_partitioning = models.CharField(max_length=20, choices=Partitioning.choices, blank=True)
    reserved_per_disk_bytes = models.BigIntegerField(null=True, blank=True)
    expanded_from_width = models.PositiveIntegerField(null=True, blank=True)
    logical_bytes_written_before = models.BigIntegerField(null=True, blank=True)
    price_per_disk = models.DecimalField(
        max_digits=core.PRICE_MAX_DIGITS + core.PRICE_MAX_PLACES,
        decimal_places=core.PRICE_MAX_PLACES,
        null=True,
        blank=True,
        help_text="The price of one disk of the group, in the user's currency.",
    )
    catalog_disk = models.ForeignKey(
        CatalogDisk, null=True, blank=True, on_delete=models.PROTECT, related_name="vdev_groups"
    )
    disks = models.JSONField(default=list, help_text="Disk objects exactly as in the document.")
    single_disk = models.BooleanField(default=True, help_text='The document gave "disk" rather than "disks".')
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["design", "position"]
        constraints = [
            models.UniqueConstraint(fields=["design", "position"], name="unique_vdevgroup_position"),
        ]

    def __str__(self) -> str:
        return f"{self.role} {self.count} × {self.layout} of {self.width}"

    def to_document(self, catalog: dict[str, CatalogDisk] | None = None) -> dict[str, Any]:
        if catalog is None:
            catalog = {self.catalog_disk.model: self.catalog_disk} if self.catalog_disk_id else {}
            missing = {
                d["catalog"]
                for d in self.disks
                if isinstance(d, dict) and isinstance(d.get("catalog"), str) and d["catalog"] not in catalog
            }
            if missing:
                catalog.update({c.model: c for c in CatalogDisk.objects.filter(model__in=missing)})
        out: dict[str, Any] = {"role": self.role, "layout": self.layout, "width": self.width, "count": self.count}
        for key in VDEV_OPTIONAL_KEYS:
            _put(out, key, getattr(self, key))
        if self.price_per_disk is not None:
            out["price_per_disk"] = price_text(self.price_per_disk)
        disks = [inline_disk(d, catalog) for d in self.disks]
        if self.single_disk:
            out["disk"] = disks[0]
        else:
            out["disks"] = disks
        out.update(self.extra)
        return out


class DatasetPlan(models.Model):
    """A filesystem or volume of the design, with what it will hold (``contents``)."""

    design = models.ForeignKey(PoolDesign, on_delete=models.CASCADE, related_name="datasets")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    type = models.CharField(max_length=10, choices=DatasetType.choices, default=DatasetType.FILESYSTEM)
    recordsize = models.BigIntegerField(null=True, blank=True)
    volblocksize = models.BigIntegerField(null=True, blank=True)
    volsize = models.BigIntegerField(null=True, blank=True)
    quota = models.BigIntegerField(null=True, blank=True)
    special_small_blocks = models.BigIntegerField(null=True, blank=True)
    compression = models.CharField(max_length=20, blank=True)
    copies = models.PositiveSmallIntegerField(null=True, blank=True)
    sync = models.CharField(max_length=10, choices=Sync.choices, blank=True)
    contents = models.JSONField(null=True, blank=True, help_text="The document's contents object, as given.")
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["design", "position"]
        constraints = [
            models.UniqueConstraint(fields=["design", "position"], name="unique_datasetplan_position"),
            models.UniqueConstraint(fields=["design", "name"], name="unique_datasetplan_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def to_document(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type}
        for key in ("recordsize", "volblocksize", "volsize", "quota", "special_small_blocks"):
            value = getattr(self, key)
            if value is not None:
                out[key] = format_zfs_size(value)
        _put(out, "compression", self.compression)
        _put(out, "copies", self.copies)
        _put(out, "sync", self.sync)
        if self.contents is not None:
            out["contents"] = self.contents
        out.update(self.extra)
        return out


def new_share_token() -> str:
    """32 URL-safe characters from 24 random bytes (``secrets``): not guessable, not sequential."""
    return secrets.token_urlsafe(24)


class ShareLinkQuerySet(models.QuerySet["ShareLink"]):
    def active(self) -> ShareLinkQuerySet:
        """Links that still open the design: not revoked and not past ``expires``."""
        return self.filter(revoked=False).filter(models.Q(expires__isnull=True) | models.Q(expires__gt=timezone.now()))


class ShareLink(models.Model):
    """A read-only link to a design that works without logging in, until revoked or expired."""

    design = models.ForeignKey(PoolDesign, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_share_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(null=True, blank=True, help_text="Blank: the link works until it is revoked.")
    revoked = models.BooleanField(default=False)

    objects = ShareLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"share link {self.pk} of {self.design}"

    @property
    def is_active(self) -> bool:
        return not self.revoked and (self.expires is None or self.expires > timezone.now())

    @property
    def state(self) -> str:
        if self.revoked:
            return "revoked"
        return "active" if self.is_active else "expired"


class RevisionKind(models.TextChoices):
    EDIT = "edit", "edit"
    FIX = "fix", "fix applied"
    UNDO = "undo", "undo"
    REDO = "redo", "redo"
    CREATE = "create", "created"


class DesignRevision(models.Model):
    """The whole document of one revision of a design, so undo and redo can walk back and forth.

    Revisions only ever grow: undo makes a new revision whose document is an earlier
    one's. ``undo_to``/``redo_to`` name the revision whose document undo/redo would
    bring back from this state (None: nothing to undo/redo).
    """

    design = models.ForeignKey(PoolDesign, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    kind = models.CharField(max_length=8, choices=RevisionKind.choices, default=RevisionKind.EDIT)
    summary = models.CharField(max_length=200, blank=True)
    undo_to = models.PositiveIntegerField(null=True, blank=True)
    redo_to = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["design", "-number"]
        constraints = [models.UniqueConstraint(fields=["design", "number"], name="unique_designrevision_number")]

    def __str__(self) -> str:
        return f"{self.design.name} r{self.number}"
