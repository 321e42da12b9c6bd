"""What other apps attach to a stored design's page, computed by the view, never by a template.

An app above ``plans`` (``imports``: the pool an import was attached to) registers, from its
``AppConfig.ready()``, a function of the design and its estimate under a context name;
``presentation.pages.design_context`` calls every registered function once per page build and
puts each answer in the context under its name (the design page and the shared page alike).
``plans`` never imports those apps, and no template tag reads the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zfsplanner.core.estimate import Estimate

if TYPE_CHECKING:
    from ..models import PoolDesign

DesignAddition = Callable[["PoolDesign", Estimate | None], Any]

_additions: dict[str, DesignAddition] = {}


def register_design_addition(name: str, compute: DesignAddition) -> None:
    """``compute(design, estimate)`` fills ``name`` in the design page's context (None: nothing to show)."""
    _additions[name] = compute


def design_additions(design: PoolDesign, estimate: Estimate | None) -> dict[str, Any]:
    """Every registered addition for this design and estimate, by context name."""
    return {name: compute(design, estimate) for name, compute in _additions.items()}
