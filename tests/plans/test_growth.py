"""The Growth section: the timeline in the API, on the design page, and a growth option made into a variant."""

from __future__ import annotations

import pytest

from tests.factories import design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

pytestmark = pytest.mark.django_db
GROWTH = {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8}


def growing_document(fill: float = 0.6, **growth) -> dict:
    """The factory's raidz2 with as much data as makes it ``fill`` full, growing 30 % a year."""
    doc = design_document("tank")
    per_tb = estimate(parse_design(doc)).pool.used_fraction  # 1 TB of data
    doc["datasets"][0]["contents"]["logical_bytes"] = round(fill / per_tb * 10**12)
    doc["growth"] = {**GROWTH, **growth}
    return doc


@pytest.fixture
def design(team, alice):
    return save_design_document(team, growing_document(), alice)


def test_the_estimate_api_has_the_timeline(client_for, alice, design):
    body = client_for(alice).get(f"/api/designs/{design.pk}/estimate/").json()
    line = body["timeline"]
    assert [y["year"] for y in line["years"]] == [0, 1, 2, 3, 4, 5]
    assert set(line["years"][0]) >= {"year", "logical_bytes", "usable_bytes", "fill"}
    assert line["years"][0]["usable_bytes"] == body["pool"]["zfs_avail_bytes"]
    assert line["fill_limit_year"] == 2  # 60 % full, 78 % in year 1, 101 % in year 2
    assert [o["kind"] for o in line["options"]] == ["add-vdev", "widen-raidz", "replace-disks", "new-pool"]
    for option in line["options"]:
        assert set(option) >= {"kind", "design", "usable_bytes", "years_gained", "cost", "risks"}
        again = estimate(parse_design(option["design"]))
        assert option["usable_bytes"] == again.pool.zfs_avail_bytes


def test_a_design_without_growth_has_no_timeline_in_the_api(client_for, alice, team):
    design = save_design_document(team, design_document("tank"), alice)
    assert "timeline" not in client_for(alice).get(f"/api/designs/{design.pk}/estimate/").json()


def test_the_design_page_shows_the_year_and_the_options(web, alice, design):
    page = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert 'id="growth"' in page
    assert "The pool passes 80 % full in year 2" in page
    assert page.count('class="growth-option"') == 4
    assert f'/designs/{design.pk}/charts/timeline/' in page
    assert page.count('class="secondary choose-option"') == 4


def test_a_viewer_sees_the_options_but_cannot_choose_one(web, bob, design):
    page = web(bob).get(f"/designs/{design.pk}/").content.decode()
    assert page.count('class="growth-option"') == 4 and "choose-option" not in page
    assert web(bob).post(f"/designs/{design.pk}/growth/0/").status_code == 403


def test_an_outsider_gets_nothing(web, charlie, design):
    assert web(charlie).post(f"/designs/{design.pk}/growth/0/").status_code == 404
    assert web(charlie).get(f"/designs/{design.pk}/charts/timeline/").status_code == 404


def test_the_chart_is_the_fill_over_the_years(web, alice, design):
    chart = web(alice).get(f"/designs/{design.pk}/charts/timeline/").json()
    assert chart["type"] == "line" and chart["unit"] == "fraction"
    assert chart["labels"][0] == "year 0" and len(chart["labels"]) == 6
    assert chart["datasets"][0]["data"][0] == pytest.approx(0.6, abs=0.01)
    assert chart["datasets"][1]["data"] == [0.8] * 6


def test_choosing_an_option_makes_a_variant_compare_shows(web, alice, design):
    r = web(alice).post(f"/designs/{design.pk}/growth/0/")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    assert r.status_code == 302 and r["Location"] == f"/designs/compare/?ids={design.pk},{variant.pk}"
    assert variant.variant_of == design
    assert variant.to_document()["vdevs"][0]["count"] == 2  # a second raidz2 vdev
    assert "add a raidz2" in variant.description
    page = web(alice).get(r["Location"]).content.decode()
    assert variant.name in page and design.name in page


def test_an_option_that_is_no_longer_there_is_a_404(web, alice, design):
    assert web(alice).post(f"/designs/{design.pk}/growth/9/").status_code == 404


def test_the_host_form_sets_and_removes_the_growth_block(web, alice, team):
    design = save_design_document(team, design_document("tank"), alice)
    body = {"revision": design.revision, "host-growth_percent": "25", "host-horizon_years": "",
            "host-fill_limit_percent": "85", "host-price_change_percent": "-10", "host-energy_price": "0.3"}
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", body, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    design = PoolDesign.objects.get(pk=design.pk)
    assert design.to_document()["growth"] == {"per_year": 0.25, "horizon_years": 5, "fill_limit": 0.85,
                                             "price_change_per_year": -0.1, "energy_price_per_kwh": 0.3}
    form = web(alice).get(f"/designs/{design.pk}/designer/host/").content.decode()
    assert 'name="host-growth_percent" value="25.0"' in form or 'value="25"' in form
    body = {"revision": design.revision, "host-growth_percent": ""}
    web(alice).post(f"/designs/{design.pk}/designer/host/", body, HTTP_HX_REQUEST="true")
    assert "growth" not in PoolDesign.objects.get(pk=design.pk).to_document()


def test_an_absurd_growth_rate_is_refused_on_its_field(web, alice, team):
    design = save_design_document(team, design_document("tank"), alice)
    body = {"revision": design.revision, "host-growth_percent": "900"}
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", body, HTTP_HX_REQUEST="true")
    assert r.status_code == 422
    assert "less than or equal to 500" in r.content.decode()


QUICK = "/plan/?layout=raidz2&disks=6&vdevs=1&size=8TB&version=2.3&data=24TB"


def test_the_quick_planner_shows_the_year_the_pool_fills(client):
    doc = client.get(QUICK.replace("/plan/?", "/plan/design.json?") + "&growth=30").json()
    assert doc["growth"] == {"per_year": 0.3, "horizon_years": 5, "fill_limit": 0.8}
    year = estimate(parse_design(doc)).timeline.fill_limit_year
    assert year is not None and year >= 1
    page = client.get(QUICK + "&growth=30").content.decode()
    assert f'id="fills" data-year="{year}"' in page and f"year {year}" in page
    assert 'id="fills"' not in client.get(QUICK).content.decode()  # no growth typed: no such figure


def test_the_quick_planner_refuses_an_absurd_growth_on_its_field(client):
    page = client.get(QUICK + "&growth=900").content.decode()
    assert 'id="fills"' not in page
    assert "less than or equal to 500" in page


def test_a_priced_design_shows_the_cost_per_usable_tb_year_of_each_path(web, alice, team):
    doc = growing_document()
    doc["vdevs"][0]["price_per_disk"] = "300"
    design = save_design_document(team, doc, alice)
    line = estimate(parse_design(design.to_document())).timeline
    add = line.options[0]
    assert add.cost == 1800.0 and add.cost_per_usable_tb_year is not None
    page = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert f'<dd class="per-tb-year">{add.cost_per_usable_tb_year:,.2f} ' in page
    assert f"{line.cost_per_usable_tb_year:,.2f} per usable TB-year over 5 years" in page


def test_the_catalogs_watts_reach_each_option_and_its_card(web, client_for, alice, team):
    from zfsplanner.plans.models import CatalogDisk

    CatalogDisk.objects.filter(model="ST14000NM001G").update(watts=7.5)
    doc = growing_document(energy_price_per_kwh=0.25)
    doc["vdevs"][0]["disk"] = {"catalog": "ST14000NM001G"}
    design = save_design_document(team, doc, alice)
    line = client_for(alice).get(f"/api/designs/{design.pk}/estimate/").json()["timeline"]
    assert (line["watts"], line["energy_cost_per_year"]) == (45.0, round(45 * 8766 / 1000 * 0.25, 2))
    add = line["options"][0]
    assert add["kind"] == "add-vdev" and add["watts"] == 90.0
    assert add["energy_cost_per_year"] == 197.24  # 90 W × 8766 h = 788.94 kWh, × 0.25
    page = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert '<dd class="power">90.0 W, 197.24 a year in energy</dd>' in page
    assert '<span class="power-now">45.0 W, 98.62 a year in energy</span>' in page


def test_a_card_says_how_many_disks_give_no_watts(web, alice, team):
    design = save_design_document(team, growing_document(), alice)
    page = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert '<dd class="power">not known: 12 disks give no watts</dd>' in page
