"""A newcomer's first design in real Chromium: sign up, New design, the designer; one-time messages
that leave once the page moves on; a variant compared with its design; the share page's downloads.

Screenshots of the pages at 1366 and 390 px go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.factories import UserFactory, design_document
from zfsplanner.accounts.models import Team
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import create_share_link, save_design_document

from .browser import AXE, wait_processed

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
PW = "Quiet-Harbor-71"


def messages_text(page) -> str:
    return " ".join(page.locator("#messages").all_inner_texts())


def check_page(page, name, problems):
    """axe-core (serious and critical) at 1366 px, no sideways scroll at 390 px; a screenshot of both."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_load_state("networkidle")
        if width == 390:
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                problems.append(f"{name} scrolls sideways by {overflow}px at 390 px")
        else:
            page.evaluate(AXE.read_text())
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            for v in result["violations"]:
                if v["impact"] in ("serious", "critical"):
                    problems.append(f"{name}: {v['impact']} {v['id']}: {v['help']}")
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        page.screenshot(path=str(SHOTS / f"{name}-{width}-top.png"))  # what the first screen shows
    page.set_viewport_size({"width": 1366, "height": 900})


@pytest.fixture
def csp_free_page(browser, live_server):
    """A page that lets the test inject axe-core (the app itself runs no inline script)."""
    context = browser.new_context(base_url=live_server.url, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    try:
        pg.wait_for_load_state("networkidle", timeout=5000)
    except Exception:  # noqa: BLE001 - a page that never settles is closed anyway
        pass
    context.close()


def test_a_newcomer_signs_up_and_builds_a_design_and_the_welcome_leaves_after_the_next_save(csp_free_page, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    page = csp_free_page
    problems: list[str] = []
    page.goto("/accounts/signup/")
    page.fill("input[name=email]", "dana@example.com")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password1]", PW)
    page.fill("input[name=password2]", PW)
    page.click("#signup button[type=submit]")
    page.wait_for_url("**/")
    team = Team.objects.get()
    assert team.name == "dana's designs"
    check_page(page, "newcomer-designs", problems)

    page.click("#new-design")
    page.wait_for_url("**/designs/new/")
    assert page.locator("#id_team option:checked").inner_text() == "dana's designs"
    check_page(page, "newcomer-new-design", problems)
    page.fill("#id_name", "tank")
    page.select_option("#id_first-layout", "raidz2")
    page.fill("#id_first-width", "8")
    page.select_option("#id_first-disk", "ST16000NM001G")
    page.click("#create-design")
    page.wait_for_url("**/designer/")
    assert PoolDesign.objects.get().team == team
    assert "Design tank created" in messages_text(page)

    page.click("#add-vdev > summary")
    wait_processed(page, "#id_vnew-role")
    page.select_option("#id_vnew-role", "special")
    page.wait_for_selector("#add-vdev form.vdev-form[data-role='special']")  # the role's defaults came
    page.select_option("#id_vnew-layout", "mirror")
    page.fill("#id_vnew-width", "2")
    page.select_option("#id_vnew-disk", "MZ-77E1T0")
    page.click("#add-vdev button.save-vdev")
    page.wait_for_selector("#revision:has-text('revision 2')")
    assert "Saved revision 2" in page.locator("#saved").inner_text()
    assert "Design tank created" not in messages_text(page)  # the welcome was for the page that is gone
    check_page(page, "newcomer-designer", problems)
    assert problems == [], "\n".join(problems)
    assert page.js_errors == []


def test_a_user_in_no_team_starts_a_design_in_a_team_of_their_own(csp_free_page):
    page = csp_free_page
    eve = UserFactory(username="eve")
    problems: list[str] = []
    page.goto("/accounts/login/")
    page.fill("input[name=login]", "eve")
    page.fill("input[name=password]", "pw-for-tests-1")
    page.click("#login button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator("#no-team").is_visible()
    check_page(page, "no-team-designs", problems)
    page.click("#new-design")
    page.wait_for_url("**/designs/new/")
    check_page(page, "no-team-new-design", problems)
    assert page.locator("#id_team option:checked").inner_text() == "eve's designs (new)"
    page.fill("#id_new_team", "Home lab")
    page.select_option("#id_first-disk", "ST16000NM001G")
    page.click("#create-design")
    page.wait_for_url("**/designer/")
    design = PoolDesign.objects.get()
    assert design.team.name == "Home lab" and design.team.role_of(eve) == "owner"
    assert problems == [], "\n".join(problems)
    assert page.js_errors == []


def test_compare_from_a_variant_and_the_share_pages_downloads(csp_free_page, alice, team):
    page = csp_free_page
    problems: list[str] = []
    design = save_design_document(team, design_document("tank"), alice)
    page.goto("/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", "pw-for-tests-1")
    page.click("#login button[type=submit]")
    page.wait_for_url("**/")
    page.goto(f"/designs/{design.pk}/")
    page.click("#duplicate")
    page.wait_for_url("**/designer/")
    check_page(page, "variant-designer", problems)
    page.click("#compare-origin")
    page.wait_for_url("**/designs/compare/**")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    ticked = page.locator("#compare-pick input[name=ids]:checked")
    assert sorted(ticked.evaluate_all("els => els.map(e => e.value)")) == sorted([str(design.pk), str(variant.pk)])
    page.goto(f"/designs/{variant.pk}/")
    page.click("#compare-link")
    page.wait_for_selector("#compare-summary")
    assert page.locator("#compare-pick input[name=ids]:checked").count() == 2

    token = create_share_link(design, alice).token
    reader = page.context.browser.new_context(base_url=page.url.split("/designs/")[0], bypass_csp=True)
    shared = reader.new_page()
    shared.goto(f"/share/{token}/")
    for link_id in ("share-report", "share-report-md", "share-estimate-csv", "share-export"):
        assert shared.locator(f"#{link_id}").is_visible(), link_id
    check_page(shared, "share-downloads", problems)
    shared.click("#share-report")
    shared.wait_for_url(f"**/share/{token}/report/")
    assert "tank" in shared.locator("main").inner_text()
    reader.close()
    assert problems == [], "\n".join(problems)
