"""The ways to grow a pool that reaches its fill limit, each priced on the design it leads to.

Add a vdev like the existing ones; widen each RAIDZ vdev (RAIDZ expansion, OpenZFS 2.3.0); replace
the disks with larger ones (a resilver per disk, ``autoexpand``); build a new pool and copy the data.
Each option is a design: the design at the moment the limit is reached, changed. Its usable space,
fill and risks are the planner's own estimate of that design (``estimator``), never a second
formula; resilver times are the reliability section's at the fill of that moment.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from ..design.planning import GrowthSettings
from ..design.types import Design, Disk, InvalidDesign, Role, VdevGroup
from ..document.parse import validate_design
from ..units import format_si
from ..versions import supports
from .figures import Estimate
from .timeline_figures import GrowthOption, OptionKind, OptionRisk

# A window this long with one failure less tolerated is worth a warning of its own (a week).
LONG_WINDOW_HOURS = 7 * 24.0
DISK_SIZE_STEP = 2  # the larger disks, when the design does not name them: twice the present size

Estimator = Callable[[Design], Estimate]


def crossing_years(fill_now: float, per_year: float, threshold: float) -> float | None:
    """Years from now until the fill reaches ``threshold``: ``ln(threshold / fill) / ln(1 + per_year)``
    (0 when it already has; None when it never will: no data or no growth)."""
    if fill_now >= threshold:
        return 0.0
    if fill_now <= 0 or per_year <= 0:
        return None
    return math.log(threshold / fill_now) / math.log1p(per_year)


def rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


@dataclass(frozen=True)
class Moment:
    """The point the fill limit is reached: ``years`` from now, the design holding the data of that
    moment, its estimate, and the longest resilver of one disk of each vdev group then."""

    years: float
    design: Design
    estimate: Estimate
    resilver_by_group: dict[int, int | None]


def _price(group: VdevGroup, size_bytes: int | None = None) -> Decimal | None:
    """One disk's price; a larger disk at the same price per byte as the present one."""
    if group.price_per_disk is None:
        return None
    if size_bytes is None or not group.disks[0].size_bytes:
        return group.price_per_disk
    return group.price_per_disk * Decimal(size_bytes) / Decimal(group.disks[0].size_bytes)


def _cost(parts: list[tuple[int, Decimal | None]], growth: GrowthSettings | None, years: float) -> float | None:
    """What the disks cost ``years`` from now, prices changing by ``price_change_per_year``."""
    if not parts or any(p is None for _, p in parts):
        return None
    change = growth.price_change_per_year if growth is not None else 0.0
    factor = Decimal(str(round((1.0 + change) ** years, 6)))
    total = sum((Decimal(n) * p for n, p in parts if p is not None), Decimal(0))
    return float((total * factor).quantize(Decimal("0.01")))


def design_cost(design: Design) -> float | None:
    """What every disk of the design costs at its groups' prices (None: a group gives no price)."""
    return _cost([(g.width * g.count, g.price_per_disk) for g in design.vdevs], None, 0.0)


HOURS_PER_YEAR = 8766  # 365.25 days of 24 hours


@dataclass(frozen=True)
class Power:
    """What the disks of a design draw: ``watts`` the sum over every disk (spares included), None when
    ``disks_without_watts`` of them give no figure."""

    watts: float | None
    disks_without_watts: int


def design_power(design: Design) -> Power:
    """The watts every disk of the design draws, summed (each vdev group: its disks × its count)."""
    figures = [d.watts for g in design.vdevs for d in g.disks for _ in range(g.count)]
    missing = sum(1 for w in figures if w is None)
    total = sum(w for w in figures if w is not None)
    return Power(None if missing else round(total, 2), missing)


def energy_cost_per_year(watts: float | None, price_per_kwh: float | None) -> float | None:
    """What ``watts`` drawn all year cost: watts × 8766 h / 1000 × the price of a kWh, to the cent
    (None without either figure)."""
    if watts is None or price_per_kwh is None:
        return None
    kwh = Decimal(str(watts)) * HOURS_PER_YEAR / 1000
    return float((kwh * Decimal(str(price_per_kwh))).quantize(Decimal("0.01")))


def plus_energy(cost: float | None, energy: list[tuple[float | None, float]]) -> float | None:
    """``cost`` and the energy of each (cost per year, years) when every one is known; ``cost`` alone
    otherwise (disks only, as without an energy price)."""
    if cost is None or any(per_year is None for per_year, _ in energy):
        return cost
    return round(cost + sum((per_year or 0.0) * max(years, 0.0) for per_year, years in energy), 2)


def cost_per_usable_tb_year(cost: float | None, held: list[tuple[int, float]]) -> float | None:
    """``cost`` over the usable TB-years it buys: the sum of usable TB (10^12 bytes) × the years each
    usable size is held (``held``: (usable bytes, years)). None without a cost or without space."""
    tb_years = sum(usable / 1e12 * max(years, 0.0) for usable, years in held)
    return round(cost / tb_years, 2) if cost is not None and tb_years > 0 else None


LARGER_DISKS_NOTE = (
    "The larger disks are priced at the present disks' price per TB, and drawing the present disks' watts."
)


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
    if not supports(design.release, "raidz_expansion"):
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
            # what was written before is given per dataset below (a design gives it in one place)
            logical_bytes_written_before=None,
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
            changed = replace(changed, expanded_from_width=None, logical_bytes_written_before=None)
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
class _Result:
    """The design an option leads to, the planner's estimate of it, and what it takes: ``disks`` to buy
    of ``disk_size`` bytes, priced by ``parts`` (disks, price of one)."""

    design: Design
    estimate: Estimate
    disks: int
    disk_size: int
    parts: list[tuple[int, Decimal | None]]


def _result(
    changed: Design, estimator: Estimator, disks: int, disk_size: int, parts: list[tuple[int, Decimal | None]]
) -> _Result:
    checked = validate_design(changed)  # the check a design gets when it is saved (InvalidDesign: refused)
    return _Result(checked, estimator(checked), disks, disk_size, parts)


def _option(
    kind: OptionKind,
    title: str,
    result: _Result,
    moment: Moment,
    growth: GrowthSettings,
    own: list[OptionRisk],
    notes: list[str],
    hours: float | None = None,
) -> GrowthOption:
    after = result.estimate
    fill = after.pool.used_fraction or 0.0
    cost = _cost(result.parts, growth, moment.years)
    now, horizon = design_cost(moment.design), float(growth.horizon_years)
    if moment.years >= horizon:  # the change is not needed within the horizon: no path to price
        now = None
    price = growth.energy_price_per_kwh
    power = design_power(result.design)
    energy = energy_cost_per_year(power.watts, price)
    energy_now = energy_cost_per_year(design_power(moment.design).watts, price)
    path = plus_energy(
        None if now is None or cost is None else now + cost,
        [(energy_now, min(moment.years, horizon)), (energy, horizon - moment.years)],
    )
    return GrowthOption(
        kind=kind,
        title=title,
        design=result.design,
        usable_bytes=after.pool.zfs_avail_bytes,
        fill_after=fill,
        years_gained=rounded(crossing_years(fill, growth.per_year, growth.fill_limit)),
        disks_to_buy=result.disks,
        disk_size_bytes=result.disk_size,
        cost=cost,
        watts=power.watts,
        disks_without_watts=power.disks_without_watts,
        energy_cost_per_year=energy,
        cost_per_usable_tb_year=cost_per_usable_tb_year(
            path,
            [
                (moment.estimate.pool.zfs_avail_bytes, min(moment.years, horizon)),
                (after.pool.zfs_avail_bytes, horizon - moment.years),
            ],
        ),
        risks=tuple(own + _new_risks(moment.estimate, after)),
        notes=tuple(notes),
        hours=hours,
    )


def _add_vdev_option(m: Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    changed, disks, parts, gi = _add_vdev(m.design)
    g = m.design.vdevs[gi]
    shape = f"{g.layout.value} of {g.width} × {format_si(g.disks[0].size_bytes)}"
    result = _result(changed, estimator, disks, g.disks[0].size_bytes, parts)
    new = [v for v in result.estimate.vdevs if v.group_index == gi and v.role == Role.DATA.value][-1]
    if supports(m.design.release, "free_fraction_allocation"):
        spread = "new writes go mostly to it until the vdevs are equally full (2.4 balances free space)"
    else:
        spread = "before OpenZFS 2.4 new writes favour the faster vdevs, not the emptier one, so the imbalance lasts"
    own = [
        OptionRisk(
            "growth-unbalanced-vdev",
            "info",
            f"The new {g.layout.value} vdev starts empty while the others are {growth.fill_limit:.0%} full: "
            f"{spread}; the data written before stays where it is, so the old vdevs keep serving most of its reads",
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
    return _option(OptionKind.ADD_VDEV, f"Add a {shape} vdev", result, m, growth, own, notes)


def _widen_option(m: Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    built = _widen(m.design, growth.widen_by)
    if built is None:
        return None
    changed, disks, parts = built
    first = next(g for g in m.design.vdevs if g.role == Role.DATA and g.is_raidz)
    result = _result(changed, estimator, disks, first.disks[0].size_bytes, parts)
    expanded = [d for e in result.estimate.raidz_expansion[:1] for d in e.datasets]
    used = sum(d.zfs_used_bytes for d in expanded)
    rewritten = sum(d.used_if_rewritten_bytes for d in expanded)
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
    rewrite = "zfs rewrite (2.3.4 and later)" if supports(m.design.release, "zfs_rewrite") else "send and receive"
    notes = [
        f"zpool attach {growth.widen_by} {plural} to each raidz vdev (RAIDZ expansion, OpenZFS 2.3.0), one at a time.",
        f"zfs list USED of the data before a rewrite: {format_si(used)}; after rewriting it with {rewrite}: "
        f"{format_si(rewritten)}.",
    ]
    title = f"Widen each raidz vdev by {growth.widen_by} {plural}"
    return _option(OptionKind.WIDEN_RAIDZ, title, result, m, growth, own, notes)


def _replace_option(m: Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    size = _larger_size(m.design, growth)
    changed, disks, parts = _with_larger_disks(m.design, size, fresh=False)
    result = _result(changed, estimator, disks, size, parts)
    per_disk = [(g, m.resilver_by_group.get(i)) for i, g in enumerate(m.design.vdevs) if g.role == Role.DATA]
    total_seconds = sum((s or 0) * g.width * g.count for g, s in per_disk)
    longest = max((s or 0 for _, s in per_disk), default=0)
    least = min(v.fault_tolerance for v in m.estimate.vdevs if v.role == Role.DATA.value)
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
        LARGER_DISKS_NOTE,
    ]
    return _option(
        OptionKind.REPLACE_DISKS,
        f"Replace the disks with {format_si(size)} disks",
        result,
        m,
        growth,
        own,
        notes,
        hours=_hours(total_seconds),
    )


def _new_pool_option(m: Moment, growth: GrowthSettings, estimator: Estimator) -> GrowthOption | None:
    size = _larger_size(m.design, growth)
    changed, disks, parts = _with_larger_disks(m.design, size, fresh=True)
    result = _result(changed, estimator, disks, size, parts)
    speed = min(m.estimate.performance.seq_read_bytes_per_s.low, result.estimate.performance.seq_write_bytes_per_s.low)
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
        LARGER_DISKS_NOTE,
    ]
    return _option(
        OptionKind.NEW_POOL,
        f"A new pool of {format_si(size)} disks and a copy",
        result,
        m,
        growth,
        own,
        notes,
        hours=round(hours, 1) if hours is not None else None,
    )


OPTIONS = (_add_vdev_option, _widen_option, _replace_option, _new_pool_option)


def growth_options(
    moment: Moment, growth: GrowthSettings, estimator: Estimator
) -> tuple[list[GrowthOption], list[str]]:
    """Every option that applies to the design (widening needs raidz and OpenZFS 2.3 or later), and a
    note for each that leads to a design the planner refuses (the note says why)."""
    options: list[GrowthOption] = []
    notes: list[str] = []
    for make in OPTIONS:
        try:
            option = make(moment, growth, estimator)
        except InvalidDesign as exc:
            notes.append(f"One way to grow the pool is left out: its design is refused ({exc}).")
            continue
        if option is not None:
            options.append(option)
    return options, notes
