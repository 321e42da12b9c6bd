"""The quick planner at /plan/ (and / for a visitor who is not logged in), through the test client.

No account: the page, its htmx partial, the URL as the state, errors next to the field with 422,
limits refused before any work, the figures equal to POST /api/estimate/ and ``manage.py estimate``,
the estimate rate, nothing written; then "Save as a design" after logging in, with CSRF.
"""

from __future__ import annotations

import html
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory
from zfsplanner.accounts.models import Role, Team
from zfsplanner.core.versions import NEWEST_RELEASE
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db

REFERENCE = "layout=raidz2&disks=8&vdevs=1&size=16TB&special=1TB&slog=16GB&recordsize=1M&compression=zstd&data=20TB"
HX = {"HTTP_HX_REQUEST": "true"}


def usable(response) -> tuple[int, str]:
    """The headline's byte count and OpenZFS version (the page's contract for tests)."""
    m = re.search(r'data-figure="usable" data-bytes="(\d+)" data-openzfs-version="([^"]+)"', response.content.decode())
    assert m, response.content.decode()[:2000]
    return int(m.group(1)), m.group(2)


def field_error(response, name: str) -> str:
    m = re.search(rf'<small class="error field-error" id="err-{name}"[^>]*>([^<]*)</small>', response.content.decode())
    assert m, f"no message slot for {name}"
    return html.unescape(m.group(1))


def risk_codes(response) -> list[str]:
    return re.findall(r'<article class="risk [^"]*" data-code="([^"]+)"', response.content.decode())


def csrf(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


# --------------------------------------------------------------------------- without an account


def test_an_anonymous_visitor_gets_the_planner_at_the_root():
    response = Client().get("/")
    assert response.status_code == 200
    assert 'id="quick-form"' in response.content.decode()
    size, version = usable(response)
    assert size > 0
    newest = str(NEWEST_RELEASE)
    assert version == newest  # the default: the newest supported release


def test_plan_answers_without_an_account():
    response = Client().get(f"/plan/?{REFERENCE}")
    assert response.status_code == 200
    assert usable(response)[0] > 0
    assert 'id="commands-text" data-commands' in response.content.decode()
    assert '<span class="line"><span class="w">zpool</span> <span class="w">create</span>' in response.content.decode()


def test_a_logged_in_user_keeps_the_designs_list_with_the_planner_one_click_away(alice, web):
    html = web(alice).get("/").content.decode()
    assert 'id="quick-form"' not in html
    assert 'href="/plan/"' in html


def test_the_form_fields_carry_the_query_parameter_names():
    html = Client().get("/plan/").content.decode()
    for name in (
        "layout",
        "disks",
        "vdevs",
        "size",
        "version",
        "special",
        "slog",
        "recordsize",
        "compression",
        "data",
        "price",
        "unit",
        "disk",
    ):
        assert re.search(rf'name="{name}"', html), name


def test_htmx_gets_the_results_partial_and_the_url_to_show():
    response = Client().get(f"/plan/?{REFERENCE}", **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="quick-form"' not in html
    assert html.lstrip().startswith('<section class="quick-results" id="results"')
    assert 'id="err-disks" hx-swap-oob="true"' in html  # the field messages are cleared out of band
    url = urlsplit(response["HX-Replace-Url"])
    assert url.path == "/plan/"
    state = parse_qs(url.query)
    assert state["layout"] == ["raidz2"] and state["disks"] == ["8"] and state["size"] == ["16TB"]
    assert state["special"] == ["1TB"] and state["data"] == ["20TB"]
    assert state["version"] == [str(NEWEST_RELEASE)]


def test_the_url_reproduces_the_same_answer_in_a_fresh_client():
    first = Client().get("/plan/?layout=draid2&disks=24&size=20TB&version=2.2", **HX)
    again = Client().get(first["HX-Replace-Url"])
    assert again.status_code == 200
    assert usable(again) == usable(first)
    assert usable(again)[1] == "2.2"


def test_figures_equal_the_estimate_api_and_the_command(alice, client_for, tmp_path):
    page = Client().get(f"/plan/?{REFERENCE}&price=280")
    doc = json.loads(Client().get(f"/plan/design.json?{REFERENCE}&price=280").content)
    api = client_for(alice).post("/api/estimate/", doc, format="json").json()
    path = tmp_path / "quick.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    call_command("estimate", str(path), stdout=out)
    cli = json.loads(out.getvalue())
    assert cli == api
    assert usable(page) == (api["pool"]["zfs_avail_bytes"], doc["openzfs_version"])
    assert risk_codes(page) == [r["code"] for r in api["risks"]]


def test_the_reference_pool_gets_a_special_mirror_as_redundant_as_its_data():
    doc = json.loads(Client().get(f"/plan/design.json?{REFERENCE}").content)
    special = next(v for v in doc["vdevs"] if v["role"] == "special")
    assert special["layout"] == "mirror" and special["width"] == 3  # raidz2 survives 2: three SSDs
    codes = risk_codes(Client().get(f"/plan/?{REFERENCE}"))
    assert "special-redundancy-below-data" not in codes
    assert "mixed-ashift" not in codes


def test_the_defaults_trigger_no_warning():
    assert risk_codes(Client().get("/plan/")) == []


def test_a_catalog_disk_replaces_the_typed_size(alice, client_for):
    page = Client().get("/plan/?layout=mirror&disks=2&vdevs=3&disk=ST16000NM001G")
    doc = json.loads(Client().get("/plan/design.json?layout=mirror&disks=2&vdevs=3&disk=ST16000NM001G").content)
    assert doc["vdevs"][0]["disk"] == {"catalog": "ST16000NM001G"}
    api = client_for(alice).post("/api/estimate/", doc, format="json").json()
    assert usable(page)[0] == api["pool"]["zfs_avail_bytes"]


def test_a_price_gives_the_cost_per_usable_tb():
    html = Client().get("/plan/?layout=mirror&disks=2&vdevs=2&size=10TB&price=200").content.decode()
    assert 'id="cost"' in html
    assert "800.00 for 4 disks" in html


def test_the_chart_takes_the_same_query_string():
    chart = Client().get(f"/plan/chart/?{REFERENCE}").json()
    assert chart["unit"] == "bytes" and chart["stacked"] is True
    keys = {d["key"] for d in chart["datasets"]}
    assert {"redundancy-1", "redundancy-2", "free", "special_free"} <= keys
    shown = urlsplit(Client().get(f"/plan/?{REFERENCE}", **HX)["HX-Replace-Url"]).query
    page = Client().get(f"/plan/?{REFERENCE}").content.decode()
    assert f'data-chart-url="/plan/chart/?{shown.replace("&", "&amp;")}"' in page


def test_nothing_is_written_to_use_it():
    with CaptureQueriesContext(connection) as queries:
        Client().get(f"/plan/?{REFERENCE}", **HX)
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == []
    assert PoolDesign.objects.count() == 0


def test_the_same_parameters_are_answered_from_the_cache():
    Client().get(f"/plan/?{REFERENCE}", **HX)
    with CaptureQueriesContext(connection) as queries:
        cached = Client().get(f"/plan/?{REFERENCE}", **HX)
    assert cached.status_code == 200 and usable(cached)[0] > 0
    # One query: the catalog for the disk list; no estimate, no rendering of risks and commands.
    assert len(queries) <= 1, [q["sql"] for q in queries]


# --------------------------------------------------------------------------- invalid input


def test_raidz2_with_two_disks_is_refused_next_to_the_field():
    response = Client().get("/plan/?layout=raidz2&disks=2&size=16TB", **HX)
    assert response.status_code == 422
    assert "raidz2 needs at least 3 disks (got 2)" in field_error(response, "disks")
    assert 'data-figure="usable"' not in response.content.decode()
    assert "Disks per vdev:" in response.content.decode()  # the summary names the field as the form does


def test_a_size_that_is_not_a_size_is_refused():
    response = Client().get("/plan/?size=abc", **HX)
    assert response.status_code == 422
    assert "'abc' is not a size" in field_error(response, "size")


def test_an_ambiguous_unit_is_refused_with_the_way_out():
    response = Client().get("/plan/?size=16T", **HX)
    assert response.status_code == 422
    assert "ambiguous" in field_error(response, "size") and "16TB" in field_error(response, "size")


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("disks=1000000", "disks", "a raidz2 vdev can have at most 255 disks (got 1,000,000)"),
        ("vdevs=1000000", "vdevs", "must be at most 1,024 (got 1,000,000)"),
        ("disks=" + "9" * 5000, "disks", "Disks per vdev must be a whole number"),
        ("size=" + "9" * 60 + "TB", "size", "characters long"),
        ("size=99999999999999TB", "size", "beyond what ZFS can address"),
    ],
    ids=["a million disks", "a million vdevs", "5,000 digits", "60 digits", "beyond 2^64"],
)
def test_absurd_values_are_refused_by_the_limits_before_any_work(query, field, message):
    response = Client().get(f"/plan/?{query}", **HX)
    assert response.status_code == 422
    assert message in field_error(response, field)


def test_a_full_page_with_an_error_keeps_what_was_typed():
    response = Client().get("/plan/?layout=raidz3&disks=3&size=16TB")
    html = response.content.decode()
    assert response.status_code == 422
    assert 'value="3"' in html and "raidz3 needs at least 4 disks" in field_error(response, "disks")
    assert 'class="field field-disks has-error"' in html


def test_a_special_mirror_the_core_refuses_is_named_as_the_special_field():
    response = Client().get("/plan/?special=10MB", **HX)
    assert response.status_code == 422
    assert field_error(response, "special") and not field_error(response, "size")


# --------------------------------------------------------------------------- rate


def test_it_counts_against_the_estimate_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "estimate": "3/minute"},
    }
    client = Client()
    codes = [client.get(f"/plan/?disks={n}", **HX).status_code for n in (4, 5, 6)]
    over = client.get("/plan/?disks=7", **HX)
    assert codes == [200, 200, 200]
    assert over.status_code == 429 and int(over["Retry-After"]) >= 1
    assert client.get("/plan/chart/?disks=7").status_code == 429


# --------------------------------------------------------------------------- save as a design


def test_save_sends_a_visitor_to_log_in_with_the_whole_state_then_opens_the_designer(alice, team):
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(f"/plan/?{REFERENCE}")
    save = re.search(r'<a class="button" href="([^"]+)" id="quick-save"', page.content.decode()).group(1)
    save = save.replace("&amp;", "&")
    step = browser.get(save)
    assert step.status_code == 302
    login_url = step["Location"]
    assert login_url.startswith("/accounts/login/?next=")
    assert parse_qs(urlsplit(login_url).query)["next"] == [save]  # the full query string, nothing to retype

    form = browser.get(login_url).content.decode()
    done = browser.post(
        login_url,
        {"csrfmiddlewaretoken": csrf(form), "login": "alice", "password": "pw-for-tests-1", "next": save},
    )
    assert done.status_code == 302 and done["Location"] == save
    confirm = browser.get(save)
    assert confirm.status_code == 200 and "Alpha" in confirm.content.decode()
    assert usable(confirm) == usable(page)
    assert PoolDesign.objects.count() == 0  # the GET only shows what will be saved
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', confirm.content.decode()))
    saved = browser.post("/plan/save/", {**fields, "csrfmiddlewaretoken": csrf(confirm.content.decode())})
    design = PoolDesign.objects.get()
    assert saved.status_code == 302 and saved["Location"] == f"/designs/{design.pk}/designer/"
    assert design.team == team and design.created_by == alice
    designer = browser.get(saved["Location"]).content.decode()
    assert f'data-bytes="{usable(page)[0]}"' in designer or _usable_in_designer(designer, usable(page)[0])


def _usable_in_designer(html: str, size: int) -> bool:
    from zfsplanner.core.units import format_iec

    return format_iec(size) in html


def test_a_saved_design_has_the_figures_of_the_planner(alice, team, web):
    page = Client().get(f"/plan/?{REFERENCE}&price=280")
    web(alice).post("/plan/save/", parse_qs_flat(f"{REFERENCE}&price=280"))
    design = PoolDesign.objects.get()
    from zfsplanner.plans.services import estimate_design

    assert estimate_design(design).to_document()["pool"]["zfs_avail_bytes"] == usable(page)[0]
    assert [v.role for v in design.vdevs.order_by("position")] == ["data", "special", "log"]
    assert design.datasets.get().recordsize == 1024 * 1024


def parse_qs_flat(query: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(query).items()}


def test_a_newcomer_without_a_team_gets_a_personal_team(web):
    newcomer = UserFactory(username="nina")
    client = web(newcomer)
    confirm = client.get(f"/plan/save/?{REFERENCE}")
    assert "a team of your own is made for it" in confirm.content.decode()
    response = client.post("/plan/save/", parse_qs_flat(REFERENCE))
    design = PoolDesign.objects.get()
    assert response["Location"] == f"/designs/{design.pk}/designer/"
    assert design.team.role_of(newcomer) == Role.OWNER
    assert Team.objects.filter(memberships__user=newcomer).count() == 1


def test_a_viewer_saves_to_a_team_they_can_write_to(bob, team, web):
    web(bob).post("/plan/save/", parse_qs_flat(REFERENCE))
    design = PoolDesign.objects.get()
    assert design.team != team and design.team.role_of(bob) == Role.OWNER


def test_save_without_the_csrf_token_is_refused(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post("/plan/save/", parse_qs_flat(REFERENCE))
    assert response.status_code == 403
    assert PoolDesign.objects.count() == 0


def test_an_invalid_state_is_not_saved_and_goes_back_to_the_planner(alice, web):
    response = web(alice).post("/plan/save/", {"layout": "raidz2", "disks": "2", "size": "16TB"})
    assert response.status_code == 302 and response["Location"].startswith("/plan/?layout=raidz2&disks=2")
    assert PoolDesign.objects.count() == 0


def test_a_logged_in_user_saves_from_the_planner_with_one_click(alice, web):
    client = web(alice, enforce_csrf_checks=True)
    html = client.get(f"/plan/?{REFERENCE}").content.decode()
    form = re.search(r'<form method="post" action="/plan/save/" id="quick-save-form">(.*?)</form>', html, re.S).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    response = client.post("/plan/save/", {**fields, "csrfmiddlewaretoken": csrf(form)})
    assert response.status_code == 302 and PoolDesign.objects.count() == 1


# --------------------------------------------------------------------------- units


def test_unit_tb_shows_the_cards_in_tb_and_stays_in_the_url():
    from zfsplanner.core.units import format_si

    response = Client().get("/plan/?unit=TB", **HX)
    size, _ = usable(response)
    assert f'<div class="value">{format_si(size)}</div>' in response.content.decode()
    assert "unit=TB" in response["HX-Replace-Url"]


def test_a_reader_who_prefers_tb_gets_tb_by_default(alice, web):
    from zfsplanner.accounts.models import Profile
    from zfsplanner.core.units import format_si

    Profile.objects.update_or_create(user=alice, defaults={"size_unit": "TB"})
    from django.core.cache import cache

    cache.clear()  # the preference is cached when the profile form saves it
    response = web(alice).get("/plan/", **HX)
    assert f'<div class="value">{format_si(usable(response)[0])}</div>' in response.content.decode()
    assert "unit=TB" in response["HX-Replace-Url"]  # the link shows others the same figures


@pytest.mark.parametrize(
    ("query", "field"),
    [("vdevs=0", "vdevs"), ("disks=0&layout=mirror", "disks"), ("price=-5", "price"), ("disks=-3", "disks")],
)
def test_zero_and_negative_values_get_the_core_s_message_on_their_field(query, field):
    response = Client().get(f"/plan/?{query}", **HX)
    assert response.status_code == 422
    assert field_error(response, field)


def test_the_answer_says_which_disks_make_the_pool():
    html_text = Client().get("/plan/?layout=mirror&disks=2&vdevs=3&disk=ST16000NM001G&special=1TB").content.decode()
    pool = re.search(r'<ul class="quick-pool small">(.*?)</ul>', html_text, re.S).group(1)
    assert "3 × 2-way mirror of Seagate ST16000NM001G" in html.unescape(pool)
    assert "special" in pool


def test_an_update_with_typed_sizes_needs_no_database_query():
    Client().get("/plan/", **HX)  # the catalog's options are built once per catalog state
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(f"/plan/?{REFERENCE}&data=7TB", **HX)
    assert response.status_code == 200
    assert [q["sql"] for q in queries] == []


def test_a_catalog_disk_needs_no_typed_size_and_no_size_at_all_is_named():
    assert Client().get("/plan/?size=&disk=ST16000NM001G", **HX).status_code == 200
    response = Client().get("/plan/?size=", **HX)
    assert response.status_code == 422
    assert "Type the disk size" in field_error(response, "size")


def test_a_catalog_disk_with_a_price_gives_the_cost_without_typing_one():
    from zfsplanner.plans.models import CatalogDisk

    CatalogDisk.objects.filter(model="ST16000NM001G").update(price=300)
    html_text = Client().get("/plan/?layout=mirror&disks=2&vdevs=2&disk=ST16000NM001G").content.decode()
    assert "1200.00 for 4 disks (each group's own price per disk, else the catalog's)" in html_text
    typed = Client().get("/plan/?layout=mirror&disks=2&vdevs=2&disk=ST16000NM001G&price=250").content.decode()
    assert "1000.00 for 4 disks" in typed


def test_the_planner_offers_the_releases_whose_figures_differ_newest_first():
    html = Client().get("/plan/").content.decode()
    select = html[html.index('name="version"'):]
    select = select[: select.index("</select>")]
    offered = re.findall(r'<option value="([^"]+)"', select)
    assert offered[:5] == ["2.4.4", "2.4.0", "2.3.9", "2.3.6", "2.3.2"]
    assert "2.4.2" not in offered and "2.4" not in offered  # 2.4.1-2.4.4 give the same figures
    assert re.search(r'<option value="2.4.4"[^>]*selected', select)


def test_a_link_may_name_a_series_or_any_known_release_but_not_an_unknown_one():
    assert usable(Client().get(f"/plan/?{REFERENCE}&version=2.4"))[1] == "2.4"  # links made before point releases
    assert usable(Client().get(f"/plan/?{REFERENCE}&version=2.3.4"))[1] == "2.3.4"
    # the special mirror's blocks lower AVAIL on 2.4.0 only: the empty pool's USED + AVAIL moves by them
    assert usable(Client().get(f"/plan/?{REFERENCE}&version=2.4.4"))[0] > usable(
        Client().get(f"/plan/?{REFERENCE}&version=2.4.0"))[0]
    response = Client().get(f"/plan/?{REFERENCE}&version=2.4.9", **HX)
    assert "2.4.9" in response.content.decode() and 'data-figure="usable"' not in response.content.decode()


def test_a_6_way_mirror_shows_its_copies_as_redundancy_in_words_and_in_the_chart():
    query = "layout=mirror&disks=6&vdevs=1&size=16TB"
    page = Client().get(f"/plan/?{query}").content.decode()
    row = re.search(r'<tr data-segment="redundancy-1" data-category="redundancy"><th>([^<]*)<', page)
    assert row and row.group(1) == "Mirror copies: the data vdev (group 1: 6-way mirror)"
    assert '<tr class="category" data-category="redundancy"><th colspan="3" scope="colgroup">Redundancy</th>' in page
    chart = Client().get(f"/plan/chart/?{query}").json()
    by_key = {d["key"]: d for d in chart["datasets"]}
    raw = sum(d["data"][0] for d in chart["datasets"])
    assert by_key["redundancy-1"]["category"] == "redundancy"
    assert by_key["redundancy-1"]["data"][0] > 0.83 * raw  # five of the six copies
    assert by_key["layout"]["data"][0] < 0.01 * raw  # partitions, labels, rounding


def test_switching_to_mirror_keeps_the_disks_as_2_way_mirrors():
    response = Client().get("/plan/?layout=mirror&disks=6&vdevs=1&size=16TB&from_layout=raidz2", **HX)
    assert response.status_code == 200
    query = parse_qs(urlsplit(response["HX-Replace-Url"]).query)
    assert (query["disks"], query["vdevs"]) == (["2"], ["3"])
    assert "from_layout" not in query  # the address stays the form's fields
    body = response.content.decode()
    for name, value in (("disks", "2"), ("vdevs", "3")):
        field = re.search(rf'<input type="number" name="{name}"[^>]*>', body)
        assert field and f'value="{value}"' in field.group(0) and 'hx-swap-oob="true"' in field.group(0)
    assert '<input type="hidden" name="from_layout" id="shown-layout" value="mirror" hx-swap-oob="true">' in body
    assert "3 × 2-way mirror" in body


def test_a_link_to_a_6_way_mirror_keeps_it_and_says_what_it_costs():
    response = Client().get("/plan/?layout=mirror&disks=6&vdevs=1&size=16TB", **HX)
    body = response.content.decode()
    assert 'name="disks"' not in body  # nothing switched: the fields stay as typed
    assert 'data-code="wide-mirror"' in body
    assert "1/6 of the raw space is usable" in body


def test_the_stripe_error_names_the_fields_on_the_page():
    response = Client().get("/plan/?layout=stripe&disks=6&vdevs=1&size=16TB", **HX)
    assert response.status_code == 422
    message = field_error(response, "disks")
    assert "disks per vdev must be 1 (got 6)" in message and "number of vdevs" in message
    assert "width" not in message and "count" not in message
