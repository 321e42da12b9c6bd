"""The layout advisor and the planning sections in a real browser."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign

from .browser import AXE, log_in, wide_context

pytestmark = pytest.mark.django_db(transaction=True)


def _ask(page, count="12", data="40"):
    page.select_option("select[name=disk_1]", "ST16000NM001G")
    page.fill("input[name=count_1]", count)
    page.fill("input[name=data_tb]", data)
    page.click("#advise")
    page.wait_for_selector("#advisor-table tbody tr")


def test_the_advisor_lists_layouts_sorts_them_and_makes_a_design(page, login, alice, team):
    login(alice)
    page.click("nav >> text=Advisor")
    page.wait_for_selector("#advisor-form")
    _ask(page)
    rows = page.locator("#advisor-table tbody tr")
    assert rows.count() >= 10
    assert "sort=" not in page.url or "cost_per_usable_tb" in page.url
    page.click("a[data-sort='loss_5y']")
    page.wait_for_selector("#advisor-table th[aria-sort] a[data-sort='loss_5y']")
    assert "sort=loss_5y" in page.url  # the sorted table has its own address
    first = page.locator("#advisor-table tbody tr").first.get_attribute("data-layout")
    assert "raidz3" in first or "draid3" in first
    page.fill("#create-design input[name=name]", "bulk")
    page.locator("#advisor-table tr[data-layout='2 × raidz2 of 6'] button.create-row").click()
    page.wait_for_url("**/designs/*/")
    design = PoolDesign.objects.get(team=team, name="bulk")
    vdev = design.to_document()["vdevs"][0]
    assert (vdev["layout"], vdev["width"], vdev["count"]) == ("raidz2", 6, 2)
    assert page.js_errors == []


def test_a_missing_count_is_named_and_the_table_stays_away(page, login, alice):
    login(alice)
    page.goto("/advisor/")
    page.select_option("select[name=disk_1]", "ST16000NM001G")
    page.click("details.more-candidates summary")
    page.select_option("select[name=disk_2]", "WD40EFZX")  # a second disk without a count
    page.click("#advise")
    page.wait_for_selector("#advisor-errors")
    assert "How many of this disk?" in page.locator("#advisor-errors").inner_text()
    assert page.locator("#advisor-table").count() == 0


def test_the_advisor_fits_a_phone(page, login, alice):
    page.set_viewport_size({"width": 390, "height": 844})
    login(alice)
    page.goto("/advisor/")
    _ask(page, count="6", data="10")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0  # the wide table scrolls inside its own box


def test_the_design_page_shows_the_knee_chart_reliability_and_performance(page, login, alice, team):
    doc = design_document("tank")
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 2, "count": 1,
                         "disk": {"size_bytes": "960GB", "media": "ssd", "plp": True}})
    doc["datasets"][0]["contents"] = {"file_size_histogram": [[3000, 100000], [60000, 20000], [900000, 5000]]}
    design = PoolDesignFactory(team=team, document=doc)
    login(alice)
    page.goto(f"/designs/{design.pk}/")
    page.wait_for_selector("#special-sizing canvas[data-chart-state='ready']")
    assert "Special class size to aim for" in page.locator("#special-sizing").inner_text()
    assert "Chance of losing some data within 5 years" in page.locator("#reliability").inner_text()
    assert "Random reads" in page.locator("#performance").inner_text()
    page.click("#reliability details summary")
    assert "Backblaze" in page.locator("#reliability details").inner_text()
    assert page.locator("canvas[data-chart-state='error']").count() == 0
    assert page.js_errors == []


# --------------------------------------------------------------------------- custom disks, risk marks, phones







def _ask_custom(page):
    page.goto("/advisor/")
    page.select_option("select[name=disk_1]", "custom")
    assert page.locator("details.custom-disk[data-custom-for='id_disk_1']").get_attribute("open") is not None
    page.fill("input[name=size_1]", "20TB")
    page.fill("input[name=count_1]", "24")
    page.fill("input[name=price_1]", "389.90")
    page.fill("input[name=data_tb]", "200")
    page.click("#advise")
    page.wait_for_selector("#advisor-table tbody tr")


def _serious_axe_violations(page):
    page.evaluate(AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']}" for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_24_disks_of_20_tb_not_in_the_catalog_become_a_priced_design(page, login, alice, team):
    login(alice)
    _ask_custom(page)
    rows = page.locator("#advisor-table tbody tr")
    assert rows.first.get_attribute("data-loss") != "critical"
    losses = [rows.nth(i).get_attribute("data-loss") for i in range(rows.count())]
    assert losses == sorted(losses, key=lambda x: x == "critical") and "critical" in losses
    assert page.locator("tr[data-loss='critical'] .loss-badge").first.inner_text() == "very high chance of data loss"
    page.fill("#create-design input[name=name]", "big")
    page.locator("#advisor-table tr[data-layout='2 × raidz2 of 12'] button.create-row").click()
    page.wait_for_url("**/designs/*/")
    vdev = PoolDesign.objects.get(team=team, name="big").to_document()["vdevs"][0]
    assert vdev["disk"]["size_bytes"] == 20 * 10**12 and Decimal(str(vdev["price_per_disk"])) == Decimal("389.90")
    assert "unknown" not in page.locator("#cost").inner_text()  # the typed price reached the design's cost
    assert page.js_errors == []


def test_the_advisor_table_fits_its_box_at_1366(browser, live_server, alice):
    context, page = wide_context(browser, live_server, 1366, 844)
    log_in(page, alice)
    _ask_custom(page)
    box = page.evaluate("(() => { const b = document.querySelector('.advisor-box');"
                        " return [b.scrollWidth, b.clientWidth]; })()")
    assert box[0] <= box[1]  # no sideways scroll inside the box either
    assert _serious_axe_violations(page) == []
    context.close()


def test_the_advisor_is_a_list_of_cards_on_a_phone(browser, live_server, alice):
    context, page = wide_context(browser, live_server, 390, 844)
    log_in(page, alice)
    _ask_custom(page)
    assert page.evaluate("getComputedStyle(document.querySelector('#advisor-table thead')).display") == "none"
    card = page.locator("#advisor-table tbody tr").first
    assert page.evaluate("getComputedStyle(document.querySelector('#advisor-table tbody tr')).display") == "block"
    assert card.bounding_box()["width"] <= 390
    assert "cost per usable TB" in page.evaluate(
        "getComputedStyle(document.querySelector('#advisor-table tbody td'), '::before').content")
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert _serious_axe_violations(page) == []
    page.select_option("#sort-by", "loss_5y")  # the headings are hidden on a phone: the list sorts
    page.wait_for_selector("#advisor-table th[aria-sort] a[data-sort='loss_5y']", state="attached")
    assert "sort=loss_5y" in page.url  # the sorted list has its own address
    first = page.locator("#advisor-table tbody tr").first.get_attribute("data-layout")
    assert "raidz3" in first or "draid3" in first
    assert page.js_errors == []
    context.close()


def test_charts_keep_their_height_on_a_phone(browser, live_server, alice, team):
    doc = design_document("tank")
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 2, "count": 1,
                         "disk": {"size_bytes": "960GB", "media": "ssd", "plp": True}})
    doc["datasets"][0]["contents"] = {"file_size_histogram": [[3000, 100000], [60000, 20000], [900000, 5000]]}
    design = PoolDesignFactory(team=team, document=doc)
    context, page = wide_context(browser, live_server, 390, 844)
    log_in(page, alice)
    page.goto(f"/designs/{design.pk}/")
    page.wait_for_selector("#special-sizing canvas[data-chart-state='ready']")
    page.wait_for_selector("figure.breakdown canvas[data-chart-state='ready']")
    # the plot area inside the axes, as Chart.js laid it out
    plot = "(c => { const a = Chart.getChart(c).chartArea; return a.bottom - a.top; })"
    special = page.evaluate(f"{plot}(document.querySelector('#special-sizing canvas'))")
    breakdown = page.evaluate(f"{plot}(document.querySelector('figure.breakdown canvas'))")
    assert special >= 140 and breakdown >= 28  # the special curve readable, the capacity bar more than a line
    assert "logarithmic" in page.evaluate("Chart.getChart(document.querySelector('#special-sizing canvas'))"
                                          ".options.scales.y.type")
    assert "no redundancy left" in page.locator("#read-error-explained").inner_text()
    assert page.js_errors == []
    context.close()
