"""The layout advisor's form: up to three candidate disks (from the catalog, or described by their
size, sector format and media) and the data to store."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from django import forms

from zfsplanner.accounts.models import Team
from zfsplanner.core import advisor
from zfsplanner.core.design.planning import MAX_GROWTH_PER_YEAR, MAX_HORIZON_YEARS, PlanningError, read_growth
from zfsplanner.core.design.types import COMPRESSIBILITY_PROFILES, DatasetType, InvalidDesign
from zfsplanner.core.document.parts import disk_from_document
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE
from zfsplanner.core.units import UnitError, format_si, format_zfs_size, parse_disk_size
from zfsplanner.core.versions import Version

from ..choices import DEFAULT_OPENZFS_VERSION, Media, offer_versions, openzfs_version_choices
from ..models import CatalogDisk, PoolDesign
from ..services.disk_inputs import catalog_candidate
from .vdevs import catalog_label

CANDIDATES = 3
CUSTOM = "custom"
SECTOR_FORMATS = {  # (logical, physical) bytes
    "512e": (512, 4096),
    "4Kn": (4096, 4096),
    "512n": (512, 512),
}
SECTOR_CHOICES = [
    ("512e", "512e: 512 B logical, 4 KiB physical"),
    ("4Kn", "4Kn: 4 KiB logical and physical"),
    ("512n", "512n: 512 B logical and physical"),
]
RECORDSIZES = [
    ("16384", "16K"),
    (str(DEFAULT_RECORDSIZE), f"{format_zfs_size(DEFAULT_RECORDSIZE)} (ZFS default)"),
    ("1048576", "1M (large files)"),
]
SORT_LABELS = {
    "cost_per_usable_tb": "cost per usable TB",
    "cost_per_usable_tb_year": "cost per usable TB-year",
    "usable_bytes": "usable space",
    "fault_tolerance": "failures survived",
    "loss_5y": "chance of data loss in 5 years",
    "pool_loss_5y": "chance of losing the pool",
    "resilver_seconds": "rebuild time",
    "random_read_iops": "random reads",
    "random_write_iops": "random writes",
    "seq_read_bytes_per_s": "streaming reads",
    "seq_write_bytes_per_s": "streaming writes",
}


class AdvisorForm(forms.Form):
    """What to buy and what it must hold. Read from the query string, so a result can be linked."""

    data_tb = forms.DecimalField(
        label="Data now (TB)", min_value=Decimal(0), max_value=Decimal(10**6), decimal_places=3, initial=10,
        help_text="Decimal terabytes, as drive labels count.",
    )
    growth_percent = forms.DecimalField(
        label="Growth per year (%)", min_value=Decimal(0), max_value=Decimal(1000), decimal_places=1, initial=20
    )
    years = forms.IntegerField(label="Years ahead", min_value=0, max_value=30, initial=3)
    recordsize = forms.TypedChoiceField(label="Record size", choices=RECORDSIZES, coerce=int, initial="1048576")
    profile = forms.ChoiceField(
        label="Kind of data",
        choices=[(p, p.replace("-", " ")) for p in COMPRESSIBILITY_PROFILES],
        initial="mixed",
    )
    from_design = forms.ModelChoiceField(
        label="Use the file sizes of a design",
        queryset=PoolDesign.objects.none(),
        required=False,
        empty_label="no: files of the record size",
        help_text="Its datasets' file-size histograms (and their size, when 'Data now' is 0).",
    )
    openzfs_version = forms.ChoiceField(
        label="OpenZFS", choices=openzfs_version_choices, initial=DEFAULT_OPENZFS_VERSION
    )
    sort = forms.ChoiceField(choices=list(SORT_LABELS.items()), initial="cost_per_usable_tb", required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_versions(self)
        self.fields["from_design"].queryset = PoolDesign.objects.for_user(user).order_by("name", "pk")
        self.catalog = {d.model: d for d in CatalogDisk.objects.order_by("media", "-capacity_bytes", "vendor", "model")}
        groups: list[tuple[str, Any]] = []
        for media, label in Media.choices:
            group = [(d.model, catalog_label(d)) for d in self.catalog.values() if d.media == media]
            if group:
                groups.append((label, group))
        custom = [(CUSTOM, "Not in the catalog: describe it below")]
        for i in range(1, CANDIDATES + 1):
            self.fields[f"disk_{i}"] = forms.ChoiceField(
                label=f"Disk {i}", required=i == 1, choices=[*([] if i == 1 else [("", "—")]), *groups, *custom],
                widget=forms.Select(attrs={"data-custom-disk": CUSTOM}),
            )
            self.fields[f"count_{i}"] = forms.IntegerField(
                label="How many", min_value=2, max_value=advisor.MAX_DISKS, required=i == 1,
                initial=6 if i == 1 else None,
            )
            self.fields[f"price_{i}"] = forms.DecimalField(
                label="Price each", min_value=Decimal(0), max_value=Decimal(10**9), decimal_places=2, required=False,
                help_text="Blank: the catalog price. Kept in the design you create.",
            )
            self.fields[f"size_{i}"] = forms.CharField(
                label="Size", required=False, max_length=40, widget=forms.TextInput(attrs={"placeholder": "20TB"}),
                help_text="With its unit: 20TB as on the label, or 18.2TiB.",
            )
            self.fields[f"sector_{i}"] = forms.ChoiceField(
                label="Sector format", choices=SECTOR_CHOICES, initial="512e", required=False
            )
            self.fields[f"media_{i}"] = forms.ChoiceField(
                label="Media", choices=Media.choices, initial=Media.HDD, required=False
            )
        per_slot = ("disk", "count", "price", "size", "sector", "media")
        self.order_fields([f"{f}_{i}" for i in range(1, CANDIDATES + 1) for f in per_slot])

    def candidate_rows(self) -> list[dict[str, Any]]:
        """The fields of each candidate slot, for the template: disk, count, price and, for a disk
        not in the catalog, size, sector format and media (``custom``: that is the choice)."""
        return [
            {
                "index": i,
                **{f: self[f"{f}_{i}"] for f in ("disk", "count", "price", "size", "sector", "media")},
                "custom": self[f"disk_{i}"].value() == CUSTOM,
            }
            for i in range(1, CANDIDATES + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for i in range(1, CANDIDATES + 1):
            choice = data.get(f"disk_{i}")
            if choice and not data.get(f"count_{i}") and f"count_{i}" not in self.errors:
                self.add_error(f"count_{i}", "How many of this disk?")
            if choice == CUSTOM:
                self._clean_custom(data, i)
            elif choice and choice not in self.catalog:
                self.add_error(f"disk_{i}", f"{choice!r} is not a disk in the catalog.")
        source = data.get("from_design")
        if source is not None:
            try:
                data["histogram"], data["histogram_bytes"] = design_histogram(source)
            except InvalidDesign as exc:
                self.add_error("from_design", f"That design no longer reads: {exc}")
        return data

    def _clean_custom(self, data: dict[str, Any], i: int) -> None:
        text = (data.get(f"size_{i}") or "").strip()
        if not text:
            self.add_error(f"size_{i}", "Type the disk's size with its unit, e.g. 20TB.")
            return
        try:
            data[f"size_bytes_{i}"] = parse_disk_size(text)
        except UnitError as exc:
            self.add_error(f"size_{i}", str(exc))

    def candidates(self) -> list[advisor.Candidate]:
        """The filled-in slots as the advisor's candidates (a typed price goes into the design)."""
        d = self.cleaned_data
        out: list[advisor.Candidate] = []
        labels: set[str] = set()
        for i in range(1, CANDIDATES + 1):
            choice, count = d.get(f"disk_{i}"), d.get(f"count_{i}")
            if not choice or not count:
                continue
            price = float(d[f"price_{i}"]) if d.get(f"price_{i}") is not None else None
            if choice == CUSTOM:
                c = self._custom_candidate(i, int(count), price)
            else:
                c = catalog_candidate(self.catalog[choice], int(count), price)
            if c.label in labels:  # two slots of the same disk (at other prices) stay apart
                c = replace(c, label=f"{c.label} (disk {i})")
            labels.add(c.label)
            out.append(c)
        return out

    def _custom_candidate(self, i: int, count: int, price: float | None) -> advisor.Candidate:
        d = self.cleaned_data
        size = d[f"size_bytes_{i}"]
        sector = d.get(f"sector_{i}") or "512e"
        logical, physical = SECTOR_FORMATS[sector]
        media = d.get(f"media_{i}") or Media.HDD
        typed = {"size_bytes": size, "logical_sector_bytes": logical, "physical_sector_bytes": physical, "media": media}
        disk = disk_from_document(typed, f"size_{i}")
        label = f"{format_si(size).replace('.00 ', ' ')} {Media(media).label}, {sector} (custom)"
        return advisor.Candidate(disk, count, price, "", label, price_typed=price is not None)

    def needs(self) -> advisor.DataNeeds:
        d = self.cleaned_data
        logical = int(d["data_tb"] * 10**12)
        hist = d.get("histogram")
        if hist and not logical:
            logical = d.get("histogram_bytes", 0)
        if hist and logical:
            total = sum(s * n for s, n in hist) or 1
            hist = tuple((s, max(round(n * logical / total), 1)) for s, n in hist)
        return advisor.DataNeeds(
            logical_bytes=logical,
            growth_per_year=float(d["growth_percent"]) / 100,
            years=d["years"],
            file_size_histogram=hist or None,
            recordsize=d["recordsize"],
            profile=d["profile"],
        )

    def growth(self) -> dict[str, Any] | None:
        """The growth block of the data's rate and years ahead, with the advisor's fill limit (None: the
        design's growth rule refuses them, :attr:`growth_note` says what it takes)."""
        d = self.cleaned_data
        block = {"per_year": float(d["growth_percent"]) / 100, "horizon_years": d["years"],
                 "fill_limit": advisor.Options.max_fill}
        try:
            read_growth(block)
        except PlanningError:
            return None
        return block

    @property
    def growth_note(self) -> str:
        """Why the rows have no cost per usable TB-year, in the page's words ("" when they have one)."""
        if not hasattr(self, "cleaned_data") or self.growth() is not None:
            return ""
        return (f"Cost per usable TB-year needs 1 to {MAX_HORIZON_YEARS} years ahead and growth of at most "
                f"{MAX_GROWTH_PER_YEAR * 100:g} % a year.")

    def options(self) -> advisor.Options:
        version = Version.parse(self.cleaned_data["openzfs_version"])  # the chosen release, read once
        return advisor.Options(openzfs_version=version, growth=self.growth())

    @property
    def sort_key(self) -> str:
        return (self.cleaned_data.get("sort") if hasattr(self, "cleaned_data") else None) or "cost_per_usable_tb"


def design_histogram(design: PoolDesign) -> tuple[tuple[tuple[int, int], ...], int]:
    """The file-size histogram of a design's filesystem datasets (merged) and their logical bytes."""
    merged: dict[int, int] = {}
    logical = 0
    for ds in design.to_spec().datasets:
        c = ds.contents
        if ds.type != DatasetType.FILESYSTEM or c is None:
            continue
        if c.file_size_histogram:
            for size, count in c.file_size_histogram:
                merged[size] = merged.get(size, 0) + count
            logical += c.logical_bytes or sum(s * n for s, n in c.file_size_histogram)
        elif c.file_count and c.logical_bytes:
            size = c.logical_bytes // c.file_count
            merged[size] = merged.get(size, 0) + c.file_count
            logical += c.logical_bytes
    return tuple(sorted(merged.items())), logical


class AdvisorCreateForm(forms.Form):
    """Which row to turn into a design, and for which team."""

    team = forms.ModelChoiceField(queryset=Team.objects.writable_by(None), empty_label=None)
    pick = forms.CharField(max_length=300, help_text="The row: candidate, ' | ', layout.")
    name = forms.RegexField(
        regex=r"^[A-Za-z][A-Za-z0-9_.:\-]*$", max_length=100, initial="tank",
        error_messages={"invalid": "A pool name starts with a letter: letters, digits, _ . : -"},
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.writable_by(user)

    def clean_pick(self) -> tuple[str, str]:
        candidate, sep, layout = self.cleaned_data["pick"].rpartition(PICK_SEPARATOR)
        if not sep:
            raise forms.ValidationError("Pick a row of the table.")
        return candidate, layout


PICK_SEPARATOR = " | "
