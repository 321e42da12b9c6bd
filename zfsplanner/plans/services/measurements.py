"""Measured figures from benchmark runs: the one door through which runs reach the plans.

Why this direction: a benchmark run belongs to a design and names a catalog disk, so the
``benchmarks`` app depends on ``plans`` (its forms and serializers offer ``PoolDesign`` and
``CatalogDisk``). ``plans`` never imports ``benchmarks`` back (``.importlinter``: "benchmarks
uses plans, never the other way round"). What the planning pages need of the runs is asked
through this small registry instead, and ``benchmarks`` fills it in from its
``AppConfig.ready()`` (``benchmarks/measurements.py``):

* ``disk_figures(team_id, models, design_id)``: per disk model, the figures its runs measured
  (the design's own runs first, then the team's newest); they win over the catalog's.
* ``comparisons(design, metric)``: each result of the runs attached to a design against the
  pool's predicted range for the same test shape.

Without a registered source (``benchmarks`` not installed) the figures are the catalog's
alone and no run is compared. The cached estimates follow the runs because ``benchmarks``
connects its models' saves to :func:`planning_figures_changed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from zfsplanner.core.design.planning import DriveFigures

if TYPE_CHECKING:
    from ..models import PoolDesign


class MeasuredComparison(Protocol):
    """One benchmark result against the prediction, as the design page, its chart and the API show it."""

    @property
    def run_label(self) -> str: ...

    @property
    def test(self) -> str: ...

    @property
    def within_range(self) -> bool: ...

    @property
    def measured_text(self) -> str: ...

    @property
    def predicted_text(self) -> str: ...

    @property
    def difference_text(self) -> str: ...

    def as_dict(self) -> dict[str, Any]: ...


class MeasurementSource(Protocol):
    def disk_figures(self, team_id: int, models: set[str], design_id: int | None) -> Mapping[str, DriveFigures]: ...

    def comparisons(self, design: PoolDesign, metric: str | None) -> Sequence[MeasuredComparison]: ...


@dataclass
class _Registry:
    source: MeasurementSource | None = None


_registry = _Registry()


def register_measurements(source: MeasurementSource) -> None:
    """Called once from the benchmarks app's ``ready()``; a second call replaces the first."""
    _registry.source = source


def measured_disk_figures(team_id: int | None, models: set[str], design_id: int | None) -> Mapping[str, DriveFigures]:
    """Measured figures per disk model (empty without a team, models or a registered source)."""
    if _registry.source is None or team_id is None or not models:
        return {}
    return _registry.source.disk_figures(team_id, models, design_id)


def measured_vs_predicted(design: PoolDesign, metric: str | None = None) -> list[MeasuredComparison]:
    """The attached runs' results against the design's predicted ranges (``InvalidDesign`` if the
    stored design no longer parses); ``metric``: ``iops`` or ``bandwidth`` for every row, else by test."""
    if _registry.source is None:
        return []
    return list(_registry.source.comparisons(design, metric))


def measured_comparisons(design: PoolDesign) -> list[MeasuredComparison]:
    """What the design page's "Predicted against measured" table shows: the comparisons, or none
    when the stored design no longer parses (the page says so in its estimate section)."""
    if design.pk is None:
        return []
    try:
        return measured_vs_predicted(design)
    except ValueError:
        return []
