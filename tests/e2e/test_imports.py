"""Importing a pool, histograms of a dataset, and the report with its exports, in a real browser."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from tests.core.import_samples import text
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign, ShareLink

from .browser import AXE, log_in, wide_context

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="the main pool"))


def test_paste_a_zpool_status_get_the_design_and_the_difference(page, login, erin, team):
    login(erin)
    page.goto("/imports/pool/")
    page.fill("#id_text", text("linux-2.3-raidz2-special-log-cache-spare.txt"))
    page.click("#import-button")
    page.wait_for_selector("#model-vs-pool")
    assert page.locator("h1").inner_text() == "Imported pool: tank"
    assert page.locator("#figure-size .difference").inner_text() == "+0.000 %"
    # no `zfs version` in the paste: modelled as the newest release (2.4.4), whose special class no
    # longer lowers AVAIL (2.4.1/2.3.7), while this pool ran an earlier 2.3
    assert page.locator("#figure-avail .difference").inner_text() == "+0.766 %"
    assert "raidz2 of 6" in page.locator("table.vdevs").inner_text()
    assert "tank/vm-101-disk-0" in page.locator("table.datasets").inner_text()
    page.click("text=Devices and where each size came from")
    assert "lsblk" in page.locator("table.devices").inner_text()
    page.select_option("#id_team", str(team.pk))
    page.fill("#id_name", "prod")
    page.click("#save-import")
    page.wait_for_url("**/designs/*/")
    design = PoolDesign.objects.get(name="prod")
    assert design.team == team and design.datasets.filter(name="prod/home").exists()
    assert page.js_errors == []


def test_unreadable_output_shows_the_line(page, login, erin):
    login(erin)
    page.goto("/imports/pool/")
    paste = "$ zpool status\n  pool: tank\n state: ONLINE\nconfig:\n\n\ttank  ONLINE 0 0 0\n\t  sda  WHAT 0 0 0\n"
    page.fill("#id_text", paste)
    page.click("#import-button")
    error = page.locator(".import-error").inner_text()
    assert "line 7: zpool status: expected a vdev row" in error
    assert "WHAT" in page.locator("#id_text").input_value()


def test_unreadable_outputs_are_kept_and_their_page_reads_at_1366_and_390(browser, live_server, erin):
    """The kept import's page: the reason, what was sent, "Read again"; axe and fit at both widths."""
    shots = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    paste = "$ zpool status\n  pool: tank\n state: ONLINE\nconfig:\n\n\ttank  ONLINE 0 0 0\n\t  sda  WHAT 0 0 0\n"
    for width in (1366, 390):
        context, page = wide_context(browser, live_server, width)
        log_in(page, erin)
        page.goto("/imports/pool/")
        page.fill("#id_text", paste)
        page.click("#import-button")
        page.click("#import-kept a")
        page.wait_for_selector("#import-status")
        assert "line 7: zpool status: expected a vdev row" in page.locator(".import-error").inner_text()
        assert "characters" in page.locator("#import-sources").inner_text()
        page.click("#import-sources summary")  # what was sent, to correct it
        assert "sda  WHAT 0 0 0" in page.locator("#import-sources pre").inner_text()
        page.evaluate(AXE.read_text())
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        serious = [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")]
        assert serious == []
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.screenshot(path=str(shots / f"pool-import-kept-{width}.png"), full_page=True)
        page.click("#import-retry-button")  # the same outputs: still unreadable, said again
        page.wait_for_selector(".import-error")
        assert page.js_errors == []
        context.close()


def test_a_listing_updates_the_dataset(page, login, erin, design):
    login(erin)
    page.goto(f"/designs/{design.pk}/histograms/")
    page.select_option("#id_dataset", "tank/data")
    page.fill("#id_text", "".join(f"{i * 4096} /data/d{i % 10}/f{i}\n" for i in range(1, 301)))
    page.click("#histogram-submit")
    page.wait_for_selector("tr.histogram-row[data-status='done']")
    assert "300 files" in page.locator(".histogram-result").inner_text()
    assert "30 files per directory" in page.locator(".histogram-result").inner_text()
    contents = PoolDesign.objects.get(pk=design.pk).datasets.get(name="tank/data").contents
    assert contents["file_count"] == 300 and contents["files_per_directory"] == 30
    assert page.js_errors == []


def test_export_markdown_and_csv_and_the_print_page(page, login, bob, design):
    login(bob)
    page.goto(f"/designs/{design.pk}/report/")
    assert page.locator("#report h1").inner_text() == "ZFS pool design: tank"
    assert "Usable space: " in page.locator("#report").inner_text()
    with page.expect_download() as md:
        page.click("a.download-markdown")
    assert md.value.suggested_filename == "tank-r1-report.md"
    assert open(md.value.path(), encoding="utf-8").read().startswith("# ZFS pool design: tank")
    with page.expect_download() as sheet:
        page.click("a.download-csv")
    rows = list(csv.DictReader(io.StringIO(open(sheet.value.path(), encoding="utf-8").read())))
    assert [r["kind"] for r in rows][:2] == ["pool", "vdev"] and rows[-1]["name"] == "tank/data"
    # print: the navigation and the buttons are gone, the report stays
    page.emulate_media(media="print")
    assert not page.locator("header.topbar").is_visible()
    assert not page.locator(".report-actions").is_visible()
    assert page.locator("#report h2:has-text('Summary')").is_visible()
    pdf = page.pdf(format="A4")
    assert pdf[:4] == b"%PDF" and len(pdf) > 10_000
    page.emulate_media(media="screen")
    assert page.js_errors == []


def test_the_share_link_shows_the_report_with_a_copy_button(browser, live_server, design):
    link = ShareLink.objects.create(design=design)
    context = browser.new_context(base_url=live_server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(f"/share/{link.token}/report/")
        assert page.locator("#report h1").inner_text() == "ZFS pool design: tank"
        assert page.locator("a:has-text('Log in')").count() == 1
        page.click("#copy-link")
        page.wait_for_selector("#copy-status:has-text('Copied.')")
        assert page.evaluate("navigator.clipboard.readText()") == f"{live_server.url}/share/{link.token}/report/"
        with page.expect_download() as md:
            page.click("a.download-markdown")
        assert md.value.suggested_filename == "tank-r1-report.md"
    finally:
        context.close()
