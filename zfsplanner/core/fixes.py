"""One-click fixes: for a risk whose fix is a change to the design, that change.

``design_fix(risk, document)`` returns a :class:`DesignFix` (a label saying what it
does, and the changed document) or None when the risk's fix is not a design change
(buy RAM, accept the trade-off...). The risk names what it is about in ``subject``
(``vdevs[1]``, ``datasets[0]``); the fix changes only that part of the document. The
changed document still goes through ``parse_design`` when it is saved, and its risks
are assessed again, so a fix can never produce an invalid design unnoticed.

Fault tolerance comes from :func:`zfsplanner.core.risk.fault_tolerance` (one home).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .design import PARITY, Design, InvalidDesign, Layout, Role, parse_design
from .risk import fault_tolerance
from .units import format_zfs_size, parse_zfs_size

Doc = dict[str, Any]
_SUBJECT = re.compile(r"^(vdevs|datasets)\[(\d+)\]$")


@dataclass(frozen=True)
class DesignFix:
    code: str
    subject: str
    label: str
    document: Doc


def _subject(risk: Mapping[str, Any]) -> tuple[str, int] | None:
    match = _SUBJECT.match(str(risk.get("subject") or ""))
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
    group = design.vdevs[index]
    physical = max(d.physical_sector for d in group.disks)
    ashift = max(9, min(16, physical.bit_length() - 1))
    item["ashift"] = ashift
    return f"Set ashift={ashift} ({physical}-byte sectors)"


def _fix_mixed_ashift(doc: Doc, item: Doc, design: Design, index: int) -> str | None:
    vdevs = doc.get("vdevs") or []
    first = next((v for v in vdevs if isinstance(v, Mapping) and v.get("role") == Role.DATA.value), None)
    if first is None or first.get("ashift") is None:
        return None
    item["ashift"] = first["ashift"]
    return f"Use the first data vdev's ashift ({first['ashift']})"


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
    return DesignFix(code=code, subject=f"{section}[{index}]", label=label, document=doc)
