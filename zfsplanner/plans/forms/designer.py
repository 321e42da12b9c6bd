"""The designer's forms: pool settings, a dataset, a new design (its vdev group form is in ``vdevs``).

Each form reads its fields into the part of the typed ``Design`` it edits, with the core's part
readers where there is one (``to_dataset()``; the pool form's ``apply()`` sets the pool's fields), and
shows one (``initial_from()``); the rules spanning the parts run when the design is saved, and the
core's error paths (``vdevs[0].width``) are mapped back onto these fields by
:func:`.parts.field_for_path`.
"""

from __future__ import annotations

from typing import Any

from django import forms

from zfsplanner.accounts.services import MAX_TEAM_NAME, TeamError, clean_team_name
from zfsplanner.core.design.types import (
    COMPRESSIBILITY_PROFILES,
    COMPRESSION_VALUES,
    DEFAULT_OPENZFS_VERSION,
    Dataset,
    Design,
    Partitioning,
    VdevGroup,
)
from zfsplanner.core.document.checks import POOL_FEATURES
from zfsplanner.core.document.export import dataset_to_document
from zfsplanner.core.document.parts import read_dataset
from zfsplanner.core.geometry.ashift import DEFAULT_POOL_ASHIFT
from zfsplanner.core.units import format_disk_size, format_zfs_size, parse_disk_size
from zfsplanner.core.versions import Version, supports

from ..choices import DEFAULT_OPENZFS_VERSION as NEWEST_OPENZFS_VERSION
from ..choices import DatasetType, Sync, offer_versions, openzfs_version_choices
from ..choices import Partitioning as PartitioningChoice
from ..models import CatalogDisk
from ..services.editing import set_pool
from .parts import PartForm, merged
from .vdevs import ashift_choices

POWERS = [2**i for i in range(9, 25)]  # 512 B .. 16 MiB
RECORDSIZES = [p for p in POWERS if 4096 <= p <= 16 * 1024 * 1024]
VOLBLOCKSIZES = [p for p in POWERS if 4096 <= p <= 128 * 1024]
SSB_VALUES = [0] + [p for p in POWERS if 4096 <= p <= 16 * 1024 * 1024]


def _size_choices(values: list[int], inherit: str) -> list[tuple[str, str]]:
    return [("", inherit)] + [(str(format_zfs_size(v)), str(format_zfs_size(v))) for v in values]


FAST_DEDUP = [("on", "on"), ("off", "off")]


class PoolForm(forms.Form):
    name = forms.CharField(label="Pool name", max_length=200, help_text="As in zpool create NAME, e.g. tank.")
    description = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    openzfs_version = forms.ChoiceField(label="OpenZFS version", choices=openzfs_version_choices)
    disk_partitioning = forms.ChoiceField(
        label="Disk partitioning",
        choices=[("", "Linux whole disk (default)"), *PartitioningChoice.choices],
        required=False,
        help_text="Whole disks on Linux: zpool starts the data 1 MiB in and keeps 8 MiB at the end.",
    )
    ashift = forms.TypedChoiceField(
        label="Pool ashift",
        choices=ashift_choices("auto (from each group's disks)"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text="auto: each vdev group takes its own from its disks' sectors. A number works as zpool "
        "create -o ashift=N: every vdev gets it; a vdev group may still set its own.",
    )
    fast_dedup = forms.ChoiceField(
        label="Fast dedup",
        choices=[("", "release default"), *FAST_DEDUP],
        required=False,
        help_text="The dedup table format of OpenZFS 2.3 and later (zpool feature fast_dedup): it only matters "
        "for datasets with dedup on. The default is what zpool create enables on the chosen release: on from 2.3.",
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_versions(self)
        version = self.data.get(self.add_prefix("openzfs_version")) or self.initial.get("openzfs_version")
        version = str(version or DEFAULT_OPENZFS_VERSION)
        try:
            default = "on" if supports(Version.parse(version), POOL_FEATURES["fast_dedup"]) else "off"
        except ValueError:  # a version the form refuses anyway
            return
        self.fields["fast_dedup"].choices = [("", f"{default} (default of {version})"), *FAST_DEDUP]

    def apply(self, design: Design) -> Design:
        """``design`` with the pool's settings of these fields (a new name renames its datasets);
        ``features`` keeps what the design sets besides fast dedup."""
        d = self.cleaned_data
        features = {k: v for k, v in (design.features or {}).items() if k != "fast_dedup"}
        if d["fast_dedup"]:
            features["fast_dedup"] = d["fast_dedup"] == "on"
        return set_pool(
            design,
            name=d["name"].strip(),
            description=d["description"].strip() or None,
            openzfs_version=Version.parse(d["openzfs_version"]),
            disk_partitioning=Partitioning(d["disk_partitioning"]) if d["disk_partitioning"] else None,
            ashift=d["ashift"],
            features=features or None,
        )

    @staticmethod
    def initial_from(design: Design) -> dict[str, Any]:
        fast = (design.features or {}).get("fast_dedup")
        return {
            "name": design.name,
            "description": design.description or "",
            "openzfs_version": design.openzfs_version.name if design.openzfs_version else None,
            "disk_partitioning": design.disk_partitioning.value if design.disk_partitioning else "",
            "ashift": design.ashift,
            "fast_dedup": "" if fast is None else "on" if fast else "off",
        }

    def field_for(self, path: str) -> str | None:
        """The field an error path of the core names (``features.fast_dedup`` → ``fast_dedup``), or None."""
        key = path.rsplit(".", 1)[-1] if path.startswith("features.") else path
        return key if key in self.fields else None


COMPRESSION_CHOICES = [("", "inherit")] + [(c, c) for c in COMPRESSION_VALUES]


class DatasetForm(PartForm):
    """A filesystem or volume; empty property fields inherit (the designer shows from where)."""

    name = forms.CharField(max_length=255, help_text="Full name, e.g. tank/media.")
    type = forms.ChoiceField(choices=DatasetType.choices, initial=DatasetType.FILESYSTEM)
    recordsize = forms.ChoiceField(choices=_size_choices(RECORDSIZES, "inherit"), required=False)
    volblocksize = forms.ChoiceField(choices=_size_choices(VOLBLOCKSIZES, "default"), required=False)
    volsize = forms.CharField(
        label="Volume size", required=False, max_length=40, help_text='Volumes only, e.g. "100G".'
    )
    compression = forms.ChoiceField(choices=COMPRESSION_CHOICES, required=False)
    special_small_blocks = forms.ChoiceField(
        label="special_small_blocks",
        choices=[("", "inherit")] + [(str(format_zfs_size(v)), str(format_zfs_size(v))) for v in SSB_VALUES],
        required=False,
    )
    copies = forms.ChoiceField(choices=[("", "inherit"), ("1", "1"), ("2", "2"), ("3", "3")], required=False)
    sync = forms.ChoiceField(choices=[("", "inherit"), *Sync.choices], required=False)
    logical_size = forms.CharField(
        label="Data to store",
        required=False,
        max_length=40,
        help_text='How much this dataset will hold, e.g. "8TB" or "1.5TiB".',
    )
    file_count = forms.IntegerField(label="Number of files", min_value=0, required=False)
    profile = forms.ChoiceField(
        label="Kind of data",
        choices=[("", "not said")] + [(p, p.replace("-", " ")) for p in COMPRESSIBILITY_PROFILES],
        required=False,
        help_text="How well it compresses: a profile, unless a measured ratio is set.",
    )
    written_before = forms.CharField(
        label="Written before expansion",
        required=False,
        max_length=40,
        help_text="How much of the data to store was already written when the RAIDZ vdev was widened, "
        'e.g. "6TB": it keeps the old ratio of data to parity until it is rewritten. Blank: none.',
    )
    dedup_ratio = forms.FloatField(
        label="Dedup ratio",
        required=False,
        min_value=1.0,
        max_value=1_000_000,
        error_messages={
            "min_value": "The dedup ratio is at least 1.00 (1.00: no block repeats).",
            "max_value": "The dedup ratio is at most 1,000,000.",
            "invalid": "Enter the dedup ratio as a number, e.g. 1.5 (as zpool list prints DEDUP).",
        },
        help_text="This dataset's data over its unique data, as zpool list prints DEDUP, e.g. 1.5; "
        "it sizes the dedup table. Blank: every block unique, the largest table.",
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, expanded: bool = True, dedup: bool = True, **kwargs: Any) -> None:
        """``expanded``: offer "data written before the expansion" (the pool has a widened RAIDZ vdev);
        ``dedup``: offer the dedup ratio (dedup is on for the dataset). A field left out keeps its value."""
        super().__init__(*args, **kwargs)
        for name, shown in (("written_before", expanded), ("dedup_ratio", dedup)):
            if not shown:
                del self.fields[name]

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        for text, key in (("logical_size", "logical_bytes"), ("written_before", "logical_bytes_written_before")):
            if d.get(text):
                try:
                    d[key] = parse_disk_size(d[text])
                except ValueError as exc:
                    self.add_error(text, str(exc))
        return d

    def to_dataset(self, old: Dataset | None, index: int, pool: str) -> Dataset:
        """The dataset these fields make, over ``old`` (what the form does not show stays: quota, a
        histogram, unknown keys), read as the ``index``-th dataset of the pool ``pool`` by the core's
        reader; ``InvalidDesign`` with the reader's errors (``datasets[index].volsize``, ...) otherwise."""
        base = {} if old is None else dataset_to_document(old)
        fields = self._fields(base.get("contents"))
        return self.read_part(read_dataset, merged(base, fields), f"datasets[{index}]", pool)  # type: ignore[no-any-return]

    def _fields(self, old_contents: Any) -> dict[str, Any]:
        """The dataset's keys as the design format writes them (None: inherit, removed)."""
        d = self.cleaned_data
        volume = d["type"] == DatasetType.VOLUME
        out: dict[str, Any] = {
            "name": d["name"].strip(),
            "type": d["type"],
            "recordsize": None if volume else d["recordsize"] or None,
            "volblocksize": d["volblocksize"] or None if volume else None,
            "volsize": d["volsize"].strip() or None if volume else None,
            "compression": d["compression"] or None,
            "special_small_blocks": d["special_small_blocks"] or None,
            "copies": int(d["copies"]) if d["copies"] else None,
            "sync": d["sync"] or None,
        }
        compressibility = (old_contents or {}).get("compressibility")
        if d["profile"]:
            if not (isinstance(compressibility, dict) and compressibility.get("profile") == d["profile"]):
                compressibility = {"profile": d["profile"]}
        elif isinstance(compressibility, dict) and "profile" in compressibility:
            compressibility = None
        out["contents"] = {
            "logical_bytes": d.get("logical_bytes"),
            "file_count": d["file_count"],
            "compressibility": compressibility,
        }
        if "written_before" in self.fields:
            out["contents"]["logical_bytes_written_before"] = d.get("logical_bytes_written_before")
        if "dedup_ratio" in self.fields:
            out["contents"]["dedup_ratio"] = d["dedup_ratio"]
        return out

    @staticmethod
    def initial_from(ds: Dataset) -> dict[str, Any]:
        contents = ds.contents
        comp = contents.compressibility if contents is not None else None
        return {
            "name": ds.name,
            "type": ds.type.value,
            "recordsize": _size_text(ds.recordsize),
            "volblocksize": _size_text(ds.volblocksize),
            "volsize": _size_text(ds.volsize),
            "compression": ds.compression or "",
            "special_small_blocks": _size_text(ds.special_small_blocks),
            "copies": str(ds.copies) if ds.copies else "",
            "sync": ds.sync.value if ds.sync else "",
            "logical_size": _bytes_text(contents.logical_bytes if contents else None),
            "file_count": contents.file_count if contents else None,
            "profile": (comp.profile or "") if comp else "",
            "written_before": _bytes_text(contents.logical_bytes_written_before if contents else None),
            "dedup_ratio": contents.dedup_ratio if contents else None,
        }


def _bytes_text(value: int | None) -> str:
    """A byte count of the contents as the size fields take it back (``8TB``, ``100GiB``)."""
    return "" if value is None else format_disk_size(value)


def _size_text(value: int | None) -> str:
    return "" if value is None else str(format_zfs_size(value))


class NewDesignForm(forms.Form):
    """A new design starts with its team, pool name, OpenZFS version and first data vdev group."""

    team = forms.ModelChoiceField(queryset=CatalogDisk.objects.none(), empty_label=None)
    new_team = forms.CharField(
        label="Or a new team",
        required=False,
        max_length=MAX_TEAM_NAME,
        help_text="A name here puts the design in a new team that you own.",
    )
    name = forms.CharField(label="Pool name", max_length=200, initial="tank", help_text="As in zpool create NAME.")
    openzfs_version = forms.ChoiceField(
        label="OpenZFS version", choices=openzfs_version_choices, initial=NEWEST_OPENZFS_VERSION
    )

    def __init__(self, *args: Any, teams: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_versions(self)
        self.fields["team"].queryset = teams

    def clean_new_team(self) -> str:
        name = self.cleaned_data["new_team"].strip()
        if name:
            try:
                clean_team_name(name)
            except TeamError as exc:
                raise forms.ValidationError(f"The team name {exc.message}.") from exc
        return name

    def to_design(self, first_group: VdevGroup) -> Design:
        return Design(
            name=self.cleaned_data["name"].strip(),
            vdevs=(first_group,),
            openzfs_version=Version.parse(self.cleaned_data["openzfs_version"]),
            ashift=DEFAULT_POOL_ASHIFT,  # as an expert creates a pool: every vdev 4K-aligned, one ashift
        )
