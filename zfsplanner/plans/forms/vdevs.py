"""The designer's vdev group form, the disk catalog filter and the group each role starts from.

:class:`VdevGroupForm` reads its fields into a typed vdev group with the core's part reader
(``to_group()``: the same checks, error paths and messages as a whole document) and shows one
(``initial_from()``); :func:`role_defaults` fills a new group as an expert would.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import Q, QuerySet

from zfsplanner.core.design.relayout import same_disks
from zfsplanner.core.design.types import PRICE_MAX_DIGITS, PRICE_MAX_PLACES, Layout, VdevGroup
from zfsplanner.core.document.export import price_text, vdev_to_document
from zfsplanner.core.document.parts import read_vdev
from zfsplanner.core.geometry.ashift import ASHIFT_RANGE, DEFAULT_POOL_ASHIFT
from zfsplanner.core.units import format_zfs_size, parse_disk_size

from ..choices import Media, VdevLayout, VdevRole
from ..models import CatalogDisk, inline_disk
from .parts import PartForm, merged

CUSTOM = "__custom__"


def ashift_choices(blank: str) -> list[tuple[str, str]]:
    return [("", blank)] + [(str(a), f"{a} ({format_zfs_size(1 << a)} sectors)") for a in ASHIFT_RANGE]


def catalog_label(disk: CatalogDisk) -> str:
    size = f"{disk.capacity_bytes / 1e12:.2f}".rstrip("0").rstrip(".")
    price = ""
    if disk.price:
        per_tb = Decimal(disk.price) / (Decimal(disk.capacity_bytes) / Decimal(10**12))
        price = f" · {disk.price:.0f} ({per_tb:.1f}/TB)"
    kind = f"{disk.get_media_display()} {disk.sector_format}"
    # What tells disks apart first (a select shows the start of its option when it is narrow), the part number last.
    return f"{size} TB {kind} · {disk.vendor} {disk.name or disk.model}{price} · {disk.model}"


class CatalogFilterForm(forms.Form):
    """Narrow the disk list: text, vendor, media, sector format, minimum capacity."""

    q = forms.CharField(label="Search", required=False, max_length=100)
    vendor = forms.ChoiceField(required=False)
    media = forms.ChoiceField(choices=[("", "Any media"), *Media.choices], required=False)
    sector = forms.ChoiceField(
        label="Sector format",
        choices=[("", "Any sectors"), ("512n", "512n"), ("512e", "512e"), ("4Kn", "4Kn")],
        required=False,
    )
    min_tb = forms.DecimalField(label="At least (TB)", required=False, min_value=0, max_digits=8, decimal_places=2)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        vendors = CatalogDisk.objects.order_by("vendor").values_list("vendor", flat=True).distinct()
        self.fields["vendor"].choices = [("", "Any vendor"), *((v, v) for v in vendors)]

    def filter(self, qs: QuerySet[CatalogDisk]) -> QuerySet[CatalogDisk]:
        if not self.is_valid():
            return qs
        d = self.cleaned_data
        if d["q"]:
            q = d["q"].strip()
            qs = qs.filter(Q(vendor__icontains=q) | Q(model__icontains=q) | Q(name__icontains=q))
        if d["vendor"]:
            qs = qs.filter(vendor=d["vendor"])
        if d["media"]:
            qs = qs.filter(media=d["media"])
        if d["sector"] == "512n":
            qs = qs.filter(logical_sector_bytes=512, physical_sector_bytes=512)
        elif d["sector"] == "512e":
            qs = qs.filter(logical_sector_bytes=512, physical_sector_bytes__gt=512)
        elif d["sector"] == "4Kn":
            qs = qs.filter(logical_sector_bytes=4096)
        if d["min_tb"] is not None:
            qs = qs.filter(capacity_bytes__gte=int(d["min_tb"] * 10**12))
        return qs


class VdevGroupForm(PartForm):
    """One vdev group: role, layout, width, count, ashift, dRAID shape and its disk."""

    role = forms.ChoiceField(choices=VdevRole.choices, initial=VdevRole.DATA)
    layout = forms.ChoiceField(choices=VdevLayout.choices, initial=VdevLayout.RAIDZ2)
    width = forms.IntegerField(label="Disks per vdev", min_value=1, max_value=255, initial=6)
    count = forms.IntegerField(label="Number of vdevs", min_value=1, max_value=1000, initial=1)
    ashift = forms.TypedChoiceField(
        choices=ashift_choices("auto (from the disk's sector size)"),
        required=False,
        coerce=int,
        empty_value=None,
    )
    draid_data = forms.IntegerField(label="dRAID data disks per group", min_value=1, required=False)
    draid_spares = forms.IntegerField(label="dRAID distributed spares", min_value=0, required=False)
    disk = forms.ChoiceField(label="Disk", help_text="A disk from the catalog, or a custom disk below.")
    custom_size = forms.CharField(
        label="Custom disk size", required=False, max_length=40, help_text='With a unit: "16TB" (label) or "14.5TiB".'
    )
    custom_model = forms.CharField(label="Custom disk model", required=False, max_length=80)
    custom_media = forms.ChoiceField(
        label="Custom disk media", choices=[("", "unknown"), *Media.choices], required=False
    )
    custom_sectors = forms.ChoiceField(
        label="Custom disk sectors",
        choices=[
            ("512e", "512e (512 logical / 4096 physical)"),
            ("4Kn", "4Kn (4096 / 4096)"),
            ("512n", "512n (512 / 512)"),
        ],
        initial="512e",
        required=False,
    )
    custom_plp = forms.BooleanField(label="Power-loss protection", required=False)
    price_per_disk = forms.DecimalField(
        label="Price per disk",
        required=False,
        min_value=0,
        max_digits=PRICE_MAX_DIGITS + PRICE_MAX_PLACES,
        decimal_places=PRICE_MAX_PLACES,
        help_text="In your currency, for the cost per usable TB. Blank: the catalog's price, if any.",
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args: Any,
        catalog: QuerySet[CatalogDisk] | None = None,
        pool_ashift: int | None = DEFAULT_POOL_ASHIFT,
        ashift_help: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        ashift = self.fields["ashift"]
        if pool_ashift is not None:
            ashift.choices = ashift_choices(f"the pool's ({pool_ashift})")
        ashift.help_text = ashift_help or (
            f"Blank: the pool's ashift ({pool_ashift}), as zpool create -o ashift={pool_ashift} gives every vdev."
            if pool_ashift is not None
            else "Blank: what zpool chooses from the disks' sectors."
        )
        disks = list(catalog if catalog is not None else CatalogDisk.objects.all())
        self.catalog = {d.model: d for d in disks}
        choices: list[tuple[str, Any]] = [(CUSTOM, "Custom disk (enter its size below)")]
        for media, label in Media.choices:
            group = [(d.model, catalog_label(d)) for d in disks if d.media == media]
            if group:
                choices.append((label, group))
        current = self.initial.get("disk") or self.data.get(self.add_prefix("disk"))
        if current and current != CUSTOM and current not in self.catalog:
            known = CatalogDisk.objects.filter(model=current).first()
            if known is not None:
                self.catalog[known.model] = known
                choices.append(("Chosen", [(known.model, catalog_label(known))]))
        self.fields["disk"].choices = choices

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        if d.get("disk") == CUSTOM:
            if not d.get("custom_size"):
                self.add_error("custom_size", "Enter the custom disk's size, e.g. 16TB.")
            else:
                try:
                    d["custom_size_bytes"] = parse_disk_size(d["custom_size"])
                except ValueError as exc:
                    self.add_error("custom_size", str(exc))
        layout = d.get("layout") or ""
        if not layout.startswith("draid"):
            d["draid_data"] = d["draid_spares"] = None
        return d

    def to_group(self, old: VdevGroup | None, index: int) -> VdevGroup:
        """The group these fields make, over ``old`` (what the form does not show stays: its expansion,
        partitioning, unknown keys), read as the ``index``-th group of a design by the core's reader;
        ``InvalidDesign`` with the reader's errors (``vdevs[index].width``, ...) otherwise."""
        fields = self._fields()
        base = {} if old is None else vdev_to_document(old)
        base.pop("disks", None)  # the form gives one disk for every member
        return self.read_part(read_vdev, merged(base, fields), f"vdevs[{index}]")  # type: ignore[no-any-return]

    def _fields(self) -> dict[str, Any]:
        """The group's keys as the design format writes them, the disk inlined from the catalog."""
        d = self.cleaned_data
        out: dict[str, Any] = {
            "role": d["role"],
            "layout": d["layout"],
            "width": d["width"],
            "count": d["count"],
            "ashift": d["ashift"],
            "draid_data": d["draid_data"],
            "draid_spares": d["draid_spares"],
            "price_per_disk": None if d["price_per_disk"] is None else price_text(d["price_per_disk"]),
        }
        if d["disk"] == CUSTOM:
            logical, physical = {"512e": (512, 4096), "4Kn": (4096, 4096), "512n": (512, 512)}[
                d["custom_sectors"] or "512e"
            ]
            disk: dict[str, Any] = {
                "size_bytes": d["custom_size_bytes"],
                "logical_sector_bytes": logical,
                "physical_sector_bytes": physical,
            }
            if d["custom_model"]:
                disk["model"] = d["custom_model"].strip()
            if d["custom_media"]:
                disk["media"] = d["custom_media"]
            if d["custom_plp"]:
                disk["plp"] = True
            out["disk"] = disk
        else:
            out["disk"] = inline_disk({"catalog": d["disk"]}, self.catalog)
        return out

    @staticmethod
    def initial_from(group: VdevGroup) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "role": group.role.value,
            "layout": group.layout.value,
            "width": group.width,
            "count": group.count,
            "ashift": group.ashift,
            "draid_data": group.draid_data,
            "draid_spares": group.draid_spares,
            "price_per_disk": None if group.price_per_disk is None else price_text(group.price_per_disk),
        }
        disk = group.disks[0]
        if disk.catalog is not None:
            initial["disk"] = disk.catalog
        else:
            initial["disk"] = CUSTOM
            initial["custom_size"] = disk.size_text or f"{disk.size_bytes}B"
            initial["custom_model"] = disk.model or ""
            initial["custom_media"] = disk.media.value if disk.media else ""
            logical, physical = disk.logical_sector_bytes, disk.physical_sector_bytes
            initial["custom_sectors"] = "4Kn" if logical == 4096 else ("512n" if physical == 512 else "512e")
            initial["custom_plp"] = bool(disk.plp)
        return initial


FLASH_MEDIA = (Media.SSD, Media.NVME)
FLASH_ROLES = (VdevRole.SPECIAL, VdevRole.DEDUP, VdevRole.LOG, VdevRole.CACHE)
SPECIAL_SSD_MIN_BYTES = 900 * 10**9  # special, dedup and cache: the ~1 TB class (960 GB, 1 TB) or larger


def flash_disks() -> QuerySet[CatalogDisk]:
    """The catalog's SSDs and NVMe drives, smallest first: what special, dedup, log and cache vdevs are made of."""
    return CatalogDisk.objects.filter(media__in=FLASH_MEDIA).order_by("capacity_bytes", "model")


def _first_flash(disks: list[CatalogDisk], *, plp: bool, min_bytes: int = 0) -> CatalogDisk | None:
    """The smallest disk of at least ``min_bytes`` (with power-loss protection when ``plp``), else the largest."""
    fitting = [d for d in disks if d.plp or not plp]
    if not fitting:
        return None
    return next((d for d in fitting if d.capacity_bytes >= min_bytes), fitting[-1])


def role_defaults(role: str, like: VdevGroup | None = None, data_fault_tolerance: int = 1) -> dict[str, Any]:
    """The vdev group an expert starts from for ``role`` (the form's initial values).

    * data: another vdev like the design's first data group (``like``), else 6-wide raidz2;
    * special and dedup: a mirror of SSD/NVMe with power-loss protection, 2-way or wide enough
      to survive as many failures as the data vdevs (``data_fault_tolerance``), since losing
      it loses the pool;
    * log: a 2-way mirror of the smallest SSDs with power-loss protection the catalog knows;
    * cache: one SSD; spare: one disk like the data disks.
    The group follows the pool's ashift, so none of them mixes ashift with the data vdevs.
    """
    base: dict[str, Any] = {"role": role, "count": 1, "ashift": None, "draid_data": None, "draid_spares": None}
    if role in (VdevRole.DATA, VdevRole.SPARE):
        if like is not None:
            shape = VdevGroupForm.initial_from(like)
            base.update({k: v for k, v in shape.items() if k not in ("role", "count", "ashift")})
        else:
            base.update(layout=VdevLayout.RAIDZ2, width=6, disk=CUSTOM)
        if role == VdevRole.SPARE:
            base.update(layout=VdevLayout.STRIPE, width=1, draid_data=None, draid_spares=None)
        return base
    disks = list(flash_disks())
    if role == VdevRole.LOG:
        base.update(layout=VdevLayout.MIRROR, width=2)
        disk = _first_flash(disks, plp=True) or _first_flash(disks, plp=False)
    elif role == VdevRole.CACHE:
        base.update(layout=VdevLayout.STRIPE, width=1)
        disk = _first_flash(disks, plp=False, min_bytes=SPECIAL_SSD_MIN_BYTES)
    else:
        base.update(layout=VdevLayout.MIRROR, width=max(2, data_fault_tolerance + 1))
        disk = _first_flash(disks, plp=True, min_bytes=SPECIAL_SSD_MIN_BYTES) or _first_flash(
            disks, plp=False, min_bytes=SPECIAL_SSD_MIN_BYTES
        )
    if disk is not None:
        base["disk"] = disk.model
    else:
        base.update(disk=CUSTOM, custom_size="960GB", custom_media=Media.SSD, custom_sectors="512e")
    return base


def switched_layout(values: dict[str, Any], shown: Any, width: str = "width", count: str = "count") -> bool:
    """When the layout was just switched (``shown``: the layout the form showed before), the same disks in
    the new layout (:func:`~zfsplanner.core.design.relayout.same_disks`): ``values[width]`` and
    ``values[count]`` are changed, and True says so. The quick planner (``disks``, ``vdevs``) and the
    designer's vdev group form both call it."""
    try:
        old, new = Layout(str(shown)), Layout(str(values.get("layout")))
        w, n = int(str(values.get(width))), int(str(values.get(count)))
    except ValueError:
        return False
    shape = same_disks(old, new, w, n)
    if (shape.width, shape.count) == (w, n):
        return False
    values[width], values[count] = str(shape.width), str(shape.count)
    return True
