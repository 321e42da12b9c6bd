"""The design page's "model vs the pool" for an import attached to the design (by the collector's --design
or by saving the import as this design): SIZE, AVAIL and ALLOC of the pool against this design's estimate.

Registered with plans (``register_design_addition("attached", attached_pool)`` in ``apps.py``): the
design page's view computes it, and ``imports/_attached_pool.html`` only shows ``attached``."""

from __future__ import annotations

from typing import Any

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.importers.compare import Row, compare

from .services import attached_import

SHOWN = ("size", "avail", "alloc")


def attached_pool(design: Any, estimate: Estimate | None) -> dict[str, Any] | None:
    """``{"record", "pool", "rows"}`` for the newest attached import, or None (nothing attached)."""
    if design is None or not getattr(design, "pk", None) or estimate is None:
        return None
    record = attached_import(design)
    if record is None:
        return None
    imported = record.document.get("imported") or {}
    # The pool's own figures (from the import) against the estimate of this design (one home: compare()).
    rows: list[Row] = [r for r in compare({"imported": imported}, estimate) if r.key in SHOWN]
    return {"record": record, "pool": record.document.get("name") or record.pool, "rows": rows}
