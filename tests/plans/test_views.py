"""The pages for owner, editor, viewer and outsider."""

import json
from dataclasses import replace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate, estimate_document
from zfsplanner.core.risk.registry import Risk, Severity
from zfsplanner.core.units import format_iec, zfs_nicenum
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.presentation import charts
from zfsplanner.plans.presentation.summary import summarize

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="the main pool"))


# ------------------------------------------------------------------ home


def test_home_shows_the_quick_planner_without_login(client):
    response = client.get("/")
    assert response.status_code == 200
    assert 'id="quick-form"' in response.content.decode()  # tests/plans/test_quick_plan.py has the rest


def test_home_lists_the_teams_designs(design, alice, other_team, web):
    PoolDesignFactory(team=other_team, name="secret")
    response = web(alice).get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alpha" in html
    assert f'href="/designs/{design.pk}/"' in html
    assert "1 × raidz2 of 6" in html
    assert "secret" not in html
    assert "Beta" not in html


def test_home_filters_by_name(design, team, alice, web):
    PoolDesignFactory(team=team, name="backup")
    html = web(alice).get("/?q=back").content.decode()
    assert "backup" in html
    assert f'href="/designs/{design.pk}/"' not in html


def test_a_viewer_starts_designs_in_a_team_of_their_own(design, bob, web):
    html = web(bob).get("/").content.decode()
    assert 'id="new-design"' in html and "New design in Alpha" not in html
    assert "bob&#x27;s designs (new)" in html  # the import form's choice
    assert 'id="import-pool"' not in html


# ------------------------------------------------------------------ detail


def test_detail_shows_vdevs_datasets_and_estimate(design, alice, web):
    response = web(alice).get(f"/designs/{design.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "raidz2" in html
    assert "tank/data" in html
    assert "76.40 TiB" in html  # raw: 6 × 14,000,519,643,136 B = 84,003,117,858,816 B
    assert "76.4T" in html  # as zpool list prints it
    assert "84.00 TB" not in html  # one unit at a time: TiB unless the reader asks for TB
    assert "84.00 TB" in web(alice).get(f"/designs/{design.pk}/?unit=TB").content.decode()
    pool = estimate_document(design_document("tank", description="the main pool"))["pool"]
    for key in ("zpool_size_bytes", "zfs_avail_bytes"):
        if pool[key] is None:
            assert "not computed yet" in html
        else:
            assert format_iec(pool[key]) in html
            assert zfs_nicenum(pool[key]) in html
    assert f'data-chart-url="/designs/{design.pk}/charts/breakdown/?unit=TiB"' in html  # the chart in the page's unit
    assert "vendor/chart.umd.js" in html
    assert f'href="/designs/{design.pk}/designer/"' in html


def test_viewer_sees_no_edit_controls(design, bob, web):
    html = web(bob).get(f"/designs/{design.pk}/").content.decode()
    assert "Export JSON" in html
    assert 'id="save-design"' not in html
    assert 'id="edit-button"' not in html
    assert "/delete/" not in html


@pytest.mark.parametrize("path", ["", "export/", "charts/capacity/", "charts/efficiency/", "delete/"])
def test_outsider_gets_404(path, design, charlie, web):
    assert web(charlie).get(f"/designs/{design.pk}/{path}").status_code == 404


def test_htmx_request_gets_the_results_partial(design, alice, web):
    response = web(alice).get(f"/designs/{design.pk}/", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="results">')
    assert "<html" not in html


def test_risks_are_listed_with_severity_and_fix(design, alice, rf):
    """The results partial renders whatever risks an estimate carries."""
    from django.template.loader import render_to_string

    typed = estimate(parse_design(design_document("tank")))
    lone_slog = Risk(
        code="slog-unmirrored",
        severity=Severity.WARNING,
        title="Single log device",
        detail="A lone SLOG...",
        fix="Mirror the log vdev.",
        reference="https://openzfs.github.io/x",
        subject="",
    )
    typed = replace(typed, risks=(lone_slog,))
    request = rf.get("/")
    request.user = alice
    summary = summarize(typed, design.to_spec())
    html = render_to_string(
        "plans/design_detail.html#results",
        {"design": design, "can_write": False, "estimate": typed.to_document(), "summary": summary},
        request=request,
    )
    assert 'data-code="slog-unmirrored"' in html
    assert '<span class="badge warning">warning</span>' in html
    assert "Mirror the log vdev." in html
    assert 'href="https://openzfs.github.io/x"' in html
    assert "Compared with Linux md RAID" in html


def test_export_downloads_the_document(design, bob, web):
    response = web(bob).get(f"/designs/{design.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tank-r1.json"'
    assert json.loads(response.content) == design_document("tank", description="the main pool")


# ------------------------------------------------------------------ edit


def test_editor_saves_a_valid_document(design, erin, web):
    doc = design_document("tank", description="changed")
    response = web(erin).post(f"/designs/{design.pk}/edit/", {"document": json.dumps(doc), "revision": 1})
    assert response.status_code == 302
    design.refresh_from_db()
    assert design.revision == 2
    assert design.description == "changed"
    assert design.updated_by == erin


def test_htmx_save_returns_the_new_results(design, alice, web):
    doc = design_document("tank", datasets=[])
    response = web(alice).post(
        f"/designs/{design.pk}/edit/", {"document": json.dumps(doc), "revision": 1}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "revision 2" in response.content.decode()


def test_invalid_document_is_422_naming_the_field(design, alice, web):
    doc = design_document("tank")
    doc["vdevs"][0]["layout"] = "raidz4"
    response = web(alice).post(
        f"/designs/{design.pk}/edit/", {"document": json.dumps(doc), "revision": 1}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "Layout of vdev group 1: &#x27;raidz4&#x27; is not one of" in html  # named as a person would
    assert "vdevs[0]" not in html
    assert "Nothing was saved" in html
    assert "raidz4" in html  # the text the user typed is kept
    design.refresh_from_db()
    assert design.revision == 1
    assert design.vdevs.get().layout == "raidz2"


def test_invalid_json_is_422(design, alice, web):
    response = web(alice).post(f"/designs/{design.pk}/edit/", {"document": '{"name": "tank",', "revision": 1})
    assert response.status_code == 422
    assert "not valid JSON" in response.content.decode()


def test_stale_revision_is_refused(design, alice, erin, web):
    web(erin).post(f"/designs/{design.pk}/edit/", {"document": json.dumps(design_document("tank")), "revision": 1})
    response = web(alice).post(
        f"/designs/{design.pk}/edit/", {"document": json.dumps(design_document("tank")), "revision": 1}
    )
    assert response.status_code == 409
    design.refresh_from_db()
    assert design.revision == 2


def test_viewer_cannot_post_an_edit(design, bob, web):
    response = web(bob).post(f"/designs/{design.pk}/edit/", {"document": json.dumps(design_document("tank"))})
    assert response.status_code == 403
    design.refresh_from_db()
    assert design.revision == 1


def test_outsider_cannot_post_an_edit(design, charlie, web):
    response = web(charlie).post(f"/designs/{design.pk}/edit/", {"document": json.dumps(design_document("tank"))})
    assert response.status_code == 404


def test_edit_rejects_get(design, alice, web):
    assert web(alice).get(f"/designs/{design.pk}/edit/").status_code == 405


# ------------------------------------------------------------------ new / import / delete


def test_new_design_is_created(team, alice, web):
    doc = design_document("backup")
    response = web(alice).post("/designs/new/", {"team": team.pk, "document": json.dumps(doc)})
    design = PoolDesign.objects.get(name="backup")
    assert response.status_code == 302
    assert response["Location"] == f"/designs/{design.pk}/"
    assert design.to_document() == doc


def test_new_design_invalid_is_422_and_saves_nothing(team, alice, web):
    doc = design_document("backup")
    doc["datasets"][0]["name"] = "other/data"
    response = web(alice).post("/designs/new/", {"team": team.pk, "document": json.dumps(doc)})
    assert response.status_code == 422
    html = response.content.decode()
    assert "Name of dataset other/data: &#x27;other/data&#x27; must start with the pool name" in html
    assert "datasets[0]" not in html
    assert not PoolDesign.objects.exists()


def test_viewer_cannot_create_in_their_team(team, bob, web):
    response = web(bob).post("/designs/new/", {"team": team.pk, "document": json.dumps(design_document())})
    assert response.status_code == 422
    assert not PoolDesign.objects.exists()


def test_import_page_creates_a_design(team, alice, web):
    upload = SimpleUploadedFile("tank.json", json.dumps(design_document("tank")).encode())
    response = web(alice).post("/designs/import/", {"team": team.pk, "file": upload})
    assert response.status_code == 302
    assert PoolDesign.objects.get().to_document() == design_document("tank")


def test_import_page_reports_bad_files(team, alice, web):
    upload = SimpleUploadedFile("tank.json", b"\xff\xfe not json")
    response = web(alice).post("/designs/import/", {"team": team.pk, "file": upload})
    assert response.status_code == 422
    assert "tank.json" in response.content.decode()
    assert not PoolDesign.objects.exists()


def test_delete_confirms_then_deletes(design, erin, web):
    client = web(erin)
    assert "Delete design tank?" in client.get(f"/designs/{design.pk}/delete/").content.decode()
    response = client.post(f"/designs/{design.pk}/delete/")
    assert response.status_code == 302
    assert not PoolDesign.objects.exists()


def test_viewer_cannot_delete(design, bob, web):
    assert web(bob).post(f"/designs/{design.pk}/delete/").status_code == 403
    assert PoolDesign.objects.exists()


# ------------------------------------------------------------------ charts


def test_capacity_chart_endpoint(design, bob, web):
    response = web(bob).get(f"/designs/{design.pk}/charts/capacity/")
    assert response.status_code == 200
    body = response.json()
    assert body["type"] == "bar"
    assert body["unit"] == "bytes"
    assert body["labels"][0] == "raw (sum of disks)"
    assert body["datasets"][0]["data"][0] == 6 * 14_000_519_643_136
    assert all(len(d["data"]) == len(body["labels"]) for d in body["datasets"])


def test_efficiency_chart_endpoint_follows_the_estimate(design, alice, web):
    response = web(alice).get(f"/designs/{design.pk}/charts/efficiency/")
    expected = charts.efficiency_chart(estimate(parse_design(design_document("tank", description="the main pool"))))
    assert expected is not None and response.status_code == 200
    assert response.json() == expected
    assert response.json()["datasets"][0]["label"] == "data raidz2 of 6"


def test_efficiency_chart_has_a_series_per_vdev_shape():
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    est = estimate(parse_design(doc))
    chart = charts.efficiency_chart(est)
    blocks = [r.block_size for r in est.efficiency[0].rows]
    assert chart["labels"] == [zfs_nicenum(b) for b in blocks] and chart["labels"][0] == "4K"
    assert [d["label"] for d in chart["datasets"]] == ["data raidz2 of 6", "special mirror of 2"]
    for group, series in zip(est.efficiency, chart["datasets"], strict=True):
        by_block = {r.block_size: r.efficiency for r in group.rows}
        assert series["data"] == [by_block.get(b) for b in blocks]  # a block size a shape lacks is a gap
    assert chart["unit"] == "fraction" and chart["x_label"] == "block size"


def test_capacity_chart_leaves_the_other_series_blank():
    est = estimate(parse_design(design_document("tank")))
    chart = charts.capacity_chart(est)
    pool_bars = len(charts.POOL_BARS)
    assert chart["labels"][:2] == ["raw (sum of disks)", "zpool SIZE"]
    assert chart["labels"][pool_bars:] == [d.name for d in est.datasets]
    pool, used = chart["datasets"]
    assert pool["data"][:2] == [est.pool.raw_bytes, est.pool.zpool_size_bytes]
    assert pool["data"][pool_bars:] == [None] * len(est.datasets)
    assert used["data"] == [None] * pool_bars + [d.zfs_used_bytes for d in est.datasets]


def test_efficiency_chart_absent():
    est = estimate(parse_design(design_document("tank")))
    assert charts.efficiency_chart(replace(est, efficiency=())) is None


# ------------------------------------------------------------------ a team for every new design


def first_group(**fields):
    from zfsplanner.plans.models import CatalogDisk

    disk = CatalogDisk.objects.filter(media="hdd").first()
    return {
        "name": "tank",
        "openzfs_version": "2.3",
        "first-layout": "raidz2",
        "first-width": 6,
        "first-count": 1,
        "first-disk": disk.model,
        **fields,
    }


def test_a_user_without_a_team_sees_new_design_and_their_own_team_offered(web):
    from tests.factories import UserFactory
    from zfsplanner.accounts.models import Team

    dana = UserFactory(username="dana")
    client = web(dana)
    html = client.get("/").content.decode()
    assert 'id="new-design"' in html and 'id="no-team"' in html and "“dana&#x27;s designs”" in html
    html = client.get("/designs/new/").content.decode()
    assert '<option value="" selected>dana&#x27;s designs (new)</option>' in html
    assert not Team.objects.exists()  # nothing is made by looking


def test_a_user_without_a_team_creates_a_design_in_their_own_team(web):
    from tests.factories import UserFactory
    from zfsplanner.accounts.models import Team

    dana = UserFactory(username="dana")
    response = web(dana).post("/designs/new/", first_group(team=""))
    team = Team.objects.get()
    design = PoolDesign.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/designs/{design.pk}/designer/"
    assert (design.team, team.name, team.personal_for, team.role_of(dana)) == (team, "dana's designs", dana, "owner")


def test_a_viewer_creates_a_design_in_their_own_team_and_not_in_the_viewed_one(team, bob, web):
    response = web(bob).post("/designs/new/", first_group(team=""))
    assert response.status_code == 302
    design = PoolDesign.objects.get()
    assert design.team != team and design.team.personal_for == bob
    assert web(bob).post("/designs/new/", first_group(team=team.pk)).status_code == 422


def test_a_team_is_created_inline_from_the_form(team, alice, web):
    from zfsplanner.accounts.models import Team

    response = web(alice).post("/designs/new/", first_group(team=team.pk, new_team="  Backup site "))
    assert response.status_code == 302
    design = PoolDesign.objects.get()
    assert design.team.name == "Backup site" and design.team.role_of(alice) == "owner"
    assert design.team.personal_for is None and Team.objects.count() == 2


def test_a_refused_team_name_is_shown_at_the_field_and_nothing_is_made(team, alice, web):
    from zfsplanner.accounts.models import Team

    response = web(alice).post("/designs/new/", first_group(team=team.pk, new_team="!!!"))
    assert response.status_code == 422
    assert "The team name needs at least one letter or digit." in response.content.decode()
    assert not PoolDesign.objects.exists() and Team.objects.count() == 1


def test_a_refused_design_leaves_no_new_team_behind(team, alice, web):
    from zfsplanner.accounts.models import Team

    response = web(alice).post("/designs/new/", first_group(team=team.pk, new_team="Backup", **{"first-width": 2}))
    assert response.status_code == 422
    assert not PoolDesign.objects.exists() and Team.objects.count() == 1


def test_a_member_of_a_writable_team_must_pick_one(team, alice, web):
    html = web(alice).get("/designs/new/").content.decode()
    assert "your own team" not in html
    response = web(alice).post("/designs/new/", first_group(team=""))
    assert response.status_code == 422 and not PoolDesign.objects.exists()


def test_a_json_document_goes_to_the_own_team_too(web):
    from tests.factories import UserFactory

    dana = UserFactory(username="dana")
    response = web(dana).post("/designs/new/", {"team": "", "document": json.dumps(design_document("backup"))})
    assert response.status_code == 302
    assert PoolDesign.objects.get().team.personal_for == dana


def test_sign_up_then_new_design_end_to_end_with_csrf(settings):
    """A browser's path: sign up, the designs page offers New design, the form creates the design."""
    import re

    from django.test import Client

    from zfsplanner.accounts.models import Team

    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    browser = Client(enforce_csrf_checks=True)

    def csrf(html):
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)

    form = browser.get("/accounts/signup/").content.decode()
    pw = "Quiet-Harbor-71"
    r = browser.post(
        "/accounts/signup/",
        {
            "csrfmiddlewaretoken": csrf(form),
            "email": "dana@example.com",
            "username": "dana",
            "password1": pw,
            "password2": pw,
        },
    )
    assert r.status_code == 302
    team = Team.objects.get()
    assert team.name == "dana's designs"
    home = browser.get("/").content.decode()
    assert 'href="/designs/new/" id="new-design"' in home
    form = browser.get("/designs/new/").content.decode()
    assert f'<option value="{team.pk}">dana&#x27;s designs</option>' in form
    r = browser.post("/designs/new/", first_group(team=team.pk, csrfmiddlewaretoken=csrf(form)))
    design = PoolDesign.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/designs/{design.pk}/designer/"
    assert design.team == team
    assert browser.get(r["Location"]).status_code == 200
