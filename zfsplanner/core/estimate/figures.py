"""The estimate as typed values, and its one serializer to the ``zfsplanner.estimate/1`` document.

``estimate()`` returns an :class:`Estimate`; pages, reports and charts read its attributes.
:meth:`Estimate.to_document` is the only place the JSON document is written (the API, the
CLI, the golden files), field by field in the spec's order (``spec/design-format.md``,
"Estimate"), so the document stays byte for byte what it was. The planning sections (``special``,
``reliability``, ``performance``, ``sizing``) are the types of :mod:`..planning.figures`.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass
from typing import Any

from ..capacity.efficiency import EfficiencyRow
from ..capacity.expansion import ExpansionReport
from ..datasets.special import CurvePoint
from ..document.export import field_values
from ..planning.figures import PerformanceFigures, ReliabilityFigures, SizingFigures, SpecialFigures
from ..planning.mdraid import MdRaidRow
from ..risk.registry import Risk, risk_to_document
from .timeline_figures import TimelineFigures

FORMAT = "zfsplanner.estimate/1"
# What a figure that grows with the data says when no dataset gives the data to store.
NEEDS_DATA = "needs the data to store"

UNITS_NOTE = {
    "bytes": "Every *_bytes figure is a whole number of bytes.",
    "zpool_zfs": (
        "zpool list and zfs list print powers of 1024 with one-letter suffixes: 21.8T means 21.8 TiB "
        "(2^40 bytes). Drive labels use powers of 1000: 14TB is 14 x 10^12 bytes (12.7 TiB)."
    ),
}


@dataclass(frozen=True)
class Display:
    """One size three ways: the drive-label unit, the binary unit, and as zpool/zfs print it."""

    si: str
    iec: str
    zfs: str

    def to_document(self) -> dict[str, str]:
        return {"si": self.si, "iec": self.iec, "zfs": self.zfs}


@dataclass(frozen=True)
class DesignFigures:
    name: str
    openzfs_version: str
    disk_partitioning: str

    def to_document(self) -> dict[str, Any]:
        return field_values(self)


@dataclass(frozen=True)
class SavingsFigures:
    """What dedup and block cloning save (``zpool get dedupratio,bcloneused,bclonesaved``) and the
    root's USED + AVAIL, which grows by both (``spa_update_dspace()``; :mod:`..datasets.savings`)."""

    dedup_referenced_bytes: int
    dedup_saved_bytes: int
    dedupratio_percent: int
    bclone_used_bytes: int
    bclone_saved_bytes: int
    bcloneratio_percent: int
    allocated_saved_bytes: int
    slop_bytes: int
    usable_bytes: int
    notes: tuple[str, ...] = ()

    def to_document(self) -> dict[str, Any]:
        return {
            "dedup_referenced_bytes": self.dedup_referenced_bytes,
            "dedup_saved_bytes": self.dedup_saved_bytes,
            "dedupratio": self.dedupratio_percent / 100,
            "bclone_used_bytes": self.bclone_used_bytes,
            "bclone_saved_bytes": self.bclone_saved_bytes,
            "bcloneratio": self.bcloneratio_percent / 100,
            "allocated_saved_bytes": self.allocated_saved_bytes,
            "slop_bytes": self.slop_bytes,
            "usable_bytes": self.usable_bytes,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class PoolFigures:
    """The pool as a whole: sizes as ``zpool list``/``zfs list`` show them, and the plan's use of it."""

    raw_bytes: int
    zpool_size_bytes: int
    zfs_avail_bytes: int
    slop_bytes: int
    special_size_bytes: int
    allocated_bytes: int
    used_fraction: float | None
    zfs_used_bytes: int
    zfs_avail_after_bytes: int
    normal_size_bytes: int
    log_size_bytes: int
    cache_size_bytes: int
    spare_raw_bytes: int
    normal_dspace_bytes: int
    embedded_log_dspace_bytes: int
    initial_used_bytes: int
    special_allocated_bytes: int
    spa_min_alloc_bytes: int
    special_recommended_bytes: int
    raw_display: Display
    zpool_size_display: Display
    zfs_avail_display: Display
    slop_display: Display
    notes: tuple[str, ...]
    savings: SavingsFigures | None = None  # None: no dataset dedups or clones anything

    @property
    def usable_bytes(self) -> int:
        """The root's USED + AVAIL once the contents are written: the empty pool's, plus what dedup
        and block cloning save (less the slop that follows them on older releases)."""
        if self.savings is not None:
            return self.savings.usable_bytes
        return self.zfs_avail_bytes + self.initial_used_bytes

    def to_document(self) -> dict[str, Any]:
        out = self._document()
        if self.savings is not None:
            out["space_savings"] = self.savings.to_document()
        return out

    def _document(self) -> dict[str, Any]:
        return {
            "raw_bytes": self.raw_bytes,
            "zpool_size_bytes": self.zpool_size_bytes,
            "zfs_avail_bytes": self.zfs_avail_bytes,
            "slop_bytes": self.slop_bytes,
            "special_size_bytes": self.special_size_bytes,
            "allocated_bytes": self.allocated_bytes,
            "used_fraction": self.used_fraction,
            "zfs_used_bytes": self.zfs_used_bytes,
            "zfs_avail_after_bytes": self.zfs_avail_after_bytes,
            "normal_size_bytes": self.normal_size_bytes,
            "log_size_bytes": self.log_size_bytes,
            "cache_size_bytes": self.cache_size_bytes,
            "spare_raw_bytes": self.spare_raw_bytes,
            "normal_dspace_bytes": self.normal_dspace_bytes,
            "embedded_log_dspace_bytes": self.embedded_log_dspace_bytes,
            "initial_used_bytes": self.initial_used_bytes,
            "special_allocated_bytes": self.special_allocated_bytes,
            "spa_min_alloc_bytes": self.spa_min_alloc_bytes,
            "special_recommended_bytes": self.special_recommended_bytes,
            "display": {
                "raw": self.raw_display.to_document(),
                "zpool_size": self.zpool_size_display.to_document(),
                "zfs_avail": self.zfs_avail_display.to_document(),
                "slop": self.slop_display.to_document(),
            },
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class DraidFigures:
    data: int
    spares: int | None
    groups: int | None


@dataclass(frozen=True)
class VdevFigures:
    """One top-level vdev (or log, cache, spare device) as the pool lays it out."""

    role: str
    index: int
    layout: str
    width: int
    ashift: int
    zpool_size_bytes: int
    fault_tolerance: int
    removable: bool
    group_index: int
    ashift_source: str
    raw_bytes: int
    leaf_asize_bytes: int
    asize_bytes: int
    metaslab_shift: int
    metaslab_count: int
    deflate_ratio: int
    dspace_bytes: int
    embedded_log: bool
    draid: DraidFigures | None
    original_width: int | None
    notes: tuple[str, ...]

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "draid": (
                {"data": self.draid.data, "spares": self.draid.spares, "groups": self.draid.groups}
                if self.draid is not None
                else None
            ),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class DatasetFigures:
    """One dataset or zvol: what it holds, what it allocates, and what ``zfs list`` shows for it."""

    name: str
    logical_bytes: int
    compressratio: float
    data_allocated_bytes: int
    metadata_allocated_bytes: int
    special_allocated_bytes: int
    normal_allocated_bytes: int
    zfs_used_bytes: int
    raidz_overhead_fraction: float | None
    nominal_parity_fraction: float | None
    block_size_bytes: int | None
    compression: str
    copies: int
    logicalused_bytes: int
    referenced_bytes: int
    refreservation_bytes: int | None
    notes: tuple[str, ...]
    special_small_blocks_curve: tuple[CurvePoint, ...]

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "notes": list(self.notes),
            "special_small_blocks_curve": [
                {
                    "special_small_blocks": p.special_small_blocks,
                    "special_allocated_bytes": p.special_allocated_bytes,
                    "normal_allocated_bytes": p.normal_allocated_bytes,
                }
                for p in self.special_small_blocks_curve
            ],
        }



@dataclass(frozen=True)
class EfficiencyGroup:
    """Space efficiency by block size for one distinct vdev shape."""

    group_index: int
    role: str
    layout: str
    width: int
    ashift: int
    draid_data: int | None
    rows: tuple[EfficiencyRow, ...]

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "rows": [field_values(r) for r in self.rows],
        }


@dataclass(frozen=True)
class MdRaidGroup:
    """The same disks of one data group under Linux md RAID, for comparison."""

    group_index: int
    disks: int
    rows: tuple[MdRaidRow, ...]

    def to_document(self) -> dict[str, Any]:
        return {
            "group_index": self.group_index,
            "disks": self.disks,
            "rows": [
                {
                    "level": r.level.value,
                    "disks": r.disks,
                    "usable_bytes": r.usable_bytes,
                    "fault_tolerance": r.fault_tolerance,
                    "data_offset_bytes": r.data_offset_bytes,
                    "ext4_size_bytes": r.ext4_size_bytes,
                    "ext4_avail_bytes": r.ext4_avail_bytes,
                    "notes": list(r.notes),
                }
                for r in self.rows
            ],
        }


@dataclass(frozen=True)
class ExpansionDataset:
    """USED of a dataset after a RAIDZ expansion, split by what it wrote before and after."""

    name: str
    logical_bytes: int
    logical_bytes_written_before: int
    logical_bytes_written_after: int
    used_written_before_bytes: int
    used_written_after_bytes: int
    zfs_used_bytes: int
    used_if_rewritten_bytes: int
    rewrite_frees_bytes: int


@dataclass(frozen=True)
class Expansion:
    """One widened RAIDZ group: the before/after report and the datasets' USED."""

    report: ExpansionReport
    datasets: tuple[ExpansionDataset, ...]

    def to_document(self) -> dict[str, Any]:
        return {**asdict(self.report), "datasets": [asdict(d) for d in self.datasets]}


@dataclass(frozen=True)
class Estimate:
    """What a design gives: the pool, its vdevs and datasets, the risks and the planning sections."""

    design: DesignFigures
    pool: PoolFigures
    vdevs: tuple[VdevFigures, ...]
    datasets: tuple[DatasetFigures, ...]
    risks: tuple[Risk, ...]
    efficiency: tuple[EfficiencyGroup, ...]
    md_raid: tuple[MdRaidGroup, ...]
    raidz_expansion: tuple[Expansion, ...]
    special: SpecialFigures
    reliability: ReliabilityFigures
    performance: PerformanceFigures
    sizing: SizingFigures
    timeline: TimelineFigures | None = None  # only when the design has a growth block

    @property
    def planned_logical_bytes(self) -> int:
        """The data the datasets are planned to hold (before compression). 0: no dataset says how much,
        so the figures that grow with the data (special vdev size, RAM for metadata) only count the
        empty pool's few KiB and are no target (:data:`NEEDS_DATA`)."""
        return sum(d.logical_bytes for d in self.datasets)

    def to_document(self) -> dict[str, Any]:
        """The ``zfsplanner.estimate/1`` document (a fresh copy: the caller may change it)."""
        return {
            "format": FORMAT,
            "design": self.design.to_document(),
            "pool": self.pool.to_document(),
            "vdevs": [v.to_document() for v in self.vdevs],
            "datasets": [d.to_document() for d in self.datasets],
            "risks": [risk_to_document(r) for r in self.risks],
            "efficiency": [g.to_document() for g in self.efficiency],
            "md_raid": [g.to_document() for g in self.md_raid],
            "raidz_expansion": [e.to_document() for e in self.raidz_expansion],
            "special": self.special.to_document(),
            "reliability": self.reliability.to_document(),
            "performance": self.performance.to_document(),
            "sizing": self.sizing.to_document(),
            "units": copy.deepcopy(UNITS_NOTE),
            **({"timeline": self.timeline.to_document()} if self.timeline is not None else {}),
        }

    def as_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_document(), indent=indent)
