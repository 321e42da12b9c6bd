"""Slop: the space ``zfs`` keeps back from AVAIL, per OpenZFS version (``spa_get_slop_space()``)."""

from __future__ import annotations

from ..design.types import DEFAULT_RELEASE
from ..units import GIB, MIB
from ..versions import Version, supports
from .partitioning import SPA_MINDEVSIZE

# module/zfs/spa_misc.c
SPA_SLOP_SHIFT = 5
SPA_MIN_SLOP = 128 * MIB
SPA_MAX_SLOP = 128 * GIB


def slop_space(dspace: int, elog_dspace: int = 0, version: Version = DEFAULT_RELEASE) -> int:
    """Space ``zfs`` keeps back from AVAIL (``spa_get_slop_space()``, ``module/zfs/spa_misc.c``).

    * 2.1 and later: ``min(dspace/32, 128 GiB)``, less the embedded-log metaslabs (at
      most half of that), but at least ``min(dspace/2, 128 MiB)``. From 2.4 the embedded
      log includes the special class's embedded log (the caller adds it).
    * 2.0.6 - 2.0.7: the 128 GiB cap but no embedded log.
    * 0.7.0 - 2.0.5: ``max(dspace/32, min(dspace/2, 128 MiB))`` without a cap.
    * 0.6.5: ``max(dspace/32, 32 MiB)``; 0.6.4 and earlier: ``max(dspace/64, 32 MiB)``
      (``dsl_pool_adjustedsize()``).

    ``dspace`` is the normal class's deflated space of an empty pool (no dedup or block
    cloning savings).
    """
    v = version
    if v <= Version(0, 6, 4):
        return max(dspace >> 6, SPA_MINDEVSIZE >> 1)
    if v < Version(0, 7):
        return max(dspace >> SPA_SLOP_SHIFT, SPA_MINDEVSIZE >> 1)
    if not supports(v, "slop_cap"):
        return max(dspace >> SPA_SLOP_SHIFT, min(dspace >> 1, SPA_MIN_SLOP))
    slop = min(dspace >> SPA_SLOP_SHIFT, SPA_MAX_SLOP)
    if supports(v, "embedded_log"):
        slop -= min(elog_dspace, slop >> 1)
    return max(slop, min(dspace >> 1, SPA_MIN_SLOP))
