"""The OpenAPI schema at /api/schema/ loads and documents the plans endpoints."""

import pytest
import yaml

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(alice, client_for):
    response = client_for(alice).get("/api/schema/")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


def test_schema_lists_the_plans_endpoints(schema):
    paths = set(schema["paths"])
    assert {
        "/api/auth/token/",
        "/api/teams/",
        "/api/teams/{id}/members/",
        "/api/disks/",
        "/api/designs/",
        "/api/designs/{id}/",
        "/api/designs/{id}/export/",
        "/api/designs/{id}/estimate/",
        "/api/designs/import/",
        "/api/estimate/",
    } <= paths


def test_estimate_documents_the_error_shape(schema):
    post = schema["paths"]["/api/estimate/"]["post"]
    assert "400" in post["responses"]
    ref = post["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
    error = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(error["properties"]) == {"detail", "errors"}


def test_import_accepts_a_file(schema):
    content = schema["paths"]["/api/designs/import/"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in content


def test_docs_page_loads(alice, client_for):
    assert client_for(alice).get("/api/docs/").status_code == 200


def test_responses_are_documented_as_they_are_sent(schema):
    paths = schema["paths"]
    assert set(paths["/api/designs/"]["post"]["responses"]) == {"201", "400"}
    assert set(paths["/api/designs/{id}/"]["put"]["responses"]) == {"200", "400", "409"}
    assert set(paths["/api/designs/{id}/"]["delete"]["responses"]) == {"204"}
    assert "400" not in paths["/api/designs/"]["get"]["responses"]  # filter errors are not design errors
    members = paths["/api/teams/{id}/members/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert members["schema"]["type"] == "array"  # the list is not paginated
    disk = schema["components"]["schemas"]["CatalogDisk"]["properties"]["datasheet_url"]
    assert "format" not in disk  # "" is a valid value: no datasheet
