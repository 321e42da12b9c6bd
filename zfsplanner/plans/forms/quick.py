"""The quick planner's form (``/plan/``): one short form whose field names are the query parameters.

``layout``, ``disks`` (per vdev), ``vdevs`` (how many), ``size`` (a disk size with its unit) and
``version`` are contracts (docs/spec/design-format.md, "/plan/"); the optional parts are
``disk`` (a catalog model instead of a typed size), ``special`` and ``slog`` (SSD sizes of a
special mirror and a mirrored SLOG), ``slog_plp``, one dataset's ``recordsize``,
``compression`` and ``data``, ``growth`` (percent a year: the year the pool fills), a ``price`` per
data disk, and ``unit`` (TB or TiB on the cards).

The form only reads the fields (a size with its unit, a whole number); the rules of a valid
design (raidz2 needs 3 disks, at most 255 per vdev, sizes within 2^64) stay in the core and
come back through :func:`field_errors`, mapped onto the field they concern.
:func:`quick_document` is the one place the parameters become a design document (what
``/plan/design.json`` downloads and "Save as a design" stores); ``presentation.quick.computed``
parses it once into the core's ``Design``, and the page reads that. Defaults shown in the fields
(the record size, the compression) are the core's (``core.properties.resolve``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.core.cache import cache

from zfsplanner.core.design.types import COMPRESSION_VALUES, FORMAT, Layout, Role, VdevGroup
from zfsplanner.core.geometry.ashift import DEFAULT_POOL_ASHIFT
from zfsplanner.core.geometry.vdev_shape import fault_tolerance
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE, default
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, SIZE_UNITS, UnitError, format_zfs_size, parse_disk_size
from zfsplanner.core.versions import NEWEST_RELEASE

from ..choices import DEFAULT_OPENZFS_VERSION, VdevLayout, offer_versions, openzfs_version_choices
from ..models import CatalogDisk
from ..services.estimates import ESTIMATE_CACHE_SECONDS, planning_stamp
from .designer import RECORDSIZES
from .vdevs import catalog_label

POOL_NAME = "tank"
DATASET_NAME = "tank/data"
POOL_ASHIFT = DEFAULT_POOL_ASHIFT  # what `zpool create -o ashift=12` gives every vdev: 4 KiB sectors
NEWEST_VERSION = DEFAULT_OPENZFS_VERSION  # the newest release the planner knows
TEXT_MAX = 40  # characters in a typed size; longer text is refused before it is read
UNIT_LABELS = {"TiB": "TiB (as zfs)", "TB": "TB (as labels)"}
UNITS = tuple((u, UNIT_LABELS.get(u, u)) for u in SIZE_UNITS)
CONTRACT_FIELDS = ("layout", "disks", "vdevs", "size", "version")
OPTIONAL_FIELDS = (
    "disk",
    "special",
    "slog",
    "slog_plp",
    "recordsize",
    "compression",
    "data",
    "growth",
    "price",
    "unit",
)
GROWTH_HORIZON_YEARS = 5  # the quick planner's look ahead, at the usual 80 % fill limit
GROWTH_FILL_LIMIT = 0.8
FIELDS = CONTRACT_FIELDS + OPTIONAL_FIELDS
DEFAULTS = {"layout": "raidz2", "disks": "6", "vdevs": "1", "size": "16TB", "version": NEWEST_VERSION}


def _size_text(value: str) -> str:
    """A size typed in a field; the message goes under the field's label, so it does not repeat it."""
    text = value.strip()
    if len(text) > TEXT_MAX:
        raise forms.ValidationError(f"{len(text):,} characters long; type a size such as 16TB")
    try:
        parse_disk_size(text)
    except UnitError as exc:
        raise forms.ValidationError(str(exc)) from exc
    return text


class QuickPlanForm(forms.Form):
    layout = forms.ChoiceField(label="Data layout", choices=VdevLayout.choices)
    # Only read here: what a layout needs (raidz2: 3 disks or more), the limits and prices of zero or
    # more are the core's rules, and its messages come back on these fields (``field_errors``).
    disks = forms.IntegerField(
        label="Disks per vdev",
        widget=forms.NumberInput(attrs={"min": 1}),
        error_messages={"invalid": "Disks per vdev must be a whole number, e.g. 8."},
    )
    vdevs = forms.IntegerField(
        label="Number of vdevs",
        widget=forms.NumberInput(attrs={"min": 1}),
        error_messages={"invalid": "The number of vdevs must be a whole number."},
    )
    size = forms.CharField(
        label="Disk size",
        required=False,  # unless no catalog disk is chosen (clean)
        max_length=200,
        help_text="With its unit: 16TB as on the label, or 14.5TiB.",
    )
    disk = forms.ChoiceField(
        label="…or a disk from the catalog",
        required=False,
        help_text="Its size, sectors and price replace the size typed.",
    )
    version = forms.ChoiceField(label="OpenZFS version", choices=openzfs_version_choices)
    special = forms.CharField(
        label="Special mirror (SSD size)",
        required=False,
        max_length=200,
        help_text="Metadata and small blocks on SSDs, e.g. 1TB: one SSD more than the failures the data vdevs survive.",
    )
    slog = forms.CharField(
        label="SLOG mirror (SSD size)",
        required=False,
        max_length=200,
        help_text="A separate log for sync writes: two SSDs, e.g. 16GB.",
    )
    slog_plp = forms.BooleanField(label="The SLOG SSDs have power-loss protection", required=False)
    recordsize = forms.ChoiceField(
        label="Record size",
        required=False,
        choices=[
            ("", f"{format_zfs_size(DEFAULT_RECORDSIZE)} (default)"),
            *((str(format_zfs_size(r)),) * 2 for r in RECORDSIZES if r != DEFAULT_RECORDSIZE),
        ],
    )
    compression = forms.ChoiceField(
        label="Compression",
        required=False,
        choices=[("", f"default ({default('compression', NEWEST_RELEASE)})"), *((c, c) for c in COMPRESSION_VALUES)],
    )
    data = forms.CharField(
        label="Data to store", required=False, max_length=200, help_text="How much you will keep, e.g. 20TB."
    )
    growth = forms.FloatField(
        label="Data growth (% a year)",
        required=False,
        min_value=0,
        max_value=500,
        widget=forms.NumberInput(attrs={"min": 0, "step": "any"}),
        help_text="With the data to store: the year the pool passes 80 % full.",
        error_messages={"invalid": "The growth must be a number of percent, e.g. 30."},
    )
    price = forms.DecimalField(
        label="Price per disk",
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "step": "0.01"}),
        max_digits=12,
        decimal_places=2,
        help_text="Of one data disk, in your currency: gives the cost per usable TB.",
        error_messages={"invalid": "The price must be a number, e.g. 299.99."},
    )
    unit = forms.ChoiceField(label="Show sizes in", choices=UNITS, required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        for name, field in self.fields.items():  # the message slot and the help, read with the field
            field.widget.attrs["aria-describedby"] = f"err-{name}" + (f" help-{name}" if field.help_text else "")
        for name in ("size", "special", "slog", "data"):
            self.fields[name].widget.attrs.update({"autocomplete": "off", "spellcheck": "false"})
        self.fields["disk"].choices = [("", "none: use the size typed above"), *catalog_choices()]
        offer_versions(self, "version")

    def clean_size(self) -> str:
        text = self.cleaned_data["size"]
        return _size_text(text) if text.strip() else ""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("disk") and not data.get("size") and "size" not in self.errors:
            self.add_error("size", "Type the disk size, e.g. 16TB, or pick a disk from the catalog.")
        return data

    def clean_special(self) -> str:
        text = self.cleaned_data["special"]
        return _size_text(text) if text.strip() else ""

    def clean_slog(self) -> str:
        text = self.cleaned_data["slog"]
        return _size_text(text) if text.strip() else ""

    def clean_data(self) -> int | None:
        text = self.cleaned_data["data"]
        return parse_disk_size(_size_text(text)) if text.strip() else None

    def document(self) -> dict[str, Any]:
        return quick_document(self.cleaned_data)

    def query(self) -> str:
        """The canonical query string of the valid form: the five contract fields, then the optional
        ones that are set, in the form's order."""
        return canonical_query(self.data)


def form_data(query: Mapping[str, Any], unit: str = DEFAULT_SIZE_UNIT) -> dict[str, Any]:
    """The form's input: what the query string gives, the defaults for the contract fields it leaves out
    (and ``unit``, the reader's unit, when it gives none)."""
    data: dict[str, Any] = {**DEFAULTS, "unit": unit}
    for name in FIELDS:
        value = query.get(name)
        if value is not None:
            data[name] = value
    return data


def canonical_query(data: Mapping[str, Any]) -> str:
    pairs = []
    for name in FIELDS:
        value = str(data.get(name) or "").strip()
        if name in CONTRACT_FIELDS or (value and value != {**DEFAULTS, "unit": DEFAULT_SIZE_UNIT}.get(name)):
            pairs.append((name, value))
    return urlencode(pairs)


def catalog_choices() -> list[tuple[str, str]]:
    """The catalog's disks as ``(model, label)`` options."""
    return [(model, label) for model, label, _ in _catalog()]


def catalog_price(model: str) -> Decimal | None:
    """The catalog's price of one disk of ``model`` (None when it has none)."""
    return next((price for m, _, price in _catalog() if m == model), None)


def _catalog() -> list[tuple[str, str, Decimal | None]]:
    """Model, label and price of every catalog disk, read once per state of the catalog
    (``planning_stamp`` changes whenever a catalog disk does)."""
    key = f"quick-plan-catalog:{planning_stamp()}"
    rows = cache.get(key)
    if rows is None:
        disks = CatalogDisk.objects.order_by("media", "capacity_bytes", "vendor", "model")
        rows = [(d.model, catalog_label(d), d.price) for d in disks]
        cache.set(key, rows, timeout=ESTIMATE_CACHE_SECONDS)
    return list(rows)


def quick_document(values: Mapping[str, Any]) -> dict[str, Any]:
    """The design document the quick planner's parameters describe (the one place they become one).

    Data vdevs of the typed disk (or the catalog disk); a special mirror with one more SSD than
    the failures the data vdevs survive; a 2-way SLOG mirror; every top-level vdev at ashift 12,
    as ``zpool create -o ashift=12`` sets it; and one dataset when a dataset field is given.
    """
    data_disk: dict[str, Any]
    model = values.get("disk")
    if model:  # one of the catalog's models (the form's choices)
        data_disk = {"catalog": model}
    else:
        data_disk = {"size_bytes": values["size"]}
    data: dict[str, Any] = {
        "role": "data",
        "layout": values["layout"],
        "width": values["disks"],
        "count": values["vdevs"],
        "disk": data_disk,
    }
    if values.get("price") is not None:
        data["price_per_disk"] = str(values["price"])
    vdevs = [data]
    if values.get("special"):
        vdevs.append(
            {
                "role": "special",
                "layout": "mirror",
                "width": special_width(values["layout"], values["disks"]),
                "count": 1,
                "disk": {"size_bytes": values["special"], "media": "ssd"},
            }
        )
    if values.get("slog"):
        ssd: dict[str, Any] = {"size_bytes": values["slog"], "media": "ssd"}
        if values.get("slog_plp"):
            ssd["plp"] = True
        vdevs.append({"role": "log", "layout": "mirror", "width": 2, "count": 1, "disk": ssd})
    doc: dict[str, Any] = {
        "format": FORMAT,
        "name": POOL_NAME,
        "openzfs_version": values["version"],
        "ashift": POOL_ASHIFT,  # the pool's, as `zpool create -o ashift=12` gives every vdev
        "vdevs": vdevs,
    }
    dataset: dict[str, Any] = {}
    if values.get("recordsize"):
        dataset["recordsize"] = values["recordsize"]
    if values.get("compression"):
        dataset["compression"] = values["compression"]
    if values.get("data") is not None:
        dataset["contents"] = {"logical_bytes": values["data"]}
    doc["datasets"] = [{"name": DATASET_NAME, **dataset}] if dataset else []
    if values.get("growth") is not None:
        doc["growth"] = {
            "per_year": round(values["growth"] / 100, 6),
            "horizon_years": GROWTH_HORIZON_YEARS,
            "fill_limit": GROWTH_FILL_LIMIT,
        }
    return doc


def special_width(layout: str, disks: int) -> int:
    """SSDs in the special mirror: the failures one data vdev survives, plus one (at least 2).

    Losing the special class loses the pool, so it gets the data vdevs' redundancy; the
    failures a layout survives come from the core (``vdev_shape.fault_tolerance``)."""
    group = VdevGroup(role=Role.DATA, layout=Layout(layout), width=int(disks), disks=())
    return max(2, min(fault_tolerance(group), 3) + 1)


def field_errors(errors: list[tuple[str, str]], values: Mapping[str, Any]) -> list[tuple[str | None, str]]:
    """The core's errors (``vdevs[0].width: raidz2 needs at least 3 disks``) on the form field they
    concern (``disks``), worded for the person at the form; None for the form as a whole."""
    special = 1 if values.get("special") else None
    slog = (2 if special else 1) if values.get("slog") else None
    out: list[tuple[str | None, str]] = []
    for path, message in errors:
        out.append((_field_for(path, special, slog, values), message))
    return out


def _field_for(path: str, special: int | None, slog: int | None, values: Mapping[str, Any]) -> str | None:
    if path.startswith("openzfs_version"):
        return "version"
    if path.startswith("vdevs[0]"):
        rest = path[len("vdevs[0]") :].lstrip(".")
        if rest.startswith(("width", "draid")):
            return "disks"
        if rest.startswith("count"):
            return "vdevs"
        if rest.startswith("layout"):
            return "layout"
        if rest.startswith("price"):
            return "price"
        if rest.startswith("disk"):
            return "disk" if values.get("disk") else "size"
        return "layout"
    if special is not None and path.startswith(f"vdevs[{special}]"):
        return "special"
    if slog is not None and path.startswith(f"vdevs[{slog}]"):
        return "slog"
    if path == "vdevs":
        return "vdevs"
    if path.startswith("growth"):
        return "growth"
    if path.startswith("datasets[0]"):
        rest = path[len("datasets[0]") :].lstrip(".")
        for key, name in (("recordsize", "recordsize"), ("compression", "compression"), ("contents", "data")):
            if rest.startswith(key):
                return name
    return None
