"""An id in a body answers the same for another team's object and for an id that does not exist:
no answer tells them apart, so no one can enumerate the ids of other teams' designs and teams."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.models import BenchRun
from tests.benchmarks.conftest import CDM_WD
from tests.core.import_samples import text as sample_text
from tests.factories import PoolDesignFactory, design_document
from tests.imports.conftest import LINUX
from zfsplanner.imports.models import PoolImport
from zfsplanner.plans.models import PoolDesign


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def foreign_design(other_team, charlie):
    return PoolDesignFactory(team=other_team, name="theirs", document=design_document("theirs"))


@pytest.fixture
def unknown_id(foreign_design):
    return foreign_design.pk + 1000


def _same(answers):
    """Both answers, with the id in them replaced: identical status and body."""
    (a, id_a), (b, id_b) = answers
    assert a.status_code == b.status_code == 400, (a.content, b.content)
    said = a.content.decode().replace(str(id_a), "N")
    assert said == b.content.decode().replace(str(id_b), "N")
    return json.loads(said)


@pytest.fixture
def run(alice, client_for, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post(
            "/api/benchmark-uploads/",
            {"team": "alpha", "files": [SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes())]},
            format="multipart",
        )
    assert r.status_code == 201, r.content
    return BenchRun.objects.get()


def test_patching_a_runs_design_to_another_teams_design_answers_as_for_an_unknown_id(
    run, alice, client_for, foreign_design, unknown_id
):
    client = client_for(alice)
    body = _same(
        [(client.patch(f"/api/benchmarks/{run.pk}/", {"design": i}, format="json"), i)
         for i in (foreign_design.pk, unknown_id)]
    )
    assert body == {"design": ["no design with id N in your teams"]}
    run.refresh_from_db()
    assert run.design_id is None


def test_upload_metadata_naming_another_teams_design_answers_as_for_an_unknown_id(
    alice, client_for, foreign_design, unknown_id
):
    client = client_for(alice)

    def upload(design_id):
        files = [SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes())]
        return client.post("/api/benchmark-uploads/", {"team": "alpha", "files": files, "design": design_id},
                           format="multipart")

    assert _same([(upload(i), i) for i in (foreign_design.pk, unknown_id)]) == {
        "design": ["no design with id N in your teams"]
    }
    assert BenchRun.objects.count() == 0


def test_a_design_of_another_of_ones_own_teams_is_named_as_such(run, alice, client_for, other_team):
    from tests.factories import MembershipFactory
    from zfsplanner.accounts.models import Role

    MembershipFactory(team=other_team, user=alice, role=Role.EDITOR)
    mine_elsewhere = PoolDesignFactory(team=other_team, name="elsewhere", document=design_document("elsewhere"))
    r = client_for(alice).patch(f"/api/benchmarks/{run.pk}/", {"design": mine_elsewhere.pk}, format="json")
    assert r.status_code == 400 and "belongs to another team" in r.json()["design"][0]


def test_saving_a_pool_import_to_another_team_answers_as_for_an_unknown_team(alice, client_for, other_team):
    client = client_for(alice)
    created = client.post("/api/pool-imports/", {"text": sample_text(LINUX)}, format="json")
    assert created.status_code == 201, created.content
    url = f"/api/pool-imports/{created.json()['id']}/save/"
    unknown = other_team.pk + 1000
    body = _same([(client.post(url, {"team": t}, format="json"), t) for t in (other_team.pk, unknown)])
    assert body == {"team": ["no team with id N in your teams"]}
    assert PoolDesign.objects.count() == 0 and PoolImport.objects.get().design_id is None


def test_a_viewer_saving_an_import_to_their_own_team_is_told_why(bob, client_for, team):
    client = client_for(bob)
    created = client.post("/api/pool-imports/", {"text": sample_text(LINUX)}, format="json")
    r = client.post(f"/api/pool-imports/{created.json()['id']}/save/", {"team": team.pk}, format="json")
    assert r.status_code == 403 and "owners and editors" in r.json()["detail"]


def test_a_histogram_upload_for_another_teams_design_answers_as_for_an_unknown_id(
    alice, client_for, foreign_design, unknown_id
):
    client = client_for(alice)

    def post(design_id):
        return client.post("/api/histogram-uploads/", {"design": design_id, "dataset": "theirs/data",
                                                       "text": "4096\n"}, format="json")

    assert _same([(post(i), i) for i in (foreign_design.pk, unknown_id)]) == {
        "design": ["no design with id N in your teams"]
    }
