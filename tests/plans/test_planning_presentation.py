"""Plain-language figures of the planning partials."""

from __future__ import annotations

from dataclasses import replace

from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.plans.presentation.planning import (
    duration_text,
    odds_text,
    planning_view,
    probability_text,
    years_text,
)


def test_probabilities_read_as_odds():
    assert probability_text(0.21) == "21 %"
    assert probability_text(4.3e-4) == "0.043 % (1 in 2,300)"
    assert probability_text(2.4e-12) == "1 in 4.2 × 10¹¹"
    assert probability_text(0.999) == "almost certain"
    assert probability_text(None) == "does not apply"
    assert odds_text(4.3e-4) == "1 in 2,300" and odds_text(0.5) == "50 %"


def test_durations_and_years():
    assert duration_text(41) == "41 s"
    assert duration_text(3000) == "50 min"
    assert duration_text(9 * 3600) == "9.0 h"
    assert duration_text(30 * 3600) == "30 h"
    assert duration_text(5 * 86400) == "5.0 days"
    assert duration_text(None) == "does not apply"
    assert years_text(8766 * 5.5) == "5.5 years" and years_text(8766 * 2e7) == "2.0 × 10⁷ years"


def test_the_view_of_an_estimate():
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "count": 2,
                                       "disk": {"size_bytes": "8TB", "media": "hdd"}}],
           "datasets": [{"name": "tank/a", "contents": {"logical_bytes": 10**12, "file_count": 10_000}}]}
    view = planning_view(estimate(parse_design(doc)))
    assert view.special is not None and view.special.hypothetical and view.special.class_size is None
    assert view.reliability is not None and [v.survives for v in view.reliability.vdevs] == [1]
    assert view.performance is not None and not view.performance.has_slog
    assert view.performance.sync_with_slog == "does not apply"
    assert view.sizing is not None and view.sizing.ddt is None and view.sizing.l2arc_headers is None


def test_planning_sizes_follow_the_page_unit():
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "count": 1,
                                       "disk": {"size_bytes": "8TB", "media": "hdd"}}]}
    est = estimate(parse_design(doc))
    slog = replace(est.sizing.slog, recommended_bytes=6 * 10**9, cap_bytes=8 * 2**30)
    est = replace(est, sizing=replace(est.sizing, slog=slog))
    assert planning_view(est).sizing.slog_recommended.text == "5.59 GiB"
    assert planning_view(est, "TB").sizing.slog_recommended.text == "6.00 GB"
