"""The estimate's planning sections: special vdev sizing, reliability, performance, SLOG/RAM sizing.

``planning_sections(...)`` takes what ``estimate.py`` already computed (the pool's
capacity and each dataset's usage) and returns the additions of the format's
"Additions" section: a ``special_small_blocks_curve`` per dataset,
``pool.special_recommended_bytes``, and the top-level ``special``, ``reliability``,
``performance`` and ``sizing`` objects. Every figure lists the assumptions it used and
where each came from (``design``, ``catalog``, ``benchmark:<run id>`` or a default).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..capacity.placement import AllocTarget
from ..capacity.pool import PoolCapacity, VdevCapacity
from ..datasets.special import SMALL_BLOCKS_SHARE, disk_bytes_for, recommended_class_bytes, special_curve, thresholds
from ..datasets.usage import DatasetUsage
from ..design.planning import (
    DEFAULT_FILL_FRACTION,
    DEFAULT_REPLACEMENT_HOURS,
    HOURS_PER_YEAR,
    DriveFigures,
    PlanningInputs,
    PlanningSettings,
    drive_key,
    media_class,
    read_planning,
    resolve_afr,
    resolve_figures,
    resolve_ure,
)
from ..design.types import Design, Disk, Layout, Role, VdevGroup
from ..risk.common import dedup_on
from .performance import PoolPerf, Range, VdevPerf, disk_figures_document, pool_performance, vdev_perf
from .reliability import loss_probability, pool_mttdl, rebuild, ure_probability, vdev_risk
from .sizing import ram_advice, slog_sizing

REBUILD_SPEED_SHARE = 0.75  # of the data-sheet maximum: the average over an HDD's tracks; flash past its cache
SPECIAL_RESERVE_PCT = round((1 - SMALL_BLOCKS_SHARE) * 100)
CLASS_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)

RELIABILITY_MODEL = (
    "Disks fail independently at a constant rate from their annualized failure rate (AFR). Each data, special "
    "and dedup vdev is a Markov chain over its failed disks: one more failure than it tolerates, or an "
    "unrecoverable read error while the last rebuild runs without redundancy, loses data. A failed disk is "
    "back in service after the replacement wait plus the resilver; resilvers run one at a time. Losing any one "
    "of these vdevs loses the pool. Not modelled: failures that come together (one batch, enclosure or power "
    "event), operator error, and the extra wear of a resilver, so the real risk is higher. Use the figures to "
    "compare layouts. A read error loses the blocks it hits (some files), not the whole pool: the pool-loss "
    "figures count disk failures only. Data-sheet read-error rates are upper bounds; most disks do better."
)
PERFORMANCE_MODEL = (
    "Random I/O scales with top-level vdevs: a mirror reads from every side and writes to all of them; a raidz "
    "vdev serves about one disk's random I/O, since each record spans its data disks; dRAID serves one random "
    "I/O per row of D+p disks. Streaming scales with data disks (all sides of a mirror for reads). Low: queue "
    "depth 1 per vdev, HDD inner tracks, flash past its write cache; high: depth 32 and the data-sheet maximum. "
    "Sync writes wait for a cache flush on the ZIL device: the SLOG if there is one, else the data vdevs. "
    "Not included: the ARC (cached reads are much faster), compression, CPU, HBA and network limits."
)


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else x


def _groups(design: Design, *roles: Role) -> list[tuple[int, VdevGroup]]:
    return [(i, g) for i, g in enumerate(design.vdevs) if g.role in roles]


def unique_disks(group: VdevGroup) -> list[Disk]:
    """The group's distinct disk kinds (a group given with "disk" repeats one object)."""
    seen: dict[tuple[Any, ...], Disk] = {}
    for d in group.disks:
        seen.setdefault((d.model, d.media, d.rpm, d.plp, d.size_bytes), d)
    return list(seen.values())


def figures_key(disk: Disk) -> str:
    """How the performance assumptions name a disk: its model, else what its figures depend on."""
    if disk.model:
        return disk.model
    media = media_class(disk.media.value if disk.media else None)
    if media == "hdd":
        return f"hdd, {disk.rpm} rpm" if disk.rpm else "hdd"
    return f"{media} with power-loss protection" if disk.plp else media


def _has_contents(design: Design) -> bool:
    return any(
        ds.contents is not None
        and (ds.contents.logical_bytes or ds.contents.file_count or ds.contents.file_size_histogram)
        for ds in design.datasets
    )


def _min_figures(figs: Sequence[DriveFigures]) -> DriveFigures:
    """The slowest value of each figure over the members of a vdev (a vdev waits for its slowest disk)."""
    if len(figs) == 1:
        return figs[0]
    values: dict[str, Any] = {}
    for f in fields(DriveFigures):
        if f.name == "source":
            continue
        given = [getattr(x, f.name) for x in figs if getattr(x, f.name) is not None]
        values[f.name] = min(given) if given else None
    return DriveFigures(**values, source=" + ".join(dict.fromkeys(x.source for x in figs)))


@dataclass(frozen=True)
class _Context:
    design: Design
    settings: PlanningSettings
    inputs: PlanningInputs | None

    def figures(self, disk: Disk) -> DriveFigures:
        media = disk.media.value if disk.media else None
        return resolve_figures(disk.model, media, disk.rpm, disk.plp, self.settings, self.inputs)

    def group_figures(self, group: VdevGroup) -> DriveFigures:
        unique = unique_disks(group)
        return _min_figures([self.figures(d) for d in unique])


def context(design: Design, inputs: PlanningInputs | None = None) -> _Context:
    """What the reliability and performance sections read: the design, its settings, outside inputs."""
    return _Context(design, read_planning(design.extra, len(design.vdevs)), inputs)


# --------------------------------------------------------------------------- special


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
) -> tuple[list[list[dict[str, int]]], dict[str, Any]]:
    """Per dataset its curve; and the pool's special-class summary with the recommended size."""
    targets, hypothetical = _special_targets(pool, special)
    curves: list[list[dict[str, int]]] = []
    demand = 0
    metadata = 0
    per_dataset = []
    for ds, u in zip(design.datasets, usages, strict=True):
        chosen = ds.special_small_blocks or 0
        points = thresholds(u.block_size_bytes, pool.spa_gcd_alloc)
        curve = special_curve(u, normal, targets, sorted({*points, chosen}))
        at = {p.special_small_blocks: p for p in curve}
        curves.append(
            [
                {
                    "special_small_blocks": t,
                    "special_allocated_bytes": at[t].special_allocated_bytes,
                    "normal_allocated_bytes": at[t].normal_allocated_bytes,
                }
                for t in points
            ]
        )
        demand += at[chosen].special_allocated_bytes
        metadata += at[0].special_allocated_bytes
        per_dataset.append(
            {
                "name": ds.name,
                "special_small_blocks": chosen,
                "demand_bytes": at[chosen].special_allocated_bytes,
                "metadata_bytes": at[0].special_allocated_bytes,
            }
        )
    headroom = settings.special_headroom_fraction
    recommended = recommended_class_bytes(demand, headroom)
    size = pool.special_size_bytes
    allocated = sum(u.special_allocated_bytes for u in usages)
    groups = _groups(design, Role.SPECIAL)
    if groups:
        g = groups[0][1]
        layout, width, count = g.layout, g.width, sum(x.count for _, x in groups)
        sector = g.disks[0].logical_sector
    else:
        layout, width, count, sector = Layout.MIRROR, 2, 1, 512
    disk_bytes = disk_bytes_for(recommended, layout, width, count, sector) if recommended else 0
    return curves, {
        "hypothetical": hypothetical,
        "layout": {"layout": layout.value, "width": width, "count": count},
        "class_size_bytes": size,
        "allocated_bytes": allocated,
        "fill_fraction": allocated / size if size else None,
        "demand_bytes": demand,
        "metadata_bytes": metadata,
        "small_blocks_bytes": demand - metadata,
        "small_blocks_stop_fraction": SMALL_BLOCKS_SHARE,
        "small_blocks_stop_bytes": int(size * SMALL_BLOCKS_SHARE) if size else None,
        "reserve_pct": SPECIAL_RESERVE_PCT,
        "headroom_fraction": headroom,
        "recommended_bytes": recommended,
        "recommended_disk_bytes": disk_bytes,
        "fits": (demand <= size * SMALL_BLOCKS_SHARE) if size else None,
        "datasets": per_dataset,
        "notes": [
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
        ],
    }


# --------------------------------------------------------------------------- reliability


def _spare_media(design: Design) -> set[str]:
    return {media_class(d.media.value if d.media else None) for _, g in _groups(design, Role.SPARE) for d in g.disks}


def reliability_section(
    ctx: _Context, pool: PoolCapacity, usages: Sequence[DatasetUsage]
) -> tuple[dict[str, Any], PoolReliability]:
    design, settings = ctx.design, ctx.settings
    rel = settings.reliability
    by_group: dict[int, VdevCapacity] = {}
    for v in pool.vdevs:
        by_group.setdefault(v.group_index, v)
    contents = _has_contents(design)
    normal_alloc = sum(u.normal_allocated_bytes for u in usages)
    special_alloc = sum(u.special_allocated_bytes for u in usages)
    if rel.fill_fraction is not None:
        fill_source = "design"
    elif contents:
        fill_source = "planned contents"
    else:
        fill_source = f"default (no contents given: {DEFAULT_FILL_FRACTION:.0%} full)"
    spares = _spare_media(design)
    replace_hours = rel.replacement_hours if rel.replacement_hours is not None else DEFAULT_REPLACEMENT_HOURS
    afr_doc: dict[str, float] = {}
    afr_src: dict[str, str] = {}
    ure_doc: dict[str, float] = {}
    ure_src: dict[str, str] = {}
    speed_doc: dict[str, float] = {}
    speed_src: dict[str, str] = {}
    fill_doc: dict[str, float] = {}
    group_docs: list[dict[str, Any]] = []
    vdev_docs: list[dict[str, Any]] = []
    longest: float | None = None
    mttdls: list[tuple[float, int]] = []
    pool_mttdls: list[tuple[float, int]] = []
    for gi, g in _groups(design, *CLASS_ROLES):
        cap = by_group[gi]
        if rel.fill_fraction is not None:
            fill = rel.fill_fraction
        elif not contents:
            fill = DEFAULT_FILL_FRACTION
        elif g.role == Role.DATA:
            fill = min(normal_alloc / pool.normal_size_bytes, 1.0) if pool.normal_size_bytes else 0.0
        else:
            fill = min(special_alloc / pool.special_size_bytes, 1.0) if pool.special_size_bytes else 0.0
        fill_doc[f"vdevs[{gi}]"] = round(fill, 4)
        afrs = []
        ures = []
        for d in unique_disks(g):
            media = d.media.value if d.media else None
            afr, src = resolve_afr(d.model, media, settings, ctx.inputs)
            key = drive_key(d.model, media)
            afr_doc[key], afr_src[key] = afr, src
            afrs.append(afr)
            ure, ure_source = resolve_ure(media, settings)
            ure_doc[media_class(media)] = ure
            ure_src[media_class(media)] = ure_source
            ures.append(ure)
        afr = sum(afrs) / len(afrs)
        ure_rate = max(ures)
        figs = ctx.group_figures(g)
        if gi in rel.rebuild_bytes_per_s:
            speed, speed_source = rel.rebuild_bytes_per_s[gi], "design"
        else:
            speed = (figs.seq_write_bytes_per_s or 0.0) * REBUILD_SPEED_SHARE
            speed_source = f"{REBUILD_SPEED_SHARE:.0%} of the sequential write speed ({figs.source})"
        speed_doc[f"vdevs[{gi}]"] = round(speed)
        speed_src[f"vdevs[{gi}]"] = speed_source
        kind = "raidz" if g.is_raidz else "draid" if g.is_draid else g.layout.value
        rb = rebuild(
            layout_kind=kind,
            width=g.width,
            parity=g.parity,
            vdev_size_bytes=cap.zpool_size_bytes,
            fill=fill,
            rebuild_bytes_per_s=max(speed, 1.0),
            draid_data=cap.draid_data,
            draid_spares=cap.draid_spares or 0,
        )
        tolerance = cap.fault_tolerance
        members = g.width - (cap.draid_spares or 0) if g.is_draid else g.width
        first_media = g.disks[0].media.value if g.disks[0].media else None
        has_spare = bool(cap.draid_spares) or media_class(first_media) in spares
        wait = 0.0 if has_spare else replace_hours
        repair_hours = wait + rb.seconds / 3600
        q = ure_probability(rb.bytes_read_without_redundancy, ure_rate) if tolerance > 0 else 0.0
        risk = vdev_risk(members, tolerance, afr, repair_hours, q)
        disks_only = vdev_risk(members, tolerance, afr, repair_hours, 0.0)
        mttdls.append((risk.mttdl_hours, g.count))
        pool_mttdls.append((disks_only.mttdl_hours, g.count))
        resilver = round(rb.seconds) if tolerance > 0 else None
        if resilver is not None:
            longest = max(longest or 0, resilver)
        group_docs.append(
            {
                "group_index": gi,
                "role": g.role.value,
                "layout": g.layout.value,
                "width": g.width,
                "count": g.count,
                "fault_tolerance": tolerance,
                "fill_fraction": round(fill, 4),
                "allocated_per_disk_bytes": rb.allocated_per_disk_bytes,
                "rebuild": rb.kind if tolerance > 0 else "none",
                "resilver_seconds": resilver,
                "rebuild_bytes_per_s": round(speed),
                "replacement_wait_hours": wait if tolerance > 0 else None,
                "exposure_hours": round(repair_hours, 2) if tolerance > 0 else None,
                "another_failure_probability": risk.another_failure_probability if tolerance > 0 else None,
                "ure_during_rebuild_probability": q if tolerance > 0 else None,
                "afr": afr,
                "mttdl_hours": _finite(risk.mttdl_hours),
                "data_loss_probability": {
                    "1y": loss_probability(risk.mttdl_hours / g.count, HOURS_PER_YEAR),
                    "5y": loss_probability(risk.mttdl_hours / g.count, 5 * HOURS_PER_YEAR),
                },
                "pool_loss_probability": {
                    "1y": loss_probability(disks_only.mttdl_hours / g.count, HOURS_PER_YEAR),
                    "5y": loss_probability(disks_only.mttdl_hours / g.count, 5 * HOURS_PER_YEAR),
                },
            }
        )
        vdev_docs.extend(
            {
                "index": v.index,
                "group_index": gi,
                "role": g.role.value,
                "fault_tolerance": tolerance,
                "resilver_seconds": resilver,
                "rebuild": rb.kind if tolerance > 0 else "none",
            }
            for v in pool.vdevs
            if v.group_index == gi
        )
    mttdl = pool_mttdl(mttdls)
    p1 = loss_probability(mttdl, HOURS_PER_YEAR)
    p5 = loss_probability(mttdl, 5 * HOURS_PER_YEAR)
    whole = pool_mttdl(pool_mttdls)
    doc = {
        "model": RELIABILITY_MODEL,
        "assumptions": {
            "afr": afr_doc,
            "afr_source": afr_src,
            "ure_per_bit": ure_doc,
            "ure_source": ure_src,
            "fill_fraction": (
                rel.fill_fraction if rel.fill_fraction is not None else fill_doc.get(next(iter(fill_doc), ""), None)
            ),
            "fill_fraction_by_vdev": fill_doc,
            "fill_source": fill_source,
            "rebuild_bytes_per_s": speed_doc,
            "rebuild_source": speed_src,
            "replacement_hours": replace_hours,
            "hot_spares": sorted(spares),
        },
        "groups": group_docs,
        "vdevs": vdev_docs,
        "mttdl_hours": _finite(mttdl),
        "mttdl_years": _finite(mttdl / HOURS_PER_YEAR),
        "data_loss_probability": {"1y": p1, "5y": p5},
        "pool_loss_probability": {
            "1y": loss_probability(whole, HOURS_PER_YEAR),
            "5y": loss_probability(whole, 5 * HOURS_PER_YEAR),
        },
    }
    return doc, PoolReliability(p1, p5, _finite(mttdl), longest, loss_probability(whole, 5 * HOURS_PER_YEAR))


@dataclass(frozen=True)
class PoolReliability:
    loss_1y: float
    loss_5y: float
    mttdl_hours: float | None
    longest_resilver_seconds: float | None
    pool_loss_5y: float = 0.0  # disk failures only (no read errors)


# --------------------------------------------------------------------------- performance


def _perf_groups(ctx: _Context, *roles: Role) -> tuple[list[VdevPerf], dict[str, DriveFigures]]:
    out = []
    used: dict[str, DriveFigures] = {}
    for _, g in _groups(ctx.design, *roles):
        for d in unique_disks(g):
            used[figures_key(d)] = ctx.figures(d)
        media = g.disks[0].media.value if g.disks[0].media else None
        out.append(
            vdev_perf(
                g.layout, g.width, g.parity, g.count, ctx.group_figures(g), media, g.draid_data, g.draid_spares or 0
            )
        )
    return out, used


def pool_perf(ctx: _Context) -> tuple[PoolPerf, dict[str, DriveFigures]]:
    data, used = _perf_groups(ctx, Role.DATA)
    logs, used_logs = _perf_groups(ctx, Role.LOG)
    _, used_other = _perf_groups(ctx, Role.SPECIAL, Role.DEDUP)
    return pool_performance(data, logs), {**used, **used_other, **used_logs}


def _latency_us(r: Range | None) -> float | None:
    return round(1e6 / r.low, 1) if r is not None and r.low > 0 else None


def performance_section(ctx: _Context) -> tuple[dict[str, Any], PoolPerf]:
    perf, used = pool_perf(ctx)
    notes = []
    disabled = [ds.name for ds in ctx.design.datasets if ds.sync is not None and ds.sync.value == "disabled"]
    if disabled:
        notes.append(f"sync=disabled on {', '.join(disabled)}: sync writes there return at once and are not safe.")
    if _groups(ctx.design, Role.SPECIAL):
        notes.append("Metadata and small blocks on the special vdev are served at its speed, not the data vdevs'.")
    doc = {
        "model": PERFORMANCE_MODEL,
        "assumptions": {"disk": disk_figures_document(used)},
        "random_read_iops": perf.random_read_iops.as_dict(),
        "random_write_iops": perf.random_write_iops.as_dict(),
        "seq_read_bytes_per_s": perf.seq_read_bytes_per_s.as_dict(),
        "seq_write_bytes_per_s": perf.seq_write_bytes_per_s.as_dict(),
        "sync_write_iops": perf.sync_write_iops.as_dict(),
        "sync_write_iops_without_slog": perf.sync_write_iops_without_slog.as_dict(),
        "sync_write_iops_with_slog": (
            perf.sync_write_iops_with_slog.as_dict() if perf.sync_write_iops_with_slog is not None else None
        ),
        "sync_write_latency_us": {
            "without_slog": _latency_us(perf.sync_write_iops_without_slog),
            "with_slog": _latency_us(perf.sync_write_iops_with_slog),
        },
        "top_level_vdevs": perf.vdevs,
        "notes": notes,
    }
    return doc, perf


# --------------------------------------------------------------------------- sizing


def sizing_section(
    design: Design, pool: PoolCapacity, usages: Sequence[DatasetUsage], perf: PoolPerf, settings: PlanningSettings
) -> dict[str, Any]:
    has_slog = perf.slog_write_bytes_per_s is not None
    rate = perf.slog_write_bytes_per_s if has_slog else perf.seq_write_bytes_per_s.high
    slog = slog_sizing(rate or 0.0, settings.ram_bytes)
    dedup_blocks = sum(u.data_blocks for ds, u in zip(design.datasets, usages, strict=True) if dedup_on(design, ds))
    logical = sum(u.logical_bytes for u in usages)
    blocks = sum(u.data_blocks for u in usages)
    avg = logical // blocks if blocks else 128 * 1024
    ram = ram_advice(
        metadata_bytes=sum(u.metadata_psize_bytes for u in usages),
        dedup_blocks=dedup_blocks,
        openzfs_version=tuple(int(x) for x in design.version.split(".")),
        cache_bytes=pool.cache_size_bytes,
        average_block_bytes=avg,
        ram_bytes=settings.ram_bytes,
    )
    return {
        "slog": {
            "applies": has_slog,
            "sync_bytes_per_s": round(slog.sync_bytes_per_s),
            "sync_rate_source": "the SLOG's sequential write speed" if has_slog else "the pool's streaming write speed",
            "by_rate_bytes": slog.by_rate_bytes,
            "cap_bytes": slog.cap_bytes,
            "dirty_data_max_bytes": slog.dirty_data_max_bytes,
            "ram_known": slog.ram_known,
            "recommended_bytes": slog.recommended_bytes,
            "log_size_bytes": pool.log_size_bytes if has_slog else None,
            "fits": (pool.log_size_bytes >= slog.recommended_bytes) if has_slog else None,
        },
        "ram": {
            "metadata_bytes": ram.metadata_bytes,
            "ddt_bytes": ram.ddt_bytes,
            "ddt_entry_bytes": ram.ddt_entry_bytes,
            "dedup_blocks": dedup_blocks,
            "l2arc_header_bytes": ram.l2arc_header_bytes,
            "l2arc_average_block_bytes": ram.l2arc_average_block_bytes if pool.cache_size_bytes else None,
            "cache_size_bytes": pool.cache_size_bytes,
            "arc_bytes": ram.arc_bytes,
            "ram_bytes": ram.ram_bytes,
            "ram_share": ram.ram_share,
        },
    }


# --------------------------------------------------------------------------- all of it


@dataclass(frozen=True)
class PlanningSections:
    curves: list[list[dict[str, int]]]
    special: dict[str, Any]
    reliability: dict[str, Any]
    performance: dict[str, Any]
    sizing: dict[str, Any]
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
    settings = read_planning(design.extra, len(design.vdevs))
    ctx = _Context(design, settings, inputs)
    curves, special_doc = special_section(design, pool, usages, normal, special, settings)
    reliability, pool_rel = reliability_section(ctx, pool, usages)
    performance, perf = performance_section(ctx)
    sizing = sizing_section(design, pool, usages, perf, settings)
    return PlanningSections(curves, special_doc, reliability, performance, sizing, pool_rel, perf)

