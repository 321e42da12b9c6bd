"""Sizes in one unit at a time: the user's preference (profile), overridden by ?unit=TB|TiB, on the
design page, the shared page, the designer and the report."""

from __future__ import annotations

import re

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.models import Profile
from zfsplanner.plans.models import ShareLink

pytestmark = pytest.mark.django_db

# The test design: 6 × 14,000,519,643,136-byte disks.
RAW_TIB, RAW_TB = "76.40 TiB", "84.00 TB"


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


def _cards(html: str) -> dict[str, str]:
    """The text of each summary card, by id."""
    summary = html.split('id="summary"', 1)[1].split("<figure", 1)[0]
    cards = re.findall(r'<div class="figure[^"]*" id="([a-z-]+)">(.*?)\n    </div>', summary, re.S)
    return {key: re.sub(r"<[^>]+>", "", body) for key, body in cards}


def _units_in(text: str) -> set[str]:
    return set(re.findall(r"\d (TiB|GiB|MiB|TB|GB|MB)\b", text))


def test_the_cards_use_one_unit_at_a_time(web, alice, design):
    cards = _cards(web(alice).get(f"/designs/{design.pk}/").content.decode())
    assert {"usable", "raw", "efficiency", "survives", "risk-counts"} <= set(cards)
    assert RAW_TIB in cards["raw"]
    for key, text in cards.items():
        assert _units_in(text) <= {"TiB", "GiB", "MiB"}, (key, text)
    cards = _cards(web(alice).get(f"/designs/{design.pk}/?unit=TB").content.decode())
    assert RAW_TB in cards["raw"]
    for key, text in cards.items():
        assert _units_in(text) <= {"TB", "GB", "MB"}, (key, text)


def test_the_usable_label_is_whole(web, alice, design):
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert '<div class="label">Usable space</div>' in html
    assert "Usable space (" not in html
    usable = _cards(html)["usable"]
    assert "What zfs list shows as AVAIL for the empty pool" in usable  # every figure says what it is


def test_the_profile_preference_sets_the_unit(web, alice, design):
    client = web(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="size_unit" value="TiB"' in page and "checked" in page.split('value="TiB"')[1][:40]
    r = client.post("/accounts/profile/", {"size_unit": "TB"})
    assert r.status_code == 302 and Profile.objects.get(user=alice).size_unit == "TB"
    html = client.get(f"/designs/{design.pk}/").content.decode()
    assert RAW_TB in _cards(html)["raw"] and 'data-unit="TB"' in html
    assert "Show sizes in TiB" in html
    designer = client.get(f"/designs/{design.pk}/designer/").content.decode()
    assert 'data-unit="TB"' in designer and "Usable <strong>" in designer and " TB</strong>" in designer


def test_the_url_overrides_the_preference(web, alice, design):
    Profile.objects.create(user=alice, size_unit="TB")
    client = web(alice)
    assert RAW_TIB in _cards(client.get(f"/designs/{design.pk}/?unit=TiB").content.decode())["raw"]
    assert RAW_TB in _cards(client.get(f"/designs/{design.pk}/").content.decode())["raw"]
    # Anything else is ignored: the preference stands.
    assert RAW_TB in _cards(client.get(f"/designs/{design.pk}/?unit=T").content.decode())["raw"]


def test_a_bad_preference_is_refused(web, alice):
    r = web(alice).post("/accounts/profile/", {"size_unit": "PB"})
    assert r.status_code == 422 and not Profile.objects.filter(user=alice).exists()


def test_anonymous_readers_of_a_share_link_choose_by_url(client, design):
    link = ShareLink.objects.create(design=design)
    tib = client.get(f"/share/{link.token}/").content.decode()
    tb = client.get(f"/share/{link.token}/?unit=TB").content.decode()
    assert RAW_TIB in _cards(tib)["raw"] and RAW_TB in _cards(tb)["raw"]
    again = client.get(f"/share/{link.token}/").content.decode()  # served from the cache: still TiB
    assert RAW_TIB in _cards(again)["raw"]


def test_the_report_follows_the_unit(web, alice, design, client):
    page = web(alice).get(f"/designs/{design.pk}/report/?unit=TB").content.decode()
    assert "<strong>Raw disks:</strong> 84.00 TB" in page
    assert "<strong>Raw disks:</strong> 76.40 TiB" in web(alice).get(f"/designs/{design.pk}/report/").content.decode()
    Profile.objects.create(user=alice, size_unit="TB")
    from django.core.cache import cache

    cache.clear()  # the preference is read through the cache; a profile saved elsewhere clears it by saving
    md = web(alice).get(f"/api/designs/{design.pk}/report.md").content.decode()
    assert "- **Raw disks:** 84.00 TB" in md
    link = ShareLink.objects.create(design=design)
    md = client.get(f"/share/{link.token}/report.md?unit=TB").content.decode()
    assert "- **Raw disks:** 84.00 TB" in md


def test_the_page_and_the_report_show_the_same_headline(web, alice, design):
    """One presentation feeds both: the survivors and risks text are the page's, word for word."""
    client = web(alice)
    cards = _cards(client.get(f"/designs/{design.pk}/").content.decode())
    md = client.get(f"/api/designs/{design.pk}/report.md").content.decode()
    usable = re.search(r"\d+\.\d\d TiB", cards["usable"]).group(0)
    assert f"- **Usable space:** {usable}" in md
    survives = cards["survives"].split("The fewest")[0].replace("Disk failures survived", "").strip()
    assert f"- **Disk failures survived:** {survives}" in md


def test_the_capacity_chart_follows_the_unit(web, alice, design):
    client = web(alice)
    assert client.get(f"/designs/{design.pk}/charts/breakdown/?unit=TB").json()["unit"] == "bytes_si"
    assert client.get(f"/designs/{design.pk}/charts/breakdown/?unit=TiB").json()["unit"] == "bytes"
    html = client.get(f"/designs/{design.pk}/?unit=TB").content.decode()
    assert f'data-chart-url="/designs/{design.pk}/charts/breakdown/?unit=TB"' in html


def test_the_report_page_carries_the_unit_to_its_links(web, alice, design):
    page = web(alice).get(f"/designs/{design.pk}/report/?unit=TB").content.decode()
    assert f'href="/api/designs/{design.pk}/report.md?unit=TB"' in page
    assert f'href="/designs/{design.pk}/?unit=TB">Back to the design' in page
    plain = web(alice).get(f"/designs/{design.pk}/report/").content.decode()
    assert f'href="/api/designs/{design.pk}/report.md"' in plain


def _values(html: str, ident: str) -> str:
    """The figures (value cells, per-disk notes and captions) of the card section ``ident``; a disk's
    label size ("disks of at least 166.00 MB") is SI by nature and not among them."""
    body = html.split(f'id="{ident}"', 1)[1].split("</section>", 1)[0]
    figure = r'class="(?:value[^"]*|explain)">(.*?)</(?:div|span)>|<figcaption>(.*?)</figcaption>'
    cells = re.findall(figure, body, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", a or b) for a, b in cells)


def test_the_planning_cards_follow_the_unit_too(web, alice, design):
    """Special vdev size, the per-disk rebuild figure and the SLOG size: the reader's unit, as the
    summary cards (RAM keeps GiB: memory is bought in binary units)."""
    client = web(alice)
    for query, family in (("", {"TiB", "GiB", "MiB"}), ("?unit=TB", {"TB", "GB", "MB"})):
        html = client.get(f"/designs/{design.pk}/{query}").content.decode()
        special, reliability = _values(html, "special-sizing"), _values(html, "reliability")
        assert _units_in(special) and _units_in(special) <= family, (query, special)
        assert _units_in(reliability) and _units_in(reliability) <= family, (query, reliability)
        slog = html.split('id="slog-size"', 1)[1].split("</div>", 2)[1]
        assert _units_in(slog) <= family, (query, slog)


def test_the_designer_shows_the_planning_cards(web, alice, design):
    """The designer's fold holds the same cards as the design page, not "does not apply"."""
    html = web(alice).get(f"/designs/{design.pk}/designer/?unit=TB").content.decode()
    fold = html.split('id="planning-answers"', 1)[1].split("</aside>", 1)[0]
    assert "this estimate has no special vdev sizing" not in fold
    assert "Special class size to aim for" in fold and 'id="reliability"' in fold
    assert _units_in(_values(fold, "special-sizing")) <= {"TB", "GB", "MB"}
