"""The Content-Security-Policy in a real browser: every page works with only the app's own
scripts and styles, and Chromium reports no blocked script, style or connection."""

from __future__ import annotations

import pytest

from tests.factories import BenchResultFactory, PoolDesignFactory, design_document
from zfsplanner.plans.services import create_share_link


@pytest.fixture
def violations(page):
    found: list[str] = []

    def record(msg):
        if "Content Security Policy" in msg.text or "Refused to" in msg.text:
            found.append(f"{page.url} -> {msg.location.get('url')}:{msg.location.get('lineNumber')}: {msg.text}")

    page.on("console", record)
    return found


def test_the_pages_run_under_the_policy_without_a_single_violation(
    page, login, alice, team, violations, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    run = BenchResultFactory(run__upload__team=team, run__upload__status="done").run
    link = create_share_link(design, alice)
    login(alice)
    for url, ready in [
        ("/", "table.designs"),
        (f"/designs/{design.pk}/", "#results"),
        (f"/designs/{design.pk}/designer/", "body"),
        ("/benchmarks/", "body"),
        (f"/benchmarks/{run.pk}/", "body"),
        (f"/benchmarks/compare/?runs={run.pk}", "body"),
        ("/teams/", "body"),
        ("/api/docs/", ".swagger-ui .info"),
        (f"/share/{link.token}/", "body"),
    ]:
        response = page.goto(url)
        assert "script-src 'self'" in response.headers["content-security-policy"], url
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
    assert violations == [], "\n".join(violations)
    assert page.js_errors == []


def test_charts_draw_under_the_policy(page, login, alice, team, violations):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    login(alice)
    page.goto(f"/designs/{design.pk}/")
    page.wait_for_load_state("networkidle")
    canvas = page.locator("canvas[data-chart-url]").first
    canvas.wait_for()
    drawn = page.evaluate(
        "() => Array.from(document.querySelectorAll('canvas[data-chart-url]'))"
        ".some(c => window.Chart && Chart.getChart(c))"
    )
    assert drawn
    assert violations == [], "\n".join(violations)
