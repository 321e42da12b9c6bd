"""The quick planner in real Chromium: an answer in a few inputs without an account, the URL as
the state, "Save as a design" after signing up, accessibility and fit at 390 px.

Screenshots of /plan/ at 1366 and 390 px go to ``SCREENSHOT_DIR`` (default ``build/screenshots``;
``make screenshots`` refreshes ``docs/screenshots``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from zfsplanner.core.units import format_iec, format_si
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import estimate_design

from .browser import AXE, log_in, wide_context

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
REFERENCE = "layout=raidz2&disks=8&vdevs=1&size=16TB&special=1TB&slog=16GB&recordsize=1M&compression=zstd&data=20TB"
PW = "Quiet-Harbor-71"
HEADLINE = "[data-figure=usable]"


def headline(page) -> tuple[int, str]:
    figure = page.locator(HEADLINE)
    return int(figure.get_attribute("data-bytes")), figure.get_attribute("data-openzfs-version")


def serious_axe_violations(page) -> list[str]:
    page.evaluate(AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['impact']} {v['id']}: {v['help']} ({'; '.join(n['target'][0] for n in v['nodes'][:3])})"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def sideways_scroll(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.fixture
def phone(browser, live_server):
    """A 390 px wide browser with no account. axe-core is injected for the check only (bypass_csp);
    the page itself runs no inline script."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844}, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    pg.wait_for_load_state("networkidle")
    context.close()


def test_a_visitor_gets_usable_space_in_three_inputs_without_a_page_load_at_390px(phone, browser, live_server):
    page = phone
    loads: list[str] = []
    page.goto("/")
    page.wait_for_load_state("networkidle")
    page.on("load", lambda _: loads.append(page.url))
    first = headline(page)

    page.fill("#id_disks", "8")  # 1
    page.fill("#id_size", "20TB")  # 2
    page.select_option("#id_version", "2.3.2")  # 3
    page.wait_for_function(
        "document.querySelector('[data-figure=usable]').dataset.openzfsVersion === '2.3.2'"
        " && location.search.includes('size=20TB')"
    )
    page.wait_for_load_state("networkidle")
    answer = headline(page)
    assert answer != first and answer[1] == "2.3.2"
    assert loads == []  # the figure came without a page load
    text = page.locator(f"{HEADLINE} .value").inner_text()
    assert text in (format_iec(answer[0]), format_si(answer[0]))
    assert re.search(r"/plan/\?layout=raidz2&disks=8&vdevs=1&size=20TB&version=2\.3\.2", page.url)
    assert sideways_scroll(page) <= 0
    expect(page.locator("canvas[data-chart-state=ready]")).to_have_count(1)  # the chart drew after the swap

    fresh = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})  # policy enforced
    again = fresh.new_page()
    blocked: list[str] = []
    again.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    again.goto(page.url)
    again.wait_for_selector("canvas[data-chart-state=ready]")
    assert headline(again) == answer
    again.fill("#id_vdevs", "2")  # the htmx update and the chart under the Content-Security-Policy
    expect(again.locator(HEADLINE)).not_to_have_attribute("data-bytes", str(answer[0]))
    again.wait_for_url(lambda url: "vdevs=2" in url)
    expect(again.locator("canvas[data-chart-state=ready]")).to_have_count(1)
    assert headline(again)[0] > answer[0]
    assert blocked == []
    fresh.close()
    assert page.js_errors == []


def test_an_error_shows_next_to_the_field_and_clears_when_fixed(phone):
    page = phone
    page.goto("/plan/")
    page.fill("#id_disks", "2")
    page.wait_for_selector("#err-disks:has-text('raidz2 needs at least 3 disks (got 2)')")
    assert page.locator(HEADLINE).count() == 0
    page.fill("#id_disks", "5")
    page.wait_for_selector(HEADLINE)
    assert page.locator("#err-disks").inner_text() == ""
    assert "disks=5" in page.url


def sign_up_from_the_planner(page, mailoutbox, query: str) -> tuple[tuple[int, str], str]:
    """Plan ``query``, press "Save as a design", sign up as rosa: the planner's headline and the
    confirmation link e-mailed."""
    page.goto(f"/plan/?{query}")
    planned = headline(page)
    page.click("#quick-save")
    page.wait_for_url("**/accounts/login/**")
    page.click("text=Sign up")
    page.fill("input[name=email]", "rosa@example.com")
    page.fill("input[name=username]", "rosa")
    page.fill("input[name=password1]", PW)
    page.fill("input[name=password2]", PW)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#verification-sent")
    mail = next(m for m in mailoutbox if "rosa@example.com" in m.to)
    return planned, re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", mail.body).group(1)


def test_save_as_a_design_after_signing_up_lands_in_the_designer_with_the_same_figures(page, mailoutbox):
    planned, link = sign_up_from_the_planner(page, mailoutbox, REFERENCE)
    page.goto(link)
    page.click("#email-confirm button[type=submit]")
    page.wait_for_url("**/designs/*/designer/")  # saved at sign-up: opened, not offered again
    design = PoolDesign.objects.get()
    assert estimate_design(design).pool.zfs_avail_bytes == planned[0]
    assert design.openzfs_version == planned[1]
    shown = page.locator("#usable .value").first.inner_text()
    assert shown in (format_iec(planned[0]), format_si(planned[0]))
    assert page.js_errors == []


def test_a_plan_saved_at_sign_up_is_in_the_designer_whichever_browser_confirms(page, browser, live_server, mailoutbox):
    planned, link = sign_up_from_the_planner(page, mailoutbox, f"{REFERENCE}&unit=TB")
    phone = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844}).new_page()
    phone.goto(link)  # the e-mail opened on another device: no session of the sign-up there
    phone.click("#email-confirm button[type=submit]")
    phone.wait_for_url("**/accounts/login/**")
    phone.fill("input[name=login]", "rosa")
    phone.fill("input[name=password]", PW)
    phone.click("#password-login button[type=submit]")
    phone.wait_for_load_state("networkidle")
    design = PoolDesign.objects.get()
    phone.click(f"a[href='/designs/{design.pk}/']")
    phone.wait_for_url(f"**/designs/{design.pk}/")
    phone.goto(f"/designs/{design.pk}/designer/")
    assert estimate_design(design).pool.zfs_avail_bytes == planned[0]
    assert phone.locator("#usable .value").first.inner_text() == format_si(planned[0])  # in TB, as planned
    phone.context.close()


def test_the_planner_passes_axe_and_fits_390px(browser, live_server, alice):
    """The planner, its error state and, for a member, the save confirmation: axe and fit."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    pages = (
        ("quick-plan", f"/plan/?{REFERENCE}&price=280", False),
        ("quick-plan-error", "/plan/?disks=2", False),
        ("quick-plan-save", f"/plan/save/?{REFERENCE}", True),
    )
    for width in (1366, 390):
        context, page = wide_context(browser, live_server, width)
        for name, url, member in pages:
            if member:
                log_in(page, alice)
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if width == 390 and sideways_scroll(page) > 0:
                problems.append(f"{name} scrolls sideways by {sideways_scroll(page)}px at 390px")
            problems += [f"{name} at {width}px: {p}" for p in serious_axe_violations(page)]
            if name != "quick-plan-error":
                page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        assert page.js_errors == []
        context.close()
    assert problems == [], "\n".join(problems)
