"""Estimates: stateless POST /api/estimate/ and GET /api/designs/{id}/estimate/."""

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.estimate import estimate_document

pytestmark = pytest.mark.django_db


def test_post_estimate_returns_the_core_estimate(alice, client_for):
    doc = design_document()
    response = client_for(alice).post("/api/estimate/", doc, format="json")
    assert response.status_code == 200
    assert response.json() == estimate_document(doc)
    assert response.json()["format"] == "zfsplanner.estimate/1"


def test_post_estimate_resolves_catalog_references(alice, client_for):
    doc = {
        "name": "tank",
        "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": {"catalog": "MN08ACA14T"}}],
    }
    response = client_for(alice).post("/api/estimate/", doc, format="json")
    assert response.status_code == 200
    assert response.json()["vdevs"][0]["layout"] == "mirror"


def test_post_estimate_names_the_bad_field(alice, client_for):
    doc = design_document()
    doc["vdevs"][0]["disk"]["size_bytes"] = "14T"
    response = client_for(alice).post("/api/estimate/", doc, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "vdevs[0].disk.size_bytes"
    assert "ambiguous" in body["errors"][0]["message"]
    assert body["detail"].startswith("Invalid design: vdevs[0].disk.size_bytes")


def test_post_estimate_rejects_a_list(alice, client_for):
    response = client_for(alice).post("/api/estimate/", [], format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == ""


def test_post_estimate_rejects_broken_json(alice, client_for):
    response = client_for(alice).post("/api/estimate/", "{nope", content_type="application/json")
    assert response.status_code == 400


def test_design_estimate_matches_the_stateless_one(team, bob, client_for):
    design = PoolDesignFactory(team=team, name="tank")
    response = client_for(bob).get(f"/api/designs/{design.pk}/estimate/")
    assert response.status_code == 200
    assert response.json() == estimate_document(design_document("tank"))


def test_post_estimate_answers_broken_json_in_the_design_error_shape(alice, client_for):
    response = client_for(alice).post("/api/estimate/", b"\x00", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == ""
    assert "JSON parse error" in body["detail"]
