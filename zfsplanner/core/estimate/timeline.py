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

from dataclasses import dataclass, replace

from ..capacity.pool import PoolCapacity
from ..design.planning import PlanningInputs, PlanningSettings
from ..design.types import Dataset, DatasetType, Design, InvalidDesign, Role
from ..planning.context import Context
from ..planning.reliability_section import reliability_section
from .figures import Estimate
from .growth_options import (
    Estimator,
    Moment,
    cost_per_usable_tb_year,
    crossing_years,
    design_cost,
    design_power,
    energy_cost_per_year,
    growth_options,
    plus_energy,
    rounded,
)
from .timeline_figures import GrowthOption, Threshold, TimelineFigures, TimelineYear

THRESHOLDS = (0.8, 0.9, 1.0)


# --------------------------------------------------------------------------- growth at a constant rate


def grown_fill(fill_now: float, per_year: float, years: float) -> float:
    """The fill ``years`` from now when the data grows by ``per_year`` each year."""
    return float(fill_now * (1.0 + per_year) ** years)


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
        Threshold(t, rounded(crossing_years(fill_now, growth.per_year, t)), first_year_over(fills, t))
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
            then = reliability_at(design, settings, pool, data_fill * factor, inputs)
            options, left_out = growth_options(
                Moment(when, grown, grown_est, then.resilver_by_group), growth, estimator
            )
            notes += left_out
        except InvalidDesign as exc:
            notes.append(f"The growth options could not be built: {exc}")
    power = design_power(design)
    energy = energy_cost_per_year(power.watts, growth.energy_price_per_kwh)
    if at is None and logical > 0:
        notes.append("At this growth the pool never reaches its fill limit; the options show the pool changed now.")
    return TimelineFigures(
        per_year=growth.per_year,
        horizon_years=growth.horizon_years,
        fill_limit=growth.fill_limit,
        years=tuple(years),
        thresholds=thresholds,
        fill_limit_year=first_year_over(fills, growth.fill_limit),
        at_years=rounded(at),
        options=tuple(options),
        notes=tuple(notes),
        cost_per_usable_tb_year=cost_per_usable_tb_year(
            plus_energy(design_cost(design), [(energy, float(growth.horizon_years))]),
            [(est.pool.zfs_avail_bytes, float(growth.horizon_years))],
        ),
        watts=power.watts,
        disks_without_watts=power.disks_without_watts,
        energy_cost_per_year=energy,
    )
