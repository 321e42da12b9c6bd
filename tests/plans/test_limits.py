"""Limits before work at every entry point to designs: page, API create/update/import/estimate,
``manage.py estimate``, share links. Each absurd input is refused naming its field, nothing is
stored; a design stored before the limits existed still renders, with the problem shown."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign, VdevGroup
from zfsplanner.plans.services import create_share_link

pytestmark = pytest.mark.django_db


def _with_vdev(**fields):
    doc = design_document()
    doc["vdevs"][0].update(fields)
    return doc


def _with_dataset(**fields):
    doc = design_document()
    doc["datasets"][0].update(fields)
    return doc


ABSURD = [
    pytest.param(_with_vdev(disk={"size_bytes": 10**400}), "vdevs[0].disk.size_bytes", id="disk-10^400"),
    pytest.param(_with_vdev(disk={"size_bytes": 10**30}), "vdevs[0].disk.size_bytes", id="disk-10^30"),
    pytest.param(_with_vdev(disk={"size_bytes": "99999999EB"}), "vdevs[0].disk.size_bytes", id="disk-EB"),
    pytest.param(_with_vdev(layout="mirror", width=2**30), "vdevs[0].width", id="width-2^30"),
    pytest.param(_with_vdev(layout="mirror", width=10_000_000), "vdevs[0].width", id="mirror-10M"),
    pytest.param(_with_vdev(layout="draid2", width=300), "vdevs[0].width", id="draid-300"),
    pytest.param(_with_vdev(count=100_000), "vdevs[0].count", id="count"),
    pytest.param(design_document(vdevs=design_document()["vdevs"] * 10_000), "vdevs", id="10000-groups"),
    pytest.param(
        design_document(datasets=[{"name": f"tank/d{i}"} for i in range(10_000)]), "datasets", id="10000-datasets"
    ),
    pytest.param(
        _with_dataset(contents={"file_size_histogram": [[512 * (i + 1), 1] for i in range(5000)]}),
        "datasets[0].contents.file_size_histogram",
        id="histogram",
    ),
    pytest.param(design_document(description="a\x00b"), "description", id="nul-description"),
    pytest.param(design_document(**{"notes": "x" * 2_000_000}), "notes", id="2MB-unknown-key"),
    pytest.param(_with_dataset(name="tank/da\x1bta"), "datasets[0].name", id="control-in-name"),
]


def _fields(body):
    return {e["field"] for e in body["errors"]}


@pytest.mark.parametrize(("document", "field"), ABSURD)
def test_the_api_refuses_it_naming_the_field_and_stores_nothing(document, field, team, alice, client_for):
    body = json.dumps({**document, "team": team.pk})
    if len(body) > 1024 * 1024:  # too big for the API at all: refused before it is parsed
        r = client_for(alice).post("/api/designs/", body, content_type="application/json")
        assert r.status_code == 400 and "larger than 1,048,576 bytes" in r.json()["detail"]
    else:
        r = client_for(alice).post("/api/designs/", body, content_type="application/json")
        assert r.status_code == 400, r.content
        assert field in _fields(r.json())
    assert PoolDesign.objects.count() == 0


@pytest.mark.parametrize(("document", "field"), ABSURD[:7] + ABSURD[9:11] + ABSURD[12:])
def test_the_stateless_estimate_refuses_it_naming_the_field(document, field, alice, client_for):
    r = client_for(alice).post("/api/estimate/", document, format="json")
    assert r.status_code == 400
    assert field in _fields(r.json())


def test_an_update_beyond_the_limits_is_refused_and_the_design_kept(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    r = client_for(alice).put(
        f"/api/designs/{design.pk}/", {**_with_vdev(layout="mirror", width=2**30), "team": team.pk}, format="json"
    )
    assert r.status_code == 400 and "vdevs[0].width" in _fields(r.json())
    design.refresh_from_db()
    assert design.revision == 1 and design.vdevs.get().width == 6


def test_an_import_beyond_the_limits_is_refused(team, alice, client_for):
    r = client_for(alice).post(
        "/api/designs/import/", {"team": team.pk, "document": _with_vdev(disk={"size_bytes": 10**30})}, format="json"
    )
    assert r.status_code == 400 and "vdevs[0].disk.size_bytes" in _fields(r.json())
    big = SimpleUploadedFile("big.json", b" " * (1024 * 1024 + 1) + b"{}")
    r = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": big}, format="multipart")
    assert r.status_code == 400 and "larger than 1 MiB" in r.json()["detail"]
    deep = SimpleUploadedFile("deep.json", b"[" * 5000 + b"]" * 5000)
    r = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": deep}, format="multipart")
    assert r.status_code == 400 and "nested more than 32 levels" in r.json()["detail"]
    assert PoolDesign.objects.count() == 0


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deeply_nested_json_bodies_are_a_400_not_a_crash(depth, alice, client_for):
    body = '{"name": "tank", "vdevs": ' + "[" * depth + "]" * depth + "}"
    for url in ("/api/estimate/", "/api/designs/", "/api/teams/"):
        r = client_for(alice).post(url, body, content_type="application/json")
        assert r.status_code == 400, (url, r.status_code)
        assert "nested more than 32 levels" in r.json()["detail"]


def test_a_json_body_over_the_request_limit_is_refused_before_parsing(alice, client_for, settings):
    settings.API_JSON_MAX_BYTES = 1000
    r = client_for(alice).post("/api/teams/", {"name": "x" * 2000}, format="json")
    assert r.status_code == 400 and "larger than 1,000 bytes" in r.json()["detail"]


def test_a_nul_anywhere_in_a_json_body_is_refused(alice, client_for):
    r = client_for(alice).post("/api/teams/", {"name": "bad\x00name"}, format="json")
    assert r.status_code == 400 and "name: contains a NUL" in r.json()["detail"]


# --------------------------------------------------------------------------- pages and the command line


def test_the_new_design_page_refuses_it_with_the_field_named(team, alice):
    c = Client()
    c.force_login(alice)
    doc = json.dumps(_with_vdev(layout="mirror", width=2**30))
    r = c.post("/designs/new/", {"team": team.pk, "document": doc})
    assert r.status_code == 422
    page = r.content.decode()
    assert "Disks per vdev of the data vdev (group 1" in page and "a mirror vdev can have at most 255 disks" in page
    assert "vdevs[0]" not in page
    r = c.post("/designs/new/", {"team": team.pk, "document": "[" * 100_000 + "]" * 100_000})
    assert r.status_code == 422 and "nested more than 32 levels" in r.content.decode()
    assert PoolDesign.objects.count() == 0


def test_the_import_page_refuses_it(team, alice):
    c = Client()
    c.force_login(alice)
    upload = SimpleUploadedFile("d.json", json.dumps(design_document(description="x\x00")).encode())
    r = c.post("/designs/import/", {"team": team.pk, "file": upload})
    assert r.status_code == 422 and "Description: contains a NUL" in r.content.decode()
    assert PoolDesign.objects.count() == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (json.dumps(_with_vdev(disk={"size_bytes": 10**400})), "vdevs[0].disk.size_bytes: is beyond 2^64"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 32 levels"),
        (json.dumps(design_document(notes="x" * 2_000_000)), "at most 1 MiB"),
    ],
)
def test_the_estimate_command_refuses_it_with_exit_2(tmp_path, content, message):
    path = tmp_path / "design.json"
    path.write_text(content)
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("estimate", str(path), stdout=out, stderr=err)
    assert exit_info.value.code == 2
    assert message in err.getvalue() and out.getvalue() == ""


# --------------------------------------------------------------------------- designs stored before the limits


@pytest.fixture
def stored_beyond_limits(team):
    """Designs saved by an older version that had no limits: written to the rows directly."""
    huge = PoolDesignFactory(team=team, name="huge")
    VdevGroup.objects.filter(design=huge).update(disks=[{"size_bytes": 10**400}])
    wide = PoolDesignFactory(team=team, name="wide")
    VdevGroup.objects.filter(design=wide).update(layout="mirror", width=10_000_000)
    many = PoolDesignFactory(team=team, name="many")
    group = VdevGroup.objects.get(design=many)
    VdevGroup.objects.bulk_create(
        [VdevGroup(design=many, position=i, role="data", layout="mirror", width=2, disks=group.disks) for i in
         range(1, 2000)]
    )
    fine = PoolDesignFactory(team=team, name="fine")
    return {"huge": huge, "wide": wide, "many": many, "fine": fine}


@pytest.mark.parametrize("name", ["huge", "wide", "many"])
def test_a_stored_design_beyond_the_limits_still_renders_with_the_problem_shown(
    name, stored_beyond_limits, alice, client_for
):
    design = stored_beyond_limits[name]
    link = create_share_link(design, alice)
    page = Client()
    page.force_login(alice)
    r = page.get(f"/designs/{design.pk}/")
    assert r.status_code == 200
    assert "at most" in r.content.decode() or "beyond" in r.content.decode()
    assert Client().get(f"/share/{link.token}/").status_code == 200
    assert page.get(f"/designs/{design.pk}/export/").status_code == 200
    assert page.get(f"/designs/{design.pk}/charts/capacity/").status_code in (404, 422)
    api = client_for(alice)
    assert api.get(f"/api/designs/{design.pk}/").status_code == 200
    r = api.get(f"/api/designs/{design.pk}/estimate/")
    assert r.status_code == 400 and r.json()["errors"]
    assert api.get(f"/api/designs/{design.pk}/commands/").status_code == 400


def test_stored_designs_beyond_the_limits_never_break_the_lists_they_are_in(stored_beyond_limits, alice, client_for):
    page = Client()
    page.force_login(alice)
    r = page.get("/")
    assert r.status_code == 200
    html = r.content.decode()
    for design in stored_beyond_limits.values():
        assert f'href="/designs/{design.pk}/"' in html
    r = client_for(alice).get("/api/designs/")
    assert r.status_code == 200 and r.json()["count"] == 4
    assert len(r.content) < 20_000  # summaries: not 2,000 vdev groups of one of them


def test_the_designs_page_lists_50_designs_a_page(team, alice):
    for i in range(120):
        PoolDesignFactory(team=team, name=f"p{i:03d}")
    page = Client()
    page.force_login(alice)
    first = page.get("/").content.decode()
    assert len(re.findall(r'href="/designs/\d+/"', first)) == 50
    assert "Page 1 of 3 (120 designs)" in first and 'page=2" rel="next"' in first
    last = page.get("/?q=p&page=3").content.decode()
    assert 'href="/designs/' in last and "Page 3 of 3" in last and "q=p&amp;page=2" in last
    assert page.get("/?page=999").status_code == 200  # past the end: the last page
