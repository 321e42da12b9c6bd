"""The answer a reader came for, built once from the estimate (usable space, raw, failures
survived, risks by severity), and the pool's figures in order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..estimate import Estimate
from ..estimate.figures import PoolFigures

SEVERITY_ORDER = ("critical", "warning", "info")
CSV_COLUMNS = (
    "kind", "name", "role", "layout", "width", "count", "ashift", "fault_tolerance", "zpool_size_bytes",
    "zfs_avail_bytes", "raw_bytes", "logical_bytes", "compressratio", "data_allocated_bytes",
    "metadata_allocated_bytes", "special_allocated_bytes", "normal_allocated_bytes", "zfs_used_bytes",
    "referenced_bytes", "raidz_overhead_fraction", "removable", "label",
)
PARTITIONING_WORDS = {
    "linux-whole-disk": "whole disks, partitioned as zpool does on Linux (1 MiB offset, 8 MiB reserved)",
    "none": "used as they are (partitions or files)",
}
UNIT_WORDS = {
    "TiB": "binary units (TiB = 2⁴⁰ bytes), what `zpool` and `zfs` count in: their T means TiB",
    "TB": "decimal units (TB = 10¹² bytes), as on drive labels; `zpool` and `zfs` print binary units (T = TiB)",
}

# The pool's space, figure by figure: estimate key, label, what it means. The design page's
# "Details" and the report's "Space" table both read this list.
POOL_FIGURES = (
    ("zpool_size_bytes", "Pool size (SIZE)", "What zpool list prints: data and special classes, parity included."),
    ("zfs_avail_bytes", "Usable space, empty pool (AVAIL)",
     "What zfs list prints for the new pool: after parity, padding and slop."),
    ("zfs_used_bytes", "Used by the planned contents (USED)",
     "zfs list USED of the pool once the datasets hold what you planned."),
    ("zfs_avail_after_bytes", "Free after the planned contents (AVAIL)", "What stays free for more data."),
    ("raw_bytes", "Raw disks", "Sum of the disk sizes (spares apart)."),
    ("slop_bytes", "Slop space", "Held back by ZFS so a full pool can still free space."),
    ("special_size_bytes", "Special and dedup class", "In SIZE, never in AVAIL: metadata and small blocks."),
    ("special_allocated_bytes", "Special class used", "Metadata and small blocks the planned contents put there."),
    ("log_size_bytes", "Log devices (SLOG)", "In neither SIZE nor AVAIL."),
    ("cache_size_bytes", "Cache devices (L2ARC)", "In neither SIZE nor AVAIL."),
    ("spare_raw_bytes", "Hot spares", "Idle until a disk fails."),
)
_ONLY_WHEN_SET = {"zfs_used_bytes", "zfs_avail_after_bytes", "special_size_bytes", "special_allocated_bytes",
                  "log_size_bytes", "cache_size_bytes", "spare_raw_bytes"}


def pool_figures(pool: PoolFigures) -> list[tuple[str, str, str, int]]:
    """The pool's figures that apply to this design: (key, label, what it means, bytes); a log, cache,
    spare, special class or planned contents the design does not have is left out, not shown as 0."""
    out = []
    planned = bool(pool.zfs_used_bytes)
    for key, label, explain in POOL_FIGURES:
        n = getattr(pool, key)
        if key == "zfs_avail_after_bytes" and not planned:
            continue  # the same as AVAIL of the empty pool
        if isinstance(n, int) and not isinstance(n, bool) and (n or key not in _ONLY_WHEN_SET):
            out.append((key, label, explain, n))
    return out


# --------------------------------------------------------------------------- the headline


def as_int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Headline:
    """The figures a reader came for, as the design page's summary and the report show them."""

    usable_bytes: int
    raw_bytes: int
    zpool_size_bytes: int
    survives: int | None  # fewest disk failures any data/special/dedup vdev survives; None: none holds data
    risk_counts: Mapping[str, int]  # by severity, in SEVERITY_ORDER
    planned_used_bytes: int | None  # None: no contents planned
    planned_fill: float | None  # planned USED ÷ usable
    avail_after_bytes: int | None

    @property
    def efficiency(self) -> float:
        return self.usable_bytes / self.raw_bytes if self.raw_bytes else 0.0

    @property
    def efficiency_percent(self) -> str:
        return f"{100 * self.efficiency:.1f} %"

    @property
    def survives_text(self) -> str:
        if self.survives is None:
            return "does not apply"
        if self.survives == 0:
            return "No disk failure: one failed disk loses the pool"
        n = self.survives
        return f"Any {n} disk failure{'s' if n > 1 else ''} per vdev"

    @property
    def risk_total(self) -> int:
        return sum(self.risk_counts.values())

    @property
    def risks_text(self) -> str:
        return ", ".join(f"{n} {s}" for s, n in self.risk_counts.items() if n) or "none found"


def headline(estimate: Estimate) -> Headline:
    """The headline figures of an estimate."""
    pool = estimate.pool
    tolerant = [v.fault_tolerance for v in estimate.vdevs if v.role in ("data", "special", "dedup")]
    used = pool.zfs_used_bytes
    planned = as_int(used) if used else None
    fill = pool.used_fraction
    after = pool.zfs_avail_after_bytes
    return Headline(
        usable_bytes=pool.zfs_avail_bytes,
        raw_bytes=pool.raw_bytes,
        zpool_size_bytes=pool.zpool_size_bytes,
        survives=min(tolerant) if tolerant else None,
        risk_counts={s: sum(1 for r in estimate.risks if r.severity.value == s) for s in SEVERITY_ORDER},
        planned_used_bytes=planned,
        planned_fill=float(fill) if planned is not None and isinstance(fill, int | float) else None,
        avail_after_bytes=as_int(after) if planned is not None and after is not None else None,
    )
