"""The design page's "model vs the pool" for an import attached to the design (by the collector's --design
or by saving the import as this design): SIZE, AVAIL and ALLOC of the pool against this design's estimate.

Registered with plans (``register_design_addition("attached", attached_pool)`` in ``apps.py``): the
design page's view computes it, and ``imports/_attached_pool.html`` only shows ``attached``."""

from __future__ import annotations

from typing import Any

from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.importers.compare import Row, compare, layout_difference

from .models import PoolImport
from .services import attached_import

SHOWN = ("size", "avail", "alloc")


def attached_pool(design: Any, estimate: Estimate | None) -> dict[str, Any] | None:
    """``{"record", "pool", "rows", "layout_warning"}`` for the newest attached import, or None (nothing attached)."""
    if design is None or not getattr(design, "pk", None) or estimate is None:
        return None
    record = attached_import(design)
    if record is None:
        return None
    imported = record.document.get("imported") or {}
    # The pool's own figures (from the import) against the estimate of this design (one home: compare()).
    rows: list[Row] = [r for r in compare({"imported": imported}, estimate) if r.key in SHOWN]
    return {"record": record, "pool": record.document.get("name") or record.pool, "rows": rows,
            "layout_warning": layout_warning(design, record)}


def layout_warning(design: Any, record: PoolImport) -> str | None:
    """"the design has 8 disks in raidz2, the pool 6 in raidz2: …" when the import's pool is not laid out as
    ``design`` (a PoolDesign); None when it is, or when either cannot be read as a design (sizes still asked)."""
    try:
        return layout_difference(design.to_spec(), parse_design(record.document))
    except InvalidDesign:
        return None
