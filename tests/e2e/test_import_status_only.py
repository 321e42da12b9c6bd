"""Paste only ``zpool status``, answer the size question, see the design: in a real browser, wide and narrow."""

from __future__ import annotations

import os

import pytest

from tests.core.import_samples import text
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SCREENSHOT_DIR")  # set it to keep the screenshots


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [1366, 390])
def test_paste_only_zpool_status_answer_the_sizes_and_save(page, login, erin, team, width):
    page.set_viewport_size({"width": width, "height": 900})
    login(erin)
    page.goto("/imports/pool/")
    assert "Only zpool status POOL is needed." in page.locator("#which-commands").inner_text()
    assert no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/import-new-{width}.png", full_page=True)
    page.fill("#id_text", text("manpage-zpool8-example15.txt"))
    page.click("#import-button")
    page.wait_for_selector("#size-questions")
    assert "Size of each data disk" in page.locator("#question-q1 legend").inner_text()
    assert page.locator("#save-import-form").count() == 0
    assert no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/import-questions-{width}.png", full_page=True)
    page.fill("#id_size-q1", "16 XB")
    page.fill("#id_size-q2", "16 GB")
    page.click("#answer-sizes")
    assert "'16 XB' is not a size" in page.locator("#size-questions .error").inner_text()
    page.select_option("#id_catalog-q1", "ST16000NM001G")
    page.click("#answer-sizes")
    page.wait_for_selector("#save-import-form")
    assert page.locator("#size-questions").count() == 0
    assert "ST16000NM001G" in page.locator("table.vdevs").inner_text()
    assert no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/import-answered-{width}.png", full_page=True)
    page.select_option("#id_team", str(team.pk))
    page.click("#save-import")
    page.wait_for_url("**/designs/*/")
    design = PoolDesign.objects.get(name="tank")
    assert [v.role for v in design.vdevs.all()] == ["data", "log"]
    assert design.vdevs.first().catalog_disk.model == "ST16000NM001G"
    assert page.js_errors == []
