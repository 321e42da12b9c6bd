"""axe-core on the pages with tables that scroll sideways (design, share, import preview, benchmark
detail, designer, profile, compare) and on the glossary, the benchmark comparison and the API docs,
at 1366 and 390 px: no serious or critical finding and no empty table header; a screenshot of each."""

from __future__ import annotations

import os
from pathlib import Path

from tests.core.import_samples import text
from tests.factories import design_document
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.plans.services import create_share_link, save_design_document

from .browser import AXE, log_in, wide_context

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def serious(page) -> list[str]:
    """Serious and critical axe-core findings, and empty table headers, on the page as it is now."""
    page.evaluate(AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({'; '.join(str(n['target'][0]) for n in v['nodes'][:3])})"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical") or v["id"] == "empty-table-header"
    ]


def test_pages_with_wide_tables_pass_axe_at_1366_and_390(browser, live_server, alice, team, benchmark_run):
    design = save_design_document(team, design_document("tank"), alice)
    variant = save_design_document(team, design_document("tank2"), alice)
    link = create_share_link(design, alice)
    issue_token(alice, "laptop", None)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for width in (1366, 390):
        context, page = wide_context(browser, live_server, width)
        log_in(page, alice)
        page.goto("/imports/pool/")
        page.fill("#id_text", text("linux-2.3-raidz2-special-log-cache-spare.txt"))
        page.click("#import-button")
        page.wait_for_selector("#model-vs-pool")
        pages = {
            "import-preview": page.url,
            "design": f"/designs/{design.pk}/",
            "designer": f"/designs/{design.pk}/designer/",
            "share": f"/share/{link.token}/",
            "benchmark-detail": f"/benchmarks/{benchmark_run.pk}/",
            "profile": "/accounts/profile/",
            "compare": f"/designs/compare/?ids={design.pk},{variant.pk}&unit=TB",
            "benchmark-compare": f"/benchmarks/compare/?runs={benchmark_run.pk}",
            "glossary": "/glossary/",
            "api-docs": "/api/docs/",
        }
        for name, url in pages.items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if name == "api-docs":
                page.wait_for_selector(".opblock-summary-description")  # Swagger UI has drawn the operations
            for details in page.locator("details:not([open]) > summary").all():
                if details.is_visible():
                    details.click()  # folded tables are read too
            problems += [f"{name} at {width}px: {p}" for p in serious(page)]
            page.screenshot(path=str(SHOTS / f"a11y-{name}-{width}.png"), full_page=True)
        assert page.js_errors == []
        context.close()
    assert problems == [], "\n".join(problems)
