"""Repeats: runs of the same tests on the same target, each figure's mean, spread and CV (page and API).
Three real GNU dd 9.1 sessions (de_DE, fr_FR, nl_NL: the same four runs, measured three times)."""

from __future__ import annotations

import statistics

import pytest

from benchmarks.repeats import repeats_of
from benchmarks.tasks import parse_upload_task
from tests.conftest import SAMPLES
from tests.factories import BenchRunFactory
from tests.parsers.golden import parsed, result_by_name

SESSIONS = [SAMPLES / "dd" / f"generated_gnu-dd-9.1_{lang}.log" for lang in ("de_DE", "fr_FR", "nl_NL")]
OTHER = SAMPLES / "dd" / "generated_gnu-dd-9.1_C.log"


def _run(team, path, target="tank/bench", settings=None):
    run = BenchRunFactory(
        upload__team=team,
        upload__data=path.read_bytes(),
        upload__original_name=path.name,
        target=target,
        settings=settings or {},
    )
    parse_upload_task(run.upload.pk)
    run.refresh_from_db()
    run.upload.refresh_from_db()
    return run


@pytest.mark.django_db
def test_runs_of_the_same_tests_on_the_same_target_are_repeats(team):
    runs = [_run(team, p) for p in SESSIONS]
    elsewhere = _run(team, OTHER, target="tank/other")
    assert [r.pk for r in repeats_of(runs[1])] == [r.pk for r in runs]
    assert repeats_of(elsewhere) == [elsewhere]


@pytest.mark.django_db
def test_the_api_gives_each_figures_mean_spread_and_cv(team, alice, client_for):
    runs = [_run(team, p) for p in SESSIONS]
    body = client_for(alice).get(f"/api/benchmarks/{runs[0].pk}/").json()
    assert body["repeats"]["runs"] == [r.pk for r in runs]
    [bw] = [
        f
        for f in body["repeats"]["figures"]
        if f["test"] == "SEQ1M Q1T1 write" and f["figure"] == "bandwidth_bytes_per_s"
    ]
    values = [result_by_name(parsed(p), "SEQ1M Q1T1 write")["bandwidth_bytes_per_s"] for p in SESSIONS]
    assert bw["n"] == 3
    assert bw["mean"] == pytest.approx(statistics.fmean(values))
    assert (bw["min"], bw["max"]) == (min(values), max(values))
    assert bw["cv"] == pytest.approx(statistics.stdev(values) / statistics.fmean(values))
    assert "single-run" not in [v["code"] for v in body["validity"]]


@pytest.mark.django_db
def test_a_lone_run_has_no_spread(team, alice, client_for):
    run = _run(team, OTHER)
    body = client_for(alice).get(f"/api/benchmarks/{run.pk}/").json()
    assert body["repeats"] == {"runs": [run.pk], "figures": []}


@pytest.mark.django_db
def test_the_run_page_shows_the_spread(team, alice, web):
    runs = [_run(team, p) for p in SESSIONS]
    page = web(alice).get(f"/benchmarks/{runs[1].pk}/").content.decode()
    assert 'id="run-repeats"' in page and "3 repeats of these tests" in page
    assert f"#{runs[1].pk} (this run)" in page
    assert "Spread (min–max)" in page


def _changed(team):
    """Three repeats with sync=standard, then the same tests with sync=disabled (dd 9.1 in C)."""
    runs = [_run(team, p, settings={"sync": "standard"}) for p in SESSIONS]
    return runs, _run(team, OTHER, settings={"sync": "disabled"})


@pytest.mark.django_db
def test_a_run_with_other_settings_is_not_a_repeat(team):
    runs, changed = _changed(team)
    assert repeats_of(changed) == [changed]
    assert [r.pk for r in repeats_of(runs[0])] == [r.pk for r in runs]


@pytest.mark.django_db
def test_a_figure_outside_the_earlier_spread_is_flagged_with_the_settings_that_differ(team, alice, client_for):
    runs, changed = _changed(team)
    body = client_for(alice).get(f"/api/benchmarks/{changed.pk}/").json()["changes"]
    assert body["against"] == [r.pk for r in runs]
    assert body["settings_differ"] == [{"setting": "sync", "before": "standard", "after": "disabled"}]
    verdicts = {(f["test"], f["figure"]): f["verdict"] for f in body["figures"]}
    # SEQ1M write: 2058 MB/s above the repeats' 1850–2012 MB/s; SEQ64K write: 184 MB/s below 291–303 MB/s
    assert verdicts[("SEQ1M Q1T1 write", "bandwidth_bytes_per_s")] == "improvement"
    assert verdicts[("SEQ64K Q1T1 write", "bandwidth_bytes_per_s")] == "regression"
    # the read (20665 MB/s) lies within 19970–20801 MB/s: no change
    assert ("SEQ1M Q1T1 read", "bandwidth_bytes_per_s") not in verdicts
    for f in body["figures"]:
        assert not f["before_min"] <= f["value"] <= f["before_max"]
    # the earlier runs have nothing before them
    assert client_for(alice).get(f"/api/benchmarks/{runs[2].pk}/").json()["changes"] is None


@pytest.mark.django_db
def test_the_run_page_lists_the_changes(team, alice, web):
    _, changed = _changed(team)
    page = web(alice).get(f"/benchmarks/{changed.pk}/").content.decode()
    assert 'id="run-changes"' in page and 'id="settings-differ"' in page
    assert 'data-verdict="regression"' in page and 'data-verdict="improvement"' in page
