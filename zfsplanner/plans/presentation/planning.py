"""Typed views of the estimate's planning sections for the page partials.

``planning_view(estimate)`` reads the typed estimate's ``special``, ``reliability``,
``performance`` and ``sizing`` sections once and gives the templates attributes with
plain-language text (``"1 in 2,300"``, ``"14 h"``, ``"80–180 IOPS"``); templates never format
by key. Without an estimate (the design no longer estimates) every view is ``None``, and the
partials say the figure does not apply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.figures import DatasetFigures
from zfsplanner.core.naming import element_label, group_labels
from zfsplanner.core.planning.figures import (
    DiskPerformance,
    PerformanceFigures,
    ReliabilityFigures,
    ReliabilityGroup,
    SizingFigures,
    SpecialFigures,
)
from zfsplanner.core.planning.performance import Range
from zfsplanner.core.report.words import (
    duration_text,
    iops_text,
    odds_text,
    probability_text,
    rate_text,
    small_blocks_text,
    years_text,
)
from zfsplanner.core.report.words import scientific as _scientific
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_iec, format_si

from .sizes import Size


def _range(r: Range | None, fmt: Callable[[float], str], unit: str = "") -> str:
    if r is None:
        return "does not apply"
    lo, hi = fmt(r.low), fmt(r.high)
    text = lo if lo == hi else f"{lo} – {hi}"
    return f"{text}{unit}"


@dataclass(frozen=True)
class SpecialDataset:
    index: int
    name: str
    threshold: str  # the dataset's special_small_blocks ("off" for 0)
    demand: Size
    metadata: Size
    points: int


@dataclass(frozen=True)
class SpecialView:
    hypothetical: bool
    needs_data: bool  # no dataset gives its data to store: the target would be the empty pool's KiB
    layout: str
    class_size: Size | None
    allocated: Size
    demand: Size
    metadata: Size
    small_blocks: Size
    stop_at: Size | None
    stop_percent: str
    reserve_pct: int
    headroom_percent: str
    recommended: Size
    recommended_disk: str
    fits: bool | None
    fill_percent: str
    datasets: tuple[SpecialDataset, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class VdevRisk:
    label: str
    role: str
    survives: int
    fill_percent: str
    per_disk: Size
    rebuild: str  # healing / sequential / none
    resilver: str
    exposure: str
    another_failure: str
    read_error: str
    afr_percent: str
    loss_5y: str
    pool_loss_5y: str


@dataclass(frozen=True)
class Assumption:
    name: str
    value: str
    source: str


@dataclass(frozen=True)
class ReliabilityView:
    loss_1y: str
    loss_5y: str
    pool_loss_1y: str
    pool_loss_5y: str
    loss_5y_value: float
    mttdl: str
    longest_resilver: str
    vdevs: tuple[VdevRisk, ...]
    assumptions: tuple[Assumption, ...]
    model: str


@dataclass(frozen=True)
class DiskFigures:
    disk: str
    random_read: str
    random_write: str
    seq_read: str
    seq_write: str
    sync_write: str
    source: str


@dataclass(frozen=True)
class PerformanceView:
    random_read: str
    random_write: str
    seq_read: str
    seq_write: str
    sync_without_slog: str
    sync_with_slog: str  # "does not apply" without a log vdev
    has_slog: bool
    latency_without_slog: str
    latency_with_slog: str
    top_level_vdevs: int
    disks: tuple[DiskFigures, ...]
    notes: tuple[str, ...]
    model: str


@dataclass(frozen=True)
class SizingView:
    needs_data: bool  # no dataset gives its data to store: RAM for metadata would be the empty pool's KiB
    slog_applies: bool
    slog_recommended: Size
    slog_size: Size | None
    slog_fits: bool | None
    slog_rate: str
    slog_rate_source: str
    slog_cap: Size
    ram_known: bool
    ram: Size | None
    ram_share: str
    arc: Size
    metadata: Size
    ddt: Size | None  # the dedup table in RAM; None without dedup
    ddt_on_disk: Size | None
    ddt_entries: str  # "2,441,407"
    ddt_fast: bool
    ddt_where: str  # where the table lives, in words ("the dedup mirror (group 3)")
    ddt_fits: bool | None
    l2arc_headers: Size | None  # None without a cache device
    l2arc_block: str


@dataclass(frozen=True)
class PlanningView:
    special: SpecialView
    reliability: ReliabilityView
    performance: PerformanceView
    sizing: SizingView


def _pct(v: Any, digits: int = 1) -> str:
    if not isinstance(v, int | float):
        return "does not apply"
    return f"{100 * v:.{digits}f} %"


def _size(v: Any, unit: str = DEFAULT_SIZE_UNIT) -> Size | None:
    return Size(int(v), unit) if isinstance(v, int | float) else None


def _special(s: SpecialFigures, datasets: Sequence[DatasetFigures], unit: str, needs_data: bool) -> SpecialView:
    layout = s.layout
    rows = []
    for i, d in enumerate(s.datasets):
        curve = datasets[i].special_small_blocks_curve if i < len(datasets) else ()
        rows.append(
            SpecialDataset(
                i, d.name, small_blocks_text(d.special_small_blocks), Size(d.demand_bytes, unit),
                Size(d.metadata_bytes, unit), len(curve),
            )
        )
    return SpecialView(
        hypothetical=s.hypothetical,
        needs_data=needs_data,
        layout=f"{layout.count} × {layout.layout} of {layout.width}",
        class_size=_size(s.class_size_bytes, unit) if s.class_size_bytes else None,
        allocated=Size(s.allocated_bytes, unit),
        demand=Size(s.demand_bytes, unit),
        metadata=Size(s.metadata_bytes, unit),
        small_blocks=Size(s.small_blocks_bytes, unit),
        stop_at=_size(s.small_blocks_stop_bytes, unit),
        stop_percent=f"{100 * s.small_blocks_stop_fraction:.0f} %",
        reserve_pct=s.reserve_pct,
        headroom_percent=f"{100 * s.headroom_fraction:.0f} %",
        recommended=Size(s.recommended_bytes, unit),
        recommended_disk=format_si(s.recommended_disk_bytes),
        fits=s.fits,
        fill_percent=_pct(s.fill_fraction, 2),
        datasets=tuple(rows),
        notes=s.notes,
    )


REBUILD_WORDS = {"healing": "resilver", "sequential": "sequential rebuild to a distributed spare"}


def _vdev_risk(g: ReliabilityGroup, unit: str) -> VdevRisk:
    exposed = g.exposure_hours
    return VdevRisk(
        label=f"{g.role} {g.count} × {g.layout} of {g.width}",
        role=g.role,
        survives=g.fault_tolerance,
        fill_percent=_pct(g.fill_fraction),
        per_disk=Size(g.allocated_per_disk_bytes, unit),
        rebuild=REBUILD_WORDS.get(g.rebuild, "none: no redundancy"),
        resilver=duration_text(g.resilver_seconds),
        exposure=duration_text(exposed * 3600) if exposed is not None else "does not apply",
        another_failure=probability_text(g.another_failure_probability),
        read_error=probability_text(g.ure_during_rebuild_probability),
        afr_percent=_pct(g.afr, 2),
        loss_5y=probability_text(g.data_loss_probability.five_years),
        pool_loss_5y=probability_text(g.pool_loss_probability.five_years),
    )


def _assumptions(r: ReliabilityFigures) -> list[Assumption]:
    a = r.assumptions
    names = group_labels(r.groups)
    out = [Assumption(f"Annualized failure rate, {d.drive}", _pct(d.afr, 2), d.source) for d in a.afr]
    out += [
        Assumption(
            f"Unrecoverable read errors, {u.media}",
            f"1 per {_scientific(1 / u.per_bit)} bits read" if u.per_bit else "none",
            u.source,
        )
        for u in a.ure
    ]
    for g in a.groups:
        name = names.get(g.key) or element_label(None, g.key)
        out.append(Assumption(f"Fill of {name} at rebuild time", _pct(g.fill_fraction), a.fill_source))
    for g in a.groups:
        name = names.get(g.key) or element_label(None, g.key)
        out.append(Assumption(f"Rebuild speed of {name}", rate_text(g.rebuild_bytes_per_s), g.rebuild_source))
    spares = a.hot_spares
    out.append(
        Assumption(
            "Wait before a resilver starts",
            f"{a.replacement_hours:g} h without a hot spare; none with one",
            f"hot spares for: {', '.join(spares)}" if spares else "the design has no hot spare",
        )
    )
    return out


def _reliability(r: ReliabilityFigures, unit: str) -> ReliabilityView:
    loss, pool = r.data_loss_probability, r.pool_loss_probability
    longest = max((g.resilver_seconds or 0 for g in r.groups), default=0)
    return ReliabilityView(
        loss_1y=probability_text(loss.one_year),
        loss_5y=probability_text(loss.five_years),
        pool_loss_1y=probability_text(pool.one_year),
        pool_loss_5y=probability_text(pool.five_years),
        loss_5y_value=loss.five_years,
        mttdl=years_text(r.mttdl_hours),
        longest_resilver=duration_text(longest) if longest else "does not apply",
        vdevs=tuple(_vdev_risk(g, unit) for g in r.groups),
        assumptions=tuple(_assumptions(r)),
        model=r.model,
    )


def _latency(us: float | None) -> str:
    if us is None:
        return "does not apply"
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} µs"


def _disk_figures(d: DiskPerformance) -> DiskFigures:
    f = d.figures
    return DiskFigures(
        disk=d.name,
        random_read=f"{iops_text(f.random_read_iops_qd1)} – {iops_text(f.random_read_iops)}",
        random_write=f"{iops_text(f.random_write_iops_qd1)} – {iops_text(f.random_write_iops)}",
        seq_read=rate_text(f.seq_read_bytes_per_s),
        seq_write=rate_text(f.seq_write_bytes_per_s),
        sync_write=iops_text(f.sync_write_iops),
        source=f.source or "",
    )


def _performance(p: PerformanceFigures) -> PerformanceView:
    with_slog = p.sync_write_iops_with_slog
    return PerformanceView(
        random_read=_range(p.random_read_iops, iops_text, " IOPS"),
        random_write=_range(p.random_write_iops, iops_text, " IOPS"),
        seq_read=_range(p.seq_read_bytes_per_s, rate_text),
        seq_write=_range(p.seq_write_bytes_per_s, rate_text),
        sync_without_slog=_range(p.sync_write_iops_without_slog, iops_text, " IOPS"),
        sync_with_slog=_range(with_slog, iops_text, " IOPS"),
        has_slog=with_slog is not None,
        latency_without_slog=_latency(p.sync_write_latency_us.without_slog),
        latency_with_slog=_latency(p.sync_write_latency_us.with_slog),
        top_level_vdevs=p.top_level_vdevs,
        disks=tuple(_disk_figures(d) for d in p.disks),
        notes=p.notes,
        model=p.model,
    )


def _sizing(s: SizingFigures, unit: str, needs_data: bool) -> SizingView:
    slog, ram, table, home = s.slog, s.ram, s.dedup_table, s.dedup_table_home
    return SizingView(
        needs_data=needs_data,
        slog_applies=slog.applies,
        slog_recommended=Size(slog.recommended_bytes, unit),
        slog_size=_size(slog.log_size_bytes, unit),
        slog_fits=slog.fits,
        slog_rate=rate_text(slog.sync_bytes_per_s),
        slog_rate_source=slog.sync_rate_source,
        slog_cap=Size(slog.cap_bytes, unit),
        ram_known=slog.ram_known,
        ram=_size(ram.ram_bytes, unit),
        ram_share=_pct(ram.ram_share),
        arc=Size(ram.arc_bytes, unit),
        metadata=Size(ram.metadata_bytes, unit),
        ddt=_size(table.in_core_bytes, unit) if table is not None else None,
        ddt_on_disk=_size(table.on_disk_bytes, unit) if table is not None else None,
        ddt_entries=f"{table.entries if table is not None else 0:,}",
        ddt_fast=table is not None and table.fast_dedup,
        ddt_where=home.where if home is not None else "",
        ddt_fits=home.fits if table is not None and home is not None else None,
        l2arc_headers=_size(ram.l2arc_header_bytes, unit) if ram.cache_size_bytes else None,
        l2arc_block=format_iec(ram.l2arc_average_block_bytes or 0),
    )


def planning_view(estimate: Estimate, unit: str = DEFAULT_SIZE_UNIT) -> PlanningView:
    """The four planning sections of ``estimate`` as typed views; ``size.text`` is in ``unit``, the
    page's (``summary.unit``)."""
    needs_data = estimate.planned_logical_bytes == 0
    return PlanningView(
        _special(estimate.special, estimate.datasets, unit, needs_data),
        _reliability(estimate.reliability, unit),
        _performance(estimate.performance),
        _sizing(estimate.sizing, unit, needs_data),
    )


# --------------------------------------------------------------------------- advisor


@dataclass(frozen=True)
class AdvisorLine:
    """One advisor row as the table shows it; ``pick`` identifies it for "create design"."""

    candidate: str
    layout: str
    pick: str
    disks: int
    usable: Size
    survives: int
    loss_5y: str
    pool_loss_5y: str
    resilver: str
    random_read: str
    random_write: str
    seq_read: str
    seq_write: str
    cost: str
    cost_per_tb: str
    cost_per_tb_year: str  # "" without a growth block
    fill: str
    fits: bool


def advisor_lines(rows: Sequence[Any], separator: str) -> list[AdvisorLine]:
    out = []
    for r in rows:
        cur = f" {r.currency}" if r.currency else ""
        out.append(
            AdvisorLine(
                candidate=r.candidate,
                layout=r.layout,
                pick=f"{r.candidate}{separator}{r.layout}",
                disks=r.disks,
                usable=Size(r.usable_bytes),
                survives=r.fault_tolerance,
                loss_5y=odds_text(r.loss_5y),
                pool_loss_5y=odds_text(r.pool_loss_5y),
                resilver=duration_text(r.resilver_seconds),
                random_read=f"{iops_text(r.random_read_iops)} IOPS",
                random_write=f"{iops_text(r.random_write_iops)} IOPS",
                seq_read=rate_text(r.seq_read_bytes_per_s),
                seq_write=rate_text(r.seq_write_bytes_per_s),
                cost=f"{r.cost:,.0f}{cur}" if r.cost is not None else "no price",
                cost_per_tb=f"{r.cost_per_usable_tb:,.2f}{cur}" if r.cost_per_usable_tb is not None else "no price",
                cost_per_tb_year=(
                    f"{r.cost_per_usable_tb_year:,.2f}{cur}" if r.cost_per_usable_tb_year is not None else ""
                ),
                fill=_pct(r.fill_fraction, 0),
                fits=r.fits,
            )
        )
    return out
