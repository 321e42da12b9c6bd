"""The spread of one figure across repeats of a measurement: mean, min–max and coefficient of variation."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class Spread:
    """``n`` values: their mean, lowest and highest, and the coefficient of variation (the sample
    standard deviation over the mean; None for a single value or a mean of zero)."""

    n: int
    mean: float
    low: float
    high: float
    cv: float | None

    def covers(self, value: float) -> bool:
        """Is ``value`` within the repeats' range (min–max)?"""
        return self.low <= value <= self.high


def spread(values: Sequence[float]) -> Spread:
    """The spread of ``values`` (at least one). The standard deviation is the sample one (n − 1), as
    the Phoronix Test Suite and fio's own ``stdev`` report it for repeated runs."""
    if not values:
        raise ValueError("a spread needs at least one value")
    mean = statistics.fmean(values)
    cv = statistics.stdev(values) / mean if len(values) > 1 and mean else None
    return Spread(n=len(values), mean=mean, low=min(values), high=max(values), cv=cv)


class Verdict(StrEnum):
    REGRESSION = "regression"
    IMPROVEMENT = "improvement"


def verdict(before: Spread, value: float, higher_is_better: bool) -> Verdict | None:
    """A figure measured again: outside the earlier repeats' range (min–max) it is a regression or an
    improvement, inside it is within their spread (None)."""
    if before.covers(value):
        return None
    better = value > before.high if higher_is_better else value < before.low
    return Verdict.IMPROVEMENT if better else Verdict.REGRESSION
