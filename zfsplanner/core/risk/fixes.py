"""One-click fixes: for a risk whose fix is a change to the design, that change.

``design_fix(risk, document)`` returns a :class:`DesignFix` (a label saying what it
does, and the changed document) or None when the risk's fix is not a design change
(buy RAM, accept the trade-off...). The risk names what it is about in ``subject``
(``vdevs[1]``, ``datasets[0]``); the fix changes only that part of the document. The
changed document still goes through ``parse_design`` when it is saved, and its risks
are assessed again, so a fix can never produce an invalid design unnoticed.

Fault tolerance comes from :func:`zfsplanner.core.geometry.vdev_shape.fault_tolerance` (one home).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..design.types import PARITY, Design, InvalidDesign, Layout, Role
from ..document.parse import parse_design
from ..geometry.ashift import DEFAULT_POOL_ASHIFT, group_physical_ashift, uniform_ashift
from ..geometry.vdev_shape import fault_tolerance
from ..units import format_si, format_zfs_size, parse_zfs_size
from ..versions import SERIES_NAMES, supports

Doc = dict[str, Any]
_SUBJECT = re.compile(r"^(vdevs|datasets)\[(\d+)\]$")
POOL = "pool"  # a risk about the whole pool: its fix gets the document itself as the item


@dataclass(frozen=True)
class DesignFix:
    code: str
    subject: str
    label: str
    document: Doc


def _subject(risk: Mapping[str, Any]) -> tuple[str, int] | None:
    subject = str(risk.get("subject") or "")
    if subject == POOL:
        return POOL, -1
    match = _SUBJECT.match(subject)
    return (match.group(1), int(match.group(2))) if match else None


def _data_fault_tolerance(design: Design) -> int | None:
    data = [fault_tolerance(g) for g in design.vdevs if g.role == Role.DATA]
    return min(data) if data else None


def _mirror_of(item: Doc, width: int) -> None:
    item["layout"] = Layout.MIRROR.value
    disks = item.get("disks")
    if isinstance(disks, list) and disks:
        item["disks"] = (disks * width)[:width]
    item["width"] = width


def _fix_special_redundancy(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    target = _data_fault_tolerance(design)
    if target is None or item.get("layout") not in (Layout.MIRROR.value, Layout.STRIPE.value):
        return None
    width = target + 1
    _mirror_of(item, width)
    return f"Make it a {width}-way mirror (survives {target} failures, like the data vdevs)"


def _fix_non_redundant(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    if item.get("layout") != Layout.STRIPE.value:
        return None
    _mirror_of(item, 2)
    return "Make each disk a 2-way mirror"


def _fix_slog_unmirrored(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    return _fix_non_redundant(doc, item, design, index)


def _fix_ashift(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    ashift = group_physical_ashift(design.vdevs[index])
    item["ashift"] = ashift
    return f"Set ashift={ashift} ({1 << ashift}-byte sectors)"


def _fix_mixed_ashift(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """Every vdev one ashift: the pool's ``ashift`` set, and the groups' own ones that differ left out."""
    target = uniform_ashift(design)
    doc["ashift"] = target
    vdevs = [copy.deepcopy(v) for v in doc.get("vdevs") or []]  # the other items are shared with the caller's
    for v in vdevs:
        if isinstance(v, dict) and v.get("ashift") not in (None, target):
            del v["ashift"]
    doc["vdevs"] = vdevs
    return f"Give every vdev ashift={target}"


def _fix_single_parity(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    layout = item.get("layout")
    if layout == Layout.RAIDZ1.value:
        item["layout"] = Layout.RAIDZ2.value
        return "Make it raidz2 (survives two failures)"
    if layout == Layout.DRAID1.value:
        item["layout"] = Layout.DRAID2.value
        return "Make it draid2 (survives two failures)"
    if layout == Layout.MIRROR.value and item.get("width") == 2:
        _mirror_of(item, 3)
        return "Make it a 3-way mirror"
    return None


def _fix_wide_raidz(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    width, count = item.get("width"), item.get("count") or 1
    if not isinstance(width, int) or width % 2 or isinstance(item.get("disks"), list):
        return None
    layout = Layout(item["layout"])
    if width // 2 < PARITY[layout] + 2:
        return None
    item["width"] = width // 2
    item["count"] = count * 2
    return f"Split it into {count * 2} vdevs of {width // 2} disks"


def _fix_ssb_captures_all(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    size_key = "volblocksize" if item.get("type") == "volume" else "recordsize"
    block = item.get(size_key)
    try:
        block_bytes = parse_zfs_size(block) if block is not None else 128 * 1024
    except ValueError:
        return None
    half = max(block_bytes // 2, 4096)
    if half >= block_bytes:
        return None
    value = format_zfs_size(half)
    item["special_small_blocks"] = value
    return f"Set special_small_blocks={value} (below {size_key})"


def _fix_sync_disabled(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    item.pop("sync", None)
    return "Set sync=standard"


def _fix_boot_recordsize(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    item["recordsize"] = "128K"
    return "Set recordsize=128K"


def _fix_padding(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    if item.get("type") != "volume":
        return None
    item["volblocksize"] = "64K"
    return "Set volblocksize=64K"


def _fix_drop_ssb(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    if item.pop("special_small_blocks", None) is None:
        return None
    return "Drop special_small_blocks"


def _fix_ssb_value(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """The largest value OpenZFS before 2.4 accepts at or below the one given: a power of two up to 1M."""
    raw = item.get("special_small_blocks")
    if not isinstance(raw, int | str):
        return None
    try:
        given = parse_zfs_size(raw)
    except ValueError:
        return None
    value = min(1 << max(given.bit_length() - 1, 9), 1024 * 1024)
    item["special_small_blocks"] = format_zfs_size(value)
    return f"Set special_small_blocks={format_zfs_size(value)}"


def _fix_unused_dedup_vdev(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    doc["vdevs"] = [v for j, v in enumerate(doc["vdevs"]) if j != index]
    return "Remove the dedup vdev"


def _fix_small_spare(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """Spares of the largest disk among the vdevs they should replace (its own copy of that disk object)."""
    members = [
        (disk.size_bytes, gi, di)
        for gi, g in enumerate(design.vdevs)
        if g.role in (Role.DATA, Role.SPECIAL, Role.DEDUP)
        for di, disk in enumerate(g.disks)
    ]
    if not members:
        return None
    _, gi, di = max(members)
    source = doc["vdevs"][gi]
    disk = source["disk"] if "disk" in source else source["disks"][di]
    item.pop("disks", None)
    item["disk"] = copy.deepcopy(disk)
    largest = design.vdevs[gi].disks[di]
    return f"Use {largest.model or format_si(largest.size_bytes) + ' disks'} as spares"


def _fix_vm_ashift(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """512e disks under a VM: an explicit ashift keeps the guest's 512-byte view from choosing 9.
    (4Kn disks need the VM's block size set as well, which is not part of the design.)"""
    group = design.vdevs[index]
    if any(d.logical_sector >= 4096 for d in group.disks):
        return None
    ashift = max(group_physical_ashift(group), DEFAULT_POOL_ASHIFT)
    item["ashift"] = ashift
    return f"Set ashift={ashift} explicitly"


def _fix_refused(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """What the design's release refuses, changed to what it accepts (the release stays the user's)."""
    if "compression" in item:  # a dataset: zstd before 2.0
        item["compression"] = "lz4"
        return "Use compression=lz4"
    group = design.vdevs[index]
    if group.role in (Role.SPECIAL, Role.DEDUP) and group.parity > 0:  # raidz/dRAID class vdev before 2.4
        for key in ("draid_data", "draid_spares"):
            item.pop(key, None)
        _mirror_of(item, group.parity + 1)
        return f"Make it a {group.parity + 1}-way mirror (survives {group.parity} failures, as before)"
    if group.is_draid:  # dRAID before 2.1: the first release that has it
        first = next((name for name in SERIES_NAMES if supports(name, "draid")), None)
        if first is None:
            return None
        doc["openzfs_version"] = first
        return f"Target OpenZFS {first}"
    return None


def _fix_pool_fill(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    """One more vdev like the last data group's (a step: the risk stays while the pool is too full)."""
    data = [i for i, g in enumerate(design.vdevs) if g.role == Role.DATA]
    vdevs = list(doc.get("vdevs") or [])
    if not data or not isinstance(vdevs[data[-1]], dict):
        return None
    group = copy.deepcopy(vdevs[data[-1]])
    count = group.get("count") or 1
    group["count"] = count + 1
    vdevs[data[-1]] = group
    doc["vdevs"] = vdevs
    return f"Add another data vdev like the others ({count} → {count + 1})"


def _fix_draid_compression(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    if item.get("type") == "volume" or parse_zfs_size(item.get("recordsize") or "128K") >= 1024 * 1024:
        return None
    item["recordsize"] = "1M"
    return "Set recordsize=1M"


_FIXES: Mapping[str, Callable[[Doc, Doc, Design, int], str | None]] = {
    "special-redundancy-below-data": _fix_special_redundancy,
    "non-redundant-vdev": _fix_non_redundant,
    "slog-unmirrored": _fix_slog_unmirrored,
    "ashift-below-physical-sector": _fix_ashift,
    "mixed-ashift": _fix_mixed_ashift,
    "single-parity-large-disks": _fix_single_parity,
    "wide-raidz": _fix_wide_raidz,
    "special-small-blocks-captures-all": _fix_ssb_captures_all,
    "sync-disabled": _fix_sync_disabled,
    "boot-recordsize": _fix_boot_recordsize,
    "raidz-padding-overhead": _fix_padding,
    "special-small-blocks-volume": _fix_drop_ssb,
    "special-small-blocks-value": _fix_ssb_value,
    "special-small-blocks-without-special": _fix_drop_ssb,
    "dedup-vdev-without-dedup": _fix_unused_dedup_vdev,
    "spare-too-small": _fix_small_spare,
    "vm-sector-size": _fix_vm_ashift,
    "zpool-refuses": _fix_refused,
    "pool-fill-high": _fix_pool_fill,
    "draid-compression-loss": _fix_draid_compression,
}
FIXABLE_CODES = tuple(_FIXES)


def design_fix(
    risk: Mapping[str, Any] | None,
    document: Mapping[str, Any],
    design: Design | None = None,
    validate: bool = True,
) -> DesignFix | None:
    """The design change that fixes ``risk``, or None when its fix is not a change to the design.

    ``design``: the parsed ``document`` when the caller has it (saves parsing it again per
    risk). ``validate=False`` only says whether a fix exists and what it does (the changed
    document is checked when it is saved); with ``validate`` a fix whose result would not
    parse is not offered.
    """
    if risk is None:
        return None
    code = str(risk.get("code"))
    rule = _FIXES.get(code)
    where = _subject(risk)
    if rule is None or where is None:
        return None
    section, index = where
    if design is None:
        try:
            design = parse_design(document)
        except InvalidDesign:
            return None
    if section == POOL:
        doc = {**document}  # a fix of the whole pool copies what it changes (see _fix_pool_fill)
        item = doc
    else:
        items = document.get(section)
        if not isinstance(items, list) or not 0 <= index < len(items) or not isinstance(items[index], dict):
            return None
        # Only the item the fix changes is copied; the rest of the document is shared, never changed.
        item = copy.deepcopy(items[index])
        doc = {**document, section: [*items[:index], item, *items[index + 1 :]]}
    label = rule(doc, item, design, index)
    if label is None:
        return None
    if validate:
        try:
            parse_design(doc)
        except InvalidDesign:
            return None
    subject = POOL if section == POOL else f"{section}[{index}]"
    return DesignFix(code=code, subject=subject, label=label, document=doc)
