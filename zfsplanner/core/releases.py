"""The releases the pages offer, and the tables of rules by release that ``docs/capacity.md`` prints.

Both are read off :data:`.versions.FEATURES`: releases whose modelled rules are the same give the
same figures, so the pages offer one release for each run of them (:data:`OFFERED`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .versions import DISTRIBUTION_RELEASES, FEATURES, RELEASES, SERIES, Version


def feature_table_markdown() -> str:
    """The per-version table of ``docs/capacity.md``: series by series, what each rule is."""
    names = list(SERIES)
    head = "| rule | " + " | ".join(f"{n} ({SERIES[n].release})" for n in names) + " | since (commit, pull request) |"
    sep = "|---|" + "---|" * len(names) + "---|"
    rows = [head, sep]
    for f in FEATURES.values():
        marks = ["yes" if f.in_version(SERIES[s].release) else "no" for s in names]
        since = str(f.since) if f.backport is None else f"{f.since} (and {f.backport})"
        rows.append(f"| {f.what} | " + " | ".join(marks) + f" | {since}: {f.source} |")
    return "\n".join(rows)


def point_release_table_markdown() -> str:
    """The rules that changed at a point release (x.y.z, z > 0), newest first, for ``docs/capacity.md``."""
    rows = [
        "| release | rule | commit, pull request | effect | modelled |",
        "|---|---|---|---|---|",
    ]
    changed = [f for f in FEATURES.values() if f.since.patch or (f.backport is not None and f.backport.patch)]
    for f in sorted(changed, key=lambda f: f.since, reverse=True):
        releases = ", ".join(str(v) for v in (f.since, f.backport) if v is not None)
        rows.append(
            f"| {releases} | {f.what} | {f.source} | {f.effect or f.what} | {'yes' if f.modelled else 'no'} |"
        )
    return "\n".join(rows)


@dataclass(frozen=True)
class Offer:
    """A release the pages offer: it models like every release from ``first`` to ``last``."""

    release: Version
    first: Version
    last: Version
    shipped_by: str | None = None

    @property
    def name(self) -> str:
        return str(self.release)

    @property
    def label(self) -> str:
        span = str(self.first) if self.first == self.last else f"{self.first}\u2013{self.last}"
        extra = f", {self.shipped_by}" if self.shipped_by else ""
        return f"OpenZFS {self.release}" + (f" (as {span}{extra})" if span != self.name or extra else "")


def _fingerprint(v: Version) -> tuple[bool, ...]:
    """Which modelled rules ``v`` has: releases with the same fingerprint give the same figures."""
    return tuple(f.in_version(v) for f in FEATURES.values() if f.modelled)


def _offers() -> tuple[Offer, ...]:
    out: list[Offer] = []
    for series in SERIES.values():
        runs: list[list[Version]] = []
        for v in (r for r in RELEASES if r.series == series.name):
            if runs and _fingerprint(runs[-1][-1]) == _fingerprint(v):
                runs[-1].append(v)
            else:
                runs.append([v])
        for run in runs:
            shipped = [v for v in run if v in DISTRIBUTION_RELEASES]
            chosen = series.release if series.release in run else (shipped[0] if shipped else run[-1])
            out.append(Offer(chosen, run[0], run[-1], DISTRIBUTION_RELEASES.get(chosen)))
    return tuple(sorted(out, key=lambda o: o.release, reverse=True))


# The releases whose figures differ, newest first: one per run of releases that model alike,
# represented by the series' own release, else a distribution's, else the run's newest.
OFFERED: tuple[Offer, ...] = _offers()


def offered_for(v: Version) -> Offer:
    """The offer that models like ``v`` (a series' release or a known release)."""
    return next(o for o in OFFERED if o.first <= v <= o.last)
