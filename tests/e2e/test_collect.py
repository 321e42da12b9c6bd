"""Journey: the "Collect from a server" page at 1366 and 390 px: the steps in order, a token made with the
button, listed, revoked; no sideways scrolling, no serious accessibility problem.

Screenshots go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zfsplanner.accounts.models import ApiToken

from .browser import AXE

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def serious_problems(page, parts: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical findings on the page, or on the elements ``parts`` select."""
    page.evaluate(AXE.read_text())
    where = "{include: " + repr([[p] for p in parts]) + "}" if parts else "document"
    result = page.evaluate(f"axe.run({where}, {{resultTypes: ['violations']}})")
    return [f"{v['impact']} {v['id']}: {v['help']}" for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_administrator_reads_the_steps_makes_a_token_and_revokes_it(browser, live_server, alice, team, width):
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 900},
                                  bypass_csp=True)  # axe-core is injected for the check only
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    from .browser import log_in

    log_in(page, alice)
    page.goto("/imports/collect/")
    steps = page.locator(".collect-steps > li h2").all_inner_texts()
    assert steps == ["Download the script", "Check it", "Read it", "See what it runs and what it would send",
                     "Make a token and keep it in a file only you can read", "Send"]
    assert not ApiToken.objects.filter(user=alice).exists()
    page.fill("#collect-token-name", "nas-01")
    page.click("#collect-token-make")
    page.wait_for_selector("#collect-new-token-key")
    token = ApiToken.objects.get(user=alice)
    assert page.inner_text("#collect-new-token-key").startswith(token.prefix)
    assert "nas-01" in page.inner_text("#collect-token-list")
    for block in page.locator("[data-commands], #collect-new-token-key").all():  # every command fits its box
        assert block.evaluate("el => el.scrollWidth <= el.clientWidth"), block.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_problems(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"collect-{width}.png"), full_page=True)
    page.click(f"#collect-token-list tr[data-token='{token.pk}'] button")
    page.wait_for_selector(f"#collect-token-list tr[data-token='{token.pk}'] >> text=revoked")
    token.refresh_from_db()
    assert token.revoked is not None
    assert errors == []
    context.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_an_import_sent_for_a_design_laid_out_otherwise_says_so(browser, live_server, alice, team, width):
    from rest_framework.test import APIClient

    from tests.core.import_samples import text
    from tests.factories import PoolDesignFactory, design_document
    from zfsplanner.accounts.tokens import issue_upload_token

    from .browser import log_in

    doc = design_document("tank")
    doc["vdevs"][0]["width"] = 8
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_upload_token(alice, team)[1]}")
    made = client.post("/api/pool-imports/", {"text": text("linux-2.3-raidz2-special-log-cache-spare.txt"),
                                              "pool": "tank", "design": design.pk}, format="json")
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 900},
                                  bypass_csp=True)
    page = context.new_page()
    log_in(page, alice)
    for url, warning in ((f"/imports/pool/{made.data['id']}/", "#import-layout-differs"),
                         (f"/designs/{design.pk}/", "#attached-layout-differs")):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.locator(warning).scroll_into_view_if_needed()
        assert page.locator(warning).inner_text().startswith("The design has 8 disks in raidz2, the pool 6 in raidz2")
        assert page.locator(warning).is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(f"/imports/pool/{made.data['id']}/")
    assert "Saved as a design" not in page.content()
    # what this page adds (the wide preview tables are checked with the other import pages)
    assert serious_problems(page, ("#import-attached", "#import-layout-differs", "#save-section")) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"import-sent-for-design-{width}.png"), full_page=True)
    context.close()
