"""CRUD on /api/designs/: the body is the document plus team."""

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db


def test_it_creates_a_design(team, alice, client_for):
    response = client_for(alice).post("/api/designs/", {**design_document(), "team": team.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["team"] == team.pk
    assert body["revision"] == 1
    assert body["name"] == "tank"
    assert body["vdevs"] == design_document()["vdevs"]
    design = PoolDesign.objects.get(pk=body["id"])
    assert design.created_by == alice


def test_it_lists_the_users_designs_as_summaries_with_a_link_to_each_document(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    response = client_for(alice).get("/api/designs/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    [item] = body["results"]
    assert item["name"] == "tank" and item["vdev_groups"] == 1 and item["datasets"] == 1
    assert {"id", "team", "revision", "updated"} <= set(item)
    assert "vdevs" not in item and "format" not in item  # a list never carries whole documents
    assert item["url"].endswith(f"/api/designs/{design.pk}/")
    assert client_for(alice).get(item["url"]).json()["format"] == "zfsplanner.design/1"


def test_it_filters_by_name_team_and_version(team, alice, client_for):
    PoolDesignFactory(team=team, name="tank")
    PoolDesignFactory(team=team, name="backup", document=design_document("backup", openzfs_version="2.2"))
    client = client_for(alice)
    assert [d["name"] for d in client.get("/api/designs/?q=back").json()["results"]] == ["backup"]
    assert [d["name"] for d in client.get("/api/designs/?openzfs_version=2.3").json()["results"]] == ["tank"]
    assert client.get(f"/api/designs/?team={team.pk}").json()["count"] == 2


def test_the_version_filter_takes_a_series_with_its_releases(team, alice, client_for):
    PoolDesignFactory(team=team, name="tank")  # "2.3"
    PoolDesignFactory(team=team, name="debian", document=design_document("debian", openzfs_version="2.3.2"))
    PoolDesignFactory(team=team, name="new", document=design_document("new", openzfs_version="2.4.4"))
    client = client_for(alice)
    names = {d["name"] for d in client.get("/api/designs/?openzfs_version=2.3").json()["results"]}
    assert names == {"tank", "debian"}
    assert [d["name"] for d in client.get("/api/designs/?openzfs_version=2.4").json()["results"]] == ["new"]


def test_filtering_by_a_foreign_team_is_rejected(team, other_team, alice, client_for):
    response = client_for(alice).get(f"/api/designs/?team={other_team.pk}")
    assert response.status_code == 400
    assert "team" in response.json()


def test_it_updates_the_whole_document(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    doc = design_document(description="now with a note", datasets=[])
    response = client_for(alice).put(f"/api/designs/{design.pk}/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["revision"] == 2
    design.refresh_from_db()
    assert design.description == "now with a note"
    assert design.datasets.count() == 0


def test_put_without_team_keeps_the_team(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    response = client_for(alice).put(f"/api/designs/{design.pk}/", design_document(), format="json")
    assert response.status_code == 200
    assert response.json()["team"] == team.pk


def test_get_then_put_round_trips(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    client = client_for(alice)
    body = client.get(f"/api/designs/{design.pk}/").json()
    response = client.put(f"/api/designs/{design.pk}/", body, format="json")
    assert response.status_code == 200
    assert response.json()["revision"] == 2
    design.refresh_from_db()
    assert design.to_document() == design_document("tank")


def test_stale_revision_is_a_conflict(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    client = client_for(alice)
    body = client.get(f"/api/designs/{design.pk}/").json()
    assert client.put(f"/api/designs/{design.pk}/", body, format="json").status_code == 200
    response = client.put(f"/api/designs/{design.pk}/", body, format="json")
    assert response.status_code == 409
    assert "revision" in response.json()["detail"]


def test_invalid_update_names_the_field_and_changes_nothing(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    doc = design_document()
    doc["datasets"][0]["recordsize"] = "3K"
    response = client_for(alice).put(f"/api/designs/{design.pk}/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == [{"field": "datasets[0].recordsize", "message": "must be a power of two from 512 to 16M"}]
    assert "datasets[0].recordsize" in body["detail"]
    design.refresh_from_db()
    assert design.revision == 1
    assert design.datasets.get().recordsize == 1024**2


def test_create_reports_every_bad_field(team, alice, client_for):
    doc = design_document(name="mirror")
    doc["vdevs"][0]["width"] = "six"
    response = client_for(alice).post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"name", "vdevs[0].width"} <= fields
    assert not PoolDesign.objects.exists()


def test_a_design_may_name_a_known_release_and_an_unknown_one_is_refused_with_the_known_ones(team, alice, client_for):
    client = client_for(alice)
    body = {**design_document(openzfs_version="2.4.4"), "team": team.pk}
    response = client.post("/api/designs/", body, format="json")
    assert response.status_code == 201 and response.json()["openzfs_version"] == "2.4.4"
    response = client.post("/api/designs/", {**body, "openzfs_version": "2.4.9"}, format="json")
    assert response.status_code == 400
    (error,) = [e for e in response.json()["errors"] if e["field"] == "openzfs_version"]
    assert "its newest 2.4 release is 2.4.4" in error["message"] and "2.3.0\u20132.3.9" in error["message"]


def test_create_needs_a_team(alice, client_for):
    response = client_for(alice).post("/api/designs/", design_document(), format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "team"


def test_a_non_object_body_is_rejected(alice, client_for):
    response = client_for(alice).post("/api/designs/", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == ""


def test_unknown_catalog_model_is_a_400_naming_the_field(team, alice, client_for):
    doc = design_document(vdevs=[{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "XX123"}}])
    response = client_for(alice).post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "vdevs[0].disk.catalog", "message": "'XX123' is not a disk in the catalog"}
    ]


def test_it_deletes_a_design(team, erin, client_for):
    design = PoolDesignFactory(team=team)
    assert client_for(erin).delete(f"/api/designs/{design.pk}/").status_code == 204
    assert not PoolDesign.objects.exists()


def test_patch_is_not_offered(team, alice, client_for):
    design = PoolDesignFactory(team=team)
    assert client_for(alice).patch(f"/api/designs/{design.pk}/", {"name": "x"}, format="json").status_code == 405


def test_export_is_the_pure_document(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    response = client_for(alice).get(f"/api/designs/{design.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tank-r1.json"'
    assert response.json() == design_document("tank")


def test_token_authentication(team, alice, api_client):
    PoolDesignFactory(team=team, name="tank")
    token = api_client.post("/api/auth/token/", {"username": "alice", "password": "pw-for-tests-1"}).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api_client.get("/api/designs/")
    assert response.status_code == 200
    assert response.json()["count"] == 1


def test_anonymous_requests_are_refused(team, api_client):
    PoolDesignFactory(team=team)
    assert api_client.get("/api/designs/").status_code in (401, 403)
    assert api_client.post("/api/estimate/", design_document(), format="json").status_code in (401, 403)


def test_catalog_is_readable_by_members(alice, client_for):
    response = client_for(alice).get("/api/disks/?media=nvme&plp=true")
    assert response.status_code == 200
    models = {d["model"] for d in response.json()["results"]}
    assert "MZQL21T9HCJR" in models
    assert all(d["media"] == "nvme" for d in response.json()["results"])


def test_creating_from_a_null_body_names_the_document(team, alice, client_for):
    response = client_for(alice).post("/api/designs/", "null", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "", "message": "the body must be a JSON object: a design document with a team"}
    ]
    assert not PoolDesign.objects.exists()


def test_replacing_with_broken_json_keeps_the_design(team, alice, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    response = client_for(alice).put(f"/api/designs/{design.pk}/", "{nope", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == ""
    assert "JSON parse error" in body["detail"]
    design.refresh_from_db()
    assert design.revision == 1


def test_importing_a_json_list_is_a_400(team, alice, client_for):
    response = client_for(alice).post("/api/designs/import/", [None, None], format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == ""
    assert not PoolDesign.objects.exists()


def test_a_price_per_disk_is_stored_and_given_back_as_a_string(team, alice, client_for):
    doc = design_document()
    doc["vdevs"][0]["price_per_disk"] = 279.9
    client = client_for(alice)
    response = client.post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["vdevs"][0]["price_per_disk"] == "279.9"
    design = PoolDesign.objects.get(pk=response.json()["id"])
    assert str(design.vdevs.get().price_per_disk) == "279.9000"
    assert design.to_spec().vdevs[0].price_per_disk is not None
    body = client.get(f"/api/designs/{design.pk}/").json()
    assert body["vdevs"][0]["price_per_disk"] == "279.9"
    assert "price_per_disk" not in design.vdevs.get().extra


def test_the_pool_ashift_is_stored_and_given_back(team, alice, client_for):
    doc = {**design_document(), "ashift": 12}
    client = client_for(alice)
    response = client.post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 201, response.json()
    design = PoolDesign.objects.get(pk=response.json()["id"])
    assert design.ashift == 12 and "ashift" not in design.extra
    assert client.get(f"/api/designs/{design.pk}/").json()["ashift"] == 12
    assert design.to_spec().ashift == 12
    assert all(g.requested_ashift == 12 or g.ashift is not None for g in design.to_spec().vdevs)
    body = {k: v for k, v in client.get(f"/api/designs/{design.pk}/").json().items() if k != "ashift"}
    assert client.put(f"/api/designs/{design.pk}/", body, format="json").status_code == 200
    design.refresh_from_db()
    assert design.ashift is None and "ashift" not in design.to_document()


def test_the_hosts_module_parameters_are_kept_and_a_risky_one_is_in_the_estimate(team, alice, client_for):
    client = client_for(alice)
    doc = {**design_document(), "host": {"ram_bytes": 64 * 2**30, "tunables": {"zfs_nocacheflush": 1}}}
    response = client.post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["host"] == {"ram_bytes": 64 * 2**30, "tunables": {"zfs_nocacheflush": 1}}
    risks = client.get(f"/api/designs/{body['id']}/estimate/").json()["risks"]
    (risk,) = [r for r in risks if r["code"] == "host-nocacheflush"]
    assert risk["severity"] == "critical" and risk["subject"] == "pool"


def test_a_bad_module_parameter_is_named_and_nothing_is_saved(team, alice, client_for):
    doc = {**design_document(), "host": {"tunables": {"zfs nocacheflush": 1}}}
    response = client_for(alice).post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{
        "field": "host.tunables.zfs nocacheflush",
        "message": "'zfs nocacheflush' is not a module parameter name (letters, digits and _)",
    }]
    assert PoolDesign.objects.count() == 0
