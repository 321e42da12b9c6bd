"""The designer's fold of planning answers (special vdev size, reliability, performance) in real
Chromium: the same cards as the design page, in the reader's unit, and its charts fetched when the
fold is opened, not with every edit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.factories import PoolDesignFactory, design_document

from .browser import log_in, wide_context

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def test_the_fold_shows_the_cards_and_draws_its_charts_when_opened(browser, live_server, alice, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        context, page = wide_context(browser, live_server, width)
        log_in(page, alice)
        charts: list[str] = []
        page.on("request", lambda r: charts.append(r.url) if "/charts/special/" in r.url else None)
        page.goto(f"/designs/{design.pk}/designer/?unit=TB")
        page.wait_for_load_state("networkidle")
        fold = page.locator("#planning-answers")
        assert charts == []  # closed: nothing fetched
        fold.locator("summary").first.click()
        page.wait_for_selector("#planning-answers canvas[data-chart-state='ready']")
        assert len(charts) == 1
        recommended = page.locator("#special-recommended .value").inner_text()
        assert recommended.endswith(("GB", "MB", "TB")), recommended
        assert "does not apply" not in page.locator("#reliability").inner_text().lower()[:200]
        fold.screenshot(path=str(SHOTS / f"designer-planning-{width}.png"))
        assert page.js_errors == []
        context.close()


def test_the_reliability_table_reads_without_sideways_scrolling_on_a_phone(browser, live_server, alice, team):
    """At 390 px each vdev's row is a card, every figure under its label, nothing cut off."""
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    context, page = wide_context(browser, live_server, 390)
    log_in(page, alice)
    page.goto(f"/designs/{design.pk}/")
    table = page.locator("table.reliability-vdevs")
    box = table.locator("xpath=..")  # its scroll container
    assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0
    shown = table.locator("tbody tr").first.locator("td").evaluate_all(
        "els => els.map(e => getComputedStyle(e, '::before').content)"
    )
    assert '"rebuild of one disk"' in shown and '"lose some data in 5 years"' in shown  # each figure under its label
    context.close()
