"""Changes the designer makes to a design document, as plain functions over the document.

Every function takes the current document (a dict, as ``PoolDesign.to_document()`` gives
it) and returns a new one; nothing is changed in place and nothing is saved here. The
designer's views validate and save the result with ``services.save_design_document`` as
one new revision, so a change is applied completely or not at all.

Keys the designer's forms do not show (unknown keys, ``contents`` details such as a
histogram) are kept as they are.

What a page says about a change or an error names the part as a person would
(:func:`change_summary`, :func:`error_text`: "added the special mirror (group 2)",
"Size of disk 2 of the data vdevs (group 1: 8-wide raidz2): ..."), never by its JSON path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from zfsplanner.core.design.types import Design
from zfsplanner.core.naming import element_label, sentence_case

from ..models import json_copy

Doc = dict[str, Any]
SECTIONS = ("vdevs", "datasets")


class EditError(ValueError):
    """A change that cannot apply to this document (an index that does not exist...)."""


def _section(doc: Mapping[str, Any], section: str) -> list[Any]:
    if section not in SECTIONS:
        raise EditError(f"unknown section {section!r}")
    items = doc.get(section)
    return list(items) if isinstance(items, list) else []


def _index(items: list[Any], index: int, section: str) -> int:
    if not 0 <= index < len(items):
        raise EditError(f"{section}[{index}] does not exist (the design has {len(items)})")
    return index


def _with(doc: Mapping[str, Any], section: str, items: list[Any]) -> Doc:
    out = json_copy(dict(doc))
    out[section] = items
    return out


def put_item(doc: Mapping[str, Any], section: str, index: int | None, item: Mapping[str, Any]) -> Doc:
    """Replace item ``index`` of ``section`` (keeping keys the form does not know), or append it."""
    items = _section(doc, section)
    if index is None:
        items.append(merge_item({}, item))
    else:
        old = items[_index(items, index, section)]
        items[index] = merge_item(old if isinstance(old, Mapping) else {}, item)
    return _with(doc, section, items)


def merge_item(old: Mapping[str, Any], new: Mapping[str, Any]) -> Doc:
    """The form's keys from ``new`` over ``old``; a form key set to None is removed (inherit/auto)."""
    out = {k: v for k, v in old.items()}
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
    if "disk" in new and new["disk"] is not None:
        out.pop("disks", None)
    return out


def remove_item(doc: Mapping[str, Any], section: str, index: int) -> Doc:
    items = _section(doc, section)
    del items[_index(items, index, section)]
    return _with(doc, section, items)


def duplicate_item(doc: Mapping[str, Any], section: str, index: int) -> Doc:
    """A copy right after the original; a dataset's copy gets a free name (``tank/data-2``)."""
    items = _section(doc, section)
    copy_ = json_copy(items[_index(items, index, section)])
    if section == "datasets" and isinstance(copy_, dict):
        taken = {d.get("name") for d in items if isinstance(d, Mapping)}
        base = str(copy_.get("name", "dataset"))
        n = 2
        while f"{base}-{n}" in taken:
            n += 1
        copy_["name"] = f"{base}-{n}"
    items.insert(index + 1, copy_)
    return _with(doc, section, items)


def move_item(doc: Mapping[str, Any], section: str, index: int, delta: int) -> Doc:
    """Move item ``index`` up (delta −1) or down (+1); at either end nothing moves."""
    items = _section(doc, section)
    _index(items, index, section)
    target = index + delta
    if not 0 <= target < len(items):
        return _with(doc, section, items)
    items[index], items[target] = items[target], items[index]
    return _with(doc, section, items)


def rename_pool(doc: Mapping[str, Any], name: str) -> Doc:
    """The pool renamed, with its datasets (``old/...`` and ``old`` itself) renamed along."""
    out = json_copy(dict(doc))
    old = str(out.get("name", ""))
    out["name"] = name
    for ds in out.get("datasets") or []:
        if isinstance(ds, dict) and isinstance(ds.get("name"), str):
            if ds["name"] == old:
                ds["name"] = name
            elif ds["name"].startswith(old + "/"):
                ds["name"] = name + ds["name"][len(old) :]
    return out


def set_pool(doc: Mapping[str, Any], fields: Mapping[str, Any]) -> Doc:
    """Pool-level keys (name, description, version, partitioning); None removes a key.

    A new name renames the datasets under the pool too, as ``zpool`` names them after it.
    """
    out = json_copy(dict(doc))
    if fields.get("name") and fields["name"] != out.get("name"):
        out = rename_pool(out, str(fields["name"]))
    for key, value in fields.items():
        if value is None or value == "":
            out.pop(key, None)
        else:
            out[key] = value
    return out


def apply_operation(doc: Mapping[str, Any], op: str, section: str, index: int) -> Doc:
    """The row buttons of the designer: ``remove``, ``duplicate``, ``up``, ``down``."""
    if op == "remove":
        return remove_item(doc, section, index)
    if op == "duplicate":
        return duplicate_item(doc, section, index)
    if op in ("up", "down"):
        return move_item(doc, section, index, -1 if op == "up" else 1)
    raise EditError(f"unknown operation {op!r}")


OPERATION_WORDS: Mapping[str, str] = {
    "add": "added",
    "change": "changed",
    "remove": "removed",
    "duplicate": "duplicated",
    "up": "moved up",
    "down": "moved down",
}


OPERATION_GERUNDS: Mapping[str, str] = {
    "add": "adding",
    "change": "changing",
    "remove": "removing",
    "duplicate": "duplicating",
    "up": "moving up",
    "down": "moving down",
}


def change_summary(op: str, doc: Mapping[str, Any], section: str, index: int, *, attempted: bool = False) -> str:
    """A revision's summary: ``added the special mirror (group 2)``, ``removed dataset tank/media``;
    with ``attempted``, the change that was refused: ``removing the data vdev (group 1: 6-wide raidz2)``.

    ``doc`` is the document that has the row at ``index``: the new one for an added or changed
    row, the one before the change for a row that is removed, duplicated or moved.
    """
    words = OPERATION_GERUNDS if attempted else OPERATION_WORDS
    return f"{words.get(op, op)} {element_label(doc, f'{section}[{index}]')}"


def error_text(doc: Any, path: str, message: str) -> str:
    """One error of the core (a JSON path and a message) as a page shows it: the part named in words.

    ``host.ram_bytes``, "must be at least 1" → "The host's RAM: must be at least 1". ``doc`` is the
    document or ``Design`` the error is about (it names the vdev groups and datasets); the API keeps the path.
    """
    if not path:
        return sentence_case(message)
    return f"{sentence_case(element_label(doc if isinstance(doc, Mapping | Design) else None, path))}: {message}"


def error_texts(doc: Any, errors: Iterable[tuple[str, str]]) -> list[str]:
    """:func:`error_text` of every (path, message) pair."""
    return [error_text(doc, path, message) for path, message in errors]
