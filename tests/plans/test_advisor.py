"""The layout advisor: the page (form, sortable table, one-click design) and POST /api/advisor/."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from zfsplanner.plans.models import CatalogDisk, PoolDesign

pytestmark = pytest.mark.django_db
MODEL = "ST16000NM001G"
QUERY = {"disk_1": MODEL, "count_1": "12", "price_1": "300", "data_tb": "40", "growth_percent": "20", "years": "3",
         "recordsize": "1048576", "profile": "mixed", "openzfs_version": "2.3"}


def _layouts(html: str) -> list[str]:
    return re.findall(r'<tr data-layout="([^"]+)"', html)


def test_the_page_asks_first(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/")
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="advisor-form"' in html and "<table" not in html


def _losses(html: str) -> list[str]:
    return re.findall(r'<tr data-layout="[^"]+" data-loss="([a-z]+)"', html)


def test_it_lists_every_layout_cheapest_per_usable_tb_first(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", QUERY).content.decode()
    layouts, losses = _layouts(html), _losses(html)
    assert "6 × 2-way mirror" in layouts and "2 × raidz2 of 6" in layouts and "draid2:8d:12c:1s" in layouts
    assert losses[0] != "critical" and "3-way mirror" in layouts[losses.index("critical") - 1]  # a third of the space
    assert "best cost per usable TB first" in html
    assert 'aria-sort="ascending"' in html


def test_a_layout_likely_to_lose_data_is_marked_and_never_first(client, alice):
    """12 × 16 TB: raidz1 of 6 is the cheapest per usable TB, and its five-year chance of losing
    some data is over 10 % (a read error while rebuilding with no parity left), so it is marked
    and listed after every layout that is not as risky."""
    client.force_login(alice)
    html = client.get("/advisor/", QUERY).content.decode()
    layouts, losses = _layouts(html), _losses(html)
    critical = [layout for layout, loss in zip(layouts, losses, strict=True) if loss == "critical"]
    assert "2 × raidz1 of 6" in critical
    assert losses == sorted(losses, key=lambda x: x == "critical")  # every critical row after the others
    assert html.count("very high chance of data loss") == len(critical)
    assert "10 % or more" in html and "1 % or more" in html  # the thresholds are on the page


def test_a_column_heading_sorts_by_it(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", {**QUERY, "sort": "loss_5y"}).content.decode()
    layouts = _layouts(html)
    assert "raidz3" in layouts[0] or "draid3" in layouts[0]  # three failures survived: the least risk
    assert "sort=random_read_iops" in html  # the other headings link to their own sort


def test_htmx_gets_the_results_alone(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", QUERY, headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<section id="advisor-results"') and "<html" not in html


def test_bad_input_comes_back_with_422_and_the_field(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/", {**QUERY, "count_1": "1", "years": "99"})
    assert r.status_code == 422
    html = r.content.decode()
    assert "greater than or equal to 2" in html and "less than or equal to 30" in html


def test_a_second_disk_needs_a_count(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/", {**QUERY, "disk_2": "WD40EFZX"})
    assert r.status_code == 422 and "How many of this disk?" in r.content.decode()


def test_several_disks_are_compared(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", {**QUERY, "disk_2": "WD40EFZX", "count_2": "8"}).content.decode()
    assert "Seagate ST16000NM001G" in html and "Western Digital WD40EFZX" in html


def test_one_click_turns_a_row_into_a_design(client, alice, team):
    client.force_login(alice)
    pick = f"Seagate {MODEL} | 2 × raidz2 of 6"
    r = client.post("/advisor/create/", {**QUERY, "team": team.pk, "name": "bulk", "pick": pick})
    design = PoolDesign.objects.get(team=team, name="bulk")
    assert r.status_code == 302 and r["Location"] == f"/designs/{design.pk}/"
    doc = design.to_document()
    (vdev,) = doc["vdevs"]
    assert (vdev["layout"], vdev["width"], vdev["count"]) == ("raidz2", 6, 2)
    assert vdev["disk"]["model"] == MODEL
    assert doc["datasets"][0]["name"] == "bulk/data"
    assert doc["datasets"][0]["contents"]["logical_bytes"] == int(40e12 * 1.2**3)


def test_a_viewer_cannot_create_and_nothing_is_saved(client, bob, team):
    client.force_login(bob)
    html = client.get("/advisor/", QUERY).content.decode()
    assert "not an owner or editor" in html and "Create design" not in html
    pick = f"Seagate {MODEL} | 2 × raidz2 of 6"
    r = client.post("/advisor/create/", {**QUERY, "team": team.pk, "name": "x", "pick": pick})
    assert r.status_code == 422 and not PoolDesign.objects.filter(name="x").exists()


def test_an_unknown_row_is_refused(client, alice, team):
    client.force_login(alice)
    pick = f"Seagate {MODEL} | 5 × nonsense"
    r = client.post("/advisor/create/", {**QUERY, "team": team.pk, "name": "x", "pick": pick})
    assert r.status_code == 422 and "is not one of the advisor" in r.content.decode()


def test_the_histogram_of_a_design_can_be_used(client, alice, team):
    from tests.factories import PoolDesignFactory, design_document

    doc = design_document("src")
    doc["datasets"][0]["contents"] = {"file_size_histogram": [[4096, 10_000_000], [1 << 20, 1000]]}
    source = PoolDesignFactory(team=team, document=doc)
    client.force_login(alice)
    r = client.get("/advisor/", {**QUERY, "data_tb": "0", "from_design": source.pk})
    assert r.status_code == 200 and _layouts(r.content.decode())


def test_the_page_needs_a_login(client):
    assert client.get("/advisor/").status_code == 302


def test_catalog_prices_are_used_unless_overridden(client, alice):
    CatalogDisk.objects.filter(model=MODEL).update(price=250, price_currency="EUR")
    client.force_login(alice)
    html = client.get("/advisor/", {**QUERY, "price_1": ""}).content.decode()
    assert "3,000 EUR" in html  # 12 × 250


# --------------------------------------------------------------------------- API


def test_the_api_gives_rows_with_their_design_documents(alice, client_for):
    body = {"candidates": [{"catalog": MODEL, "count": 12, "price": 300, "currency": "EUR"}],
            "data": {"logical_bytes": "40TB", "growth_per_year": 0.2, "years": 3}, "sort": "usable_bytes"}
    api = client_for(alice)
    r = api.post("/api/advisor/", body, format="json")
    assert r.status_code == 200
    rows = r.json()["rows"]
    for level in (False, True):  # best usable space first, and critical rows after the others
        usable = [x["usable_bytes"] for x in rows if (x["loss_level"] == "critical") is level]
        assert usable == sorted(usable, reverse=True)
    assert [x["loss_level"] == "critical" for x in rows] == sorted(x["loss_level"] == "critical" for x in rows)
    first = rows[0]
    assert first["currency"] == "EUR" and first["cost"] == 3600
    assert first["document"]["vdevs"][0]["disk"]["model"] == MODEL
    created = api.post("/api/designs/", {**first["document"], "team": alice.memberships.first().team_id}, format="json")
    assert created.status_code == 201


def test_the_api_names_each_bad_field(alice, client_for):
    body = {"candidates": [{"catalog": "NOPE", "count": 1}, {"disk": {"size_bytes": "14T"}, "count": 4}],
            "data": {"logical_bytes": "lots", "years": 99}, "options": {"openzfs_version": "9"}, "sort": "x"}
    r = client_for(alice).post("/api/advisor/", body, format="json")
    assert r.status_code == 400
    fields = {e["field"] for e in r.json()["errors"]}
    assert {"candidates[0].count", "candidates[0].catalog", "data.logical_bytes", "data.years",
            "options.openzfs_version", "sort"} <= fields
    r = client_for(alice).post("/api/advisor/", {**body, "candidates": [{"disk": {"size_bytes": "14T"}, "count": 4}],
                                                 "data": {"logical_bytes": 10**12}, "options": {}, "sort": "loss_5y"},
                               format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "candidates[0].disk.size_bytes"


def test_the_api_reads_a_file_size_histogram_by_the_design_formats_rule(alice, client_for):
    """The same rule as a design's contents.file_size_histogram: each bad pair named at its own path,
    counts up to the design's file limit; a good histogram plans the data."""
    base = {"candidates": [{"catalog": MODEL, "count": 6}], "options": {}, "sort": "usable_bytes"}
    bad = {"logical_bytes": "10TB", "file_size_histogram": [[4096, 10], [4096, -1], "x", [1, 2**49]]}
    r = client_for(alice).post("/api/advisor/", {**base, "data": bad}, format="json")
    assert r.status_code == 400
    fields = [e["field"] for e in r.json()["errors"]]
    assert fields == ["data.file_size_histogram[1]", "data.file_size_histogram[2]", "data.file_size_histogram[3]"]
    good = {"logical_bytes": "10TB", "file_size_histogram": [[4096, 1000], [1 << 20, 1000]], "file_count": 2**40}
    assert client_for(alice).post("/api/advisor/", {**base, "data": good}, format="json").status_code == 200


def test_the_api_needs_authentication(api_client):
    assert api_client.post("/api/advisor/", {}, format="json").status_code in (401, 403)


# --------------------------------------------------------------------------- disks not in the catalog, prices


CUSTOM_QUERY = {**QUERY, "disk_1": "custom", "count_1": "24", "size_1": "20TB", "sector_1": "512e", "media_1": "hdd",
                "price_1": "389.90", "data_tb": "200"}


def test_a_disk_not_in_the_catalog_is_planned_from_its_size_and_format(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/", CUSTOM_QUERY)
    assert r.status_code == 200
    html = r.content.decode()
    layouts = _layouts(html)
    assert "2 × raidz2 of 12" in layouts and "draid2:8d:24c:2s" in layouts and "12 × 2-way mirror" in layouts
    assert "24 × 20 TB HDD, 512e (custom)" in html
    assert "9,358" in html  # 24 × 389.90, the cost of every row


def test_a_custom_disk_needs_a_readable_size(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/", {**CUSTOM_QUERY, "size_1": ""})
    assert r.status_code == 422 and "Type the disk&#x27;s size with its unit" in r.content.decode()
    r = client.get("/advisor/", {**CUSTOM_QUERY, "size_1": "20T"})
    assert r.status_code == 422 and "ambiguous" in r.content.decode()  # a label's T or ZFS's T?


def test_an_unknown_catalog_disk_is_refused(client, alice):
    client.force_login(alice)
    r = client.get("/advisor/", {**QUERY, "disk_1": "NOT-A-DISK"})
    assert r.status_code == 422 and "NOT-A-DISK" in r.content.decode()


def test_the_typed_price_of_a_custom_disk_goes_into_the_design_and_its_cost(client, alice, team):
    client.force_login(alice)
    pick = "20 TB HDD, 512e (custom) | 2 × raidz2 of 12"
    r = client.post("/advisor/create/", {**CUSTOM_QUERY, "team": team.pk, "name": "big", "pick": pick})
    design = PoolDesign.objects.get(team=team, name="big")
    assert r.status_code == 302
    (vdev,) = design.to_document()["vdevs"]
    assert (vdev["layout"], vdev["width"], vdev["count"]) == ("raidz2", 12, 2)
    assert vdev["disk"]["size_bytes"] == 20 * 10**12
    assert (vdev["disk"]["logical_sector_bytes"], vdev["disk"]["physical_sector_bytes"]) == (512, 4096)
    assert Decimal(str(vdev["price_per_disk"])) == Decimal("389.90")
    page = client.get(f"/designs/{design.pk}/").content.decode()
    cost = re.search(r'id="cost">(.*?)</div>\s*</div>', page, re.S).group(1)
    assert "unknown" not in cost and "9357.60 for 24 disks" in cost  # the group's price, no catalog price needed


def test_a_typed_price_wins_over_the_catalog_price_in_the_design(client, alice, team):
    CatalogDisk.objects.filter(model=MODEL).update(price=250, price_currency="EUR")
    client.force_login(alice)
    pick = f"Seagate {MODEL} | 2 × raidz2 of 6"
    client.post("/advisor/create/", {**QUERY, "team": team.pk, "name": "typed", "pick": pick})
    (vdev,) = PoolDesign.objects.get(team=team, name="typed").to_document()["vdevs"]
    assert Decimal(str(vdev["price_per_disk"])) == Decimal("300")
    page = client.get(f"/designs/{PoolDesign.objects.get(name='typed').pk}/").content.decode()
    assert "3600.00 for 12 disks" in page  # 12 × 300, not 12 × 250


def test_without_a_typed_price_the_design_keeps_to_the_catalog(client, alice, team):
    CatalogDisk.objects.filter(model=MODEL).update(price=250, price_currency="EUR")
    client.force_login(alice)
    pick = f"Seagate {MODEL} | 2 × raidz2 of 6"
    client.post("/advisor/create/", {**QUERY, "price_1": "", "team": team.pk, "name": "cat", "pick": pick})
    design = PoolDesign.objects.get(team=team, name="cat")
    assert "price_per_disk" not in design.to_document()["vdevs"][0]
    assert "3000.00 for 12 disks" in client.get(f"/designs/{design.pk}/").content.decode()


# --------------------------------------------------------------------------- cost per usable TB-year


def test_the_page_sorts_by_cost_per_usable_tb_year_and_offers_a_vdev_added_later(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", {**QUERY, "years": "5", "sort": "cost_per_usable_tb_year"}).content.decode()
    assert '<option value="cost_per_usable_tb_year" selected>cost per usable TB-year</option>' in html
    assert "best cost per usable TB-year first" in html
    layouts = _layouts(html)
    later = "1 × raidz2 of 6 now, one more vdev at 80 % full"
    assert any(x.startswith(later) for x in layouts) and "2 × raidz2 of 6" in layouts
    figures = [float(x.replace(",", "")) for x in re.findall(r"([\d,.]+) per TB-year", html)]
    losses = _losses(html)
    ok = [f for f, loss in zip(figures, losses, strict=True) if loss != "critical"]
    assert len(figures) == len(layouts) and ok == sorted(ok)


def test_years_the_growth_rule_refuses_leave_the_page_without_the_figure(client, alice):
    client.force_login(alice)
    html = client.get("/advisor/", {**QUERY, "years": "20"}).content.decode()
    assert "per TB-year</span>" not in html and "needs 1 to 10 years ahead" in html
    assert not any(" now, one more vdev" in x for x in _layouts(html))


def test_a_row_that_adds_a_vdev_later_becomes_a_design_with_its_growth(client, alice, team):
    client.force_login(alice)
    query = {**QUERY, "years": "5"}
    html = client.get("/advisor/", query).content.decode()
    later = next(x for x in _layouts(html) if x.startswith("1 × raidz2 of 6 now"))
    pick = f"Seagate {MODEL} | {later}"
    r = client.post("/advisor/create/", {**query, "team": team.pk, "pick": pick, "name": "later"})
    assert r.status_code == 302, r.content.decode()[:2000]
    doc = PoolDesign.objects.get(team=team, name="later").to_document()
    assert doc["vdevs"][0]["count"] == 1 and doc["growth"] == {"per_year": 0.2, "horizon_years": 5, "fill_limit": 0.8}


def test_the_api_gives_cost_per_usable_tb_year_with_a_growth_block(alice, client_for):
    body = {"candidates": [{"disk": {"size_bytes": "8TB"}, "count": 12, "price": 150}],
            "data": {"logical_bytes": "18TB", "profile": "incompressible", "recordsize": "1M"},
            "options": {"openzfs_version": "2.3.4"},
            "growth": {"per_year": 0.3, "horizon_years": 3, "fill_limit": 0.8}, "sort": "cost_per_usable_tb_year"}
    r = client_for(alice).post("/api/advisor/", body, format="json")
    assert r.status_code == 200
    rows = {x["layout"]: x for x in r.json()["rows"]}
    assert rows["1 × raidz2 of 12"]["cost_per_usable_tb_year"] == 8.22  # docs/planning.md, by hand
    later = rows["1 × raidz2 of 6 now, one more vdev at 80 % full (year 1.3)"]
    assert (later["path"], later["add_vdev_at_years"]) == ("add-vdev-later", 1.32)
    assert later["cost_per_usable_tb_year"] == 12.08
    without = client_for(alice).post("/api/advisor/", {**body, "growth": None, "sort": "usable_bytes"}, format="json")
    assert {x["cost_per_usable_tb_year"] for x in without.json()["rows"]} == {None}


def test_the_api_reads_the_growth_block_by_the_designs_rule(alice, client_for):
    body = {"candidates": [{"disk": {"size_bytes": "8TB"}, "count": 12}], "data": {"logical_bytes": "18TB"},
            "growth": {"per_year": 12, "horizon_years": 40, "fill_limit": 0.8}}
    r = client_for(alice).post("/api/advisor/", body, format="json")
    assert r.status_code == 400
    assert {e["field"] for e in r.json()["errors"]} == {"growth.per_year", "growth.horizon_years"}
