"""What the core is told about disks, from the database: catalog figures and the measured figures of
a disk model, and the layout advisor's rows.

* ``catalog_inputs(spec)`` / ``design_inputs(design)``: :class:`PlanningInputs` for the
  core (AFR and per-disk figures by model). The catalog gives data-sheet figures; a
  benchmark run of the model (target "disk", parsed, of the design's team) gives measured
  ones and wins over the catalog, with its run id as the source. The runs are read by the
  benchmarks app and reach here through ``measurements`` (plans never imports benchmarks).
* ``run_advisor(...)``: the core advisor with catalog (and custom) disks and prices.
"""

from __future__ import annotations

from collections.abc import Sequence

from zfsplanner.core import advisor
from zfsplanner.core.design.planning import DriveFigures, DriveInputs, PlanningInputs
from zfsplanner.core.design.types import Design
from zfsplanner.core.document.parts import disk_from_document
from zfsplanner.core.estimate import Estimate, estimate

from ..models import CatalogDisk, PoolDesign
from .measurements import measured_disk_figures


def _models(spec: Design) -> set[str]:
    return {d.model for g in spec.vdevs for d in g.disks if d.model}


def _catalog_figures(c: CatalogDisk) -> DriveFigures:
    return DriveFigures(
        random_read_iops=c.random_read_iops,
        random_write_iops=c.random_write_iops,
        seq_read_bytes_per_s=c.seq_read_bytes_per_s,
        seq_write_bytes_per_s=c.seq_write_bytes_per_s,
        source="catalog",
    )


def _inputs(models: set[str], team_id: int | None, design: PoolDesign | None) -> PlanningInputs:
    catalog = {c.model: c for c in CatalogDisk.objects.filter(model__in=models)} if models else {}
    measured = measured_disk_figures(team_id, models, design.pk if design is not None else None)
    drives = {}
    for model in models:
        c = catalog.get(model)
        figures = _catalog_figures(c) if c is not None else DriveFigures()
        if model in measured:
            figures = measured[model].over(figures)
        afr = c.afr if c is not None else None
        source = (c.afr_source or "catalog") if c is not None else ""
        if afr is not None or figures.source:
            drives[model] = DriveInputs(afr=afr, afr_source=source, figures=figures)
    return PlanningInputs(drives)


def catalog_inputs(spec: Design) -> PlanningInputs:
    """Catalog figures for the disk models a document names (no team: no benchmark runs)."""
    return _inputs(_models(spec), None, None)


def catalog_inputs_for_models(models: set[str]) -> PlanningInputs:
    return _inputs(models, None, None)


def estimate_with_catalog(spec: Design) -> Estimate:
    """The estimate of a document that is not stored (``manage.py estimate``, ``POST /api/estimate/``),
    with the catalog's figures for the disk models it names."""
    return estimate(spec, catalog_inputs(spec))


def design_inputs(design: PoolDesign, spec: Design | None = None) -> PlanningInputs:
    """Catalog figures and the team's disk benchmarks for a stored design's disk models."""
    spec = spec or design.to_spec()
    return _inputs(_models(spec), design.team_id, design)


# --------------------------------------------------------------------------- advisor


def catalog_candidate(disk: CatalogDisk, count: int, price: float | None = None) -> advisor.Candidate:
    """A candidate from a catalog disk (its entry read as a design's disk); ``price`` (the user's, in
    their currency) overrides the catalog's for this run and goes into the row's design."""
    entry = disk_from_document(disk.to_disk_document())
    if price is not None:
        return advisor.Candidate(entry, count, price, "", f"{disk.vendor} {disk.model}", price_typed=True)
    use = float(disk.price) if disk.price is not None else None
    return advisor.Candidate(entry, count, use, disk.price_currency, f"{disk.vendor} {disk.model}")


def run_advisor(
    candidates: Sequence[advisor.Candidate],
    needs: advisor.DataNeeds,
    options: advisor.Options | None = None,
    sort: str = "cost_per_usable_tb",
) -> list[advisor.Row]:
    """The advisor's rows for catalog and custom disks, with the catalog's figures for the catalog
    disks among them (``AdvisorError`` names a bad field)."""
    models = {c.disk.catalog for c in candidates if c.disk.catalog}
    return advisor.advise(candidates, needs, options, catalog_inputs_for_models(models), sort)
