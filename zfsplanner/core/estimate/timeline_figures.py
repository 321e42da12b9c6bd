"""The estimate's ``timeline`` as typed values: the years, the thresholds and the growth options.

Written to the ``zfsplanner.estimate/1`` document by :meth:`TimelineFigures.to_document` (``timeline``:
``years`` = ``[{"year", "logical_bytes", "usable_bytes", "fill", ...}]``, ``fill_limit_year``,
``options`` = ``[{"kind", "design", "usable_bytes", "years_gained", "cost", "risks", ...}]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..design.types import Design
from ..document.export import design_to_document


class OptionKind(StrEnum):
    """The ways to grow a pool (the estimate's ``timeline.options[].kind``)."""

    ADD_VDEV = "add-vdev"
    WIDEN_RAIDZ = "widen-raidz"
    REPLACE_DISKS = "replace-disks"
    NEW_POOL = "new-pool"


@dataclass(frozen=True)
class TimelineYear:
    """One year of the pool's life at the design's growth rate (year 0: now)."""

    year: int
    logical_bytes: int
    usable_bytes: int  # the design as it stands: its pool.zfs_avail_bytes
    fill: float
    data_loss_probability: float | None  # within this year, at this year's fill
    resilver_seconds: int | None  # the longest resilver of one disk at this year's fill

    def to_document(self) -> dict[str, Any]:
        return {
            "year": self.year,
            "logical_bytes": self.logical_bytes,
            "usable_bytes": self.usable_bytes,
            "fill": self.fill,
            "data_loss_probability": self.data_loss_probability,
            "resilver_seconds": self.resilver_seconds,
        }


@dataclass(frozen=True)
class Threshold:
    """When the fill crosses ``fill``: ``years`` exactly from now (a constant rate), ``year`` the first
    whole year of the timeline whose fill exceeds it; None: not within the horizon, or never."""

    fill: float
    years: float | None
    year: int | None

    def to_document(self) -> dict[str, Any]:
        return {"fill": self.fill, "years": self.years, "year": self.year}


@dataclass(frozen=True)
class OptionRisk:
    """What a growth option brings: a risk rule's finding on the resulting design, or the option's own."""

    code: str
    severity: str
    title: str

    def to_document(self) -> dict[str, str]:
        return {"code": self.code, "severity": self.severity, "title": self.title}


@dataclass(frozen=True)
class GrowthOption:
    """One way to grow the pool when it reaches its fill limit, priced on the design it leads to.

    ``design`` is that design (written as a document by :meth:`to_document`); ``usable_bytes`` its
    estimate's ``pool.zfs_avail_bytes``;
    ``years_gained`` how long, from the change, until it reaches the fill limit (None: it never does);
    ``cost`` the disks at the design's prices in the year of the change (None: no price given)."""

    kind: OptionKind
    title: str
    design: Design
    usable_bytes: int
    fill_after: float
    years_gained: float | None
    disks_to_buy: int
    disk_size_bytes: int
    cost: float | None  # in the currency of the design's prices, to the cent
    # the design's disks now and this option's, over the usable TB-years they give within the horizon
    cost_per_usable_tb_year: float | None
    risks: tuple[OptionRisk, ...]
    notes: tuple[str, ...]
    hours: float | None = None  # the work itself: resilvers one after the other, or the copy
    # what the resulting design's disks draw (None: ``disks_without_watts`` give no figure), and what
    # that costs a year at the growth block's energy price (None: no price or no watts)
    watts: float | None = None
    disks_without_watts: int = 0
    energy_cost_per_year: float | None = None

    def to_document(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "title": self.title,
            "design": design_to_document(self.design),
            "usable_bytes": self.usable_bytes,
            "fill_after": self.fill_after,
            "years_gained": self.years_gained,
            "disks_to_buy": self.disks_to_buy,
            "disk_size_bytes": self.disk_size_bytes,
            "cost": self.cost,
            "cost_per_usable_tb_year": self.cost_per_usable_tb_year,
            "hours": self.hours,
            "watts": self.watts,
            "disks_without_watts": self.disks_without_watts,
            "energy_cost_per_year": self.energy_cost_per_year,
            "risks": [r.to_document() for r in self.risks],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class TimelineFigures:
    """The pool's life at the design's ``growth``: per year, the thresholds, and the growth options
    at the point the fill limit is reached (``at_years`` from now)."""

    per_year: float
    horizon_years: int
    fill_limit: float
    years: tuple[TimelineYear, ...]
    thresholds: tuple[Threshold, ...]
    fill_limit_year: int | None
    at_years: float | None
    options: tuple[GrowthOption, ...]
    notes: tuple[str, ...]
    cost_per_usable_tb_year: float | None = None  # the design as it stands, over the horizon
    watts: float | None = None  # the design as it stands (see GrowthOption)
    disks_without_watts: int = 0
    energy_cost_per_year: float | None = None

    def to_document(self) -> dict[str, Any]:
        return {
            "per_year": self.per_year,
            "horizon_years": self.horizon_years,
            "fill_limit": self.fill_limit,
            "years": [y.to_document() for y in self.years],
            "thresholds": [t.to_document() for t in self.thresholds],
            "fill_limit_year": self.fill_limit_year,
            "at_years": self.at_years,
            "cost_per_usable_tb_year": self.cost_per_usable_tb_year,
            "watts": self.watts,
            "disks_without_watts": self.disks_without_watts,
            "energy_cost_per_year": self.energy_cost_per_year,
            "options": [o.to_document() for o in self.options],
            "notes": list(self.notes),
        }
