"""The same bytes uploaded twice in a team are one upload; another team gets its own."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.models import BenchUpload
from tests.benchmarks.conftest import CDM_WD

URL = "/api/benchmark-uploads/"


def _post(client, capture, team, name="a.txt"):
    with capture(execute=True):
        return client.post(
            URL, {"team": team, "file": SimpleUploadedFile(name, CDM_WD.read_bytes())}, format="multipart"
        )


@pytest.mark.django_db
def test_the_same_file_twice_points_to_the_first_upload(
    client_for, alice, media_root, django_capture_on_commit_callbacks
):
    first = _post(client_for(alice), django_capture_on_commit_callbacks, "alpha").json()["uploads"][0]
    r = _post(client_for(alice), django_capture_on_commit_callbacks, "alpha", name="renamed copy.txt")
    assert r.status_code == 200
    [second] = r.json()["uploads"]
    assert second["duplicate"] is True
    assert second["id"] == first["id"]
    assert f"already uploaded as #{first['id']}" in second["message"]
    assert BenchUpload.objects.count() == 1
    stored = [p for p in (media_root / "benchmarks").rglob("*") if p.is_file()]
    assert len(stored) == 1  # no second copy, no temporary file left behind


@pytest.mark.django_db
def test_the_same_file_in_two_teams_is_two_uploads(client_for, alice, charlie, django_capture_on_commit_callbacks):
    a = _post(client_for(alice), django_capture_on_commit_callbacks, "alpha").json()["uploads"][0]
    b = _post(client_for(charlie), django_capture_on_commit_callbacks, "beta").json()["uploads"][0]
    assert a["id"] != b["id"] and a["sha256"] == b["sha256"]
    assert b["duplicate"] is False


@pytest.mark.django_db
def test_a_duplicate_inside_one_request_is_recognised(client_for, alice, django_capture_on_commit_callbacks):
    files = [SimpleUploadedFile("a.txt", CDM_WD.read_bytes()), SimpleUploadedFile("b.txt", CDM_WD.read_bytes())]
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(URL, {"team": "alpha", "files": files}, format="multipart")
    a, b = r.json()["uploads"]
    assert (a["duplicate"], b["duplicate"]) == (False, True)
    assert a["id"] == b["id"]


@pytest.mark.django_db
def test_the_page_says_the_file_was_already_uploaded(client_for, alice, django_capture_on_commit_callbacks):
    c = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        c.post(
            "/benchmarks/upload/",
            {"team": alice.memberships.get().team_id, "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())},
        )
    r = c.post(
        "/benchmarks/upload/",
        {"team": alice.memberships.get().team_id, "files": SimpleUploadedFile("a.txt", CDM_WD.read_bytes())},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200
    assert "was already uploaded as #" in r.content.decode()
