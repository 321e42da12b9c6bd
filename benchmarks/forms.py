from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from zfsplanner.core.units import format_zfs_size
from zfsplanner.plans.models import CatalogDisk, PoolDesign

from .choices import SyncSetting, ZilLocation
from .models import (
    LABEL_MAX_LENGTH,
    NOTES_MAX_LENGTH,
    TARGET_MAX_LENGTH,
    BenchRun,
    TargetKind,
)
from .run_settings import clean_run_settings


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = data if isinstance(data, list | tuple) else [data]
        files = [f for f in files if f]
        if not files and self.required:
            raise ValidationError("Choose one or more benchmark log files.")
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


def _pairs(mapping: dict[str, str] | None) -> str:
    return "\n".join(f"{k}={v}" for k, v in (mapping or {}).items())


class RunSettingsForm(forms.Form):
    """The settings fields of a run, stored together as ``BenchRun.settings`` (see run_settings)."""

    sync = forms.ChoiceField(choices=[("", "—"), *SyncSetting.choices], required=False)
    compression = forms.CharField(required=False, max_length=200, help_text="off, lz4, zstd-3 …")
    recordsize = forms.CharField(required=False, max_length=20, help_text="e.g. 128K (datasets)")
    volblocksize = forms.CharField(required=False, max_length=20, help_text="e.g. 16K (zvols)")
    zil = forms.ChoiceField(label="ZIL", choices=[("", "—"), *ZilLocation.choices], required=False)
    slog_device = forms.CharField(
        label="SLOG device", required=False, max_length=200, help_text="e.g. SSD, HDD, Optane"
    )
    tunables = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), help_text="name=value a line, e.g. zfs_nocacheflush=1"
    )
    extra = forms.CharField(
        label="Other settings", required=False, widget=forms.Textarea(attrs={"rows": 2}), help_text="name=value a line"
    )

    SETTINGS_FIELDS = ("sync", "compression", "recordsize", "volblocksize", "zil", "slog_device", "tunables", "extra")

    @staticmethod
    def settings_initial(s: dict[str, Any]) -> dict[str, Any]:
        return {
            "sync": s.get("sync", ""),
            "compression": s.get("compression", ""),
            "recordsize": format_zfs_size(s["recordsize_bytes"]) if s.get("recordsize_bytes") else "",
            "volblocksize": format_zfs_size(s["volblocksize_bytes"]) if s.get("volblocksize_bytes") else "",
            "zil": s.get("zil", ""),
            "slog_device": s.get("slog_device", ""),
            "tunables": _pairs(s.get("tunables")),
            "extra": _pairs(s.get("extra")),
        }

    def clean_settings(self) -> dict[str, Any]:
        c = self.cleaned_data
        raw = {
            "sync": c.get("sync"),
            "compression": c.get("compression"),
            "recordsize_bytes": c.get("recordsize"),
            "volblocksize_bytes": c.get("volblocksize"),
            "zil": c.get("zil"),
            "slog_device": c.get("slog_device"),
            "tunables": c.get("tunables"),
            "extra": c.get("extra"),
        }
        try:
            return clean_run_settings(raw)
        except ValidationError as exc:
            names = {"recordsize_bytes": "recordsize", "volblocksize_bytes": "volblocksize", "settings": None}
            for key, messages in exc.message_dict.items():
                for m in messages:
                    self.add_error(names.get(key, key), m)
            return {}


def _team_designs(team_ids: Any) -> Any:
    return PoolDesign.objects.filter(team_id__in=team_ids).select_related("team")


class UploadForm(RunSettingsForm):
    files = MultipleFileField(label="Benchmark logs")
    team = forms.ModelChoiceField(queryset=None, empty_label=None)  # type: ignore[arg-type]
    label = forms.CharField(
        required=False, max_length=LABEL_MAX_LENGTH, help_text="Shown in charts; defaults to the file name."
    )
    target_kind = forms.ChoiceField(choices=[("", "—"), *TargetKind.choices], required=False)
    target = forms.CharField(required=False, max_length=TARGET_MAX_LENGTH, help_text="e.g. tank/vm-101 over iSCSI")
    design = forms.ModelChoiceField(queryset=PoolDesign.objects.none(), required=False)
    catalog_disk = forms.ModelChoiceField(queryset=CatalogDisk.objects.all(), required=False, label="Disk")

    def __init__(self, *args: Any, teams: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams
        self.fields["design"].queryset = _team_designs(teams.values("pk"))
        self.order_fields(["files", "team", "label", "target_kind", "target", "design", "catalog_disk"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        design, team = cleaned.get("design"), cleaned.get("team")
        if design is not None and team is not None and design.team_id != team.pk:
            self.add_error("design", f"{design} belongs to another team")
        cleaned["settings"] = self.clean_settings()
        return cleaned

    def run_fields(self) -> dict[str, Any]:
        c = self.cleaned_data
        return {k: c.get(k) for k in ("label", "target_kind", "target", "design", "catalog_disk", "settings")} | {
            "label": c.get("label") or "",
            "target_kind": c.get("target_kind") or "",
            "target": c.get("target") or "",
        }


class RunForm(RunSettingsForm, forms.ModelForm):  # type: ignore[misc]
    notes = forms.CharField(required=False, max_length=NOTES_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 3}))

    class Meta:
        model = BenchRun
        fields = ["label", "target_kind", "target", "design", "catalog_disk", "notes"]
        labels = {"catalog_disk": "Disk"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        instance: BenchRun = kwargs["instance"]
        kwargs.setdefault("initial", {}).update(self.settings_initial(instance.settings or {}))
        super().__init__(*args, **kwargs)
        self.fields["design"].queryset = _team_designs([instance.team_id])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["settings"] = self.clean_settings()
        return cleaned

    def measured_fields(self) -> list[Any]:
        return [self[name] for name in self.Meta.fields]

    def settings_fields(self) -> list[Any]:
        return [self[name] for name in self.SETTINGS_FIELDS]

    def save(self, commit: bool = True) -> BenchRun:
        self.instance.settings = self.cleaned_data["settings"]
        return super().save(commit)  # type: ignore[no-any-return]
