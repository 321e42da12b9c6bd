"""Small defects of the design pages: the dRAID label, compare's pre-ticks, the share page's links,
and one-time messages that must not outlive the page they were meant for."""

import re

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.commands import vdev_type_word
from zfsplanner.core.design import parse_design
from zfsplanner.core.estimate import estimate_document
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.presentation import summarize

pytestmark = pytest.mark.django_db


def draid_document(**group):
    doc = design_document("tank")
    doc["vdevs"][0].update({"layout": "draid2", "width": 24, "draid_spares": 2, **group})
    return doc


# ------------------------------------------------------------------ the dRAID label


@pytest.mark.parametrize(
    ("group", "word"),
    [({}, "draid2:8d:24c:2s"), ({"draid_data": 4}, "draid2:4d:24c:2s"), ({"draid_spares": 0}, "draid2:8d:24c")],
)
def test_the_designer_and_the_design_page_name_a_draid_vdev_as_zpool_create_does(group, word, team, alice, web):
    doc = draid_document(**group)
    assert vdev_type_word(parse_design(doc).vdevs[0]) == word  # the commands' word is the reference
    shape = summarize(estimate_document(doc), doc).vdevs[0].shape
    assert shape == word
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    client = web(alice)
    for page in (f"/designs/{design.pk}/designer/", f"/designs/{design.pk}/"):
        html = client.get(page).content.decode()
        assert word in html, page
        assert "?d" not in html, page


# ------------------------------------------------------------------ compare a variant with its design


def test_compare_from_a_variant_pre_ticks_the_design_it_came_from_and_the_variant(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    other = PoolDesignFactory(team=team, name="backup", document=design_document("backup"))
    client = web(alice)
    response = client.post(f"/designs/{design.pk}/duplicate/")
    variant = PoolDesign.objects.get(name="tank-v2")
    assert response["Location"] == f"/designs/{variant.pk}/designer/"
    assert variant.variant_of == design

    compare = f"/designs/compare/?ids={design.pk},{variant.pk}"
    designer = client.get(response["Location"]).content.decode()
    assert f'href="{compare}" id="compare-origin">Compare with tank</a>' in designer
    detail = client.get(f"/designs/{variant.pk}/").content.decode()
    assert f'href="{compare}" id="compare-link"' in detail

    page = client.get(compare).content.decode()
    ticked = set(re.findall(r'name="ids" value="(\d+)" checked', page))
    assert ticked == {str(design.pk), str(variant.pk)} and str(other.pk) not in ticked
    assert 'id="compare-summary"' in page


def test_a_design_that_is_no_variant_pre_ticks_itself_only(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert f'href="/designs/compare/?ids={design.pk}" id="compare-link"' in html
    assert 'id="compare-origin"' not in web(alice).get(f"/designs/{design.pk}/designer/").content.decode()


def test_deleting_the_original_leaves_the_variant_whole(team, alice, web):
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    web(alice).post(f"/designs/{design.pk}/duplicate/")
    variant = PoolDesign.objects.get(name="tank-v2")
    web(alice).post(f"/designs/{design.pk}/delete/")
    variant.refresh_from_db()
    assert variant.variant_of is None
    assert f'?ids={variant.pk}" id="compare-link"' in web(alice).get(f"/designs/{variant.pk}/").content.decode()


# ------------------------------------------------------------------ the share page's downloads


def test_the_share_page_links_the_report_markdown_csv_and_json_and_each_opens_without_login(team, alice, web):
    from zfsplanner.plans.services import create_share_link

    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    token = create_share_link(design, alice).token
    reader = web()
    page = reader.get(f"/share/{token}/").content.decode()
    links = dict(re.findall(r'href="([^"]+)"(?: download)? id="(share-[a-z-]+)"', page))
    by_id = {v: k for k, v in links.items()}
    assert set(by_id) == {"share-report", "share-report-md", "share-estimate-csv", "share-export"}
    expected = {
        "share-report": "text/html",
        "share-report-md": "text/markdown",
        "share-estimate-csv": "text/csv",
        "share-export": "application/json",
    }
    for link_id, content_type in expected.items():
        response = reader.get(by_id[link_id])
        assert response.status_code == 200, link_id
        assert response["Content-Type"].startswith(content_type), link_id
        assert by_id[link_id].startswith(f"/share/{token}/")
    assert "tank" in reader.get(by_id["share-report"]).content.decode()
