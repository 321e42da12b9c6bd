"""The report's "Growth" section: when the pool passes its fill limit and the ways to grow it."""

from __future__ import annotations

from ..estimate import Estimate
from ..units import format_size
from .tables import table


def _years(years: float | None) -> str:
    return "never at this rate" if years is None else f"{years:.2f} years"


def _power(watts: float | None, without: int, energy: float | None) -> str:
    if watts is None:
        return f"not known ({without} without watts)"
    return f"{watts:,.1f} W" + (f", {energy:,.2f} a year" if energy is not None else "")


def growth_lines(estimate: Estimate, unit: str) -> list[str]:
    """The section's Markdown lines; none when the design has no growth block."""
    line = estimate.timeline
    if line is None:
        return []
    when = (
        f"year {line.fill_limit_year}"
        if line.fill_limit_year is not None
        else (f"not within {line.horizon_years} years")
    )
    out = [
        "## Growth",
        "",
        f"The data grows {line.per_year:.0%} a year; the pool passes its fill limit of {line.fill_limit:.0%} in "
        f"**{when}** (after {_years(line.at_years)}).",
        "",
        *table(
            ("Year", "Data", "Fill", "Chance of data loss that year", "Longest resilver of one disk"),
            [
                [
                    str(y.year),
                    format_size(y.logical_bytes, unit),
                    f"{y.fill:.1%}",
                    f"{y.data_loss_probability:.2g}" if y.data_loss_probability is not None else "–",
                    f"{y.resilver_seconds / 3600:.1f} h" if y.resilver_seconds is not None else "–",
                ]
                for y in line.years
            ],
        ),
        "",
    ]
    if line.options:
        rows = [
            [
                o.title,
                format_size(o.usable_bytes, unit),
                _years(o.years_gained),
                str(o.disks_to_buy),
                f"{o.cost:,.2f}" if o.cost is not None else "–",
                f"{o.cost_per_usable_tb_year:,.2f}" if o.cost_per_usable_tb_year is not None else "–",
                _power(o.watts, o.disks_without_watts, o.energy_cost_per_year),
                "; ".join(r.title for r in o.risks) or "–",
            ]
            for o in line.options
        ]
        out += [
            "### Ways to grow it when it gets there",
            "",
            *table(
                (
                    "Option",
                    "Usable after",
                    "Years it buys",
                    "Disks to buy",
                    "Cost",
                    "Per usable TB-year",
                    "Power drawn",
                    "Risks",
                ),
                rows,
            ),
            "",
        ]
    out += [f"- {n}" for n in line.notes] + ([""] if line.notes else [])
    return out
