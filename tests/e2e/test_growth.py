"""The Growth section in a real browser: the year the pool passes its fill limit, and an option made a variant."""

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db(transaction=True)


def growing_design(team):
    """A raidz2 on OpenZFS 2.2 (no RAIDZ expansion yet) 60 % full, its data growing 30 % a year."""
    doc = design_document("tank", openzfs_version="2.2")
    per_tb = estimate(parse_design(doc)).pool.used_fraction  # with 1 TB of data
    doc["datasets"][0]["contents"]["logical_bytes"] = round(0.6 / per_tb * 10**12)
    doc["growth"] = {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8}
    return PoolDesignFactory(team=team, name="tank", document=doc)


def test_the_year_it_passes_80_percent_and_an_option_compare_shows(page, login, alice, team):
    design = growing_design(team)
    login(alice)
    page.goto(f"/designs/{design.pk}/")
    growth = page.locator("#growth")
    # 60 % full: 78 % in year 1, 101 % in year 2
    assert "passes 80 % full in year 2" in growth.locator("#fill-limit-year").inner_text()
    assert growth.locator(".growth-option").count() == 3
    kinds = [growth.locator(".growth-option").nth(i).get_attribute("data-kind") for i in range(3)]
    assert kinds == ["add-vdev", "replace-disks", "new-pool"]
    page.wait_for_selector("#growth canvas[data-chart-state='ready']")
    growth.locator(".growth-option[data-kind='replace-disks'] .choose-option").click()
    page.wait_for_url("**/designs/compare/**")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    assert variant.variant_of_id == design.pk
    table = page.locator("main").inner_text()
    assert design.name in table and variant.name in table
    assert page.js_errors == []
