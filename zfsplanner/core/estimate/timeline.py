"""A pool's life: when it fills at a constant growth rate, and what each way to grow it gives and costs.

The data grows by the design's ``growth.per_year`` (``{"per_year": 0.3, "horizon_years": 5,
"fill_limit": 0.8}``), starting from the datasets' contents. The fill of year ``y`` is the
estimate's own fill (``pool.used_fraction``: what the datasets charge over what the pool holds)
times ``(1 + per_year) ** y``, since USED grows with the data at the ratios the estimate found;
a threshold is crossed ``ln(threshold / fill) / ln(1 + per_year)`` years from now.

Every growth option is a design: the design as it stands, changed (a vdev added, each RAIDZ vdev
widened, the disks replaced by larger ones, a new pool), holding the data of the moment the fill
limit is reached. Its usable space, fill and risks are the planner's own estimate of that design
(``estimator``, :func:`..estimate.build.estimate` without a timeline), never a second formula;
resilver times are the reliability section's, at the fill of that moment.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from ..capacity.pool import PoolCapacity
from ..design.planning import GrowthSettings, PlanningInputs, PlanningSettings
from ..design.types import Dataset, DatasetType, Design, Disk, InvalidDesign, Role, VdevGroup
from ..document.export import design_to_document
from ..document.parse import parse_design
from ..planning.context import Context
from ..planning.reliability_section import reliability_section
from ..units import format_si
from ..versions import supports
from .figures import (
    Estimate,
    GrowthOption,
    OptionRisk,
    Threshold,
    TimelineFigures,
    TimelineYear,
)

THRESHOLDS = (0.8, 0.9, 1.0)
# A window this long with one failure less tolerated is worth a warning of its own (a week).
LONG_WINDOW_HOURS = 7 * 24.0
DISK_SIZE_STEP = 2  # the larger disks, when the design does not name them: twice the present size

Estimator = Callable[[Design], Estimate]


# --------------------------------------------------------------------------- growth at a constant rate


def grown_fill(fill_now: float, per_year: float, years: float) -> float:
    """The fill ``years`` from now when the data grows by ``per_year`` each year."""
    return float(fill_now * (1.0 + per_year) ** years)


def crossing_years(fill_now: float, per_year: float, threshold: float) -> float | None:
    """Years from now until the fill reaches ``threshold``: ``ln(threshold / fill) / ln(1 + per_year)``
    (0 when it already has; None when it never will: no data or no growth)."""
    if fill_now >= threshold:
        return 0.0
    if fill_now <= 0 or per_year <= 0:
        return None
    return math.log(threshold / fill_now) / math.log1p(per_year)


def first_year_over(fills: list[float], threshold: float) -> int | None:
    """The first year of the timeline whose fill exceeds ``threshold`` (None: none within it)."""
    return next((y for y, f in enumerate(fills) if f > threshold), None)


def _scaled(n: int | None, factor: float) -> int | None:
    return None if n is None else int(round(n * factor))


def grown_dataset(ds: Dataset, factor: float) -> Dataset:
    """The dataset with ``factor`` times its contents (a volume no further than its volsize)."""
    c = ds.contents
    if c is None or factor == 1.0:
        return ds
    logical = _scaled(c.logical_bytes, factor)
    if logical is not None and ds.type == DatasetType.VOLUME and ds.volsize:
        logical = min(logical, ds.volsize)
    histogram = c.file_size_histogram
    if histogram is not None:
        histogram = tuple((size, int(round(count * factor))) for size, count in histogram)
    grown = replace(
        c,
        logical_bytes=logical,
        file_count=_scaled(c.file_count, factor),
        file_size_histogram=histogram,
        cloned_bytes=_scaled(c.cloned_bytes, factor),
    )
    return replace(ds, contents=grown)


def grown_design(design: Design, factor: float) -> Design:
    """The design holding ``factor`` times the data of its datasets."""
    return replace(design, datasets=tuple(grown_dataset(ds, factor) for ds in design.datasets))


# --------------------------------------------------------------------------- reliability as the pool fills


@dataclass(frozen=True)
class YearReliability:
    data_loss_probability: float | None
    resilver_seconds: int | None
    resilver_by_group: dict[int, int | None]


def reliability_at(
    design: Design, settings: PlanningSettings, pool: PoolCapacity, fill: float, inputs: PlanningInputs | None
) -> YearReliability:
    """The reliability section of the design with its vdevs ``fill`` full (the section's own model)."""
    at = replace(settings, reliability=replace(settings.reliability, fill_fraction=min(max(fill, 0.0), 1.0)))
    figures, _ = reliability_section(Context(design, at, inputs), pool, ())
    resilvers = [g.resilver_seconds for g in figures.groups if g.resilver_seconds is not None]
    return YearReliability(
        figures.data_loss_probability.one_year,
        max(resilvers) if resilvers else None,
        {g.group_index: g.resilver_seconds for g in figures.groups},
    )


def _data_fill(est: Estimate) -> float:
    """How full the data vdevs are now, as the reliability section counts it (allocated over SIZE)."""
    fills = [g.fill_fraction for g in est.reliability.groups if g.role == Role.DATA.value]
    return max(fills) if fills else 0.0


# --------------------------------------------------------------------------- the options


def _price(group: VdevGroup, size_bytes: int | None = None) -> Decimal | None:
    """One disk's price; a larger disk at the same price per byte as the present one."""
    if group.price_per_disk is None:
        return None
    if size_bytes is None or not group.disks[0].size_bytes:
        return group.price_per_disk
    return group.price_per_disk * Decimal(size_bytes) / Decimal(group.disks[0].size_bytes)


def _cost(parts: list[tuple[int, Decimal | None]], growth: GrowthSettings, years: float) -> float | None:
    """What the disks cost ``years`` from now, prices changing by ``price_change_per_year``."""
    if not parts or any(p is None for _, p in parts):
        return None
    factor = Decimal(str(round((1.0 + growth.price_change_per_year) ** years, 6)))
    total = sum((Decimal(n) * p for n, p in parts if p is not None), Decimal(0))
    return float((total * factor).quantize(Decimal("0.01")))


def _larger(disk: Disk, size_bytes: int) -> Disk:
    return replace(disk, size_bytes=size_bytes, size_text=None, model=None, catalog=None)


def _larger_size(design: Design, growth: GrowthSettings) -> int:
    present = max(d.size_bytes for g in design.vdevs if g.role == Role.DATA for d in g.disks)
    return growth.larger_disk_bytes or present * DISK_SIZE_STEP


def _add_vdev(design: Design) -> tuple[Design, int, list[tuple[int, Decimal | None]], int]:
    data = [i for i, g in enumerate(design.vdevs) if g.role == Role.DATA]
    gi = data[-1]
    g = design.vdevs[gi]
    groups = list(design.vdevs)
    groups[gi] = replace(g, count=g.count + 1)
    return replace(design, vdevs=tuple(groups)), g.width, [(g.width, _price(g))], gi


def _widen(design: Design, by: int) -> tuple[Design, int, list[tuple[int, Decimal | None]]] | None:
    if not supports(design.version, "raidz_expansion"):
        return None
    groups = list(design.vdevs)
    parts: list[tuple[int, Decimal | None]] = []
    for i, g in enumerate(groups):
        if g.role != Role.DATA or not g.is_raidz:
            continue
        groups[i] = replace(
            g,
            width=g.width + by,
            disks=g.disks + (g.disks[-1],) * by,
            expanded_from_width=g.expanded_from_width or g.width,
        )
        parts.append((by * g.count, _price(g)))
    if not parts:
        return None
    datasets = tuple(
        replace(ds, contents=replace(ds.contents, logical_bytes_written_before=ds.contents.logical_bytes or 0))
        if ds.contents is not None and ds.contents.logical_bytes
        else ds
        for ds in design.datasets
    )
    return replace(design, vdevs=tuple(groups), datasets=datasets), sum(n for n, _ in parts), parts


def _with_larger_disks(design: Design, size: int, fresh: bool) -> tuple[Design, int, list[tuple[int, Decimal | None]]]:
    groups = list(design.vdevs)
    parts: list[tuple[int, Decimal | None]] = []
    for i, g in enumerate(groups):
        if g.role != Role.DATA:
            continue
        changed = replace(g, disks=tuple(_larger(d, size) for d in g.disks), price_per_disk=_price(g, size))
        if fresh:  # a new pool: every vdev at its full width from the start
            changed = replace(changed, expanded_from_width=None)
        groups[i] = changed
        parts.append((g.width * g.count, _price(g, size)))
    datasets = design.datasets
    if fresh:
        datasets = tuple(
            replace(ds, contents=replace(ds.contents, logical_bytes_written_before=None))
            if ds.contents is not None
            else ds
            for ds in datasets
        )
    return replace(design, vdevs=tuple(groups), datasets=datasets), sum(n for n, _ in parts), parts


def _new_risks(before: Estimate, after: Estimate) -> list[OptionRisk]:
    """The risk rules' findings on the resulting design that the design as it stands does not have."""
    known = {(r.code, r.subject) for r in before.risks}
    return [OptionRisk(r.code, r.severity.value, r.title) for r in after.risks if (r.code, r.subject) not in known]


def _hours(seconds: int | None) -> float | None:
    return None if seconds is None else round(seconds / 3600, 1)


@dataclass(frozen=True)
class _Moment:
    """The point the fill limit is reached: the design holding the data of that moment."""

    years: float
    design: Design
    estimate: Estimate
    reliability: YearReliability


def _option(
    kind: str,
    title: str,
    changed: Design,
    moment: _Moment,
    growth: GrowthSettings,
    estimator: Estimator,
    disks: int,
    disk_size: int,
    parts: list[tuple[int, Decimal | None]],
    own: list[OptionRisk],
    notes: list[str],
    hours: float | None = None,
) -> GrowthOption:
    document = design_to_document(changed)
    after = estimator(parse_design(document))  # the resulting design as a reader of its document sees it
    fill = after.pool.used_fraction or 0.0
    return GrowthOption(
        kind=kind,
        title=title,
        design_json=json.dumps(document),
        usable_bytes=after.pool.zfs_avail_bytes,
        fill_after=fill,
        years_gained=_round(crossing_years(fill, growth.per_year, growth.fill_limit)),
        disks_to_buy=disks,
        disk_size_bytes=disk_size,
        cost=_cost(parts, growth, moment.years),
        risks=tuple(own + _new_risks(moment.estimate, after)),
        notes=tuple(notes),
        hours=hours,
    )


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _add_vdev_option(m: _Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    changed, disks, parts, gi = _add_vdev(m.design)
    g = m.design.vdevs[gi]
    shape = f"{g.layout.value} of {g.width} × {format_si(g.disks[0].size_bytes)}"
    after = estimator(changed)
    new = [v for v in after.vdevs if v.group_index == gi and v.role == Role.DATA.value][-1]
    own = [
        OptionRisk(
            "growth-unbalanced-vdev",
            "info",
            f"The new {g.layout.value} vdev starts empty while the others are {growth.fill_limit:.0%} full: "
            "new writes go mostly to it (allocation favours free space) and the data written before stays "
            "where it is, so the old vdevs keep serving most reads",
        )
    ]
    if not new.removable:
        own.append(
            OptionRisk(
                "growth-vdev-not-removable",
                "warning",
                f"The added {g.layout.value} vdev can never be removed again (zpool remove refuses when the pool "
                "has a top-level raidz or dRAID vdev, or vdevs of different ashift)",
            )
        )
    notes = [f"zpool add another {shape} vdev in year {m.years:.1f}."]
    return _option(
        "add-vdev",
        f"Add a {shape} vdev",
        changed,
        m,
        growth,
        estimator,
        disks,
        g.disks[0].size_bytes,
        parts,
        own,
        notes,
    )


def _widen_option(m: _Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    built = _widen(m.design, growth.widen_by)
    if built is None:
        return None
    changed, disks, parts = built
    after = estimator(changed)
    used = sum(d.zfs_used_bytes for e in after.raidz_expansion[:1] for d in e.datasets)
    rewritten = sum(d.used_if_rewritten_bytes for e in after.raidz_expansion[:1] for d in e.datasets)
    plural = "disk" if growth.widen_by == 1 else "disks"
    own = [
        OptionRisk(
            "growth-expansion-permanent",
            "info",
            "A widened raidz vdev cannot be narrowed again, and the data written before keeps its old "
            "data-to-parity ratio until it is rewritten",
        ),
        OptionRisk(
            "growth-rewrite-snapshots",
            "info",
            "Rewriting the old data (zfs rewrite, or send and receive) while snapshots hold it keeps both "
            "copies until those snapshots are destroyed",
        ),
    ]
    rewrite = "zfs rewrite (2.3.4 and later)" if supports(m.design.version, "zfs_rewrite") else "send and receive"
    notes = [
        f"zpool attach {growth.widen_by} {plural} to each raidz vdev (RAIDZ expansion, OpenZFS 2.3.0), one at a time.",
        f"zfs list USED of the data before a rewrite: {format_si(used)}; after rewriting it with {rewrite}: "
        f"{format_si(rewritten)}.",
    ]
    size = m.design.vdevs[[i for i, g in enumerate(m.design.vdevs) if g.role == Role.DATA and g.is_raidz][0]]
    return _option(
        "widen-raidz",
        f"Widen each raidz vdev by {growth.widen_by} {plural}",
        changed,
        m,
        growth,
        estimator,
        disks,
        size.disks[0].size_bytes,
        parts,
        own,
        notes,
    )


def _replace_option(m: _Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    size = _larger_size(m.design, growth)
    changed, disks, parts = _with_larger_disks(m.design, size, fresh=False)
    per_disk = [
        (g, m.reliability.resilver_by_group.get(i)) for i, g in enumerate(m.design.vdevs) if g.role == Role.DATA
    ]
    total_seconds = sum((s or 0) * g.width * g.count for g, s in per_disk)
    longest = max((s or 0 for _, s in per_disk), default=0)
    least = min(g.parity if not g.layout.value == "mirror" else g.width - 1 for g, _ in per_disk)
    own: list[OptionRisk] = []
    if total_seconds / 3600 > LONG_WINDOW_HOURS or least <= 1:
        own.append(
            OptionRisk(
                "growth-degraded-window",
                "warning" if least <= 1 else "info",
                f"{disks} resilvers of about {longest / 3600:.1f} h each, {total_seconds / 3600:.0f} h in all: with "
                "a disk pulled for its replacement, each vdev tolerates one failure less meanwhile"
                + (" (none at all for a single-parity or two-way vdev)" if least <= 1 else ""),
            )
        )
    notes = [
        f"zpool replace each disk with a {format_si(size)} disk, one at a time; the space grows once the last disk "
        "of a vdev is replaced, with autoexpand=on (or zpool online -e).",
        "Replacing with the old disk still connected (a free bay) keeps full redundancy during each resilver.",
        "The larger disks are priced at the present disks' price per TB.",
    ]
    return _option(
        "replace-disks",
        f"Replace the disks with {format_si(size)} disks",
        changed,
        m,
        growth,
        estimator,
        disks,
        size,
        parts,
        own,
        notes,
        hours=_hours(total_seconds),
    )


def _new_pool_option(m: _Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    size = _larger_size(m.design, growth)
    changed, disks, parts = _with_larger_disks(m.design, size, fresh=True)
    speed = min(
        m.estimate.performance.seq_read_bytes_per_s.low, estimator(changed).performance.seq_write_bytes_per_s.low
    )
    used = m.estimate.pool.zfs_used_bytes
    hours = used / speed / 3600 if speed else None
    own = [
        OptionRisk(
            "growth-two-pools",
            "info",
            f"Both pools must be connected at once ({disks} more disks), and the copy runs for "
            f"about {hours or 0:.0f} h; writes made during it need a last incremental send",
        )
    ]
    notes = [
        f"zpool create a new pool of {format_si(size)} disks, then zfs send -R | zfs receive (a full copy, "
        "then an incremental one); the old disks are free afterwards.",
        "The larger disks are priced at the present disks' price per TB.",
    ]
    return _option(
        "new-pool",
        f"A new pool of {format_si(size)} disks and a copy",
        changed,
        m,
        growth,
        estimator,
        disks,
        size,
        parts,
        own,
        notes,
        hours=round(hours, 1) if hours is not None else None,
    )


OPTIONS = (_add_vdev_option, _widen_option, _replace_option, _new_pool_option)


# --------------------------------------------------------------------------- the timeline


def timeline(
    design: Design,
    est: Estimate,
    settings: PlanningSettings,
    pool: PoolCapacity,
    estimator: Estimator,
    inputs: PlanningInputs | None = None,
) -> TimelineFigures:
    """The timeline of a design with a growth block (``settings.growth``); ``est`` its estimate."""
    growth = settings.growth
    assert growth is not None
    fill_now = est.pool.used_fraction or 0.0
    data_fill = _data_fill(est)
    logical = est.planned_logical_bytes
    years: list[TimelineYear] = []
    for y in range(growth.horizon_years + 1):
        factor = (1.0 + growth.per_year) ** y
        rel = reliability_at(design, settings, pool, data_fill * factor, inputs)
        years.append(
            TimelineYear(
                year=y,
                logical_bytes=int(round(logical * factor)),
                usable_bytes=est.pool.zfs_avail_bytes,
                fill=grown_fill(fill_now, growth.per_year, y),
                data_loss_probability=rel.data_loss_probability,
                resilver_seconds=rel.resilver_seconds,
            )
        )
    fills = [y.fill for y in years]
    thresholds = tuple(
        Threshold(t, _round(crossing_years(fill_now, growth.per_year, t)), first_year_over(fills, t))
        for t in THRESHOLDS
    )
    notes = []
    at = crossing_years(fill_now, growth.per_year, growth.fill_limit)
    options: list[GrowthOption] = []
    if logical <= 0:
        notes.append("The datasets give no data to store: the timeline needs their contents.")
    else:
        when = at if at is not None else 0.0
        factor = (1.0 + growth.per_year) ** when
        grown = grown_design(design, factor)
        try:
            grown_est = estimator(grown)
            moment = _Moment(when, grown, grown_est, reliability_at(design, settings, pool, data_fill * factor, inputs))
            for make in OPTIONS:
                option = make(moment, growth, estimator)
                if option is not None:
                    options.append(option)
        except InvalidDesign as exc:
            notes.append(f"The growth options could not be built: {exc}")
    if at is None and logical > 0:
        notes.append("At this growth the pool never reaches its fill limit; the options show the pool changed now.")
    return TimelineFigures(
        per_year=growth.per_year,
        horizon_years=growth.horizon_years,
        fill_limit=growth.fill_limit,
        years=tuple(years),
        thresholds=thresholds,
        fill_limit_year=first_year_over(fills, growth.fill_limit),
        at_years=_round(at),
        options=tuple(options),
        notes=tuple(notes),
    )
