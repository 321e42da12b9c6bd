from __future__ import annotations

from typing import Any

from django import forms

from zfsplanner.accounts.models import Team
from zfsplanner.uploads.text import read_text

from .models import HistogramFormat


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


def read_files(files: list[Any]) -> list[tuple[str, str]]:
    """``(name, text)`` of uploaded outputs; each spooled file is removed once read (the text is what is
    stored). A NUL, UTF-16 or bytes that are not UTF-8 are refused (``UnreadableUpload``), naming the line."""
    out = []
    try:
        for f in files:
            out.append((f.name, read_text(f.read(), f.name)))
    finally:
        for f in files:
            f.close()
    return out


class PoolImportForm(forms.Form):
    text = forms.CharField(
        label="Outputs of the pool",
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "autocomplete": "off",
                                     "aria-describedby": "text-help",
                                     "placeholder": "$ zpool status tank\n  pool: tank\n state: ONLINE\n..."}),
        help_text="Paste zpool status POOL and, for exact figures, zpool list -v -p POOL, zpool get all POOL, "
                  "zfs get -p -r all POOL (or zfs list -p) and "
                  "lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA, in any order, with or without the "
                  "$ command lines.",
    )
    files = MultipleFileField(label="…or upload files with those outputs", required=False)
    pool = forms.CharField(label="Pool (when the outputs show several)", required=False, max_length=255)

    def sources(self) -> list[tuple[str, str]]:
        out = []
        if self.cleaned_data.get("text", "").strip():
            out.append(("pasted text", self.cleaned_data["text"]))
        return out + read_files(self.cleaned_data.get("files") or [])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("text") or "").strip() and not data.get("files"):
            raise forms.ValidationError("Paste the outputs or choose files that hold them.")
        return data


class SaveImportForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label="Team")
    name = forms.CharField(label="Pool name", max_length=255)

    def __init__(self, *args: Any, teams: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams if teams is not None else Team.objects.none()


class HistogramForm(forms.Form):
    dataset = forms.ChoiceField(label="Dataset")
    format = forms.ChoiceField(label="Format", choices=HistogramFormat.choices, initial=HistogramFormat.AUTO)
    text = forms.CharField(
        label="Paste a listing",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off",
                                     "placeholder": "find /data -type f -printf '%s\\n'   or   du -ab /data"}),
    )
    file = forms.FileField(label="…or upload it (any size: it is bucketed in the background)", required=False)

    def __init__(self, *args: Any, datasets: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dataset"].choices = [(d, d) for d in datasets or []]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("text") or "").strip() and not data.get("file"):
            raise forms.ValidationError("Paste a listing or choose a file.")
        return data
