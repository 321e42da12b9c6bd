"""The design page's "Growth" section: the pool's life at the design's growth rate, and the ways to grow it.

Built from the estimate's :class:`~zfsplanner.core.estimate.figures.TimelineFigures`; the page and
its chart read these attributes, never the estimate document by key.
"""

from __future__ import annotations

from dataclasses import dataclass

from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.timeline_figures import GrowthOption, OptionKind, TimelineFigures
from zfsplanner.core.units import DEFAULT_SIZE_UNIT

from .sizes import Size

KIND_LABELS = {
    OptionKind.ADD_VDEV: "Add a vdev",
    OptionKind.WIDEN_RAIDZ: "Widen raidz",
    OptionKind.REPLACE_DISKS: "Larger disks",
    OptionKind.NEW_POOL: "New pool",
}


def _years(years: float | None) -> str:
    if years is None:
        return "beyond any horizon"
    if years < 1:
        return f"{round(years * 12)} months"
    return f"{years:.1f} years"


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.0f} %"


@dataclass(frozen=True)
class ThresholdRow:
    label: str
    when: str
    year: int | None


@dataclass(frozen=True)
class YearRow:
    year: int
    data: Size
    fill: str
    loss: str
    resilver: str


@dataclass(frozen=True)
class OptionRiskRow:
    severity: str
    title: str


@dataclass(frozen=True)
class OptionCard:
    index: int
    kind: str
    kind_label: str
    title: str
    usable: Size
    fill_after: str
    years_gained: str
    disks_to_buy: int
    disk_size: Size
    cost: str
    per_tb_year: str
    hours: str
    power: str
    energy_known: bool  # the cost per usable TB-year includes the energy (the design's and this option's)
    risks: tuple[OptionRiskRow, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class GrowthSection:
    per_year: str
    horizon_years: int
    fill_limit: str
    fill_now: str
    limit_year: int | None
    limit_when: str
    usable: Size
    per_tb_year: str
    power: str
    thresholds: tuple[ThresholdRow, ...]
    years: tuple[YearRow, ...]
    options: tuple[OptionCard, ...]
    notes: tuple[str, ...]
    has_data: bool = True

    @property
    def years_known(self) -> bool:
        """Does the timeline rest on data to store (the datasets' contents)? Without it, it says nothing."""
        return self.has_data

    @property
    def headline(self) -> str:
        """The answer first: when the pool passes its fill limit."""
        if self.limit_year is None:
            return f"The pool stays under {self.fill_limit} full through year {self.horizon_years}."
        if self.limit_year == 0:
            return f"The pool is already over {self.fill_limit} full."
        return f"The pool passes {self.fill_limit} full in year {self.limit_year} (after {self.limit_when})."


def _cost(option: GrowthOption) -> str:
    if option.cost is None:
        return "no price given"
    return f"{option.cost:,.2f}"


def power_text(watts: float | None, disks_without_watts: int, energy_per_year: float | None) -> str:
    """The watts drawn and what they cost a year; when a disk gives no figure, how many do not."""
    if watts is None:
        plural = "disk gives" if disks_without_watts == 1 else "disks give"
        return f"not known: {disks_without_watts} {plural} no watts"
    text = f"{watts:,.1f} W"
    if energy_per_year is not None:
        text += f", {energy_per_year:,.2f} a year in energy"
    return text


def _card(i: int, o: GrowthOption, unit: str, energy_now: float | None) -> OptionCard:
    return OptionCard(
        index=i,
        kind=o.kind.value,
        kind_label=KIND_LABELS[o.kind],
        title=o.title,
        usable=Size(o.usable_bytes, unit),
        fill_after=_percent(o.fill_after),
        years_gained=_years(o.years_gained),
        disks_to_buy=o.disks_to_buy,
        disk_size=Size(o.disk_size_bytes, unit),
        cost=_cost(o),
        per_tb_year=f"{o.cost_per_usable_tb_year:,.2f}" if o.cost_per_usable_tb_year is not None else "",
        hours=f"about {o.hours:,.0f} h" if o.hours is not None else "",
        power=power_text(o.watts, o.disks_without_watts, o.energy_cost_per_year),
        energy_known=o.energy_cost_per_year is not None and energy_now is not None,
        risks=tuple(OptionRiskRow(r.severity, r.title) for r in o.risks),
        notes=o.notes,
    )


def growth_section(estimate: Estimate | None, unit: str = DEFAULT_SIZE_UNIT) -> GrowthSection | None:
    """The section, or None when the design has no growth block."""
    line: TimelineFigures | None = estimate.timeline if estimate is not None else None
    if estimate is None or line is None:
        return None
    labels = {0.8: "80 % full", 0.9: "90 % full", 1.0: "full"}
    return GrowthSection(
        per_year=_percent(line.per_year),
        horizon_years=line.horizon_years,
        fill_limit=_percent(line.fill_limit),
        fill_now=_percent(line.years[0].fill) if line.years else "",
        limit_year=line.fill_limit_year,
        limit_when=_years(line.at_years),
        usable=Size(estimate.pool.zfs_avail_bytes, unit),
        per_tb_year=f"{line.cost_per_usable_tb_year:,.2f}" if line.cost_per_usable_tb_year is not None else "",
        power=power_text(line.watts, line.disks_without_watts, line.energy_cost_per_year),
        thresholds=tuple(
            ThresholdRow(
                labels.get(t.fill, _percent(t.fill)), _years(t.years) if t.years is not None else "never", t.year
            )
            for t in line.thresholds
        ),
        years=tuple(
            YearRow(
                y.year,
                Size(y.logical_bytes, unit),
                f"{100 * y.fill:.1f} %",
                f"{100 * y.data_loss_probability:.2g} %" if y.data_loss_probability is not None else "–",
                f"{y.resilver_seconds / 3600:.1f} h" if y.resilver_seconds is not None else "–",
            )
            for y in line.years
        ),
        options=tuple(_card(i, o, unit, line.energy_cost_per_year) for i, o in enumerate(line.options)),
        notes=line.notes,
        has_data=estimate.planned_logical_bytes > 0,
    )
