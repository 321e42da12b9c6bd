"""The pages as someone who knows ZFS reads them, in real Chromium at 1366 and 390 px: the commands
one top-level vdev per line and inside their box, the copy button copying them as shown; switching
the layout to mirror keeps the disks (2-way mirrors), in the quick planner and in the designer.

Screenshots go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign

from .browser import log_in, wait_processed, wide_context

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
REFERENCE = "layout=raidz2&disks=8&vdevs=1&size=16TB&special=1TB&slog=16GB&recordsize=1M&compression=zstd&data=20TB"
REFERENCE_DESIGN = Path(__file__).resolve().parents[1] / "core" / "golden" / "designs" / "raidz2-8x16-reference.json"
COMMANDS = "[data-commands]"


def commands_fit(page) -> dict:
    """The commands block's own overflow, the page's sideways scroll and the text the block shows."""
    page.wait_for_selector(COMMANDS)
    return page.evaluate(
        """(sel) => { const el = document.querySelector(sel);
           return {overflow: el.scrollWidth - el.clientWidth,
                   right: el.getBoundingClientRect().right - document.documentElement.clientWidth,
                   page: document.documentElement.scrollWidth - window.innerWidth,
                   text: el.innerText}; }""",
        COMMANDS,
    )


def assert_expert_lines(text: str) -> None:
    lines = text.split("\n")
    create = next(i for i, line in enumerate(lines) if line.startswith("zpool create"))
    assert lines[create].endswith(" tank \\")
    assert lines[create + 1].startswith("  raidz2 ") and lines[create + 1].endswith(" \\")
    assert lines[create + 2].startswith("  special mirror ") and lines[create + 2].endswith(" \\")
    assert lines[create + 3].startswith("  log mirror ") and not lines[create + 3].endswith("\\")


@pytest.mark.parametrize("width", [390, 1366])
def test_the_quick_planner_commands_are_one_vdev_a_line_inside_their_box(browser, live_server, width):
    context, page = wide_context(browser, live_server, width)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/plan/?{REFERENCE}")
    fit = commands_fit(page)
    assert fit["overflow"] <= 0 and fit["right"] <= 0 and fit["page"] <= 0, fit
    assert_expert_lines(fit["text"])
    page.click("#commands .copy-button")
    page.wait_for_selector("#commands .copy-button:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == fit["text"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#commands").screenshot(path=str(SHOTS / f"quick-plan-commands-{width}.png"))
    assert page.js_errors == []
    context.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_the_design_page_commands_are_one_vdev_a_line_inside_their_box(browser, live_server, alice, team, width):
    design = PoolDesignFactory(team=team, name="tank", document=json.loads(REFERENCE_DESIGN.read_text()))
    context, page = wide_context(browser, live_server, width)
    log_in(page, alice)
    page.goto(f"/designs/{design.pk}/")
    fit = commands_fit(page)
    assert fit["overflow"] <= 0 and fit["right"] <= 0 and fit["page"] <= 0, fit
    assert_expert_lines(fit["text"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#commands").screenshot(path=str(SHOTS / f"design-commands-{width}.png"))
    page.screenshot(path=str(SHOTS / f"design-page-{width}.png"), full_page=True)
    assert page.js_errors == []
    context.close()


def test_switching_the_quick_planner_to_mirror_gives_2_way_mirrors_of_the_same_disks(browser, live_server):
    context, page = wide_context(browser, live_server, 390)
    page.goto("/plan/?layout=raidz2&disks=6&vdevs=1&size=16TB")
    page.wait_for_load_state("networkidle")
    page.select_option("#id_layout", "mirror")
    page.wait_for_function("document.querySelector('#id_disks').value === '2'")
    assert page.input_value("#id_vdevs") == "3"
    page.wait_for_function("location.search.includes('disks=2') && location.search.includes('vdevs=3')")
    assert "3 × 2-way mirror" in page.locator(".quick-pool").inner_text()
    assert page.locator("[data-code=wide-mirror]").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "quick-plan-mirror-390.png"), full_page=True)
    # and back: one raidz2 of the same 6 disks, from the layout the page now shows
    page.select_option("#id_layout", "raidz2")
    page.wait_for_function("document.querySelector('#id_disks').value === '6'")
    assert page.input_value("#id_vdevs") == "1"
    assert page.js_errors == []
    context.close()


def test_switching_a_designer_group_to_mirror_gives_2_way_mirrors_of_the_same_disks(browser, live_server, alice, team):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    context, page = wide_context(browser, live_server, 1366)
    log_in(page, alice)
    page.goto(f"/designs/{design.pk}/designer/")
    page.click(".vdev-row[data-index='0'] details.row-edit > summary")
    wait_processed(page, "select[name=v0-layout]")
    page.select_option("select[name=v0-layout]", "mirror")
    page.wait_for_function("document.querySelector('input[name=v0-width]').value === '2'")
    assert page.input_value("input[name=v0-count]") == "3"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".vdev-row[data-index='0']").screenshot(path=str(SHOTS / "designer-mirror-switch-1366.png"))
    page.click(".vdev-row[data-index='0'] button.save-vdev")
    page.wait_for_selector("#revision:has-text('revision 2')")
    group = PoolDesign.objects.get(pk=design.pk).to_document()["vdevs"][0]
    assert (group["layout"], group["width"], group["count"]) == ("mirror", 2, 3)
    assert page.js_errors == []
    context.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_the_breakdown_puts_the_copies_under_redundancy_and_the_sizing_asks_for_data(
    browser, live_server, alice, team, width
):
    doc = json.loads(REFERENCE_DESIGN.read_text())
    no_data = {**doc, "name": "bare", "datasets": [{"name": "bare/media", "recordsize": "1M"}]}
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    bare = PoolDesignFactory(team=team, name="bare", document=no_data)
    context, page = wide_context(browser, live_server, width)
    log_in(page, alice)
    page.goto(f"/designs/{design.pk}/")
    page.click("figure.breakdown details > summary")
    rows = page.locator("table.segments tr[data-category=redundancy] th").all_inner_texts()
    assert any(r.startswith("Mirror copies: the special mirror (group 2)") for r in rows), rows
    layout = page.locator("tr[data-segment=layout] td").inner_text()
    assert "GiB" in layout or "MiB" in layout  # a sliver of the raw disks, not the copies
    page.wait_for_function("document.querySelectorAll('#special-sizing canvas').length > 0")
    page.wait_for_load_state("networkidle")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#summary").screenshot(path=str(SHOTS / f"design-breakdown-{width}.png"))
    page.locator("#special-sizing").screenshot(path=str(SHOTS / f"design-special-sizing-{width}.png"))
    page.goto(f"/designs/{bare.pk}/")
    shown = page.locator("#special-recommended").inner_text()
    assert "Needs the data to store" in shown
    page.locator("#special-sizing .figures").screenshot(path=str(SHOTS / f"design-special-needs-data-{width}.png"))
    page.click("#special-recommended a.needs-data-link")
    page.wait_for_url(f"**/designs/{bare.pk}/designer/?edit=datasets-0#id_d0-logical_size")
    assert page.locator("#id_d0-logical_size").is_visible()
    page.screenshot(path=str(SHOTS / f"designer-data-to-store-{width}.png"))
    assert page.js_errors == []
    context.close()
