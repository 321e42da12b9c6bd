"""HTML forms: a design document pasted as JSON, or uploaded as a file."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from zfsplanner.accounts.models import Team
from zfsplanner.core.design import InvalidDesign

from .services import META_KEYS, validate_document, writable_teams


def read_json(text: str, what: str = "document") -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(
            f"The {what} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from exc


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
            self.fields["team"].queryset = writable_teams(user)
            self.fields["team"].required = True
        else:
            del self.fields["team"]

    def clean_document(self) -> dict[str, Any]:
        doc = read_json(self.cleaned_data["document"])
        if isinstance(doc, dict):
            doc = {k: v for k, v in doc.items() if k not in META_KEYS}
        try:
            validate_document(doc)
        except InvalidDesign as exc:
            raise forms.ValidationError([f"{f}: {m}" if f else m for f, m in exc.errors]) from exc
        return doc


class DesignImportForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), empty_label=None)
    file = forms.FileField(help_text="A design JSON file, e.g. one exported from zfsplanner.")

    MAX_BYTES = 5 * 1024 * 1024

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = writable_teams(user)

    def clean_file(self) -> dict[str, Any]:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(f"{upload.name} is larger than 5 MiB; a design is a few kilobytes.")
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(f"{upload.name} is not UTF-8 text.") from exc
        doc = read_json(text, what=f"file {upload.name}")
        if isinstance(doc, dict):
            doc = {k: v for k, v in doc.items() if k not in META_KEYS}
        try:
            validate_document(doc)
        except InvalidDesign as exc:
            raise forms.ValidationError([f"{f}: {m}" if f else m for f, m in exc.errors]) from exc
        return doc
