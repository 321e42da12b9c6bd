"""Figures that grow with the data (special vdev size, RAM for metadata) say they need it, with a link
to the field, rather than give the empty pool's few KiB as a target for a TB pool."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.report import markdown
from zfsplanner.plans.services import create_share_link

pytestmark = pytest.mark.django_db

SPECIAL = {"role": "special", "layout": "mirror", "width": 2, "count": 1,
           "disk": {"size_bytes": "960GB", "media": "ssd", "plp": True}}


def no_data_document():
    doc = design_document("tank")
    doc["vdevs"].append(SPECIAL)
    doc["datasets"] = [{"name": "tank/media", "recordsize": "1M"}]
    return doc


def figure(html: str, fid: str) -> str:
    m = re.search(rf'<div class="figure[^"]*" id="{fid}".*?</div>\s*</div>', html, re.S)
    assert m, fid
    return m.group(0)


def test_without_data_the_design_page_asks_for_it_and_links_the_field(alice, team):
    design = PoolDesignFactory(team=team, document=no_data_document())
    web = Client()
    web.force_login(alice)
    html = web.get(f"/designs/{design.pk}/").content.decode()
    link = f'href="/designs/{design.pk}/designer/?edit=datasets-0#id_d0-logical_size"'
    for fid in ("special-recommended", "ram-arc"):
        shown = figure(html, fid)
        assert "Needs the data to store" in shown and link in shown, shown
        assert "KiB" not in shown and "MB)" not in shown


def test_the_link_opens_the_datasets_form_at_its_data_to_store(alice, team):
    design = PoolDesignFactory(team=team, document=no_data_document())
    web = Client()
    web.force_login(alice)
    html = web.get(f"/designs/{design.pk}/designer/?edit=datasets-0").content.decode()
    assert '<details open class="row-edit"><summary>Edit</summary>' in html
    assert 'id="id_d0-logical_size"' in html
    assert web.get(f"/designs/{design.pk}/designer/?edit=datasets-9").status_code == 200  # no such row: closed


def test_with_data_the_targets_are_figures_again(alice, team):
    doc = no_data_document()
    doc["datasets"][0]["contents"] = {"logical_bytes": 20 * 10**12}
    design = PoolDesignFactory(team=team, document=doc)
    web = Client()
    web.force_login(alice)
    html = web.get(f"/designs/{design.pk}/").content.decode()
    assert "Needs the data to store" not in html
    assert "disks of at least" in figure(html, "special-recommended")


def test_a_shared_page_says_so_without_a_link_to_the_designer(team):
    design = PoolDesignFactory(team=team, document=no_data_document())
    link = create_share_link(design, None)
    html = Client().get(f"/share/{link.token}/").content.decode()
    shown = figure(html, "special-recommended")
    assert "Needs the data to store" in shown and "/designer/" not in shown


def test_the_report_says_what_it_needs_too():
    design = parse_design(no_data_document())
    md = markdown(design, estimate(design))
    assert "- **Special class size to aim for:** needs the data to store — no dataset says" in md
    assert "- **RAM to keep metadata cached:** needs the data to store" in md
