"""Spread of repeated figures (core/measurement/spread), checked by hand."""

from __future__ import annotations

import pytest

from zfsplanner.core.measurement.spread import Verdict, spread, verdict


def test_three_repeats():
    s = spread([100.0, 110.0, 90.0])
    assert (s.n, s.mean, s.low, s.high) == (3, 100.0, 90.0, 110.0)
    assert s.cv == pytest.approx(0.1)  # sample stdev 10 over mean 100
    assert s.covers(95.0) and not s.covers(111.0)


def test_one_value_has_no_variation():
    s = spread([42.0])
    assert (s.mean, s.low, s.high, s.cv) == (42.0, 42.0, 42.0, None)


def test_no_value_is_an_error():
    with pytest.raises(ValueError):
        spread([])


def test_a_value_outside_the_repeats_range_is_a_change():
    before = spread([100.0, 110.0, 90.0])
    assert verdict(before, 105.0, higher_is_better=True) is None
    assert verdict(before, 80.0, higher_is_better=True) is Verdict.REGRESSION
    assert verdict(before, 120.0, higher_is_better=True) is Verdict.IMPROVEMENT
    # latency: lower is better
    assert verdict(before, 80.0, higher_is_better=False) is Verdict.IMPROVEMENT
