"""HTML forms: a design document pasted as JSON or uploaded as a file, share links, compression samples."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.limits import MAX_DOCUMENT_BYTES, DocumentLimitError, load_json_document
from zfsplanner.core.geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from zfsplanner.uploads.text import UnreadableUpload, read_text

from ..choices import offer_versions, openzfs_version_choices
from ..services.designs import META_KEYS, validate_document
from ..services.editing import error_texts
from ..services.samples import check_algorithm, check_recordsize, too_big_message


def read_json(text: str, what: str = "document") -> Any:
    """The JSON value of ``text``, within the document limits (size, nesting: core/document/limits.py)."""
    try:
        return load_json_document(text)
    except DocumentLimitError as exc:
        raise forms.ValidationError(f"The {what} is refused: {exc}.") from exc
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(
            f"The {what} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from exc
    except ValueError as exc:
        raise forms.ValidationError(f"The {what} is not valid JSON: {exc}.") from exc


class DesignDocumentForm(forms.Form):
    """The design document as JSON text; ``team`` only when creating a design."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False, empty_label=None)
    document = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "cols": 100, "spellcheck": "false", "class": "code"}),
        help_text='A zfsplanner.design/1 document. Disks may reference the catalog: {"catalog": "MN08ACA14T"}.',
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, user: Any, with_team: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if with_team:
            self.fields["team"].queryset = Team.objects.writable_by(user)
            self.fields["team"].required = True
        else:
            del self.fields["team"]

    def clean_document(self) -> dict[str, Any]:
        return checked_document(read_json(self.cleaned_data["document"]))


def checked_document(doc: Any) -> Any:
    """A posted or uploaded design document without its server-side keys, checked as the API checks
    it; refused with the errors in words (the part named, not its path)."""
    if isinstance(doc, dict):
        doc = {k: v for k, v in doc.items() if k not in META_KEYS}
    try:
        validate_document(doc)
    except InvalidDesign as exc:
        raise forms.ValidationError(error_texts(doc, exc.errors)) from exc
    return doc


class DesignImportForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), empty_label=None)
    file = forms.FileField(help_text="A design JSON file, e.g. one exported from zfsplanner.")

    MAX_BYTES = MAX_DOCUMENT_BYTES

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.writable_by(user)

    def clean_file(self) -> dict[str, Any]:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(f"{upload.name} is larger than 1 MiB; a design is a few kilobytes.")
        try:
            text = read_text(upload.read(), upload.name)
        except UnreadableUpload as exc:
            raise forms.ValidationError(str(exc.detail)) from exc
        return checked_document(read_json(text, what=f"file {upload.name}"))


class ShareLinkForm(forms.Form):
    """A new read-only link; it works until revoked, or until it expires."""

    EXPIRY_CHOICES = [("", "never (until revoked)"), ("1", "in 1 day"), ("7", "in 7 days"), ("30", "in 30 days")]

    expires_in_days = forms.TypedChoiceField(
        label="Expires", choices=EXPIRY_CHOICES, coerce=int, empty_value=None, required=False
    )

    def expires(self) -> datetime | None:
        days = self.cleaned_data.get("expires_in_days")
        return timezone.now() + timedelta(days=days) if days else None


class CompressionSampleForm(forms.Form):
    """A sample file and the settings to compress it with (the dataset's and pool's by default)."""

    dataset = forms.CharField(widget=forms.HiddenInput)
    file = forms.FileField(label="Sample file", help_text="A representative part of the data.")
    algorithm = forms.CharField(label="compression", max_length=20, help_text="lz4, zstd, zstd-9, gzip-6, zle, off…")
    recordsize = forms.CharField(label="recordsize", max_length=12, help_text="128K, 1M…")
    ashift = forms.IntegerField(label="ashift", min_value=ASHIFT_MIN, max_value=ASHIFT_MAX)
    openzfs_version = forms.ChoiceField(label="OpenZFS", choices=openzfs_version_choices)

    def __init__(self, *args: Any, too_big: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.too_big = too_big
        offer_versions(self)

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > settings.COMPRESSION_SAMPLE_MAX_BYTES:
            raise forms.ValidationError(too_big_message())
        return upload

    def clean_recordsize(self) -> int:
        try:
            return check_recordsize(self.cleaned_data["recordsize"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.too_big:
            self.errors.pop("file", None)
            self.add_error("file", too_big_message())
        if "algorithm" in cleaned and "openzfs_version" in cleaned:
            try:
                cleaned["algorithm"] = check_algorithm(cleaned["algorithm"], cleaned["openzfs_version"])
            except ValueError as exc:
                self.add_error("algorithm", str(exc))
        return cleaned


class MeasuredRatioForm(forms.Form):
    """'Use this ratio': what a measurement found, to store in the dataset's contents."""

    dataset = forms.CharField(widget=forms.HiddenInput)
    ratio = forms.FloatField(min_value=1.0, widget=forms.HiddenInput)
    algorithm = forms.CharField(max_length=20, widget=forms.HiddenInput)
    recordsize = forms.IntegerField(min_value=512, widget=forms.HiddenInput)
