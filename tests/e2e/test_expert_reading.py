"""The pages as someone who knows ZFS reads them, in real Chromium at 1366 and 390 px: the commands
one top-level vdev per line and inside their box, the copy button copying them as shown.

Screenshots go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.factories import PoolDesignFactory

from .browser import log_in, wide_context

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
