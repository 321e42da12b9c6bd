"""One-click fixes: for a risk whose fix is a change to the design, that change.

Each fix is declared with its rule (``@rule(..., fix=...)``, or ``RiskSpec(..., fix=...)`` for a
rule of several codes) and lives beside it in the rule modules; the catalog
(:data:`.registry.RISK_CATALOG`) is the only place that says which code has which fix. This module
applies them.

A fix goes from ``Design`` to ``Design``: ``fix(design, part)`` (a :data:`.registry.Fix`) reads the
typed design, builds the changed one with ``dataclasses.replace`` on the part the risk is about
(``part``, read from the risk's ``subject``: ``vdevs[1]``, ``datasets[0]`` or ``pool``) and returns it
with its label (:class:`.registry.Fixed`). No rule reads or writes a design document.

``design_fix(risk, design)`` returns a :class:`DesignFix` (the code and subject, the label, and the
changed ``Design``) or None when the risk's fix is not a design change (buy RAM, accept the
trade-off...). With ``validate`` (the default) a fix whose result would not be valid is not offered:
the changed design goes through the check a save makes (:func:`..document.parse.validate_design`, the
document written and read back), so a fix can never produce an invalid design unnoticed. The design
is written as a document only where it is stored (``plans.services.designs.save_design``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..design.types import Design, InvalidDesign
from ..document.parse import validate_design
from .registry import DATASETS, POOL, RISK_CATALOG, VDEVS, Part, Risk


@dataclass(frozen=True)
class DesignFix:
    """The fix of the risk ``code`` on ``subject``: what it does (``label``) and the changed ``design``."""

    code: str
    subject: str
    label: str
    design: Design


FIXABLE_CODES: tuple[str, ...] = tuple(code for code, spec in RISK_CATALOG.items() if spec.fix is not None)
"""The codes whose rule declares a one-click fix, in catalog order (the package has registered every
rule before this module runs)."""


def _in_design(design: Design, part: Part) -> bool:
    """Does ``part`` name a part ``design`` has?"""
    if part.section == POOL:
        return True
    items = design.vdevs if part.section == VDEVS else design.datasets if part.section == DATASETS else ()
    return 0 <= part.index < len(items)


def design_fix(risk: Risk | None, design: Design, validate: bool = True) -> DesignFix | None:
    """The design change that fixes ``risk`` (raised on ``design``), or None when its fix is not a
    change to the design.

    ``validate=False`` only says whether a fix exists and what it does (the changed design is
    checked when it is saved); with ``validate`` a fix whose result would not pass that check is
    not offered.
    """
    if risk is None:
        return None
    spec = RISK_CATALOG.get(risk.code)
    fix = spec.fix if spec is not None else None
    part = Part.of(risk.subject)
    if fix is None or part is None or not _in_design(design, part):
        return None
    fixed = fix(design, part)
    if fixed is None:
        return None
    if validate:
        try:
            validate_design(fixed.design)
        except InvalidDesign:
            return None
    return DesignFix(code=risk.code, subject=risk.subject, label=fixed.label, design=fixed.design)
