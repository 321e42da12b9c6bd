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


def test_the_dataset_form_takes_the_dedup_ratio_where_dedup_is_on(page, login, alice, team):
    """The designer offers what was written before the expansion on an expanded pool and the dedup ratio on
    the dataset with dedup, and the pool's fast dedup with the release's default; the forms fit 390 px,
    and a ratio typed there is saved."""
    design = PoolDesignFactory(team=team, name="tank", document=document())
    login(alice)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/designs/{design.pk}/designer/")
        page.locator(".dataset-row[data-index='1'] details.row-edit > summary").click()
        ratio = page.locator("#id_d1-dedup_ratio")
        ratio.wait_for()
        assert page.locator("#id_d1-written_before").is_visible()
        form = page.locator(".dataset-row[data-index='1'] form.dataset-form")
        form.scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if SHOTS:
            form.screenshot(path=f"{SHOTS}/dataset-form-{width}.png")
        page.click("#pool-settings summary")
        fast = page.locator("#id_fast_dedup")
        assert fast.locator("option:checked").inner_text() == "on (default of 2.3)"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if SHOTS:
            page.locator("#pool-settings").screenshot(path=f"{SHOTS}/pool-form-{width}.png")
    page.fill("#id_d1-dedup_ratio", "2")
    page.locator(".dataset-row[data-index='1'] button.save-dataset").click()
    page.wait_for_selector("#revision:has-text('revision 2')")
    design.refresh_from_db()
    assert design.to_document()["datasets"][1]["contents"]["dedup_ratio"] == 2.0
    assert not page.js_errors
