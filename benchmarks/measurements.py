"""What the planning pages read of benchmark runs, handed to plans through its registry.

``plans`` never imports this app (``.importlinter``: "benchmarks uses plans, never the other way
round"): a run belongs to a design and names a catalog disk, so this app sits above ``plans``.
``BenchmarksConfig.ready()`` registers :data:`SOURCE` with
``zfsplanner.plans.services.measurements`` and connects the runs' saves to the plans' cache stamp:

* ``run_figures(run_id, results)`` / ``disk_figures``: the per-disk figures a run of a disk model
  measured (target "disk", parsed, of the design's team); they win over the catalog's, with the
  run id as their source. Runs attached to the design come first, then the team's newest.
* ``measured_vs_predicted(design)``: each result of the runs attached to the design (any
  target but a single disk) next to the pool's predicted range for the same test shape, with
  the difference in percent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zfsplanner.core.design.planning import DriveFigures
from zfsplanner.core.planning.context import context
from zfsplanner.core.planning.performance import BenchShape, PoolPerf, Prediction, predict
from zfsplanner.core.planning.sections import pool_perf
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.presentation.planning import iops_text, rate_text
from zfsplanner.plans.services.disk_inputs import design_inputs

from .models import BenchResult, BenchRun, TargetKind, UploadStatus

SMALL_BLOCK = 8192  # random tests at or below this block size count as 4 KiB-class IOPS figures
LARGE_BLOCK = 128 * 1024  # sequential tests at or above this size give streaming figures


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


def disk_figures(team_id: int, models: set[str], design_id: int | None) -> dict[str, DriveFigures]:
    """Measured figures per disk model: the design's own runs first, then the team's newest."""
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
    ordered = sorted(runs, key=lambda r: 0 if design_id is not None and r.design_id == design_id else 1)
    out: dict[str, DriveFigures] = {}
    for run in ordered:
        model = run.catalog_disk.model
        figures = run_figures(run.pk, run.results.all())
        if figures.source:
            out[model] = out[model].over(figures) if model in out else figures
    return out


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



class _Source:
    """The plans' ``MeasurementSource``: this module's two readers."""

    def disk_figures(self, team_id: int, models: set[str], design_id: int | None) -> Mapping[str, DriveFigures]:
        return disk_figures(team_id, models, design_id)

    def comparisons(self, design: PoolDesign, metric: str | None) -> Sequence[Comparison]:
        return measured_vs_predicted(design, metric)


SOURCE = _Source()
