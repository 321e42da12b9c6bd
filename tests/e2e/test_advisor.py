"""The layout advisor and the planning sections in a real browser."""

from __future__ import annotations

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign

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
