"""Designs in a real browser: home → design → estimate, edit (invalid, valid), viewer view."""

import json

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.estimate import estimate_document
from zfsplanner.core.units import format_iec
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


def open_design(page, design):
    page.goto("/")
    page.click(f"a[href='/designs/{design.pk}/']")
    page.wait_for_selector("#results")


def open_json_editor(page, design):
    page.goto(f"/designs/{design.pk}/designer/")
    page.click("#advanced-tab")


def test_owner_opens_a_design_and_sees_the_estimate(page, login, alice, design):
    login(alice)
    page.goto("/")
    assert page.locator("section.team h2").first.inner_text().startswith("Alpha")
    assert page.locator("table.designs").inner_text().count("tank") >= 1
    open_design(page, design)
    assert page.locator("h1").inner_text() == "tank"
    assert "TiB" in page.locator("#usable .value").inner_text()
    page.click("#details-pool summary")
    pool = page.locator("table.pool")
    assert "76.40 TiB" in pool.inner_text()
    size = estimate_document(design_document("tank"))["pool"]["zpool_size_bytes"]
    size_row = page.locator("table.pool tr[data-key='zpool_size_bytes']").inner_text()
    assert (format_iec(size) if size is not None else "not computed yet") in size_row
    assert page.locator("section.risks h2").inner_text().startswith("Risks")
    page.wait_for_selector("canvas[data-chart-state='ready']")
    assert page.locator("canvas[data-chart-state='error']").count() == 0
    assert page.js_errors == []


def test_invalid_edit_names_the_field_and_saves_nothing(page, login, alice, design):
    login(alice)
    open_json_editor(page, design)
    bad = design_document("tank")
    bad["vdevs"][0]["width"] = 2
    page.fill("textarea[name=document]", json.dumps(bad, indent=2))
    page.click("#save-design")
    errors = page.locator(".form-errors")
    errors.wait_for()
    text = errors.inner_text()
    assert "Disks per vdev of the data vdev (group 1: 2-wide raidz2): raidz2 needs at least 3 disks" in text
    assert "vdevs[0]" not in text
    assert "Nothing was saved" in errors.inner_text()
    assert page.locator("#revision").inner_text() == "revision 1"
    design.refresh_from_db()
    assert design.revision == 1
    assert design.vdevs.get().width == 6
    assert page.js_errors == []


def test_valid_edit_increments_the_revision(page, login, erin, design):
    login(erin)
    open_json_editor(page, design)
    doc = design_document("tank", description="edited in the browser")
    page.fill("textarea[name=document]", json.dumps(doc, indent=2))
    page.click("#save-design")
    page.wait_for_selector("#revision:has-text('revision 2')")
    assert "edited in the browser" in page.locator("textarea[name=document]").input_value()
    assert PoolDesign.objects.get(pk=design.pk).revision == 2
    page.reload()
    assert page.locator("#revision").inner_text() == "revision 2"
    assert page.js_errors == []


def test_viewer_sees_no_edit_button(page, login, bob, design):
    login(bob)
    open_design(page, design)
    assert page.locator("#open-designer").count() == 0
    assert page.locator("#save-design").count() == 0
    assert page.locator("textarea[name=document]").count() == 0
    assert page.locator("a:has-text('Export JSON')").count() == 1
    assert page.js_errors == []
