"""Figures a reader understands, in Chromium: one unit at a time on the cards, the unit switch, the
designer's Host and planning fold, and the report — at 1366 and 390 px, axe-core and no sideways scroll."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.factories import design_document
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

from .browser import AXE, log_in, wide_context

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")


@pytest.fixture
def design(team, alice):
    doc = design_document("tank")
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                         "disk": {"size_bytes": 960 * 10**9, "media": "ssd", "logical_sector_bytes": 512,
                                  "physical_sector_bytes": 4096, "plp": True}})
    return save_design_document(team, doc, alice)






def _problems(page, name):
    """Serious or critical axe-core findings and sideways scrolling of the page as it is now."""
    out = []
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        out.append(f"{name} scrolls sideways by {overflow}px")
    page.evaluate(AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    for v in result["violations"]:
        if v["impact"] in ("serious", "critical"):
            out.append(f"{name}: {v['impact']} {v['id']}: {v['help']} ({v['nodes'][0]['target'][0]})")
    return out


def _card_units(page):
    text = page.locator("#summary .figures").inner_text()
    return set(re.findall(r"\d (TiB|GiB|MiB|TB|GB|MB)\b", text))


@pytest.mark.parametrize("width", [1366, 390])
def test_cards_switch_units_and_the_host_fold_saves(browser, live_server, alice, design, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page = wide_context(browser, live_server, width)
    log_in(page, alice)
    problems = []

    page.goto(f"/designs/{design.pk}/")
    page.wait_for_load_state("networkidle")
    assert _card_units(page) <= {"TiB", "GiB", "MiB"}
    label = page.locator("#usable .label")
    assert label.inner_text() == "Usable space"
    box = label.bounding_box()
    assert box["height"] < 30, "the usable label fits on one line"
    page.click("#details-pool summary")
    problems += _problems(page, f"design page at {width}")
    page.screenshot(path=str(SHOTS / f"figures-design-{width}.png"), full_page=True)

    page.click("#unit-switch")
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("?unit=TB")
    assert _card_units(page) <= {"TB", "GB", "MB"} and " TB" in page.locator("#raw .value").inner_text()
    assert page.locator("#unit-switch").inner_text() == "Show sizes in TiB"

    page.goto(f"/designs/{design.pk}/designer/")
    page.click("#host-planning-fold summary")
    page.wait_for_selector("#host-form")
    assert "Default: 1.57 %/year" in page.locator("#host-form").inner_text()
    problems += _problems(page, f"designer host fold at {width}")
    page.locator("#host-planning").screenshot(path=str(SHOTS / f"figures-host-form-{width}.png"))
    page.fill("#id_host-ram", "64 GiB")
    page.fill("#id_host-replacement_hours", "72")
    page.click("#save-host")
    page.wait_for_selector("#saved")
    assert "host and planning inputs changed" in page.locator("#saved").inner_text()
    doc = PoolDesign.objects.get(pk=design.pk).to_document()
    assert doc["host"]["ram_bytes"] == 64 * 1024**3 and doc["reliability"]["replacement_hours"] == 72

    page.goto(f"/designs/{design.pk}/report/")
    page.wait_for_load_state("networkidle")
    report = page.locator("#report").inner_text()
    assert "Usable space: " in report and "How likely is losing data" in report
    assert "| Wait before a rebuild starts" not in report and "72 h without a hot spare" in report
    problems += _problems(page, f"report at {width}")
    page.screenshot(path=str(SHOTS / f"figures-report-{width}.png"), full_page=True)

    page.goto("/accounts/profile/")
    problems += _problems(page, f"profile at {width}")
    assert page.js_errors == []
    context.close()
    assert problems == [], "\n".join(problems)
