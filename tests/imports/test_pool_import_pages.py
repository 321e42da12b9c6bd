"""The pool import pages: paste -> preview with model vs pool -> save as a design."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.core.import_samples import text
from zfsplanner.imports.models import PoolImport
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db


def test_it_shows_the_form(client, alice):
    client.force_login(alice)
    r = client.get("/imports/pool/")
    assert r.status_code == 200
    assert b'<label for="id_text">' in r.content and b"zpool list -v -p" in r.content


def test_it_needs_a_login(client):
    r = client.get("/imports/pool/")
    assert r.status_code == 302 and "login" in r["Location"]


def test_a_paste_gives_a_preview_with_the_difference(client, erin, pool_outputs):
    client.force_login(erin)
    r = client.post("/imports/pool/", {"text": pool_outputs})
    assert r.status_code == 302
    record = PoolImport.objects.get()
    assert r["Location"] == f"/imports/pool/{record.pk}/"
    assert record.created_by == erin and record.document["name"] == "tank"
    page = client.get(r["Location"]).content.decode()
    assert "Model vs your pool" in page
    assert 'id="figure-size"' in page and 'id="figure-avail"' in page
    assert "+0.000 %" in page  # SIZE matches the pool to the byte
    assert "raidz2 of 6" in page and "ST16000NM001G" in page and "tank/home" in page
    assert "snapshots are not modelled" in page


def test_files_are_read_too(client, erin):
    client.force_login(erin)
    files = [SimpleUploadedFile("status.txt", text("freebsd-2.2-raidz1-gptid.txt").encode())]
    r = client.post("/imports/pool/", {"files": files})
    assert r.status_code == 302
    assert PoolImport.objects.get().document["name"] == "backup"


def test_unreadable_output_names_the_line(client, erin):
    client.force_login(erin)
    bad = text("manpage-zpool8-example15.txt").replace("sdc     ONLINE", "sdc     BROKEN")
    r = client.post("/imports/pool/", {"text": bad})
    assert r.status_code == 422
    page = r.content.decode()
    assert "pasted text: line 12: zpool status: expected a vdev row" in page
    assert "BROKEN" in page  # the paste is kept
    record = PoolImport.objects.get()  # and stored, with the reason
    assert record.status == "failed" and "line 12: zpool status: expected a vdev row" in record.error
    assert f'href="/imports/pool/{record.pk}/"' in page


def test_an_empty_form_is_refused(client, erin):
    client.force_login(erin)
    r = client.post("/imports/pool/", {"text": "  "})
    assert r.status_code == 422 and b"Paste the outputs" in r.content


def test_saving_makes_a_design_of_the_team(client, erin, team, pool_outputs):
    client.force_login(erin)
    client.post("/imports/pool/", {"text": pool_outputs})
    record = PoolImport.objects.get()
    r = client.post(f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "tank"})
    design = PoolDesign.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/designs/{design.pk}/"
    assert design.team == team and design.name == "tank"
    assert [v.role for v in design.vdevs.all()] == ["data", "special", "log", "cache", "spare"]
    assert design.vdevs.first().catalog_disk.model == "ST16000NM001G"
    assert set(design.datasets.values_list("name", flat=True)) >= {"tank/home", "tank/media", "tank/vm-101-disk-0"}
    assert design.extra["imported"]["reported"]["zpool_size_bytes"] == 96954591739904
    record.refresh_from_db()
    assert record.design == design


def test_saving_under_another_name_renames_the_datasets(client, erin, team, pool_outputs):
    client.force_login(erin)
    client.post("/imports/pool/", {"text": pool_outputs})
    record = PoolImport.objects.get()
    client.post(f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "tank2"})
    design = PoolDesign.objects.get()
    assert design.name == "tank2"
    assert "tank2/home" in set(design.datasets.values_list("name", flat=True))


def test_an_invalid_name_is_refused_at_the_field(client, erin, team, pool_outputs):
    client.force_login(erin)
    client.post("/imports/pool/", {"text": pool_outputs})
    record = PoolImport.objects.get()
    r = client.post(f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "mirror"})
    assert r.status_code == 422 and b"Pool name: &#x27;mirror&#x27; is reserved by zpool" in r.content
    assert PoolDesign.objects.count() == 0


def test_a_viewer_cannot_save_into_a_team_they_only_read(client, bob, team, pool_outputs):
    client.force_login(bob)
    client.post("/imports/pool/", {"text": pool_outputs})
    record = PoolImport.objects.get()
    assert b"You can only read in your teams" in client.get(f"/imports/pool/{record.pk}/").content
    r = client.post(f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "tank"})
    assert r.status_code == 422 and PoolDesign.objects.count() == 0


def test_another_users_preview_is_not_found(client, erin, alice, pool_outputs):
    client.force_login(erin)
    client.post("/imports/pool/", {"text": pool_outputs})
    record = PoolImport.objects.get()
    client.force_login(alice)
    assert client.get(f"/imports/pool/{record.pk}/").status_code == 404
    assert client.post(f"/imports/pool/{record.pk}/save/", {"team": 1, "name": "x"}).status_code == 404


def test_a_huge_file_is_refused_before_reading(client, erin):
    client.force_login(erin)
    f = SimpleUploadedFile("disk.img", b"x" * (4 * 1024 * 1024 + 1))  # text, but too much of it
    r = client.post("/imports/pool/", {"files": [f]})
    assert r.status_code == 422 and b"is it the right file?" in r.content
