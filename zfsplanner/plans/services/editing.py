"""Changes the designer makes to a design, as plain functions over the typed ``Design``.

Every function takes the current design (``PoolDesign.to_spec()``) and returns a new one
(``dataclasses.replace``); nothing is changed in place and nothing is saved here. A form reads
its part (a vdev group, a dataset, the host) where it comes in, with the core's part readers, and
the part carries every field, the ones the form does not show too. The designer's views save the
result with ``services.save_design``, which checks the rules spanning the parts before it writes
one new revision, so a change is applied completely or not at all.

What a page says about a change or an error names the part as a person would
(:func:`change_summary`, :func:`error_text`: "added the special mirror (group 2)",
"Size of disk 2 of the data vdevs (group 1: 8-wide raidz2): ..."), never by its JSON path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from zfsplanner.core.design.types import Dataset, Design, Partitioning, VdevGroup
from zfsplanner.core.naming import element_label, sentence_case
from zfsplanner.core.versions import Version

SECTIONS = ("vdevs", "datasets")


class EditError(ValueError):
    """A change that cannot apply to this design (an index that does not exist...)."""


def _items(design: Design, section: str) -> list[Any]:
    if section not in SECTIONS:
        raise EditError(f"unknown section {section!r}")
    return list(design.vdevs if section == "vdevs" else design.datasets)


def _index(items: list[Any], index: int, section: str) -> int:
    if not 0 <= index < len(items):
        raise EditError(f"{section}[{index}] does not exist (the design has {len(items)})")
    return index


def _with(design: Design, section: str, items: list[Any]) -> Design:
    return replace(design, vdevs=tuple(items)) if section == "vdevs" else replace(design, datasets=tuple(items))


def _put(design: Design, section: str, index: int | None, part: Any) -> Design:
    items = _items(design, section)
    if index is None:
        items.append(part)
    else:
        items[_index(items, index, section)] = part
    return _with(design, section, items)


def put_group(design: Design, index: int | None, group: VdevGroup) -> Design:
    """Vdev group ``index`` replaced by ``group`` (read by its form, with what the form does not
    show), or ``group`` added after the others when ``index`` is None."""
    return _put(design, "vdevs", index, group)


def put_dataset(design: Design, index: int | None, dataset: Dataset) -> Design:
    """Dataset ``index`` replaced by ``dataset``, or ``dataset`` added after the others."""
    return _put(design, "datasets", index, dataset)


def remove_item(design: Design, section: str, index: int) -> Design:
    items = _items(design, section)
    del items[_index(items, index, section)]
    return _with(design, section, items)


def duplicate_item(design: Design, section: str, index: int) -> Design:
    """A copy right after the original; a dataset's copy gets a free name (``tank/data-2``)."""
    items = _items(design, section)
    copy_ = items[_index(items, index, section)]
    if isinstance(copy_, Dataset):
        taken = {d.name for d in items}
        n = 2
        while f"{copy_.name}-{n}" in taken:
            n += 1
        copy_ = replace(copy_, name=f"{copy_.name}-{n}")
    items.insert(index + 1, copy_)
    return _with(design, section, items)


def move_item(design: Design, section: str, index: int, delta: int) -> Design:
    """Move item ``index`` up (delta −1) or down (+1); at either end nothing moves."""
    items = _items(design, section)
    _index(items, index, section)
    target = index + delta
    if not 0 <= target < len(items):
        return design
    items[index], items[target] = items[target], items[index]
    return _with(design, section, items)


def rename_pool(design: Design, name: str) -> Design:
    """The pool renamed, with its datasets (``old/...`` and ``old`` itself) renamed along."""
    old = design.name

    def renamed(ds: Dataset) -> Dataset:
        if ds.name == old:
            return replace(ds, name=name)
        if ds.name.startswith(old + "/"):
            return replace(ds, name=name + ds.name[len(old) :])
        return ds

    return replace(design, name=name, datasets=tuple(renamed(ds) for ds in design.datasets))


def set_pool(
    design: Design,
    *,
    name: str,
    description: str | None,
    openzfs_version: Version,
    disk_partitioning: Partitioning | None,
    ashift: int | None,
    features: Mapping[str, bool] | None,
) -> Design:
    """The pool-level settings (None: not set, the format's default). A new name renames the
    datasets under the pool too, as ``zpool`` names them after it."""
    out = rename_pool(design, name) if name and name != design.name else design
    return replace(
        out,
        description=description or None,
        openzfs_version=openzfs_version,
        disk_partitioning=disk_partitioning,
        ashift=ashift,
        features=dict(features) if features else None,
    )


def apply_operation(design: Design, op: str, section: str, index: int) -> Design:
    """The row buttons of the designer: ``remove``, ``duplicate``, ``up``, ``down``."""
    if op == "remove":
        return remove_item(design, section, index)
    if op == "duplicate":
        return duplicate_item(design, section, index)
    if op in ("up", "down"):
        return move_item(design, section, index, -1 if op == "up" else 1)
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


def change_summary(op: str, design: Design, section: str, index: int, *, attempted: bool = False) -> str:
    """A revision's summary: ``added the special mirror (group 2)``, ``removed dataset tank/media``;
    with ``attempted``, the change that was refused: ``removing the data vdev (group 1: 6-wide raidz2)``.

    ``design`` is the one that has the row at ``index``: the new one for an added or changed row,
    the one before the change for a row that is removed, duplicated or moved.
    """
    words = OPERATION_GERUNDS if attempted else OPERATION_WORDS
    return f"{words.get(op, op)} {element_label(design, f'{section}[{index}]')}"


def error_text(named: Design | Mapping[str, Any] | None, path: str, message: str) -> str:
    """One error of the core (a JSON path and a message) as a page shows it: the part named in words.

    ``host.ram_bytes``, "must be at least 1" → "The host's RAM: must be at least 1". ``named`` is the
    design the error is about (it names the vdev groups and datasets): a ``Design``, or where a
    document comes in and does not read (the JSON editor, an import), that document. The API keeps
    the path.
    """
    if not path:
        return sentence_case(message)
    if not isinstance(named, Design | Mapping):
        named = None
    return f"{sentence_case(element_label(named, path))}: {message}"


def error_texts(named: Design | Mapping[str, Any] | None, errors: Iterable[tuple[str, str]]) -> list[str]:
    """:func:`error_text` of every (path, message) pair."""
    return [error_text(named, path, message) for path, message in errors]
