"""The estimate's reliability section: loss probability, MTTDL and resilver time per vdev and for the pool."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..capacity.pool import PoolCapacity, VdevCapacity
from ..datasets.usage import DatasetUsage
from ..design.planning import (
    DEFAULT_FILL_FRACTION,
    DEFAULT_REPLACEMENT_HOURS,
    HOURS_PER_YEAR,
    drive_key,
    media_class,
    resolve_afr,
    resolve_ure,
)
from ..design.types import Design, Role
from .context import (
    CLASS_ROLES,
    REBUILD_SPEED_SHARE,
    RELIABILITY_MODEL,
    Context,
    finite,
    groups_of,
    has_contents,
    unique_disks,
)
from .figures import (
    DriveAfr,
    GroupAssumptions,
    LossOdds,
    MediaUre,
    ReliabilityAssumptions,
    ReliabilityFigures,
    ReliabilityGroup,
    ReliabilityVdev,
)
from .reliability import loss_probability, pool_mttdl, rebuild, ure_probability, vdev_risk


def _odds(mttdl_hours: float) -> LossOdds:
    """The chance of a loss within one and within five years at this mean time to data loss."""
    return LossOdds(loss_probability(mttdl_hours, HOURS_PER_YEAR), loss_probability(mttdl_hours, 5 * HOURS_PER_YEAR))


def _spare_media(design: Design) -> set[str]:
    return {media_class(d.media.value if d.media else None) for _, g in groups_of(design, Role.SPARE) for d in g.disks}


def reliability_section(
    ctx: Context, pool: PoolCapacity, usages: Sequence[DatasetUsage]
) -> tuple[ReliabilityFigures, PoolReliability]:
    design, settings = ctx.design, ctx.settings
    rel = settings.reliability
    by_group: dict[int, VdevCapacity] = {}
    for v in pool.vdevs:
        by_group.setdefault(v.group_index, v)
    contents = has_contents(design)
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
    afrs_used: dict[str, DriveAfr] = {}  # by drive, in the order first met
    ures_used: dict[str, MediaUre] = {}  # by media class
    assumed: list[GroupAssumptions] = []
    group_figures: list[ReliabilityGroup] = []
    vdev_figures: list[ReliabilityVdev] = []
    longest: float | None = None
    mttdls: list[tuple[float, int]] = []
    pool_mttdls: list[tuple[float, int]] = []
    for gi, g in groups_of(design, *CLASS_ROLES):
        cap = by_group[gi]
        if rel.fill_fraction is not None:
            fill = rel.fill_fraction
        elif not contents:
            fill = DEFAULT_FILL_FRACTION
        elif g.role == Role.DATA:
            fill = min(normal_alloc / pool.normal_size_bytes, 1.0) if pool.normal_size_bytes else 0.0
        else:
            fill = min(special_alloc / pool.special_size_bytes, 1.0) if pool.special_size_bytes else 0.0
        afrs = []
        ures = []
        for d in unique_disks(g):
            media = d.media.value if d.media else None
            afr, src = resolve_afr(d.model, media, settings, ctx.inputs)
            key = drive_key(d.model, media)
            afrs_used[key] = DriveAfr(key, afr, src)
            afrs.append(afr)
            ure, ure_source = resolve_ure(media, settings)
            ures_used[media_class(media)] = MediaUre(media_class(media), ure, ure_source)
            ures.append(ure)
        afr = sum(afrs) / len(afrs)
        ure_rate = max(ures)
        figs = ctx.group_figures(g)
        if gi in rel.rebuild_bytes_per_s:
            speed, speed_source = rel.rebuild_bytes_per_s[gi], "design"
        else:
            speed = (figs.seq_write_bytes_per_s or 0.0) * REBUILD_SPEED_SHARE
            speed_source = f"{REBUILD_SPEED_SHARE:.0%} of the sequential write speed ({figs.source})"
        assumed.append(GroupAssumptions(gi, round(fill, 4), round(speed), speed_source))
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
        group_figures.append(
            ReliabilityGroup(
                group_index=gi,
                role=g.role.value,
                layout=g.layout.value,
                width=g.width,
                count=g.count,
                fault_tolerance=tolerance,
                fill_fraction=round(fill, 4),
                allocated_per_disk_bytes=rb.allocated_per_disk_bytes,
                rebuild=rb.kind if tolerance > 0 else "none",
                resilver_seconds=resilver,
                rebuild_bytes_per_s=round(speed),
                replacement_wait_hours=wait if tolerance > 0 else None,
                exposure_hours=round(repair_hours, 2) if tolerance > 0 else None,
                another_failure_probability=risk.another_failure_probability if tolerance > 0 else None,
                ure_during_rebuild_probability=q if tolerance > 0 else None,
                afr=afr,
                mttdl_hours=finite(risk.mttdl_hours),
                data_loss_probability=_odds(risk.mttdl_hours / g.count),
                pool_loss_probability=_odds(disks_only.mttdl_hours / g.count),
            )
        )
        vdev_figures.extend(
            ReliabilityVdev(
                index=v.index,
                group_index=gi,
                role=g.role.value,
                fault_tolerance=tolerance,
                resilver_seconds=resilver,
                rebuild=rb.kind if tolerance > 0 else "none",
            )
            for v in pool.vdevs
            if v.group_index == gi
        )
    mttdl = pool_mttdl(mttdls)
    p1 = loss_probability(mttdl, HOURS_PER_YEAR)
    p5 = loss_probability(mttdl, 5 * HOURS_PER_YEAR)
    whole = pool_mttdl(pool_mttdls)
    figures = ReliabilityFigures(
        model=RELIABILITY_MODEL,
        assumptions=ReliabilityAssumptions(
            afr=tuple(afrs_used.values()),
            ure=tuple(ures_used.values()),
            fill_fraction=(
                rel.fill_fraction if rel.fill_fraction is not None else assumed[0].fill_fraction if assumed else None
            ),
            groups=tuple(assumed),
            fill_source=fill_source,
            replacement_hours=replace_hours,
            hot_spares=tuple(sorted(spares)),
        ),
        groups=tuple(group_figures),
        vdevs=tuple(vdev_figures),
        mttdl_hours=finite(mttdl),
        mttdl_years=finite(mttdl / HOURS_PER_YEAR),
        data_loss_probability=LossOdds(p1, p5),
        pool_loss_probability=_odds(whole),
    )
    return figures, PoolReliability(p1, p5, finite(mttdl), longest, loss_probability(whole, 5 * HOURS_PER_YEAR))


@dataclass(frozen=True)
class PoolReliability:
    loss_1y: float
    loss_5y: float
    mttdl_hours: float | None
    longest_resilver_seconds: float | None
    pool_loss_5y: float = 0.0  # disk failures only (no read errors)


# --------------------------------------------------------------------------- performance
