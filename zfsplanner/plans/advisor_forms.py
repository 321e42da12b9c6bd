"""The layout advisor's form: up to three candidate disks from the catalog and the data to store."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from zfsplanner.core import advisor
from zfsplanner.core.design import COMPRESSIBILITY_PROFILES, DatasetType, InvalidDesign

from .choices import DEFAULT_OPENZFS_VERSION, OpenZFSVersion
from .models import CatalogDisk, PoolDesign
from .services import writable_teams

CANDIDATES = 3
RECORDSIZES = [("16384", "16K"), ("131072", "128K (ZFS default)"), ("1048576", "1M (large files)")]
SORT_LABELS = {
    "cost_per_usable_tb": "cost per usable TB",
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
        label="OpenZFS", choices=OpenZFSVersion.choices, initial=DEFAULT_OPENZFS_VERSION
    )
    sort = forms.ChoiceField(choices=list(SORT_LABELS.items()), initial="cost_per_usable_tb", required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from_design"].queryset = PoolDesign.objects.for_user(user).order_by("name", "pk")
        disks = CatalogDisk.objects.order_by("media", "vendor", "model")
        for i in range(1, CANDIDATES + 1):
            self.fields[f"disk_{i}"] = forms.ModelChoiceField(
                label=f"Disk {i}", queryset=disks, required=i == 1, to_field_name="model",
                empty_label="—" if i > 1 else None,
            )
            self.fields[f"count_{i}"] = forms.IntegerField(
                label="How many", min_value=2, max_value=advisor.MAX_DISKS, required=i == 1,
                initial=6 if i == 1 else None,
            )
            self.fields[f"price_{i}"] = forms.DecimalField(
                label="Price each", min_value=Decimal(0), decimal_places=2, required=False,
                help_text="Blank: the catalog price.",
            )
        self.order_fields([f for i in range(1, CANDIDATES + 1) for f in (f"disk_{i}", f"count_{i}", f"price_{i}")])

    def candidate_rows(self) -> list[tuple[Any, Any, Any]]:
        """(disk field, count field, price field) per candidate slot, for the template."""
        return [(self[f"disk_{i}"], self[f"count_{i}"], self[f"price_{i}"]) for i in range(1, CANDIDATES + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for i in range(2, CANDIDATES + 1):
            if data.get(f"disk_{i}") and not data.get(f"count_{i}"):
                self.add_error(f"count_{i}", "How many of this disk?")
        source = data.get("from_design")
        if source is not None:
            try:
                data["histogram"], data["histogram_bytes"] = design_histogram(source)
            except InvalidDesign as exc:
                self.add_error("from_design", f"That design no longer reads: {exc}")
        return data

    def entries(self) -> list[tuple[CatalogDisk, int, float | None]]:
        d = self.cleaned_data
        out = []
        for i in range(1, CANDIDATES + 1):
            disk = d.get(f"disk_{i}")
            if disk is not None and d.get(f"count_{i}"):
                price = d.get(f"price_{i}")
                out.append((disk, int(d[f"count_{i}"]), float(price) if price is not None else None))
        return out

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

    def options(self) -> advisor.Options:
        return advisor.Options(openzfs_version=self.cleaned_data["openzfs_version"])

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

    team = forms.ModelChoiceField(queryset=writable_teams(None), empty_label=None)
    pick = forms.CharField(max_length=300, help_text="The row: candidate, ' | ', layout.")
    name = forms.RegexField(
        regex=r"^[A-Za-z][A-Za-z0-9_.:\-]*$", max_length=100, initial="tank",
        error_messages={"invalid": "A pool name starts with a letter: letters, digits, _ . : -"},
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = writable_teams(user)

    def clean_pick(self) -> tuple[str, str]:
        candidate, sep, layout = self.cleaned_data["pick"].rpartition(PICK_SEPARATOR)
        if not sep:
            raise forms.ValidationError("Pick a row of the table.")
        return candidate, layout


PICK_SEPARATOR = " | "
