"""Typed views of the estimate's planning sections for the page partials.

``planning_view(estimate)`` reads the typed estimate's ``special``, ``reliability``,
``performance`` and ``sizing`` sections once and gives the templates attributes with
plain-language text (``"1 in 2,300"``, ``"14 h"``, ``"80–180 IOPS"``); templates never format
by key. Without an estimate (the design no longer estimates) every view is ``None``, and the
partials say the figure does not apply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.figures import DatasetFigures
from zfsplanner.core.naming import element_label, group_labels
from zfsplanner.core.report.words import duration_text, iops_text, odds_text, probability_text, rate_text, years_text
from zfsplanner.core.report.words import scientific as _scientific
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_iec, format_si, zfs_nicenum

from .summary import Size


def _range(r: Any, fmt: Any, unit: str = "") -> str:
    if not isinstance(r, Mapping) or r.get("low") is None:
        return "does not apply"
    lo, hi = fmt(r["low"]), fmt(r["high"])
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
    special: SpecialView | None
    reliability: ReliabilityView | None
    performance: PerformanceView | None
    sizing: SizingView | None


def _pct(v: Any, digits: int = 1) -> str:
    if not isinstance(v, int | float):
        return "does not apply"
    return f"{100 * v:.{digits}f} %"


def _size(v: Any, unit: str = DEFAULT_SIZE_UNIT) -> Size | None:
    return Size(int(v), unit) if isinstance(v, int | float) else None


def _threshold(v: int) -> str:
    return "off (metadata only)" if not v else zfs_nicenum(v)


def _special(s: Mapping[str, Any], datasets: Sequence[DatasetFigures], unit: str) -> SpecialView:
    layout = s.get("layout") or {}
    shape = f"{layout.get('count', 1)} × {layout.get('layout', 'mirror')} of {layout.get('width', 2)}"
    rows = []
    for i, d in enumerate(s.get("datasets") or []):
        curve = datasets[i].special_small_blocks_curve if i < len(datasets) else None
        rows.append(
            SpecialDataset(
                i, d["name"], _threshold(d["special_small_blocks"]), Size(d["demand_bytes"], unit),
                Size(d["metadata_bytes"], unit), len(curve or []),
            )
        )
    size = _size(s.get("class_size_bytes"), unit) if s.get("class_size_bytes") else None
    return SpecialView(
        hypothetical=bool(s.get("hypothetical")),
        layout=shape,
        class_size=size,
        allocated=Size(int(s.get("allocated_bytes") or 0), unit),
        demand=Size(int(s.get("demand_bytes") or 0), unit),
        metadata=Size(int(s.get("metadata_bytes") or 0), unit),
        small_blocks=Size(int(s.get("small_blocks_bytes") or 0), unit),
        stop_at=_size(s.get("small_blocks_stop_bytes"), unit),
        stop_percent=f"{100 * float(s.get('small_blocks_stop_fraction') or 0.75):.0f} %",
        reserve_pct=int(s.get("reserve_pct") or 25),
        headroom_percent=f"{100 * float(s.get('headroom_fraction') or 0):.0f} %",
        recommended=Size(int(s.get("recommended_bytes") or 0), unit),
        recommended_disk=format_si(s.get("recommended_disk_bytes") or 0),
        fits=s.get("fits"),
        fill_percent=_pct(s.get("fill_fraction"), 2),
        datasets=tuple(rows),
        notes=tuple(s.get("notes") or ()),
    )


def _reliability(r: Mapping[str, Any], unit: str) -> ReliabilityView:
    a = r.get("assumptions") or {}
    names = group_labels(r.get("groups"))
    vdevs = []
    for g in r.get("groups") or []:
        label = f"{g['role']} {g['count']} × {g['layout']} of {g['width']}"
        exposed = g.get("exposure_hours")
        vdevs.append(
            VdevRisk(
                label=label,
                role=g["role"],
                survives=g["fault_tolerance"],
                fill_percent=_pct(g.get("fill_fraction")),
                per_disk=Size(int(g.get("allocated_per_disk_bytes") or 0), unit),
                rebuild={"healing": "resilver", "sequential": "sequential rebuild to a distributed spare"}.get(
                    g.get("rebuild"), "none: no redundancy"
                ),
                resilver=duration_text(g.get("resilver_seconds")),
                exposure=duration_text(exposed * 3600) if exposed is not None else "does not apply",
                another_failure=probability_text(g.get("another_failure_probability")),
                read_error=probability_text(g.get("ure_during_rebuild_probability")),
                afr_percent=_pct(g.get("afr"), 2),
                loss_5y=probability_text((g.get("data_loss_probability") or {}).get("5y")),
                pool_loss_5y=probability_text((g.get("pool_loss_probability") or {}).get("5y")),
            )
        )
    assumptions = [
        Assumption(f"Annualized failure rate, {disk}", _pct(v, 2), (a.get("afr_source") or {}).get(disk, ""))
        for disk, v in (a.get("afr") or {}).items()
    ]
    assumptions += [
        Assumption(
            f"Unrecoverable read errors, {media}",
            f"1 per {_scientific(1 / v)} bits read" if v else "none",
            (a.get("ure_source") or {}).get(media, ""),
        )
        for media, v in (a.get("ure_per_bit") or {}).items()
    ]
    for key, fill in (a.get("fill_fraction_by_vdev") or {}).items():
        name = names.get(key) or element_label(None, key)
        assumptions.append(Assumption(f"Fill of {name} at rebuild time", _pct(fill), a.get("fill_source", "")))
    for key, speed in (a.get("rebuild_bytes_per_s") or {}).items():
        source = (a.get("rebuild_source") or {}).get(key, "")
        name = names.get(key) or element_label(None, key)
        assumptions.append(Assumption(f"Rebuild speed of {name}", rate_text(speed), source))
    spares = a.get("hot_spares") or []
    assumptions.append(
        Assumption(
            "Wait before a resilver starts",
            f"{a.get('replacement_hours', 24):g} h without a hot spare; none with one",
            f"hot spares for: {', '.join(spares)}" if spares else "the design has no hot spare",
        )
    )
    loss = r.get("data_loss_probability") or {}
    pool = r.get("pool_loss_probability") or {}
    longest = max((g.get("resilver_seconds") or 0 for g in r.get("groups") or []), default=0)
    return ReliabilityView(
        loss_1y=probability_text(loss.get("1y")),
        loss_5y=probability_text(loss.get("5y")),
        pool_loss_1y=probability_text(pool.get("1y")),
        pool_loss_5y=probability_text(pool.get("5y")),
        loss_5y_value=float(loss.get("5y") or 0),
        mttdl=years_text(r.get("mttdl_hours")),
        longest_resilver=duration_text(longest) if longest else "does not apply",
        vdevs=tuple(vdevs),
        assumptions=tuple(assumptions),
        model=str(r.get("model") or ""),
    )


def _performance(p: Mapping[str, Any]) -> PerformanceView:
    disks = []
    for name, f in ((p.get("assumptions") or {}).get("disk") or {}).items():
        disks.append(
            DiskFigures(
                disk=name,
                random_read=f"{iops_text(f.get('random_read_iops_qd1'))} – {iops_text(f.get('random_read_iops'))}",
                random_write=f"{iops_text(f.get('random_write_iops_qd1'))} – {iops_text(f.get('random_write_iops'))}",
                seq_read=rate_text(f.get("seq_read_bytes_per_s")),
                seq_write=rate_text(f.get("seq_write_bytes_per_s")),
                sync_write=iops_text(f.get("sync_write_iops")),
                source=str(f.get("source") or ""),
            )
        )
    latency = p.get("sync_write_latency_us") or {}

    def lat(v: Any) -> str:
        if v is None:
            return "does not apply"
        return f"{v / 1000:.1f} ms" if v >= 1000 else f"{v:.0f} µs"

    with_slog = p.get("sync_write_iops_with_slog")
    return PerformanceView(
        random_read=_range(p.get("random_read_iops"), iops_text, " IOPS"),
        random_write=_range(p.get("random_write_iops"), iops_text, " IOPS"),
        seq_read=_range(p.get("seq_read_bytes_per_s"), rate_text),
        seq_write=_range(p.get("seq_write_bytes_per_s"), rate_text),
        sync_without_slog=_range(p.get("sync_write_iops_without_slog"), iops_text, " IOPS"),
        sync_with_slog=_range(with_slog, iops_text, " IOPS"),
        has_slog=with_slog is not None,
        latency_without_slog=lat(latency.get("without_slog")),
        latency_with_slog=lat(latency.get("with_slog")),
        top_level_vdevs=int(p.get("top_level_vdevs") or 0),
        disks=tuple(disks),
        notes=tuple(p.get("notes") or ()),
        model=str(p.get("model") or ""),
    )


def _sizing(s: Mapping[str, Any], unit: str) -> SizingView:
    slog = s.get("slog") or {}
    ram = s.get("ram") or {}
    table = s.get("dedup_table") or {}
    home = s.get("dedup_table_home") or {}
    return SizingView(
        slog_applies=bool(slog.get("applies")),
        slog_recommended=Size(int(slog.get("recommended_bytes") or 0), unit),
        slog_size=_size(slog.get("log_size_bytes"), unit),
        slog_fits=slog.get("fits"),
        slog_rate=rate_text(slog.get("sync_bytes_per_s")),
        slog_rate_source=str(slog.get("sync_rate_source") or ""),
        slog_cap=Size(int(slog.get("cap_bytes") or 0), unit),
        ram_known=bool(slog.get("ram_known")),
        ram=_size(ram.get("ram_bytes"), unit),
        ram_share=_pct(ram.get("ram_share")),
        arc=Size(int(ram.get("arc_bytes") or 0), unit),
        metadata=Size(int(ram.get("metadata_bytes") or 0), unit),
        ddt=_size(table.get("in_core_bytes"), unit) if table else None,
        ddt_on_disk=_size(table.get("on_disk_bytes"), unit) if table else None,
        ddt_entries=f"{int(table.get('entries') or 0):,}",
        ddt_fast=bool(table.get("fast_dedup")),
        ddt_where=str(home.get("where") or ""),
        ddt_fits=home.get("fits") if table else None,
        l2arc_headers=_size(ram.get("l2arc_header_bytes"), unit) if ram.get("cache_size_bytes") else None,
        l2arc_block=format_iec(ram.get("l2arc_average_block_bytes") or 0),
    )


def planning_view(estimate: Estimate | None, unit: str = DEFAULT_SIZE_UNIT) -> PlanningView:
    """The four planning sections of ``estimate`` as typed views (all ``None`` without an estimate);
    ``size.text`` is in ``unit``, the page's (``summary.unit``)."""
    if estimate is None:
        return PlanningView(None, None, None, None)
    return PlanningView(
        _special(estimate.special, estimate.datasets, unit),
        _reliability(estimate.reliability, unit),
        _performance(estimate.performance),
        _sizing(estimate.sizing, unit),
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
                fill=_pct(r.fill_fraction, 0),
                fits=r.fits,
            )
        )
    return out
