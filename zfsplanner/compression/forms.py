from __future__ import annotations

from typing import Any

from django import forms

from zfsplanner.core.geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from zfsplanner.plans.choices import DEFAULT_OPENZFS_VERSION, offer_versions, openzfs_version_choices

from . import services


class SampleForm(forms.Form):
    file = forms.FileField(label="Sample file", help_text="A representative part of the data (any size).")
    algorithms = forms.CharField(
        initial="lz4,zstd,zstd-7,gzip-9", help_text="Comma list: lz4, zstd, zstd-N, zstd-fast-N, gzip-N, zle, lzjb."
    )
    recordsize = forms.CharField(initial="128K,1M", help_text="Comma list of record sizes.")
    ashift = forms.IntegerField(initial=12, min_value=ASHIFT_MIN, max_value=ASHIFT_MAX)
    openzfs_version = forms.ChoiceField(
        label="OpenZFS", choices=openzfs_version_choices, initial=DEFAULT_OPENZFS_VERSION
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_versions(self)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            cleaned["options"] = services.parse_options(
                cleaned.get("algorithms"),
                cleaned.get("recordsize"),
                cleaned.get("ashift"),
                cleaned.get("openzfs_version"),
            )
        except services.OptionError as exc:
            self.add_error(exc.field if exc.field in self.fields else "algorithms", exc.message)
        upload = cleaned.get("file")
        if upload is not None and not upload.size:
            self.add_error("file", "an empty file says nothing about compression")
        if upload is not None and upload.size > services.upload_limit():
            self.add_error("file", "the file is larger than the upload limit")
        return cleaned
