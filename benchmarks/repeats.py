"""Repeats of one measurement: the runs of the same job set on the same target, and the spread of
each figure across them (mean, min–max, coefficient of variation: :mod:`zfsplanner.core.measurement.spread`).

Runs are repeats when they belong to one team, were read from logs of the same tool, measured the
same target (target kind and name, design, catalog disk) and ran the same tests (their result
names, repeats inside one log counted once). A figure's spread is taken over the runs that have it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zfsplanner.core.measurement.spread import Spread, spread

from .models import PARSED_STATUSES, BenchRun

REPEAT_SUFFIX = re.compile(r" #\d+$")
# The figures whose spread is shown: (result field, name in words).
SPREAD_FIELDS = (
    ("bandwidth_bytes_per_s", "bandwidth"),
    ("iops", "IOPS"),
    ("latency_mean_us", "mean latency"),
)


@dataclass(frozen=True)
class RepeatFigure:
    """One figure of one test across the repeats."""

    test: str
    field: str
    label: str
    spread: Spread


def job_set(names: Iterable[str]) -> frozenset[str]:
    """The tests a run ran, repeats inside one log counted once (``SEQ1M Q1T1 write #2``)."""
    return frozenset(REPEAT_SUFFIX.sub("", n) for n in names)


def repeats_of(run: BenchRun) -> list[BenchRun]:
    """The parsed runs of the run's team with the same tool, target and job set, this one included,
    oldest first: the repeats of one measurement."""
    if not run.is_parsed:
        return [run]
    mine = job_set(r.name for r in run.results.all())
    same = (
        BenchRun.objects.filter(
            team_id=run.team_id,
            tool=run.tool,
            target_kind=run.target_kind,
            target=run.target,
            design_id=run.design_id,
            catalog_disk_id=run.catalog_disk_id,
            upload__status__in=PARSED_STATUSES,
        )
        .prefetch_related("results")
        .order_by("created", "pk")
    )
    return [r for r in same if r.pk == run.pk or job_set(x.name for x in r.results.all()) == mine]


def repeat_figures(runs: Sequence[BenchRun]) -> list[RepeatFigure]:
    """Each test's figures across ``runs``, in the first run's test order (tests whose figure only
    one run has are left out: there is no spread)."""
    values: dict[tuple[str, str], list[float]] = {}
    order: list[str] = []
    for run in runs:
        for r in run.results.all():
            if r.name not in order:
                order.append(r.name)
            for field, _ in SPREAD_FIELDS:
                v = getattr(r, field)
                if v is not None:
                    values.setdefault((r.name, field), []).append(float(v))
    out = []
    for test in order:
        for field, label in SPREAD_FIELDS:
            vs = values.get((test, field), [])
            if len(vs) > 1:
                out.append(RepeatFigure(test, field, label, spread(vs)))
    return out
