"""A pool being expanded with a dedup dataset: the design page shows USED before and after the
expansion and the dedup table on disk and in RAM, and fits a 390 px screen."""

from __future__ import annotations

import os

from tests.factories import PoolDesignFactory
from tests.plans.test_expansion_dedup_pages import document

SHOTS = os.environ.get("ZFSPLANNER_SCREENSHOTS")


def test_expansion_and_dedup_on_the_design_page(page, login, bob, team):
    design = PoolDesignFactory(team=team, name="tank", document=document())
    login(bob)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/designs/{design.pk}/")
        page.wait_for_load_state("networkidle")
        card = page.locator("#dedup-table")
        card.scroll_into_view_if_needed()
        assert "in RAM" in card.inner_text() and "the dedup mirror (group 2)" in card.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if SHOTS:
            card.screenshot(path=f"{SHOTS}/dedup-{width}.png")
        page.get_by_text("RAIDZ expansion of vdev group 1: 4 → 6 disks").click()
        row = page.get_by_text("Dataset tank/data: data written before").first
        row.scroll_into_view_if_needed()
        assert row.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/expansion-{width}.png")
