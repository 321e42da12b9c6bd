"""Repeats of one measurement: the runs of the same job set on the same target, and the spread of
each figure across them (mean, min–max, coefficient of variation: :mod:`zfsplanner.core.measurement.spread`).

Runs are comparable when they belong to one team, were read from logs of the same tool, measured
the same target (target kind and name, design, catalog disk) and ran the same tests (their result
names, repeats inside one log counted once); comparable runs with the same settings are repeats. A
figure's spread is taken over the runs that have it.

Over time (:func:`changes_of`), a run's repeats are compared with the repeats before them (the
latest earlier group of comparable runs): a figure outside the earlier spread is a regression or
an improvement (:func:`zfsplanner.core.measurement.spread.verdict`), listed with the settings that
differ between the two groups.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zfsplanner.core.measurement.spread import Spread, Verdict, spread, verdict

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


def comparable_runs(run: BenchRun) -> list[BenchRun]:
    """The parsed runs of the run's team with the same tool, target and job set (any settings), this
    one included, oldest first."""
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


def repeats_of(run: BenchRun, comparable: list[BenchRun] | None = None) -> list[BenchRun]:
    """The runs of :func:`comparable_runs` (given, or read) with the run's own settings: the repeats
    of one measurement."""
    runs = comparable if comparable is not None else comparable_runs(run)
    return [r for r in runs if r.pk == run.pk or (r.settings or {}) == (run.settings or {})]


@dataclass(frozen=True)
class Change:
    """One figure measured again: the earlier repeats' spread, this group's value (its mean), the verdict."""

    test: str
    field: str
    label: str
    before: Spread
    value: float
    verdict: Verdict

    @property
    def percent(self) -> float:
        return (self.value / self.before.mean - 1) * 100 if self.before.mean else 0.0


@dataclass(frozen=True)
class Changes:
    """What changed between the earlier repeats (``against``) and this run's repeats."""

    against: list[BenchRun]
    settings_differ: list[tuple[str, str, str]]  # (setting, before, after)
    figures: list[Change]


HIGHER_IS_BETTER = {"bandwidth_bytes_per_s": True, "iops": True, "latency_mean_us": False}


def changes_of(run: BenchRun, comparable: list[BenchRun] | None = None) -> Changes | None:
    """This run's repeats against the latest earlier group of comparable runs (given, or read)
    measured before them; None when there is no earlier group."""
    runs = comparable if comparable is not None else comparable_runs(run)
    mine = repeats_of(run, runs)
    mine_ids = {r.pk for r in mine}
    first = mine[0]
    earlier = [r for r in runs if r.pk not in mine_ids and (r.created, r.pk) < (first.created, first.pk)]
    if not earlier:
        return None
    latest = earlier[-1]
    against = [r for r in earlier if (r.settings or {}) == (latest.settings or {})]
    before = {(f.test, f.field): f.spread for f in _figures(against)}
    now = {(f.test, f.field): f.spread for f in _figures(mine)}
    figures = []
    for (test, field), spread_before in before.items():
        current = now.get((test, field))
        if current is None:
            continue
        v = verdict(spread_before, current.mean, HIGHER_IS_BETTER[field])
        if v is not None:
            label = dict(SPREAD_FIELDS)[field]
            figures.append(Change(test, field, label, spread_before, current.mean, v))
    return Changes(against, settings_diff(latest.short_settings, run.short_settings), figures)


def settings_diff(before: list[tuple[str, str]], after: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """The settings that differ between two runs, as (name, before, after); "not set" for a missing one."""
    b, a = dict(before), dict(after)
    names = list(dict.fromkeys([*b, *a]))
    return [(n, b.get(n, "not set"), a.get(n, "not set")) for n in names if b.get(n) != a.get(n)]


def repeat_figures(runs: Sequence[BenchRun]) -> list[RepeatFigure]:
    """Each test's figures across ``runs``, in the first run's test order (tests whose figure only
    one run has are left out: there is no spread)."""
    return [f for f in _figures(runs) if f.spread.n > 1]


def _figures(runs: Sequence[BenchRun]) -> list[RepeatFigure]:
    """Each test's figures across ``runs`` (one value or more), in the first run's test order."""
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
            if vs:
                out.append(RepeatFigure(test, field, label, spread(vs)))
    return out
