"""Real outputs as people paste them: zpool status alone (the sizes asked), zpool list -H -o, and -j JSON."""

from __future__ import annotations

import re

import pytest

from tests.core.import_samples import section, text
from zfsplanner.imports.models import PoolImport
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db

STATUS_ONLY = text("manpage-zpool8-example15.txt")  # kernel names: no model, no size
LINUX = "linux-2.3-raidz2-special-log-cache-spare.txt"


def csrf_post(client, page_url, url, data):
    """POST as a browser does: the token from the page's form, the cookie from the GET."""
    page = client.get(page_url).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return client.post(url, {**data, "csrfmiddlewaretoken": token})


def test_status_alone_gives_a_preview_that_asks_the_sizes(web, erin, team):
    c = web(erin, enforce_csrf_checks=True)
    r = csrf_post(c, "/imports/pool/", "/imports/pool/", {"text": STATUS_ONLY})
    assert r.status_code == 302
    record = PoolImport.objects.get()
    page = c.get(r["Location"]).content.decode()
    assert "Disk sizes needed" in page
    assert "Size of each data disk" in page and "4 disks (sda, sdb, sdc and 1 more) in mirror-0, mirror-1" in page
    assert "Size of each log disk" in page
    assert 'id="figures-missing"' in page and "Give the disk sizes asked above first." in page
    assert 'id="save-import-form"' not in page
    assert "2 × mirror of 2" in page and "size not known yet" in page

    r = csrf_post(c, r["Location"], f"/imports/pool/{record.pk}/sizes/", {"size-q1": "4 TB", "size-q2": "16GB"})
    assert r.status_code == 302 and r["Location"] == f"/imports/pool/{record.pk}/"
    record.refresh_from_db()
    assert "questions" not in record.document["imported"]
    assert record.document["vdevs"][0]["disk"] == {"size_bytes": 4 * 10**12}
    page = c.get(r["Location"]).content.decode()
    assert "Disk sizes needed" not in page and 'id="save-import-form"' in page
    assert "4.00 TB" in page and "given in the preview" in page

    r = csrf_post(c, r["Location"], f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "tank"})
    design = PoolDesign.objects.get()
    assert r.status_code == 302 and [v.role for v in design.vdevs.all()] == ["data", "log"]


def test_the_catalog_gives_the_sizes_of_models_it_knows(web, erin):
    c = web(erin)
    status = "\n".join(t for _, t in section(LINUX, "zpool status").lines) + "\n"
    c.post("/imports/pool/", {"text": status})
    record = PoolImport.objects.get()
    # the data and special disks' models are in the catalog; the NVMe partitions' sizes are their own
    questions = record.document["imported"]["questions"]
    assert [(q["model"], q["role"], q["partition"]) for q in questions] == [
        ("INTEL SSDPEL1K100GA", "log", True), ("INTEL SSDPEL1K100GA", "cache", True)]
    page = c.get(f"/imports/pool/{record.pk}/").content.decode()
    assert "INTEL SSDPEL1K100GA: size of each partition" in page and 'name="catalog-q1"' not in page
    devices = {d["name"]: d for d in record.document["imported"]["devices"]}
    assert devices["ata-ST16000NM001G-2KK103_ZL2A1B01"]["size_source"] == "the catalog (ST16000NM001G)"


def test_a_catalog_disk_chosen_in_the_preview_links_the_disks(web, erin):
    c = web(erin)
    c.post("/imports/pool/", {"text": STATUS_ONLY})
    record = PoolImport.objects.get()
    page = c.get(f"/imports/pool/{record.pk}/").content.decode()
    assert 'name="catalog-q1"' in page and '<option value="ST16000NM001G">' in page
    r = c.post(f"/imports/pool/{record.pk}/sizes/", {"catalog-q1": "ST16000NM001G", "size-q2": "16 GB"})
    assert r.status_code == 302
    record.refresh_from_db()
    disk = record.document["vdevs"][0]["disk"]
    assert disk["catalog"] == "ST16000NM001G" and disk["size_bytes"] == 16000900661248
    assert "questions" not in record.document["imported"]


def test_an_unreadable_answer_keeps_the_question_and_what_was_typed(web, erin):
    c = web(erin)
    c.post("/imports/pool/", {"text": STATUS_ONLY})
    record = PoolImport.objects.get()
    r = c.post(f"/imports/pool/{record.pk}/sizes/", {"size-q1": "16 XB", "size-q2": "16GB"})
    assert r.status_code == 422
    page = r.content.decode()
    assert "Size of each data disk: &#x27;16 XB&#x27; is not a size" in page and 'value="16 XB"' in page
    r = c.post(f"/imports/pool/{record.pk}/sizes/", {"size-q1": "1MB", "size-q2": "16GB"})
    assert r.status_code == 422
    assert "Size of each data disk: 1000000 B leaves 0 B for ZFS after partitioning" in r.content.decode()
    record.refresh_from_db()
    assert len(record.document["imported"]["questions"]) == 2


def test_nobody_else_answers_a_preview(web, erin, alice):
    web(erin).post("/imports/pool/", {"text": STATUS_ONLY})
    record = PoolImport.objects.get()
    assert web(alice).post(f"/imports/pool/{record.pk}/sizes/", {"size-q1": "4TB"}).status_code == 404


def test_the_import_page_names_the_json_commands(web, erin):
    page = web(erin).get("/imports/pool/").content.decode()
    assert "Only <code>zpool status POOL</code> is needed." in page
    assert "zpool status -j -p POOL" in page and "zpool list -v -j --json-int POOL" in page


# --------------------------------------------------------------------------- the API


def test_the_api_previews_the_json_of_zpool_status_j(client_for, erin):
    body = text("openzfs-2.3-json-raidz2-special-log-cache-spare.txt")
    r = client_for(erin).post("/api/pool-imports/", {"text": body}, format="json")
    assert r.status_code == 201, r.content
    data = r.json()
    assert data["document"]["imported"]["from"][:2] == ["zpool status -j", "zpool list -j"]
    size = next(row for row in data["comparison"] if row["key"] == "size")
    assert size["difference_bytes"] == 0


def test_the_api_previews_zpool_list_h_o_as_openzfs_2_3_2_prints_it(client_for, erin):
    """A mirror of files (ashift 9) whose SIZE every ashift gives, and no output states it: asked, then answered."""
    api = client_for(erin)
    r = api.post("/api/pool-imports/", {"text": text("openzfs-2.3.2-files-mirror-list-H-o.txt")}, format="json")
    assert r.status_code == 201, r.content
    created = r.json()
    [question] = created["questions"]
    assert question["kind"] == "ashift" and question["choices"] == list(range(9, 17))
    assert question["vdevs"] == ["mirror-0"] and created["comparison"] == []
    r = api.post(f"/api/pool-imports/{created['id']}/sizes/", {"sizes": {"q1": "8"}}, format="json")
    assert r.status_code == 400
    assert r.json()["sizes"] == ["ashift of mirror-0: '8' is not one of the ashifts the outputs allow "
                                 "(9, 10, 11, 12, 13, 14, 15, 16)"]
    r = api.post(f"/api/pool-imports/{created['id']}/sizes/", {"sizes": {"q1": "9"}}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["questions"] == [] and body["document"]["vdevs"][0]["ashift"] == 9
    size = next(row for row in body["comparison"] if row["key"] == "size")
    assert size["reported_bytes"] == 10200547328 and size["difference_bytes"] == 0


def test_the_page_asks_an_ashift_the_outputs_leave_open(web, erin):
    c = web(erin, enforce_csrf_checks=True)
    r = csrf_post(c, "/imports/pool/", "/imports/pool/", {"text": text("openzfs-2.3.2-files-mirror-list-H-o.txt")})
    record = PoolImport.objects.get()
    page = c.get(r["Location"]).content.decode()
    assert "ashift needed" in page and "Disk sizes needed" not in page and "Give the ashift asked above first." in page
    assert "ashift of mirror-0" in page and "9 to 16 all give SIZE 10,200,547,328 B" in page
    assert '<select id="id_size-q1" name="size-q1">' in page and '<option value="16">16</option>' in page
    r = csrf_post(c, r["Location"], f"/imports/pool/{record.pk}/sizes/", {"size-q1": "9"})
    assert r.status_code == 302
    record.refresh_from_db()
    assert record.document["vdevs"][0]["ashift"] == 9 and "questions" not in record.document["imported"]
    page = c.get(r["Location"]).content.decode()
    assert "ashift 9: given in the preview" in page and 'id="save-import-form"' in page


def test_the_api_previews_status_alone_with_its_questions(client_for, erin):
    r = client_for(erin).post("/api/pool-imports/", {"text": STATUS_ONLY}, format="json")
    assert r.status_code == 201, r.content
    data = r.json()
    assert data["comparison"] == []
    assert [(q["id"], q["role"]) for q in data["document"]["imported"]["questions"]] == [("q1", "data"),
                                                                                          ("q2", "log")]
