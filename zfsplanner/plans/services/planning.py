"""Planning inputs from the database: catalog figures and imported benchmarks of a disk model,
the runs attached to a design against the prediction, and the layout advisor's rows.

* ``catalog_inputs(spec)`` / ``design_inputs(design)``: :class:`PlanningInputs` for the
  core (AFR and per-disk figures by model). The catalog gives data-sheet figures; a
  benchmark run of the model (target "disk", parsed, of the design's team) gives measured
  ones and wins over the catalog, with its run id as the source. Runs attached to the
  design come first, then the team's newest.
* ``measured_vs_predicted(design, estimate)``: each result of the runs attached to the
  design (any target but a single disk) next to the pool's predicted range for the same
  test shape, with the difference in percent.
* ``run_advisor(...)``: the core advisor with catalog (and custom) disks and prices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.models import BenchResult, BenchRun, TargetKind, UploadStatus
from zfsplanner.core import advisor
from zfsplanner.core.design import Design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.performance import BenchShape, PoolPerf, Prediction, predict
from zfsplanner.core.planning import DriveFigures, DriveInputs, PlanningInputs
from zfsplanner.core.planning_sections import context, pool_perf

from .models import CatalogDisk, PoolDesign
from .planning_presentation import iops_text, rate_text

SMALL_BLOCK = 8192  # random tests at or below this block size count as 4 KiB-class IOPS figures
LARGE_BLOCK = 128 * 1024  # sequential tests at or above this size give streaming figures


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


def run_figures(run_id: int, results: Iterable[BenchResult | Mapping[str, Any]]) -> DriveFigures:
    """Per-disk figures measured by one run: best 4 KiB-class random IOPS at depth 1 and at
    depth (the highest queue depth × threads it ran), best streaming bandwidth."""

    def get(r: Any, key: str) -> Any:
        return r.get(key) if isinstance(r, Mapping) else getattr(r, key)

    best: dict[str, float] = {}
    depth_of: dict[str, int] = {}
    for r in results:
        op, pattern, bs = get(r, "op"), get(r, "pattern"), get(r, "block_size_bytes")
        if op not in ("read", "write") or not bs:
            continue
        depth = (get(r, "queue_depth") or 1) * (get(r, "threads") or 1)
        iops, bw = get(r, "iops"), get(r, "bandwidth_bytes_per_s")
        if pattern == "random" and bs <= SMALL_BLOCK and iops:
            if depth == 1:
                key = f"random_{op}_iops_qd1"
                best[key] = max(best.get(key, 0.0), float(iops))
            key = f"random_{op}_iops"
            if depth >= depth_of.get(key, 0):
                best[key] = float(iops) if depth > depth_of.get(key, 0) else max(best[key], float(iops))
                depth_of[key] = depth
        elif pattern == "sequential" and bs >= LARGE_BLOCK and bw:
            key = f"seq_{op}_bytes_per_s"
            best[key] = max(best.get(key, 0.0), float(bw))
    return DriveFigures(**best, source=f"benchmark:{run_id}") if best else DriveFigures()


def _disk_runs(team_id: int | None, models: set[str], design: PoolDesign | None) -> dict[str, DriveFigures]:
    if not models or team_id is None:
        return {}
    runs = (
        BenchRun.objects.filter(
            team_id=team_id,
            catalog_disk__model__in=models,
            upload__status=UploadStatus.DONE,
            target_kind__in=[TargetKind.DISK, ""],
        )
        .select_related("catalog_disk")
        .prefetch_related("results")
        .order_by("-created", "-pk")
    )
    ordered = sorted(runs, key=lambda r: 0 if design is not None and r.design_id == design.pk else 1)
    out: dict[str, DriveFigures] = {}
    for run in ordered:
        model = run.catalog_disk.model
        figures = run_figures(run.pk, run.results.all())
        if figures.source:
            out[model] = out[model].over(figures) if model in out else figures
    return out


def _inputs(models: set[str], team_id: int | None, design: PoolDesign | None) -> PlanningInputs:
    catalog = {c.model: c for c in CatalogDisk.objects.filter(model__in=models)} if models else {}
    measured = _disk_runs(team_id, models, design)
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


def estimate_with_catalog(spec: Design) -> dict[str, Any]:
    """The estimate of a document that is not stored (``manage.py estimate``, ``POST /api/estimate/``),
    with the catalog's figures for the disk models it names."""
    return estimate(spec, catalog_inputs(spec))


def design_inputs(design: PoolDesign, spec: Design | None = None) -> PlanningInputs:
    """Catalog figures and the team's disk benchmarks for a stored design's disk models."""
    spec = spec or design.to_spec()
    return _inputs(_models(spec), design.team_id, design)


# --------------------------------------------------------------------------- predicted vs measured


@dataclass(frozen=True)
class Comparison:
    run_id: int
    run_label: str
    test: str
    op: str
    pattern: str
    block_size_bytes: int
    depth: int
    metric: str  # "iops" or "bandwidth"
    measured: float
    predicted: Prediction

    @property
    def predicted_low(self) -> float:
        r = self.predicted.iops if self.metric == "iops" else self.predicted.bandwidth_bytes_per_s
        return r.low

    @property
    def predicted_high(self) -> float:
        r = self.predicted.iops if self.metric == "iops" else self.predicted.bandwidth_bytes_per_s
        return r.high

    @property
    def predicted_middle(self) -> float:
        r = self.predicted.iops if self.metric == "iops" else self.predicted.bandwidth_bytes_per_s
        return r.middle

    @property
    def difference_percent(self) -> float | None:
        """Measured against the middle of the predicted range (geometric), in percent."""
        mid = self.predicted_middle
        return (self.measured - mid) / mid * 100 if mid > 0 else None

    @property
    def within_range(self) -> bool:
        return self.predicted_low <= self.measured <= self.predicted_high

    def _text(self, v: float) -> str:
        return f"{iops_text(v)} IOPS" if self.metric == "iops" else rate_text(v)

    @property
    def measured_text(self) -> str:
        return self._text(self.measured)

    @property
    def predicted_text(self) -> str:
        lo, hi = self._text(self.predicted_low), self._text(self.predicted_high)
        return lo if lo == hi else f"{lo} – {hi}"

    @property
    def difference_text(self) -> str:
        diff = self.difference_percent
        if diff is None:
            return "does not apply"
        where = "within the range" if self.within_range else "outside the range"
        return f"{diff:+.0f} % ({where})"

    def as_dict(self) -> dict[str, Any]:
        diff = self.difference_percent
        return {
            "run": self.run_id,
            "run_label": self.run_label,
            "test": self.test,
            "op": self.op,
            "pattern": self.pattern,
            "block_size_bytes": self.block_size_bytes,
            "depth": self.depth,
            "metric": self.metric,
            "measured": self.measured,
            "predicted_low": round(self.predicted_low, 1),
            "predicted_high": round(self.predicted_high, 1),
            "difference_percent": round(diff, 1) if diff is not None else None,
            "within_range": self.within_range,
            "basis": self.predicted.basis,
        }


def attached_runs(design: PoolDesign) -> list[BenchRun]:
    """Parsed runs attached to the design that measured more than one disk."""
    return list(
        BenchRun.objects.filter(design=design, upload__status=UploadStatus.DONE)
        .exclude(target_kind=TargetKind.DISK)
        .select_related("upload")
        .prefetch_related("results")
        .order_by("created", "pk")
    )


def _sync(run: BenchRun) -> bool:
    settings = run.settings if isinstance(run.settings, Mapping) else {}
    return settings.get("sync") == "always"


def compare_runs(perf: PoolPerf, runs: Sequence[BenchRun], metric: str | None = None) -> list[Comparison]:
    """Every result the model covers, against the prediction for the same shape.

    ``metric``: ``iops`` or ``bandwidth`` for all rows; by default IOPS for random tests
    and bandwidth for sequential ones (what each kind of test is usually read for).
    """
    out = []
    for run in runs:
        for r in run.results.all():
            if not r.block_size_bytes or r.pattern not in ("random", "sequential"):
                continue
            shape = BenchShape(
                op=r.op,
                pattern=r.pattern,
                block_size_bytes=r.block_size_bytes,
                queue_depth=r.queue_depth or 1,
                threads=r.threads or 1,
                sync=_sync(run),
            )
            p = predict(perf, shape)
            if p is None:
                continue
            m = metric or ("iops" if r.pattern == "random" else "bandwidth")
            measured = r.iops if m == "iops" else r.bandwidth_bytes_per_s
            if measured is None and m == "iops" and r.bandwidth_bytes_per_s:
                measured = r.bandwidth_bytes_per_s / r.block_size_bytes
            if measured is None and m == "bandwidth" and r.iops:
                measured = r.iops * r.block_size_bytes
            if measured is None:
                continue
            out.append(
                Comparison(
                    run.pk, run.display_label, r.name, r.op, r.pattern, r.block_size_bytes,
                    shape.queue_depth * shape.threads, m, float(measured), p,
                )
            )
    return out


def measured_vs_predicted(design: PoolDesign, metric: str | None = None) -> list[Comparison]:
    """The attached runs' results against the design's predicted ranges (``InvalidDesign`` if the
    stored design no longer parses)."""
    runs = attached_runs(design)
    if not runs:
        return []
    spec = design.to_spec()
    perf, _ = pool_perf(context(spec, design_inputs(design, spec)))
    return compare_runs(perf, runs, metric)


# --------------------------------------------------------------------------- advisor


def catalog_candidate(disk: CatalogDisk, count: int, price: float | None = None) -> advisor.Candidate:
    """A candidate from a catalog disk; ``price`` (the user's, in their currency) overrides the
    catalog's for this run and goes into the row's design document."""
    doc = disk.to_disk_document()
    if price is not None:
        return advisor.Candidate(doc, count, price, "", f"{disk.vendor} {disk.model}", price_typed=True)
    use = float(disk.price) if disk.price is not None else None
    return advisor.Candidate(doc, count, use, disk.price_currency, f"{disk.vendor} {disk.model}")


def run_advisor(
    candidates: Sequence[advisor.Candidate],
    needs: advisor.DataNeeds,
    options: advisor.Options | None = None,
    sort: str = "cost_per_usable_tb",
) -> list[advisor.Row]:
    """The advisor's rows for catalog and custom disks, with the catalog's figures for the catalog
    disks among them (``AdvisorError`` names a bad field)."""
    models = {str(c.disk["catalog"]) for c in candidates if c.disk.get("catalog")}
    return advisor.advise(candidates, needs, options, catalog_inputs_for_models(models), sort)
