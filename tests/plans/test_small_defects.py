"""Small defects of the design pages: the dRAID label, compare's pre-ticks, the share page's links,
and one-time messages that must not outlive the page they were meant for."""

import re

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.naming import vdev_type_word
from zfsplanner.plans.models import CatalogDisk, PoolDesign
from zfsplanner.plans.presentation.summary import summarize

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
    spec = parse_design(doc)
    shape = summarize(estimate(spec), spec).vdevs[0].shape
    assert shape == word
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    client = web(alice)
    for page in (f"/designs/{design.pk}/designer/", f"/designs/{design.pk}/"):
        html = client.get(page).content.decode()
        assert word in html, page
        assert ":?d:" not in html, page


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


# ------------------------------------------------------------------ one-time messages and htmx


def messages_area(html):
    return re.search(r'<div id="messages" role="status"( hx-swap-oob="true")?>(.*?)</div>', html, re.S)


def test_a_message_is_shown_once_and_the_next_htmx_save_clears_it(team, alice, web):
    from tests.plans.test_designer import vdev_post

    client = web(alice)
    disk = CatalogDisk.objects.filter(media="hdd").first()
    fields = {"name": "tank", "openzfs_version": "2.3", "first-layout": "raidz2", "first-width": 6}
    response = client.post("/designs/new/", {"team": team.pk, **fields, "first-count": 1, "first-disk": disk.model})
    page = client.get(response["Location"]).content.decode()
    assert "Design tank created." in messages_area(page).group(2)  # the whole page shows it, once

    design = PoolDesign.objects.get()
    body = vdev_post(design, role="log", layout="mirror", width=2, custom_size="1TB", custom_media="ssd")
    saved = client.post(f"/designs/{design.pk}/designer/vdev/", body, HTTP_HX_REQUEST="true").content.decode()
    area = messages_area(saved)
    assert area.group(1) and area.group(2) == ""  # out of band: the page's message area, emptied
    assert 'id="saved"' in saved and "Design tank created" not in saved
    again = client.get(f"/designs/{design.pk}/designer/").content.decode()
    assert messages_area(again).group(2) == ""


def test_a_whole_page_after_an_htmx_read_still_shows_a_queued_message(design_with_message):
    client, design = design_with_message
    partial = client.get(f"/designs/{design.pk}/", HTTP_HX_REQUEST="true")  # an htmx read, e.g. a refresh
    assert "Saved revision" in messages_area(partial.content.decode()).group(2)  # shown there, once
    assert "Saved revision" not in client.get(f"/designs/{design.pk}/designer/").content.decode()


@pytest.fixture
def design_with_message(team, alice, web):
    """A design and a client with a one-time message waiting (a save without htmx queues one)."""
    from tests.plans.test_designer import vdev_post

    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    client = web(alice)
    body = vdev_post(design, role="log", layout="mirror", width=2, custom_size="1TB", custom_media="ssd")
    assert client.post(f"/designs/{design.pk}/designer/vdev/", body).status_code == 302
    return client, design


def middleware_response(rf, view, method="post", **headers):
    from django.contrib.messages.middleware import MessageMiddleware
    from django.contrib.sessions.middleware import SessionMiddleware
    from django_htmx.middleware import HtmxMiddleware

    from zfsplanner.web.middleware import HtmxMessagesMiddleware

    request = getattr(rf, method)("/x/", HTTP_HX_REQUEST="true", **headers)
    chain = SessionMiddleware(MessageMiddleware(HtmxMiddleware(HtmxMessagesMiddleware(view))))
    return chain(request)


def test_an_htmx_answer_shows_the_message_its_request_queued(rf):
    from django.contrib import messages
    from django.http import HttpResponse

    def view(request):
        messages.success(request, "Invitation sent.")
        return HttpResponse("<p>part</p>")

    html = middleware_response(rf, view).content.decode()
    assert html.startswith("<p>part</p>")
    assert messages_area(html).group(1) and "Invitation sent." in messages_area(html).group(2)


@pytest.mark.parametrize(
    ("answer", "headers"),
    [
        ('{"ok": true}', {"content_type": "application/json"}),
        ("", {"status": 204}),
        ("<p>refused</p>", {"status": 403}),
        ("", {"status": 302, "headers": {"Location": "/elsewhere/"}}),
        ("<p>part</p>", {"headers": {"HX-Redirect": "/elsewhere/"}}),
    ],
)
def test_an_answer_htmx_does_not_swap_leaves_the_message_queued(rf, answer, headers):
    from django.contrib import messages
    from django.http import HttpResponse

    def view(request):
        messages.info(request, "Later.")
        return HttpResponse(answer, **headers)

    response = middleware_response(rf, view)
    assert response.content.decode() == answer
    assert "messages" in response.cookies  # still queued (cookie storage) for the next whole page


def test_an_htmx_read_with_nothing_queued_is_left_as_it_is(rf):
    from django.http import HttpResponse

    response = middleware_response(rf, lambda request: HttpResponse("<option>a</option>"), method="get")
    assert response.content.decode() == "<option>a</option>"
