"""One-click fixes of a stored design: find the risk, build its fix, save it as one new revision.

The designer (``views.designer.design_fix_apply``) and the API (``DesignViewSet.apply_fix``) both
call :func:`apply_fix`; the list of fixes a design offers (the API's ``fixes``) comes from
:func:`available_fixes`. The fix itself (what it changes, its label) is the core's: it turns the
stored ``Design`` into the fixed one, which :func:`.designs.save_design` stores as the next revision.
"""

from __future__ import annotations

from typing import Any

from zfsplanner.core.design.types import Design, InvalidDesign
from zfsplanner.core.naming import element_label
from zfsplanner.core.risk.fixes import DesignFix, design_fix

from ..models import PoolDesign
from .designs import save_design
from .estimates import estimate_design


class FixUnavailable(LookupError):
    """The design has no risk ``code`` on ``subject`` with a one-click fix (any more)."""

    def __init__(self, code: str, subject: str) -> None:
        super().__init__(f"This design has no risk {code!r} on {subject!r} with a one-click fix.")
        self.code, self.subject = code, subject


class FixRefused(Exception):
    """The fixed design did not pass; ``design`` is it, ``errors`` the core's (path, message) pairs."""

    def __init__(self, design: Design, exc: InvalidDesign) -> None:
        super().__init__(str(exc))
        self.design, self.errors = design, exc.errors


def available_fixes(design: PoolDesign) -> list[DesignFix]:
    """The fixes of the design's current risks (``InvalidDesign`` if the stored design no longer estimates)."""
    risks = estimate_design(design).risks
    spec = design.to_spec()
    found = (design_fix(r, spec) for r in risks)
    return [f for f in found if f is not None]


def find_fix(design: PoolDesign, code: str, subject: str) -> DesignFix:
    """The fix of the risk ``code`` on ``subject`` (``FixUnavailable`` if there is none, ``InvalidDesign``
    if the stored design no longer estimates)."""
    risks = estimate_design(design).risks
    risk = next((r for r in risks if r.code == code and r.subject == subject), None)
    fix = design_fix(risk, design.to_spec()) if risk is not None else None
    if fix is None:
        raise FixUnavailable(code, subject)
    return fix


def apply_fix(
    design: PoolDesign, code: str, subject: str, user: Any, expected_revision: int | None = None
) -> tuple[PoolDesign, str]:
    """Apply the fix of one risk as the design's next revision; the saved design and what the revision says.

    Raises ``FixUnavailable``, ``InvalidDesign`` (the stored design no longer estimates),
    ``FixRefused`` (the fixed design does not pass) or ``EditConflict`` (``expected_revision``
    is stale). The revision names the part fixed as a person would ("fix for the special mirror
    (group 2): ...")."""
    fix = find_fix(design, code, subject)
    summary = f"fix for {element_label(design.to_spec(), subject)}: {fix.label}"
    try:
        saved = save_design(
            design.team,
            fix.design,
            user,
            instance=design,
            expected_revision=expected_revision,
            kind="fix",
            summary=summary,
        )
    except InvalidDesign as exc:
        raise FixRefused(fix.design, exc) from exc
    return saved, summary
