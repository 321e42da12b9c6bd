"""Names of a design's parts as a person says them: "the special mirror (group 2)", "dataset tank/media".

The design document addresses its parts by JSON path (``vdevs[1]``, ``datasets[0].recordsize``,
``host.ram_bytes``); the API keeps those paths (a risk's ``subject``, an error's ``path``), and
everything a person reads names the part with :func:`element_label` instead. Vdev groups are
numbered from 1 in design order, as the designer lists them.

:func:`element_label` takes a parsed :class:`Design` or the raw document (a design that did not
parse still gets names for its error messages), or nothing at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .design.types import Dataset, DatasetType, Design, Layout, Role, VdevGroup
from .geometry.draid import draid_data_disks

_ROLES = frozenset(role.value for role in Role)
_PATH_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")

# A field of the document in words; keys not listed are spelled with spaces for underscores.
FIELD_WORDS: Mapping[str, str] = {
    "name": "name",
    "format": "format version",
    "openzfs_version": "OpenZFS version",
    "disk_partitioning": "disk partitioning",
    "reserved_per_disk_bytes": "space reserved per disk",
    "vdevs": "vdev groups",
    "datasets": "datasets",
    "role": "role",
    "layout": "layout",
    "width": "disks per vdev",
    "count": "number of vdevs",
    "disk": "disk",
    "disks": "disks",
    "size_bytes": "size",
    "logical_sector_bytes": "logical sector size",
    "physical_sector_bytes": "physical sector size",
    "plp": "power-loss protection",
    "rpm": "rotation speed",
    "watts": "power draw",
    "draid_data": "dRAID data disks",
    "draid_spares": "dRAID distributed spares",
    "expanded_from_width": "width before RAIDZ expansion",
    "logical_bytes_written_before": "data written before the expansion",
    "logical_bytes": "expected data",
    "file_count": "number of files",
    "file_size_histogram": "file size histogram",
    "files_per_directory": "files per directory",
    "compressibility": "compressibility",
    "contents": "",
    "ram_bytes": "RAM",
}

_HOST_WORDS: Mapping[str, str] = {"ram_bytes": "the host's RAM", "tunables": "the host's module parameters"}

# The planning settings (``reliability.*``, ``special_headroom_fraction``, ``performance.disk.*``).
_RELIABILITY_WORDS: Mapping[str, str] = {
    "afr": "annual failure rate",
    "ure_per_bit": "unrecoverable read errors per bit",
    "fill_fraction": "fill level at rebuild time",
    "rebuild_bytes_per_s": "rebuild speed",
    "replacement_hours": "time to replace a failed disk",
}
_TOP_WORDS: Mapping[str, str] = {
    "name": "pool name",
    "pool": "the pool",
    "vdevs": "the vdev groups",
    "datasets": "the datasets",
    "special_headroom_fraction": "special vdev headroom",
    "reliability": "reliability settings",
    "performance": "performance figures",
}
_FIGURE_WORDS: Mapping[str, str] = {
    "random_read_iops": "random read IOPS",
    "random_read_iops_qd1": "random read IOPS at queue depth 1",
    "random_write_iops": "random write IOPS",
    "random_write_iops_qd1": "random write IOPS at queue depth 1",
    "seq_read_bytes_per_s": "sequential read speed",
    "seq_write_bytes_per_s": "sequential write speed",
    "sync_write_iops": "synchronous write IOPS",
}


def vdev_type_word(group: VdevGroup, width: int | None = None) -> str | None:
    """The vdev type word of ``zpool create`` (``mirror``, ``raidz2``, ``draid2:8d:24c:2s``), None for a disk."""
    if group.layout == Layout.STRIPE:
        return None
    if group.layout == Layout.MIRROR or group.is_raidz:
        return group.layout.value
    spares = group.draid_spares or 0
    word = f"{group.layout.value}:{draid_data_disks(group)}d:{width or group.width}c"
    return f"{word}:{spares}s" if spares else word


def describe_shape(layout: str, width: int, count: int = 1, type_word: str | None = None) -> str:
    """``3-way mirror``, ``2 × 6-wide raidz2``, ``draid2:8d:24c:2s``, ``single disk``; ``type_word`` is
    the ``zpool create`` word of a dRAID vdev (the layout name stands in when it is not known)."""
    if layout == Layout.STRIPE.value:
        return f"{count} single disks" if count > 1 else "single disk"
    if layout == Layout.MIRROR.value:
        shape = f"{width}-way mirror"
    elif layout.startswith("raidz"):
        shape = f"{width}-wide {layout}"
    else:
        shape = type_word or layout
    return f"{count} × {shape}" if count > 1 else shape


def describe_group(group: VdevGroup) -> str:
    """``3-way mirror``, ``2 × 6-wide raidz2``, ``draid2:8d:24c:2s``, ``single disk``."""
    return describe_shape(group.layout.value, group.width, group.count, vdev_type_word(group))


def group_label(number: int, role: str | None, layout: str | None, width: int, count: int, shape: str) -> str:
    """A vdev group by its role, its kind and its place (``number``, from 1) in the design.

    Data vdevs give their shape ("the data vdevs (group 1: 8-wide raidz2)"); a 2-way mirror or a single
    disk of another role is named by its kind alone ("the special mirror (group 2)", "the cache disk
    (group 4)"); anything else adds its shape ("the log mirror (group 3: 3-way mirror)").
    """
    plural = count > 1
    if role is None:
        return f"vdev group {number}" + (f" ({shape})" if shape else "")
    if role == "data":
        return f"the data vdev{'s' if plural else ''} (group {number}: {shape})"
    if role == "spare":
        noun = "hot spares" if plural else "hot spare"
        return f"the {noun} (group {number}: {shape})" if plural else f"the {noun} (group {number})"
    if layout == Layout.STRIPE.value:
        noun, plain = ("disks" if plural else "disk"), not plural
    elif layout == Layout.MIRROR.value:
        noun, plain = ("mirrors" if plural else "mirror"), width == 2 and not plural
    else:
        noun, plain = ("vdevs" if plural else "vdev"), False
    return f"the {role} {noun} (group {number})" if plain else f"the {role} {noun} (group {number}: {shape})"


def vdev_label(design: Design, index: int) -> str:
    """The vdev group ``design.vdevs[index]`` as a person names it: "the special mirror (group 2)"."""
    g = design.vdevs[index]
    return group_label(index + 1, g.role.value, g.layout.value, g.width, g.count, describe_group(g))


class GroupShape(Protocol):
    """A vdev group as an estimate describes it (the reliability section's ``groups``)."""

    @property
    def group_index(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def layout(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def count(self) -> int: ...


def group_labels(groups: Iterable[GroupShape]) -> dict[str, str]:
    """``{"vdevs[i]": "the special mirror (group 2)", ...}`` for the vdev groups an estimate describes,
    for the figures it keys by path (a group's fill and rebuild speed)."""
    return {
        f"vdevs[{g.group_index}]": group_label(
            g.group_index + 1, g.role, g.layout, g.width, g.count, describe_shape(g.layout, g.width, g.count)
        )
        for g in groups
    }


def dataset_label(dataset: Dataset) -> str:
    """``dataset tank/media`` or ``volume tank/vm-100-disk-0``."""
    return f"{'volume' if dataset.type == DatasetType.VOLUME else 'dataset'} {dataset.name}"


def _raw_group_label(raw: Any, index: int) -> str:
    if not isinstance(raw, Mapping):
        return f"vdev group {index + 1}"
    role, layout = raw.get("role", "data"), raw.get("layout")
    width, count = raw.get("width"), raw.get("count", 1)
    if not (isinstance(width, int) and not isinstance(width, bool) and width > 0):
        return f"vdev group {index + 1}"
    if not (isinstance(count, int) and not isinstance(count, bool) and count > 0):
        return f"vdev group {index + 1}"
    if role not in _ROLES or layout not in {lay.value for lay in Layout}:
        return f"vdev group {index + 1}"
    return group_label(index + 1, str(role), str(layout), width, count, describe_shape(str(layout), width, count))


def _raw_dataset_label(raw: Any, index: int) -> str:
    if isinstance(raw, Mapping) and isinstance(raw.get("name"), str) and raw["name"]:
        return f"{'volume' if raw.get('type') == DatasetType.VOLUME.value else 'dataset'} {raw['name']}"
    return f"dataset {index + 1}"


def _parts(path: str) -> list[str | int]:
    return [int(i) if i else name for name, i in _PATH_PART.findall(path)]


def _field_words(parts: Sequence[str | int]) -> str:
    """A field below a vdev group or dataset: ``disk.size_bytes`` → "disk size", ``disk.media`` →
    "media of the disks", ``disks[1].physical_sector_bytes`` → "physical sector size of disk 2"."""
    if len(parts) >= 2 and parts[0] == "disks" and isinstance(parts[1], int):
        rest = _field_words(parts[2:])
        return f"{rest} of disk {parts[1] + 1}" if rest else f"disk {parts[1] + 1}"
    if len(parts) >= 2 and parts[0] == "disk":
        return "disk size" if parts[1:] == ["size_bytes"] else f"{_field_words(parts[1:])} of the disks"
    words = [FIELD_WORDS.get(p, p.replace("_", " ")) for p in parts if isinstance(p, str)]
    return " ".join(w for w in words if w)


def element_label(design: Design | Mapping[str, Any] | None, path: str) -> str:
    """The part of the design at ``path`` as a person names it.

    ``vdevs[1]`` → "the special mirror (group 2)"; ``datasets[0]`` → "dataset tank/media";
    ``datasets[0].recordsize`` → "recordsize of dataset tank/media"; ``vdevs[0].disk.size_bytes``
    → "disk size of the data vdevs (group 1: 8-wide raidz2)"; ``host.ram_bytes`` → "the host's RAM";
    ``openzfs_version`` → "OpenZFS version". An empty path is "the design".
    """
    parts = _parts(path)
    if not parts:
        return "the design"
    head, rest = parts[0], parts[1:]
    if head in ("vdevs", "datasets") and rest and isinstance(rest[0], int):
        i, tail = rest[0], rest[1:]
        if head == "vdevs":
            if isinstance(design, Design):
                own = vdev_label(design, i) if i < len(design.vdevs) else f"vdev group {i + 1}"
            else:
                raw = design.get("vdevs") if isinstance(design, Mapping) else None
                own = _raw_group_label(raw[i] if isinstance(raw, list) and i < len(raw) else None, i)
        elif isinstance(design, Design):
            own = dataset_label(design.datasets[i]) if i < len(design.datasets) else f"dataset {i + 1}"
        else:
            raw = design.get("datasets") if isinstance(design, Mapping) else None
            own = _raw_dataset_label(raw[i] if isinstance(raw, list) and i < len(raw) else None, i)
        return f"{_field_words(tail)} of {own}" if tail else own
    if head == "reliability" and rest and isinstance(rest[0], str) and rest[0] in _RELIABILITY_WORDS:
        words, sub = _RELIABILITY_WORDS[rest[0]], rest[1:]
        if rest[0] == "rebuild_bytes_per_s" and len(sub) == 2 and sub[0] == "vdevs":
            return f"{words} of {element_label(design, f'vdevs[{sub[1]}]')}"
        return f"{words} ({sub[0]})" if sub and isinstance(sub[0], str) else words
    if head == "performance" and len(rest) >= 2 and rest[0] == "disk" and isinstance(rest[1], str):
        model = rest[1]
        figure = rest[2] if len(rest) > 2 and isinstance(rest[2], str) else None
        return f"{_FIGURE_WORDS.get(figure, figure.replace('_', ' '))} of disk {model}" if figure else f"disk {model}"
    if head in _TOP_WORDS and not rest:
        return _TOP_WORDS[str(head)]
    if head == "host":
        if not rest:
            return "the host"
        if isinstance(rest[0], str) and rest[0] in _HOST_WORDS and len(rest) == 1:
            return _HOST_WORDS[rest[0]]
        return f"the host's {_field_words(rest)}"
    return _field_words(parts) or path


def sentence_case(text: str) -> str:
    """``text`` with its first letter upper-case, for a label that starts a sentence."""
    return text[:1].upper() + text[1:]
