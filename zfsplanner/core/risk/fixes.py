"""One-click fixes: for a risk whose fix is a change to the design, that change.

Each fix is declared with its rule (``@rule(..., fix=...)``, or ``RiskSpec(..., fix=...)`` for a
rule of several codes) and lives beside it in the rule modules; the catalog
(:data:`.registry.RISK_CATALOG`) is the only place that says which code has which fix. This module
applies them.

``design_fix(risk, document)`` returns a :class:`DesignFix` (a label saying what it
does, and the changed document) or None when the risk's fix is not a design change
(buy RAM, accept the trade-off...). The risk names what it is about in ``subject``
(``vdevs[1]``, ``datasets[0]``); the fix changes only that part of the document. The
changed document still goes through ``parse_design`` when it is saved, and its risks
are assessed again, so a fix can never produce an invalid design unnoticed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..design.types import Design, InvalidDesign
from ..document.parse import parse_design
from .registry import POOL, RISK_CATALOG, Doc, Risk

_SUBJECT = re.compile(r"^(vdevs|datasets)\[(\d+)\]$")


@dataclass(frozen=True)
class DesignFix:
    code: str
    subject: str
    label: str
    document: Doc


def _subject(risk: Risk) -> tuple[str, int] | None:
    subject = risk.subject
    if subject == POOL:
        return POOL, -1
    match = _SUBJECT.match(subject)
    return (match.group(1), int(match.group(2))) if match else None


FIXABLE_CODES: tuple[str, ...] = tuple(code for code, spec in RISK_CATALOG.items() if spec.fix is not None)
"""The codes whose rule declares a one-click fix, in catalog order (the package has registered every
rule before this module runs)."""


def design_fix(
    risk: Risk | None,
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
    code = risk.code
    spec = RISK_CATALOG.get(code)
    fix = spec.fix if spec is not None else None
    where = _subject(risk)
    if fix is None or where is None:
        return None
    section, index = where
    if design is None:
        try:
            design = parse_design(document)
        except InvalidDesign:
            return None
    if section == POOL:
        doc = {**document}  # a fix of the whole pool copies what it changes (see datasets.fix_pool_fill)
        item = doc
    else:
        items = document.get(section)
        if not isinstance(items, list) or not 0 <= index < len(items) or not isinstance(items[index], dict):
            return None
        # Only the item the fix changes is copied; the rest of the document is shared, never changed.
        item = copy.deepcopy(items[index])
        doc = {**document, section: [*items[:index], item, *items[index + 1 :]]}
    label = fix(doc, item, design, index)
    if label is None:
        return None
    if validate:
        try:
            parse_design(doc)
        except InvalidDesign:
            return None
    subject = POOL if section == POOL else f"{section}[{index}]"
    return DesignFix(code=code, subject=subject, label=label, document=doc)
