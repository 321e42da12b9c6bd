"""Who may do what with designs and the catalog: owner, editor, viewer, outsider (teams: tests/accounts)."""

import pytest

from tests.factories import PoolDesignFactory, UserFactory, design_document
from zfsplanner.plans.models import CatalogDisk, PoolDesign

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank")


@pytest.mark.parametrize("who", ["alice", "erin", "bob"])
def test_members_read_the_design(who, design, client_for, request):
    client = client_for(request.getfixturevalue(who))
    assert client.get(f"/api/designs/{design.pk}/").status_code == 200
    assert client.get(f"/api/designs/{design.pk}/export/").status_code == 200
    assert client.get(f"/api/designs/{design.pk}/estimate/").status_code == 200


@pytest.mark.parametrize("path", ["", "export/", "estimate/"])
def test_outsiders_get_404(path, design, charlie, client_for):
    assert client_for(charlie).get(f"/api/designs/{design.pk}/{path}").status_code == 404


def test_outsiders_do_not_see_it_listed(design, charlie, client_for):
    assert client_for(charlie).get("/api/designs/").json()["count"] == 0


def test_outsiders_cannot_change_or_delete(design, charlie, client_for):
    client = client_for(charlie)
    assert client.put(f"/api/designs/{design.pk}/", design_document("tank"), format="json").status_code == 404
    assert client.delete(f"/api/designs/{design.pk}/").status_code == 404
    assert PoolDesign.objects.filter(pk=design.pk).exists()


def test_viewers_cannot_change_or_delete(design, bob, client_for):
    client = client_for(bob)
    response = client.put(f"/api/designs/{design.pk}/", design_document("tank", datasets=[]), format="json")
    assert response.status_code == 403
    assert client.delete(f"/api/designs/{design.pk}/").status_code == 403
    design.refresh_from_db()
    assert design.revision == 1


def test_editors_change_designs(design, erin, client_for):
    response = client_for(erin).put(f"/api/designs/{design.pk}/", design_document("tank"), format="json")
    assert response.status_code == 200


def test_viewers_cannot_create_in_their_team(team, bob, client_for):
    response = client_for(bob).post("/api/designs/", {**design_document(), "team": team.pk}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "team"
    assert "viewer" in error["message"]
    assert not PoolDesign.objects.exists()


def test_outsiders_cannot_create_in_a_foreign_team(team, charlie, client_for):
    response = client_for(charlie).post("/api/designs/", {**design_document(), "team": team.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "team"
    assert not PoolDesign.objects.exists()


def test_editors_cannot_move_a_design_to_a_foreign_team(design, erin, other_team, client_for):
    doc = {**design_document("tank"), "team": other_team.pk}
    response = client_for(erin).put(f"/api/designs/{design.pk}/", doc, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "team"


# ------------------------------------------------------------------ catalog


def test_only_staff_write_the_catalog(alice, client_for):
    disk = {
        "vendor": "Example",
        "model": "EX-1",
        "capacity_bytes": 1000,
        "logical_sector_bytes": 512,
        "physical_sector_bytes": 4096,
        "media": "hdd",
    }
    assert client_for(alice).post("/api/disks/", disk, format="json").status_code == 403
    staff = UserFactory(username="root", is_staff=True)
    assert client_for(staff).post("/api/disks/", {**disk, "capacity_bytes": 1024000}, format="json").status_code == 201
    assert CatalogDisk.objects.filter(model="EX-1").exists()


def test_catalog_rejects_physical_below_logical(client_for):
    staff = UserFactory(username="root", is_staff=True)
    disk = {
        "vendor": "E",
        "model": "EX-2",
        "capacity_bytes": 4096,
        "logical_sector_bytes": 4096,
        "physical_sector_bytes": 512,
        "media": "hdd",
    }
    response = client_for(staff).post("/api/disks/", disk, format="json")
    assert response.status_code == 400
    assert "physical_sector_bytes" in response.json()


def test_catalog_reads_back_an_empty_datasheet_url_and_checks_a_given_one(client_for):
    staff = UserFactory(username="root", is_staff=True)
    disk = {"vendor": "E", "model": "EX-3", "capacity_bytes": 4096, "media": "hdd"}
    created = client_for(staff).post("/api/disks/", disk, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["datasheet_url"] == ""
    bad = client_for(staff).post("/api/disks/", {**disk, "model": "EX-4", "datasheet_url": "nope"}, format="json")
    assert bad.status_code == 400
    assert "datasheet_url" in bad.json()
    assert not CatalogDisk.objects.filter(model="EX-4").exists()
