"""One typed presentation of a design's estimate, built once per request.

Templates and chart builders read these attributes; they never dig in the estimate
dict by key or format numbers themselves. :func:`summarize` takes the estimate the
core produced (cached per revision by ``services.estimate_design``), the ``Design`` it
was made from and the catalog prices. Its headline and cost are here with where the raw capacity goes
(:func:`breakdown`); the lines it lists (vdev groups, risks, datasets) are built in ``lines``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from zfsplanner.core.design.types import Design
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.naming import vdev_label
from zfsplanner.core.report import Headline, headline, pool_figures
from zfsplanner.core.report.breakdown import CATEGORY_LABELS, capacity_breakdown
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, SIZE_UNITS

from .lines import (
    DatasetLine,
    MdRaidGroup,
    PoolRow,
    RiskLine,
    Section,
    VdevLine,
    dataset_lines,
    expansion_sections,
    md_raid_groups,
    risk_lines,
    vdev_lines,
)
from .planning import PlanningView, planning_view
from .sizes import Size

UNIT_EXPLAIN = {
    "TiB": "Sizes in TiB (2⁴⁰ bytes), what zpool and zfs count in: their T means TiB.",
    "TB": "Sizes in TB (10¹² bytes), as on drive labels; zpool and zfs print TiB (their T).",
}


@dataclass(frozen=True)
class Segment:
    key: str
    label: str
    size: Size
    explain: str
    category: str  # a :class:`~zfsplanner.core.report.breakdown.Category` value
    category_label: str


@dataclass(frozen=True)
class Cost:
    """What the disks cost and that per TB (10^12 bytes) of usable space: :func:`design_cost`."""

    total: Decimal | None  # of the disks that have a price; None when none has one
    per_usable_tb: Decimal | None  # ``total`` per usable TB; None without a total or usable space
    priced_disks: int
    disks: int
    unpriced: tuple[str, ...] = ()  # the vdev groups without a price, as a person names them

    @property
    def known(self) -> bool:
        """Every disk has a price: the figure is the pool's whole cost."""
        return self.total is not None and self.priced_disks == self.disks

    @property
    def partial(self) -> bool:
        """Some disks have a price, others none: the figure counts the first and names the others."""
        return self.total is not None and self.priced_disks < self.disks

    @property
    def unpriced_text(self) -> str:
        return "; ".join(self.unpriced)


@dataclass(frozen=True)
class DesignSummary:
    """The design page's presentation. Its headline figures are :class:`Headline` (the report reads the
    same object); every :class:`Size` in it is in ``unit``."""

    name: str
    version: str
    usable: Size
    raw: Size
    zpool_size: Size
    efficiency: float
    pool_survives: int | None
    vdevs: tuple[VdevLine, ...]
    risks: tuple[RiskLine, ...]
    risk_counts: Mapping[str, int]
    segments: tuple[Segment, ...]
    datasets: tuple[DatasetLine, ...]
    cost: Cost
    planned_fill: float | None
    pool_rows: tuple[PoolRow, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)
    unit: str = DEFAULT_SIZE_UNIT
    headline: Headline | None = None
    planned: Size | None = None  # zfs list USED of the planned contents; None without contents
    avail_after: Size | None = None
    md_raid: tuple[MdRaidGroup, ...] = ()
    expansions: tuple[Section, ...] = ()
    planning: PlanningView | None = None  # special vdev size, reliability, performance, SLOG and RAM

    @property
    def risk_total(self) -> int:
        return sum(self.risk_counts.values())

    @property
    def category_totals(self) -> tuple[tuple[str, str, Size], ...]:
        """Every category of the breakdown (data, redundancy, ...) with its total, 0 included, in one order."""
        return tuple(
            (c.value, label, Size(sum(g.size.bytes for g in self.segments if g.category == c.value), self.unit))
            for c, label in CATEGORY_LABELS.items()
        )

    @property
    def efficiency_percent(self) -> str:
        return f"{100 * self.efficiency:.1f} %"

    @property
    def survives_text(self) -> str:
        if self.headline is not None:
            return self.headline.survives_text
        return "does not apply"

    @property
    def extra_sections(self) -> tuple[Section, ...]:
        """The RAIDZ expansion sections, as labelled rows."""
        return self.expansions

    @property
    def unit_explain(self) -> str:
        return UNIT_EXPLAIN.get(self.unit, UNIT_EXPLAIN[DEFAULT_SIZE_UNIT])

    @property
    def other_unit(self) -> str:
        """The unit the reader can switch to."""
        return next(u for u in SIZE_UNITS if u != self.unit)


def breakdown(estimate: Estimate, unit: str = DEFAULT_SIZE_UNIT) -> tuple[Segment, ...]:
    """Where the raw capacity goes (:func:`~zfsplanner.core.report.breakdown.capacity_breakdown`), in ``unit``."""
    return tuple(
        Segment(p.key, p.label, Size(p.bytes, unit), p.explain, p.category.value, p.category_label)
        for p in capacity_breakdown(estimate).parts
    )


def design_cost(design: Design, prices: Mapping[str, Decimal], usable_bytes: int) -> Cost:
    """The cost rule of every page (the quick planner, the designer, the design, share and compare pages).

    Every disk counts (data, special, dedup, log, cache and spare SSDs and HDDs alike) at its group's
    own ``price_per_disk``, else the catalog's price of its model (``prices``, by catalog model). A
    group without either is named in ``unpriced``; the figure then counts the disks that have a price,
    and the pages say it is a lower bound and which groups it leaves out."""
    total = Decimal(0)
    disks = priced = 0
    unpriced: list[str] = []
    for index, group in enumerate(design.vdevs):
        missing = 0
        for disk in group.disks:
            disks += group.count
            model = disk.catalog or disk.model
            # the group's own price comes before the catalog's
            price = group.price_per_disk if group.price_per_disk is not None else prices.get(model) if model else None
            if price is None:
                missing += group.count
            else:
                priced += group.count
                total += price * group.count
        if missing:
            unpriced.append(f"{vdev_label(design, index)}, {missing} disk{'s' if missing > 1 else ''}")
    if priced == 0:
        return Cost(total=None, per_usable_tb=None, priced_disks=0, disks=disks, unpriced=tuple(unpriced))
    per_tb = total / (Decimal(usable_bytes) / Decimal(10**12)) if usable_bytes else None
    return Cost(total=total, per_usable_tb=per_tb, priced_disks=priced, disks=disks, unpriced=tuple(unpriced))


def summarize(
    estimate: Estimate,
    design: Design,
    prices: Mapping[str, Decimal] | None = None,
    with_fixes: bool = True,
    unit: str = DEFAULT_SIZE_UNIT,
) -> DesignSummary:
    """The page's presentation of ``estimate``, made from ``design``, every size in ``unit`` (``TiB`` or ``TB``)."""
    pool = estimate.pool
    top = headline(estimate)
    return DesignSummary(
        name=design.name,
        version=design.openzfs_version.name if design.openzfs_version else "",
        usable=Size(top.usable_bytes, unit),
        raw=Size(top.raw_bytes, unit),
        zpool_size=Size(top.zpool_size_bytes, unit),
        efficiency=top.efficiency,
        pool_survives=top.survives,
        vdevs=vdev_lines(estimate, design, unit),
        risks=risk_lines(estimate, design, with_fixes),
        risk_counts=top.risk_counts,
        segments=breakdown(estimate, unit),
        datasets=dataset_lines(estimate, unit),
        cost=design_cost(design, prices or {}, top.usable_bytes),
        planned_fill=top.planned_fill,
        pool_rows=tuple(PoolRow(key, label, why, Size(n, unit)) for key, label, why, n in pool_figures(pool)),
        notes=pool.notes,
        unit=unit,
        headline=top,
        planned=Size(top.planned_used_bytes, unit) if top.planned_used_bytes is not None else None,
        avail_after=Size(top.avail_after_bytes, unit) if top.avail_after_bytes is not None else None,
        md_raid=md_raid_groups(estimate, unit),
        expansions=expansion_sections(estimate, unit),
        planning=planning_view(estimate, unit),
    )


def breakdown_chart(summaries: Sequence[tuple[str, DesignSummary]]) -> dict[str, Any]:
    """Chart.js JSON: one horizontal stacked bar per design, segments on one scale.

    Each dataset carries its ``category`` (the chart colours by it) and, within the redundancy
    category, a ``shade`` per vdev group. Designs compared side by side name a group's redundancy
    by its number: the same group number is a different group in each design."""
    keys: dict[str, Segment] = {}
    for _, s in summaries:
        for seg in s.segments:
            keys.setdefault(seg.key, seg)
    datasets = []
    shades: dict[str, int] = {}
    for key, first in keys.items():
        data = []
        for _, s in summaries:
            seg = next((g for g in s.segments if g.key == key), None)
            data.append(seg.size.bytes if seg else 0)
        label = first.label
        if first.category == "redundancy" and len(summaries) > 1:
            label = f"Redundancy, vdev group {key.rsplit('-', 1)[-1]}"
        shade = shades.setdefault(first.category, 0)
        shades[first.category] = shade + 1
        datasets.append(
            {"label": label, "data": data, "stack": "raw", "key": key, "category": first.category, "shade": shade}
        )
    return {
        "type": "bar",
        "indexAxis": "y",
        "stacked": True,
        "title": "Where the raw capacity goes",
        "labels": [name for name, _ in summaries],
        "datasets": datasets,
        # The axis in the page's unit: binary (TiB) or decimal (TB, "bytes_si").
        "unit": "bytes_si" if summaries and summaries[0][1].unit == "TB" else "bytes",
    }
