"""Where a designer form's part of the design is read: a core error path mapped to the form's field
(:func:`field_for_path`), and the errors of a part that does not read put on its form in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms

from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.document.reader import Reader

from ..services.editing import error_text

VDEV_FIELD_KEYS = ("role", "layout", "width", "count", "ashift", "draid_data", "draid_spares", "price_per_disk")
DATASET_FIELD_KEYS = (
    "name",
    "type",
    "recordsize",
    "volblocksize",
    "volsize",
    "compression",
    "special_small_blocks",
    "copies",
    "sync",
)


def field_for_path(section: str, index: int, path: str) -> str | None:
    """The form field an error path of the core names (``vdevs[2].width`` → ``width``), or None."""
    prefix = f"{section}[{index}]"
    if not path.startswith(prefix):
        return None
    rest = path[len(prefix) :].lstrip(".")
    key = rest.split(".", 1)[0].split("[", 1)[0]
    if section == "vdevs":
        if key in VDEV_FIELD_KEYS:
            return key
        if key in ("disk", "disks"):
            return "custom_size" if "size" in rest else "disk"
    if section == "datasets":
        if key in DATASET_FIELD_KEYS:
            return key
        if key == "contents":
            if "logical_bytes_written_before" in rest:
                return "written_before"
            if "dedup_ratio" in rest:
                return "dedup_ratio"
            if "logical_bytes" in rest:
                return "logical_size"
            if "file_count" in rest:
                return "file_count"
            return "profile"
    return None


def merged(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """A part's fields as its form sets them over the part it had (``old``, as the core writes it):
    a field set to None is removed (inherit/auto), and ``contents`` is merged key by key, so what
    the form does not show stays."""
    out = dict(old)
    for key, value in new.items():
        if value is None:
            out.pop(key, None)
        elif key == "contents" and isinstance(value, Mapping):
            contents = dict(out.get("contents") or {})
            for ck, cv in value.items():
                if cv is None:
                    contents.pop(ck, None)
                else:
                    contents[ck] = cv
            if contents:
                out["contents"] = contents
            else:
                out.pop("contents", None)
        else:
            out[key] = value
    return out


def put_errors(
    form: forms.Form, section: str, index: int, errors: Iterable[tuple[str, str]], named: Design | None = None
) -> None:
    """The core's ``errors`` on ``form`` (its part is row ``index`` of ``section``): at the field a
    path names, else at the top of the form with the part named in words, by ``named`` (the changed
    design), or when the part itself did not read, by the fields the form read (its new shape)."""
    words: Design | Mapping[str, Any] = named if named is not None else {section: [*([None] * index), form.read]}
    for path, message in errors:
        field = field_for_path(section, index, path)
        if field is not None and field in form.fields:
            form.add_error(field, message)
        else:
            form.add_error(None, error_text(words, path, message))


class PartForm(forms.Form):
    """A form that reads its part of the design (a vdev group, a dataset) with the core's part reader;
    ``read`` keeps the fields it read, so errors name the part by what was typed."""

    read: Mapping[str, Any] = {}

    def read_part(self, reader: Any, fields: Mapping[str, Any], path: str, *args: Any) -> Any:
        self.read = fields
        return read_part(reader, fields, path, *args)


def read_part(reader: Any, fields: Mapping[str, Any], path: str, *args: Any) -> Any:
    """``reader(r, fields, path, *args)`` (a part reader of ``core.document.parts``); the part, or
    ``InvalidDesign`` with every error of its fields (paths below ``path``)."""
    r = Reader()
    part = reader(r, fields, path, *args)
    if r.errors or part is None:
        raise InvalidDesign(r.errors or [(path, "cannot be read")])
    return part
