"""The estimate's planning sections: special vdev sizing, reliability, performance, SLOG/RAM sizing.

``planning_sections(...)`` takes what ``estimate.py`` already computed (the pool's
capacity and each dataset's usage) and returns the additions of the format's
"Additions" section: a ``special_small_blocks_curve`` per dataset,
``pool.special_recommended_bytes``, and the top-level ``special``, ``reliability``,
``performance`` and ``sizing`` sections as the typed values of :mod:`.figures`. Every
figure lists the assumptions it used and where each came from (``design``, ``catalog``,
``benchmark:<run id>`` or a default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..capacity.placement import AllocTarget
from ..capacity.pool import PoolCapacity
from ..datasets.ddt import dedup_table, table_home, unique_blocks
from ..datasets.special import (
    SMALL_BLOCKS_SHARE,
    CurvePoint,
    disk_bytes_for,
    recommended_class_bytes,
    special_curve,
    thresholds,
)
from ..datasets.usage import DatasetUsage
from ..design.planning import (
    DriveFigures,
    PlanningInputs,
    PlanningSettings,
    read_planning,
)
from ..design.types import Design, Layout, Role
from ..naming import vdev_label
from ..properties.resolve import DEFAULT_RECORDSIZE
from ..risk.common import dedup_on
from .context import (
    PERFORMANCE_MODEL,
    SPECIAL_RESERVE_PCT,
    Context,
    figures_key,
    groups_of,
    unique_disks,
)
from .figures import (
    DedupTableHome,
    DiskPerformance,
    PerformanceFigures,
    RamFigures,
    ReliabilityFigures,
    SizingFigures,
    SlogFigures,
    SpecialDatasetFigures,
    SpecialFigures,
    SpecialLayout,
    SyncLatency,
)
from .performance import PoolPerf, Range, VdevPerf, pool_performance, vdev_perf
from .reliability_section import PoolReliability, reliability_section
from .sizing import ram_advice, slog_sizing


def _special_targets(pool: PoolCapacity, targets: Sequence[AllocTarget]) -> tuple[list[AllocTarget], bool]:
    if targets:
        return list(targets), False
    data = [v for v in pool.vdevs if v.role == Role.DATA]
    ashift = data[0].ashift if data else 12
    return [AllocTarget.for_vdev(Layout.MIRROR, 2, ashift)], True


def special_section(
    design: Design,
    pool: PoolCapacity,
    usages: Sequence[DatasetUsage],
    normal: Sequence[AllocTarget],
    special: Sequence[AllocTarget],
    settings: PlanningSettings,
) -> tuple[list[tuple[CurvePoint, ...]], SpecialFigures]:
    """Per dataset its curve; and the pool's special-class summary with the recommended size."""
    targets, hypothetical = _special_targets(pool, special)
    curves: list[tuple[CurvePoint, ...]] = []
    demand = 0
    metadata = 0
    per_dataset = []
    for ds, u in zip(design.datasets, usages, strict=True):
        chosen = ds.special_small_blocks or 0
        points = thresholds(u.block_size_bytes, pool.spa_gcd_alloc)
        curve = special_curve(u, normal, targets, sorted({*points, chosen}))
        at = {p.special_small_blocks: p for p in curve}
        curves.append(tuple(at[t] for t in points))
        demand += at[chosen].special_allocated_bytes
        metadata += at[0].special_allocated_bytes
        per_dataset.append(
            SpecialDatasetFigures(
                name=ds.name,
                special_small_blocks=chosen,
                demand_bytes=at[chosen].special_allocated_bytes,
                metadata_bytes=at[0].special_allocated_bytes,
            )
        )
    headroom = settings.special_headroom_fraction
    recommended = recommended_class_bytes(demand, headroom)
    size = pool.special_size_bytes
    allocated = sum(u.special_allocated_bytes for u in usages)
    groups = groups_of(design, Role.SPECIAL)
    if groups:
        g = groups[0][1]
        layout, width, count = g.layout, g.width, sum(x.count for _, x in groups)
        sector = g.disks[0].logical_sector
    else:
        layout, width, count, sector = Layout.MIRROR, 2, 1, 512
    disk_bytes = disk_bytes_for(recommended, layout, width, count, sector) if recommended else 0
    return curves, SpecialFigures(
        hypothetical=hypothetical,
        layout=SpecialLayout(layout=layout.value, width=width, count=count),
        class_size_bytes=size,
        allocated_bytes=allocated,
        fill_fraction=allocated / size if size else None,
        demand_bytes=demand,
        metadata_bytes=metadata,
        small_blocks_bytes=demand - metadata,
        small_blocks_stop_fraction=SMALL_BLOCKS_SHARE,
        small_blocks_stop_bytes=int(size * SMALL_BLOCKS_SHARE) if size else None,
        reserve_pct=SPECIAL_RESERVE_PCT,
        headroom_fraction=headroom,
        recommended_bytes=recommended,
        recommended_disk_bytes=disk_bytes,
        fits=(demand <= size * SMALL_BLOCKS_SHARE) if size else None,
        datasets=tuple(per_dataset),
        notes=(
            "Demand is what the datasets would put on the special class at their special_small_blocks if it had "
            "room: their metadata and the data blocks no larger than the threshold after compression.",
            f"ZFS stops placing small data blocks there at {SMALL_BLOCKS_SHARE:.0%} full "
            f"(zfs_special_class_metadata_reserve_pct = {SPECIAL_RESERVE_PCT}); metadata continues to 100 %.",
            "Pool-wide metadata (the MOS and space maps, tens of MB to a few GB) and dedup tables are not "
            "included; the headroom covers them.",
            *(
                [f"The design has no special vdev: figures are for a 2-way mirror at ashift {targets[0].ashift}."]
                if hypothetical
                else []
            ),
        ),
    )


def _perf_groups(ctx: Context, *roles: Role) -> tuple[list[VdevPerf], dict[str, DriveFigures]]:
    out = []
    used: dict[str, DriveFigures] = {}
    for _, g in groups_of(ctx.design, *roles):
        for d in unique_disks(g):
            used[figures_key(d)] = ctx.figures(d)
        media = g.disks[0].media.value if g.disks[0].media else None
        out.append(
            vdev_perf(
                g.layout, g.width, g.parity, g.count, ctx.group_figures(g), media, g.draid_data, g.draid_spares or 0
            )
        )
    return out, used


def pool_perf(ctx: Context) -> tuple[PoolPerf, dict[str, DriveFigures]]:
    data, used = _perf_groups(ctx, Role.DATA)
    logs, used_logs = _perf_groups(ctx, Role.LOG)
    _, used_other = _perf_groups(ctx, Role.SPECIAL, Role.DEDUP)
    return pool_performance(data, logs), {**used, **used_other, **used_logs}


def _latency_us(r: Range | None) -> float | None:
    return round(1e6 / r.low, 1) if r is not None and r.low > 0 else None


def performance_section(ctx: Context) -> tuple[PerformanceFigures, PoolPerf]:
    perf, used = pool_perf(ctx)
    notes = []
    disabled = [ds.name for ds in ctx.design.datasets if ds.sync is not None and ds.sync.value == "disabled"]
    if disabled:
        notes.append(f"sync=disabled on {', '.join(disabled)}: sync writes there return at once and are not safe.")
    if groups_of(ctx.design, Role.SPECIAL):
        notes.append("Metadata and small blocks on the special vdev are served at its speed, not the data vdevs'.")
    with_slog = perf.sync_write_iops_with_slog
    figures = PerformanceFigures(
        model=PERFORMANCE_MODEL,
        disks=tuple(DiskPerformance(name, f) for name, f in used.items()),
        random_read_iops=perf.random_read_iops.rounded(),
        random_write_iops=perf.random_write_iops.rounded(),
        seq_read_bytes_per_s=perf.seq_read_bytes_per_s.rounded(),
        seq_write_bytes_per_s=perf.seq_write_bytes_per_s.rounded(),
        sync_write_iops=perf.sync_write_iops.rounded(),
        sync_write_iops_without_slog=perf.sync_write_iops_without_slog.rounded(),
        sync_write_iops_with_slog=with_slog.rounded() if with_slog is not None else None,
        sync_write_latency_us=SyncLatency(
            without_slog=_latency_us(perf.sync_write_iops_without_slog),
            with_slog=_latency_us(with_slog),
        ),
        top_level_vdevs=perf.vdevs,
        notes=tuple(notes),
    )
    return figures, perf


# --------------------------------------------------------------------------- sizing


def sizing_section(
    design: Design, pool: PoolCapacity, usages: Sequence[DatasetUsage], perf: PoolPerf, settings: PlanningSettings
) -> SizingFigures:
    has_slog = perf.slog_write_bytes_per_s is not None
    rate = perf.slog_write_bytes_per_s if has_slog else perf.seq_write_bytes_per_s.high
    slog = slog_sizing(rate or 0.0, settings.ram_bytes)
    dedup_blocks = sum(u.data_blocks for ds, u in zip(design.datasets, usages, strict=True) if dedup_on(design, ds))
    home = table_home(design, pool)
    table = dedup_table(
        sum(
            unique_blocks(u.data_blocks, ds.contents)
            for ds, u in zip(design.datasets, usages, strict=True)
            if dedup_on(design, ds)
        ),
        design.fast_dedup,
        home.sector,
    )
    logical = sum(u.logical_bytes for u in usages)
    blocks = sum(u.data_blocks for u in usages)
    avg = logical // blocks if blocks else DEFAULT_RECORDSIZE
    ram = ram_advice(
        metadata_bytes=sum(u.metadata_psize_bytes for u in usages),
        dedup_table=table,
        cache_bytes=pool.cache_size_bytes,
        average_block_bytes=avg,
        ram_bytes=settings.ram_bytes,
    )
    slog_figures = SlogFigures(
        applies=has_slog,
        sync_bytes_per_s=round(slog.sync_bytes_per_s),
        sync_rate_source="the SLOG's sequential write speed" if has_slog else "the pool's streaming write speed",
        by_rate_bytes=slog.by_rate_bytes,
        cap_bytes=slog.cap_bytes,
        dirty_data_max_bytes=slog.dirty_data_max_bytes,
        ram_known=slog.ram_known,
        recommended_bytes=slog.recommended_bytes,
        log_size_bytes=pool.log_size_bytes if has_slog else None,
        fits=(pool.log_size_bytes >= slog.recommended_bytes) if has_slog else None,
    )
    ram_figures = RamFigures(
        metadata_bytes=ram.metadata_bytes,
        ddt_bytes=ram.ddt_bytes,
        ddt_entry_bytes=ram.ddt_entry_bytes,
        dedup_blocks=dedup_blocks,
        l2arc_header_bytes=ram.l2arc_header_bytes,
        l2arc_average_block_bytes=ram.l2arc_average_block_bytes if pool.cache_size_bytes else None,
        cache_size_bytes=pool.cache_size_bytes,
        arc_bytes=ram.arc_bytes,
        ram_bytes=ram.ram_bytes,
        ram_share=ram.ram_share,
    )
    if not any(dedup_on(design, ds) for ds in design.datasets):
        return SizingFigures(slog=slog_figures, ram=ram_figures, dedup_table=None, dedup_table_home=None)
    # where the table lives (spa_preferred_class) and how much of that class it takes
    others = _class_planned(pool, usages, home.role)
    where = " and ".join(vdev_label(design, i) for i in home.groups) if home.role != Role.DATA else ""
    return SizingFigures(
        slog=slog_figures,
        ram=ram_figures,
        dedup_table=table,
        dedup_table_home=DedupTableHome(
            role=home.role.value,
            where=where or "the normal class, with the data",
            group_indexes=tuple(home.groups),
            class_size_bytes=home.size_bytes,
            class_planned_bytes=others + table.on_disk_bytes,
            fits=others + table.on_disk_bytes <= home.size_bytes,
        ),
    )


def _class_planned(pool: PoolCapacity, usages: Sequence[DatasetUsage], role: Role) -> int:
    """Bytes the datasets already put on the class the table goes to (raw, as zpool list)."""
    if role == Role.SPECIAL:
        return sum(u.special_allocated_bytes for u in usages)
    if role == Role.DATA:
        return sum(u.normal_allocated_bytes for u in usages)
    return 0


# --------------------------------------------------------------------------- all of it


@dataclass(frozen=True)
class PlanningSections:
    curves: tuple[tuple[CurvePoint, ...], ...]
    special: SpecialFigures
    reliability: ReliabilityFigures
    performance: PerformanceFigures
    sizing: SizingFigures
    pool_reliability: PoolReliability
    pool_perf: PoolPerf


def planning_sections(
    design: Design,
    pool: PoolCapacity,
    usages: Sequence[DatasetUsage],
    normal: Sequence[AllocTarget],
    special: Sequence[AllocTarget],
    inputs: PlanningInputs | None = None,
) -> PlanningSections:
    settings = read_planning(design.extra, len(design.vdevs), design.host.ram_bytes)
    ctx = Context(design, settings, inputs)
    curves, special_figures = special_section(design, pool, usages, normal, special, settings)
    reliability, pool_rel = reliability_section(ctx, pool, usages)
    performance, perf = performance_section(ctx)
    sizing = sizing_section(design, pool, usages, perf, settings)
    return PlanningSections(tuple(curves), special_figures, reliability, performance, sizing, pool_rel, perf)
