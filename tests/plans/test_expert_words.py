"""Words an expert reads closely: powers of ten, special_small_blocks, USED below the data written,
messages that do not repeat their label, NVMe, catalog options, the advisor's fill note, the quick
planner's bar, the compare table's unit and the share page's cost for a reader who cannot edit."""

import re

import pytest
from django.test import Client

from tests.factories import CatalogDiskFactory, PoolDesignFactory, design_document
from zfsplanner.core.report.words import probability_text, scientific
from zfsplanner.plans.forms.vdevs import catalog_label
from zfsplanner.plans.services import create_share_link

pytestmark = pytest.mark.django_db

SSD = {"size_bytes": 1000204886016, "model": "MZ-77E1T0", "logical_sector_bytes": 512,
       "physical_sector_bytes": 512, "media": "ssd"}
NVME = {"size_bytes": 1920383410176, "model": "MZQL21T9HCJR", "logical_sector_bytes": 512,
        "physical_sector_bytes": 4096, "media": "nvme"}
REFERENCE = "layout=raidz2&disks=8&vdevs=1&size=16TB&special=1TB&slog=16GB&recordsize=1M&compression=zstd&data=20TB"


def with_special(doc, disk=SSD):
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 3, "count": 1, "ashift": 12, "disk": disk})
    return doc


def test_powers_of_ten_are_raised_not_written_with_a_caret():
    assert probability_text(1e-7) == "1 in 1.0 × 10⁷"
    assert scientific(4.2e-5) == "4.2 × 10⁻⁵"


def test_the_design_page_writes_no_caret_power(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert "10^" not in html and re.search(r"× 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+", html)


def test_special_small_blocks_off_is_said_once_in_brackets(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=with_special(design_document("tank")))
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert "<code>special_small_blocks</code> off (metadata only): it puts" in html
    assert "(off (metadata only))" not in html


def test_used_below_the_data_written_is_explained_on_the_page_and_in_the_report(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"][0]["width"] = 8  # 8-wide raidz2: a 1M record is charged about 0.95 of its size
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    client = web(alice)
    page = client.get(f"/designs/{design.pk}/").content.decode()
    assert "USED is below the data written: zfs list charges each block on RAIDZ/dRAID at the parity and padding " \
        "share of a 128 KiB block" in page
    report = client.get(f"/designs/{design.pk}/report/").content.decode()
    assert "tank/data: USED is below the data written" in report


def test_a_6_wide_raidz2_charges_1m_records_about_in_full_and_needs_no_note(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    assert "USED is below" not in web(alice).get(f"/designs/{design.pk}/").content.decode()


def test_a_size_error_does_not_repeat_its_label():
    html = Client().get("/plan/?layout=raidz2&disks=8&vdevs=1&size=abc").content.decode()
    assert "<strong>Disk size:</strong> &#x27;abc&#x27; is not a size" in html
    assert "The disk size:" not in html


def test_nvme_is_written_as_its_makers_write_it(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=with_special(design_document("tank"), NVME))
    client = web(alice)
    page = client.get(f"/designs/{design.pk}/").content.decode()
    assert "NVMe" in page and "NVME" not in page
    host = client.get(f"/designs/{design.pk}/designer/host/").content.decode()
    assert "Read errors, NVMe (bits read per error)" in host and "NVME" not in host


def test_a_catalog_option_starts_with_what_tells_disks_apart():
    disk = CatalogDiskFactory(model="ST24000TEST", vendor="Seagate", name="Exos X24 24TB SATA",
                              capacity_bytes=24000277250048, media="hdd", price=450,
                              logical_sector_bytes=512, physical_sector_bytes=4096)
    assert catalog_label(disk) == "24 TB HDD 512e · Seagate Exos X24 24TB SATA · 450 (18.7/TB) · ST24000TEST"


def test_the_advisor_explains_the_fill_mark_it_shows(alice, web):
    html = web(alice).get("/advisor/?disk_1=ST16000NM001G&count_1=8&data_tb=10&growth_percent=20&years=3"
                          "&recordsize=1048576&profile=mixed&openzfs_version=2.4").content.decode()
    assert 'id="advisor-table"' in html
    assert '"Fits"' not in html
    assert "past 80 % it is marked" in html


def test_the_quick_planners_bar_names_the_special_and_log_mirrors_it_includes():
    chart = Client().get(f"/plan/chart/?{REFERENCE}").json()
    assert chart["labels"] == ["1 × raidz2 of 8 × 16TB + special mirror of 1TB + SLOG mirror of 16GB"]
    plain = Client().get("/plan/chart/?layout=raidz2&disks=8&vdevs=1&size=16TB").json()
    assert plain["labels"] == ["1 × raidz2 of 8 × 16TB"]


@pytest.mark.parametrize(("unit", "raw"), [("TB", "84.00 TB"), ("TiB", "76.40 TiB")])
def test_the_compare_table_follows_the_readers_unit(unit, raw, team, alice, web):
    a = PoolDesignFactory(team=team, name="a", document=design_document("a"))
    b = PoolDesignFactory(team=team, name="b", document=design_document("b"))
    html = web(alice).get(f"/designs/compare/?ids={a.pk},{b.pk}&unit={unit}").content.decode()
    row = re.search(r'<tr data-row="raw">.*?</tr>', html, re.S).group(0)
    assert row.count(raw) == 2, row
    usable = re.search(r'<tr data-row="usable">.*?</tr>', html, re.S).group(0)
    assert f" {unit}</span>" in usable
    assert f'id="unit-switch" rel="nofollow">Show sizes in {"TiB" if unit == "TB" else "TB"}' in html


def test_the_share_page_does_not_send_its_reader_to_the_designer_for_prices(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=with_special(design_document("tank")))
    link = create_share_link(design, alice)
    shared = web().get(f"/share/{link.token}/").content.decode()
    own = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert "disks: give each disk group a price per disk in the designer." in own
    assert "in the designer" not in shared and "disks: the cost needs a price for every disk." in shared
