"""The glossary page and its links: every entry the brief names, linked once from each page's first use."""

import re

import pytest
from django.template import Context, Template, TemplateSyntaxError

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.glossary import BY_SLUG, SEGMENT_TERMS

pytestmark = pytest.mark.django_db


def test_the_glossary_explains_each_word_under_its_anchor(web):
    html = web().get("/glossary/").content.decode()
    for slug, words in (("draid", "draid2:5d:8c:1s"), ("slop", "1/32"), ("plp", "power-loss"), ("zil", "intent log"),
                        ("slog", "separate log"), ("special", "metadata"), ("ashift", "4 KiB")):
        entry = re.search(rf'<dt id="{slug}">(.*?)</dd>', html, re.S)
        assert entry and words in entry.group(1), slug


def test_the_slop_entry_gives_openzfs_bounds():
    # spa_misc.c: spa_slop_shift = 5, spa_min_slop = 128 MiB, spa_max_slop = 128 GiB
    assert "at least 128 MiB and at most 128 GiB" in BY_SLUG["slop"].text


def test_a_word_is_linked_at_its_first_use_only():
    html = Template('{% load glossary %}{% term "slop" %}, {% term "slop" "Slop" %}, {% term "zil" "ZIL" %}').render(
        Context()
    )
    assert html == ('<a class="term" href="/glossary/#slop" title="slop space">slop space</a>, Slop, '
                    '<a class="term" href="/glossary/#zil" title="ZIL (ZFS intent log)">ZIL</a>')


def test_a_word_the_glossary_lacks_fails_where_it_is_written():
    with pytest.raises(KeyError):
        Template('{% load glossary %}{% term "zfs-magic" %}').render(Context())
    with pytest.raises(TemplateSyntaxError):
        Template("{% load glossary %}{% term %}")


def test_every_breakdown_part_the_glossary_explains_names_an_entry():
    assert set(SEGMENT_TERMS.values()) <= set(BY_SLUG)


@pytest.mark.parametrize("page", ["design", "designer", "share"])
def test_the_design_pages_link_each_word_once(page, team, alice, web):
    from zfsplanner.plans.services import create_share_link

    doc = design_document("tank")
    doc["vdevs"][0].update({"layout": "draid2", "width": 8, "draid_data": 5, "draid_spares": 1})
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    url = {"design": f"/designs/{design.pk}/", "designer": f"/designs/{design.pk}/designer/",
           "share": f"/share/{create_share_link(design, alice).token}/"}[page]
    html = web(alice).get(url).content.decode()
    for slug in ("slop", "zil", "slog", "special", "ashift", "draid"):
        assert html.count(f'href="/glossary/#{slug}"') == 1, slug
    assert '<a class="term" href="/glossary/#draid" title="dRAID and its names (draid2:5d:8c:1s)">' \
        'draid2:5d:8c:1s</a>' in html


def test_the_quick_planner_links_slop_in_its_breakdown(web):
    html = web().get("/plan/").content.decode()
    assert html.count('href="/glossary/#slop"') == 1


def test_designs_is_the_designs_list(alice, web):
    response = web(alice).get("/designs/?q=tank")
    assert response.status_code == 302 and response["Location"] == "/?q=tank"


def test_the_quick_planner_links_plp_after_its_checkbox(web):
    html = web().get("/plan/").content.decode()
    assert ('The SLOG SSDs have power-loss protection</label> (<a class="term" href="/glossary/#plp" '
            'title="PLP (power-loss protection)">PLP</a>)') in html
