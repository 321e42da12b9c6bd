"""The design document survives file → database → file, through the services and the API."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import design_document
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

pytestmark = pytest.mark.django_db

DESIGNS = sorted((Path(__file__).parent / "designs").glob("*.json"))
EXAMPLES = [design_document(), *[json.loads(p.read_text()) for p in DESIGNS]]
IDS = ["factory", *[p.stem for p in DESIGNS]]


@pytest.mark.parametrize("doc", EXAMPLES, ids=IDS)
def test_file_to_db_to_file_is_identical(doc, team, alice):
    design = save_design_document(team, doc, alice)
    reloaded = PoolDesign.objects.get(pk=design.pk)
    assert reloaded.to_document() == doc
    assert json.dumps(reloaded.to_document(), sort_keys=True) == json.dumps(doc, sort_keys=True)


@pytest.mark.parametrize("doc", EXAMPLES, ids=IDS)
def test_stored_design_matches_the_core_reading(doc, team, alice):
    design = save_design_document(team, doc, alice)
    assert design.to_spec() == parse_design(doc)


@pytest.mark.parametrize("doc", EXAMPLES, ids=IDS)
def test_api_import_then_export_is_identical(doc, team, alice, client_for):
    client = client_for(alice)
    upload = SimpleUploadedFile("design.json", json.dumps(doc).encode(), content_type="application/json")
    created = client.post("/api/designs/import/", {"team": team.pk, "file": upload}, format="multipart")
    assert created.status_code == 201, created.json()
    exported = client.get(f"/api/designs/{created.json()['id']}/export/")
    assert exported.status_code == 200
    assert exported["Content-Disposition"].startswith("attachment; filename=")
    assert json.loads(exported.content) == doc


def test_extra_keys_are_kept_at_every_level(team, alice):
    doc = json.loads((Path(__file__).parent / "designs" / "mixed-mirrors-extra-keys.json").read_text())
    out = save_design_document(team, doc, alice).to_document()
    assert out["x-owner"] == {"team": "storage", "ticket": 4711}
    assert out["vdevs"][0]["x-slot"] == "front"
    assert out["vdevs"][0]["disks"][0]["x-serial"] == "7JG0ABCD"
    assert out["datasets"][0]["x-retention"] == "90d"
    assert out["datasets"][0]["contents"]["compressibility"]["x-tool"] == "zfsplanner sample"


def test_non_canonical_spelling_exports_in_canonical_form(team, alice):
    """Bare byte counts for ZFS properties come back in zfs's spelling; the design is the same."""
    doc = design_document()
    doc["datasets"][0]["recordsize"] = 1048576
    del doc["datasets"][0]["type"]
    out = save_design_document(team, doc, alice).to_document()
    assert out["datasets"][0]["recordsize"] == "1M"
    assert out["datasets"][0]["type"] == "filesystem"
    assert parse_design(out) == parse_design(doc)
    assert out == design_to_document(parse_design(doc)) | {"openzfs_version": "2.3"}


def test_export_inlines_catalog_references_and_reimports_identically(team, alice, client_for):
    doc = design_document(
        vdevs=[{"role": "data", "layout": "raidz2", "width": 6, "disk": {"catalog": "ST14000NM001G"}}]
    )
    first = save_design_document(team, doc, alice).to_document()
    assert first["vdevs"][0]["disk"]["size_bytes"] == 14_000_519_643_136
    second = save_design_document(team, first, alice).to_document()
    assert second == first


def test_import_json_document_body(team, alice, client_for):
    doc = design_document()
    response = client_for(alice).post("/api/designs/import/", {"team": team.pk, "document": doc}, format="json")
    assert response.status_code == 201
    assert PoolDesign.objects.get(pk=response.json()["id"]).to_document() == doc


def test_import_rejects_invalid_json_file(team, alice, client_for):
    upload = SimpleUploadedFile("broken.json", b'{"name": ', content_type="application/json")
    response = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "file"
    assert "broken.json" in response.json()["errors"][0]["message"]
    assert not PoolDesign.objects.exists()


def test_import_invalid_design_names_the_field(team, alice, client_for):
    doc = design_document()
    doc["vdevs"][0]["layout"] = "raidz9"
    upload = SimpleUploadedFile("d.json", json.dumps(doc).encode())
    response = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": upload}, format="multipart")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["vdevs[0].layout"]
    assert not PoolDesign.objects.exists()


def test_import_into_a_foreign_team_is_refused(team, charlie, client_for):
    upload = SimpleUploadedFile("d.json", json.dumps(design_document()).encode())
    response = client_for(charlie).post("/api/designs/import/", {"team": team.pk, "file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "team"
    assert not PoolDesign.objects.exists()
