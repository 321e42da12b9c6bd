"""The designer journey in real Chromium, an accessibility check of the main pages, and screenshots.

Build 8 × 16 TB raidz2 + a special mirror of two 1 TB SSDs + a mirrored SLOG + a dataset
with recordsize 1M and zstd from an empty form, without typing JSON, watching usable
space and risks change; apply a one-click fix and undo it; provoke an edit conflict;
duplicate as a variant and compare; open the share link in a fresh anonymous context.

Screenshots of the main pages at 1366 and 390 px go to ``SCREENSHOT_DIR`` (default
``build/screenshots``; ``make screenshots`` refreshes ``docs/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.factories import design_document
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

from .browser import AXE, Steps, wait_htmx_idle, wait_processed

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")




def usable(page) -> str:
    return page.locator("#usable .value").inner_text()


def figures(page) -> tuple[str, str, str]:
    return usable(page), page.locator("#raw .value").inner_text(), page.locator("#risk-counts").inner_text()


def wait_revision(page, n):
    page.wait_for_selector(f"#revision:has-text('revision {n}')")


def add_group(steps, role, layout, width, disk):
    if steps.page.locator("#add-vdev[open]").count() == 0:  # it stays open after an add
        steps.click("#add-vdev > summary")
    wait_processed(steps.page, "#id_vnew-role")  # the panel's form arrives (again after an add) by htmx
    steps.select("#id_vnew-role", role)
    steps.page.wait_for_selector(f"#add-vdev form.vdev-form[data-role='{role}']")  # the role's defaults came
    steps.select("#id_vnew-layout", layout)
    wait_htmx_idle(steps.page)  # the layout redraws the form with the same disks in it
    wait_processed(steps.page, "#id_vnew-layout")
    steps.fill("#id_vnew-width", str(width))
    steps.select("#id_vnew-disk", disk)
    steps.click("#add-vdev button.save-vdev")


def test_build_a_pool_without_json_fix_undo_conflict_variant_compare_share(page, login, alice, team, browser):
    login(alice)
    steps = Steps(page)
    page.goto("/")
    steps.click("#new-design")
    steps.fill("#id_name", "tank")
    steps.select("#id_first-layout", "raidz2")
    steps.fill("#id_first-width", "8")
    steps.select("#id_first-disk", "ST16000NM001G")
    steps.click("#create-design")
    page.wait_for_url("**/designer/")
    design = PoolDesign.objects.get(team=team, name="tank")
    seen = [figures(page)]
    assert "TiB" in seen[0][0]

    add_group(steps, "special", "mirror", 2, "MZ-77E1T0")
    wait_revision(page, 2)
    seen.append(figures(page))
    assert page.locator(".risk[data-code='special-redundancy-below-data']").count() == 1

    add_group(steps, "log", "mirror", 2, "SSDPEL1K100GA")
    wait_revision(page, 3)
    seen.append(figures(page))

    steps.click("#add-dataset > summary")
    steps.fill("#id_dnew-name", "tank/media")
    steps.select("#id_dnew-recordsize", "1M")
    steps.select("#id_dnew-compression", "zstd")
    steps.click("#add-dataset button.save-dataset")
    wait_revision(page, 4)
    assert steps.count <= 30, steps.count
    doc = PoolDesign.objects.get(pk=design.pk).to_document()
    assert [(v["role"], v["layout"], v["width"]) for v in doc["vdevs"]] == [
        ("data", "raidz2", 8),
        ("special", "mirror", 2),
        ("log", "mirror", 2),
    ]
    assert doc["datasets"] == [{"name": "tank/media", "type": "filesystem", "recordsize": "1M", "compression": "zstd"}]
    # Each step shows its effect: the special mirror adds raw capacity (never AVAIL) and risks, the SLOG raw.
    assert seen[1][1] != seen[0][1] and seen[1][2] != seen[0][2]
    assert seen[2][1] != seen[1][1]

    # One-click fix, then undo it.
    page.click(".risk[data-code='special-redundancy-below-data'] button.apply-fix")
    wait_revision(page, 5)
    assert page.locator(".risk[data-code='special-redundancy-below-data']").count() == 0
    assert PoolDesign.objects.get(pk=design.pk).vdevs.all()[1].width == 3
    page.click("#undo")
    wait_revision(page, 6)
    assert page.locator(".risk[data-code='special-redundancy-below-data']").count() == 1
    assert PoolDesign.objects.get(pk=design.pk).vdevs.all()[1].width == 2

    # Another tab saves while this one edits: this tab's change is refused with a message and kept.
    page.click(".vdev-row[data-index='0'] details.row-edit > summary")
    page.wait_for_selector("#id_v0-count")
    save_design_document(team, design_document("tank"), alice, instance=PoolDesign.objects.get(pk=design.pk))
    page.fill("#id_v0-count", "2")
    page.click(".vdev-row[data-index='0'] button.save-vdev")
    page.wait_for_selector("#conflict")
    assert "changed while you were editing" in page.locator("#conflict").inner_text()
    assert page.locator("#id_v0-count").input_value() == "2"

    # Duplicate as a variant, compare the two.
    page.goto(f"/designs/{design.pk}/")
    page.click("#duplicate")
    page.wait_for_url("**/designer/")
    variant = PoolDesign.objects.exclude(pk=design.pk).get(team=team)
    page.goto(f"/designs/compare/?ids={design.pk}&ids={variant.pk}")
    page.wait_for_selector("canvas[data-chart-state='ready']")
    page.wait_for_load_state("networkidle")
    assert variant.name in page.locator("#compare-summary").inner_text()

    # The share link, read-only, in a fresh anonymous browser.
    page.goto(f"/designs/{design.pk}/")
    page.click("#create-share-link")
    page.wait_for_selector("table.share-links tr.active")
    page.wait_for_load_state("networkidle")
    url = page.locator("table.share-links a.share-url").get_attribute("href")
    anonymous = browser.new_context(base_url=page.url.split("/designs/")[0])
    try:
        shared = anonymous.new_page()
        shared.goto(url)
        shared.wait_for_selector("canvas[data-chart-state='ready']")
        shared.wait_for_load_state("networkidle")
        assert "TiB" in shared.locator("#usable .value").inner_text()
        assert shared.locator("button.apply-fix, #open-designer, textarea").count() == 0
    finally:
        anonymous.close()
    assert page.js_errors == []


def test_main_pages_pass_axe_and_fit_390px(browser, live_server, alice, team, benchmark_run):
    design = save_design_document(team, design_document("tank"), alice)
    variant = save_design_document(team, design_document("tank2"), alice)
    from zfsplanner.plans.services import create_share_link

    link = create_share_link(design, alice)
    pages = {
        "designs": "/",
        "new-design": "/designs/new/",
        "designer": f"/designs/{design.pk}/designer/",
        "design-summary": f"/designs/{design.pk}/",
        "compare": f"/designs/compare/?ids={design.pk}&ids={variant.pk}",
        "benchmarks": "/benchmarks/",
        "run-detail": f"/benchmarks/{benchmark_run.pk}/",
        "compare-runs": f"/benchmarks/compare/?runs={benchmark_run.pk}",
        "teams": "/teams/",
        "share": f"/share/{link.token}/",
    }
    axe = AXE.read_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for width in (1366, 390):
        # bypass_csp: axe-core is injected for the check only; the app itself runs no inline script.
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}, bypass_csp=True
        )
        context.add_cookies([_session_cookie(alice, live_server.url)])
        page = context.new_page()
        for name, url in pages.items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if width == 390:
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                if overflow > 0:
                    problems.append(f"{name} scrolls horizontally by {overflow}px at 390px")
            else:
                page.evaluate(axe)
                result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
                for v in result["violations"]:
                    if v["impact"] in ("serious", "critical"):
                        nodes = "; ".join(n["target"][0] for n in v["nodes"][:3])
                        problems.append(f"{name}: {v['impact']} {v['id']}: {v['help']} ({nodes})")
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        context.close()
    assert problems == [], "\n".join(problems)


def _session_cookie(user, base_url):
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base_url}
