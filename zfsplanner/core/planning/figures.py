"""The estimate's planning sections as typed values: special class, reliability, performance, sizing.

``planning.sections`` and ``planning.reliability_section`` build these; :class:`..estimate.Estimate`
holds them, and pages and reports read their attributes. Each type's ``to_document()`` writes
the section of the ``zfsplanner.estimate/1`` document (``spec/design-format.md``, "Additions")
key for key, in the same order and with the same values.

Figures that the document keys by a name (a drive's failure rate by its model, a vdev group's
rebuild speed under ``vdevs[<group>]``) are tuples of small records here that carry that name,
so nothing in an estimate is a mutable mapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..datasets.ddt import DedupTable
from ..design.planning import DriveFigures
from ..document.export import field_values
from .performance import Range

# --------------------------------------------------------------------------- special


@dataclass(frozen=True)
class SpecialLayout:
    """The special vdevs the sizes are for: the design's, or a 2-way mirror to add."""

    layout: str
    width: int
    count: int


@dataclass(frozen=True)
class SpecialDatasetFigures:
    """What one dataset puts on the special class at its ``special_small_blocks``."""

    name: str
    special_small_blocks: int
    demand_bytes: int
    metadata_bytes: int


@dataclass(frozen=True)
class SpecialFigures:
    """The special class: what the datasets put there, whether it fits, the size to aim for."""

    hypothetical: bool  # the design has no special vdev: the figures are for one to add
    layout: SpecialLayout
    class_size_bytes: int
    allocated_bytes: int
    fill_fraction: float | None
    demand_bytes: int
    metadata_bytes: int
    small_blocks_bytes: int
    small_blocks_stop_fraction: float
    small_blocks_stop_bytes: int | None
    reserve_pct: int
    headroom_fraction: float
    recommended_bytes: int
    recommended_disk_bytes: int
    fits: bool | None
    datasets: tuple[SpecialDatasetFigures, ...]
    notes: tuple[str, ...]

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "layout": {"layout": self.layout.layout, "width": self.layout.width, "count": self.layout.count},
            "datasets": [
                {
                    "name": d.name,
                    "special_small_blocks": d.special_small_blocks,
                    "demand_bytes": d.demand_bytes,
                    "metadata_bytes": d.metadata_bytes,
                }
                for d in self.datasets
            ],
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- reliability


@dataclass(frozen=True)
class LossOdds:
    """The chance of a loss within one year and within five years."""

    one_year: float
    five_years: float

    def to_document(self) -> dict[str, float]:
        return {"1y": self.one_year, "5y": self.five_years}


@dataclass(frozen=True)
class DriveAfr:
    """The annualized failure rate used for one drive (``drive_key``: its model, else its media)."""

    drive: str
    afr: float
    source: str


@dataclass(frozen=True)
class MediaUre:
    """Unrecoverable read errors per bit read for one media class (``hdd``, ``ssd``, ``nvme``)."""

    media: str
    per_bit: float
    source: str


@dataclass(frozen=True)
class GroupAssumptions:
    """The fill and rebuild speed assumed for one vdev group (``vdevs[<group_index>]`` in the document)."""

    group_index: int
    fill_fraction: float
    rebuild_bytes_per_s: int
    rebuild_source: str

    @property
    def key(self) -> str:
        return f"vdevs[{self.group_index}]"


@dataclass(frozen=True)
class ReliabilityAssumptions:
    afr: tuple[DriveAfr, ...]
    ure: tuple[MediaUre, ...]
    fill_fraction: float | None  # the design's, else the first group's
    groups: tuple[GroupAssumptions, ...]
    fill_source: str
    replacement_hours: float
    hot_spares: tuple[str, ...]  # media classes a hot spare covers

    def to_document(self) -> dict[str, Any]:
        return {
            "afr": {a.drive: a.afr for a in self.afr},
            "afr_source": {a.drive: a.source for a in self.afr},
            "ure_per_bit": {u.media: u.per_bit for u in self.ure},
            "ure_source": {u.media: u.source for u in self.ure},
            "fill_fraction": self.fill_fraction,
            "fill_fraction_by_vdev": {g.key: g.fill_fraction for g in self.groups},
            "fill_source": self.fill_source,
            "rebuild_bytes_per_s": {g.key: g.rebuild_bytes_per_s for g in self.groups},
            "rebuild_source": {g.key: g.rebuild_source for g in self.groups},
            "replacement_hours": self.replacement_hours,
            "hot_spares": list(self.hot_spares),
        }


@dataclass(frozen=True)
class ReliabilityGroup:
    """One data, special or dedup vdev group: its rebuild, exposure and the odds of losing it."""

    group_index: int
    role: str
    layout: str
    width: int
    count: int
    fault_tolerance: int
    fill_fraction: float
    allocated_per_disk_bytes: int
    rebuild: str  # "healing", "sequential" ... or "none" without redundancy
    resilver_seconds: int | None
    rebuild_bytes_per_s: int
    replacement_wait_hours: float | None
    exposure_hours: float | None
    another_failure_probability: float | None
    ure_during_rebuild_probability: float | None
    afr: float
    mttdl_hours: float | None
    data_loss_probability: LossOdds
    pool_loss_probability: LossOdds  # disk failures only

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "data_loss_probability": self.data_loss_probability.to_document(),
            "pool_loss_probability": self.pool_loss_probability.to_document(),
        }


@dataclass(frozen=True)
class ReliabilityVdev:
    """One top-level vdev of a data, special or dedup group: what one failed disk costs it."""

    index: int
    group_index: int
    role: str
    fault_tolerance: int
    resilver_seconds: int | None
    rebuild: str

    def to_document(self) -> dict[str, Any]:
        return field_values(self)


@dataclass(frozen=True)
class ReliabilityFigures:
    """The pool's odds of losing data, per vdev group and as a whole, with the assumptions used."""

    model: str
    assumptions: ReliabilityAssumptions
    groups: tuple[ReliabilityGroup, ...]
    vdevs: tuple[ReliabilityVdev, ...]
    mttdl_hours: float | None
    mttdl_years: float | None
    data_loss_probability: LossOdds
    pool_loss_probability: LossOdds  # disk failures only

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "assumptions": self.assumptions.to_document(),
            "groups": [g.to_document() for g in self.groups],
            "vdevs": [v.to_document() for v in self.vdevs],
            "data_loss_probability": self.data_loss_probability.to_document(),
            "pool_loss_probability": self.pool_loss_probability.to_document(),
        }


# --------------------------------------------------------------------------- performance


@dataclass(frozen=True)
class DiskPerformance:
    """The figures one disk (by model, else by media) was assumed to have."""

    name: str
    figures: DriveFigures

    def to_document(self) -> dict[str, object]:
        f = self.figures
        return {
            "random_read_iops": f.random_read_iops,
            "random_read_iops_qd1": f.random_read_iops_qd1,
            "random_write_iops": f.random_write_iops,
            "random_write_iops_qd1": f.random_write_iops_qd1,
            "seq_read_bytes_per_s": f.seq_read_bytes_per_s,
            "seq_write_bytes_per_s": f.seq_write_bytes_per_s,
            "sync_write_iops": f.sync_write_iops,
            "source": f.source,
        }


@dataclass(frozen=True)
class SyncLatency:
    """Microseconds one sync write waits, without and with the SLOG (None: does not apply)."""

    without_slog: float | None
    with_slog: float | None


@dataclass(frozen=True)
class PerformanceFigures:
    """The pool's ranges, rounded to a tenth as the document writes them."""

    model: str
    disks: tuple[DiskPerformance, ...]
    random_read_iops: Range
    random_write_iops: Range
    seq_read_bytes_per_s: Range
    seq_write_bytes_per_s: Range
    sync_write_iops: Range
    sync_write_iops_without_slog: Range
    sync_write_iops_with_slog: Range | None
    sync_write_latency_us: SyncLatency
    top_level_vdevs: int
    notes: tuple[str, ...]

    def to_document(self) -> dict[str, Any]:
        with_slog = self.sync_write_iops_with_slog
        return {
            "model": self.model,
            "assumptions": {"disk": {d.name: d.to_document() for d in self.disks}},
            "random_read_iops": self.random_read_iops.to_document(),
            "random_write_iops": self.random_write_iops.to_document(),
            "seq_read_bytes_per_s": self.seq_read_bytes_per_s.to_document(),
            "seq_write_bytes_per_s": self.seq_write_bytes_per_s.to_document(),
            "sync_write_iops": self.sync_write_iops.to_document(),
            "sync_write_iops_without_slog": self.sync_write_iops_without_slog.to_document(),
            "sync_write_iops_with_slog": with_slog.to_document() if with_slog is not None else None,
            "sync_write_latency_us": {
                "without_slog": self.sync_write_latency_us.without_slog,
                "with_slog": self.sync_write_latency_us.with_slog,
            },
            "top_level_vdevs": self.top_level_vdevs,
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- sizing


@dataclass(frozen=True)
class SlogFigures:
    """The SLOG to aim for, and whether the design's log vdevs hold it (None without them)."""

    applies: bool  # the design has log vdevs
    sync_bytes_per_s: int
    sync_rate_source: str
    by_rate_bytes: int
    cap_bytes: int
    dirty_data_max_bytes: int
    ram_known: bool
    recommended_bytes: int
    log_size_bytes: int | None
    fits: bool | None

    def to_document(self) -> dict[str, Any]:
        return field_values(self)


@dataclass(frozen=True)
class RamFigures:
    """RAM the ARC should have: metadata, the dedup table, L2ARC headers; and the host's share."""

    metadata_bytes: int
    ddt_bytes: int
    ddt_entry_bytes: int
    dedup_blocks: int
    l2arc_header_bytes: int
    l2arc_average_block_bytes: int | None  # None without a cache device
    cache_size_bytes: int
    arc_bytes: int
    ram_bytes: int | None
    ram_share: float | None

    def to_document(self) -> dict[str, Any]:
        return field_values(self)


@dataclass(frozen=True)
class DedupTableHome:
    """The class the dedup table goes to (``spa_preferred_class``) and how much of it the table takes."""

    role: str  # "dedup", "special" or "data"
    where: str  # the vdevs in words
    group_indexes: tuple[int, ...]
    class_size_bytes: int
    class_planned_bytes: int
    fits: bool

    def to_document(self) -> dict[str, Any]:
        return {
            **field_values(self),
            "group_indexes": list(self.group_indexes),
        }


@dataclass(frozen=True)
class SizingFigures:
    """SLOG and RAM sizing; the dedup table and its home only when a dataset uses dedup."""

    slog: SlogFigures
    ram: RamFigures
    dedup_table: DedupTable | None
    dedup_table_home: DedupTableHome | None

    def to_document(self) -> dict[str, Any]:
        out: dict[str, Any] = {"slog": self.slog.to_document(), "ram": self.ram.to_document()}
        if self.dedup_table is not None:
            t = self.dedup_table
            out["dedup_table"] = {
                "entries": t.entries,
                "on_disk_bytes": t.on_disk_bytes,
                "in_core_bytes": t.in_core_bytes,
                "fast_dedup": t.fast_dedup,
            }
        if self.dedup_table_home is not None:
            out["dedup_table_home"] = self.dedup_table_home.to_document()
        return out
