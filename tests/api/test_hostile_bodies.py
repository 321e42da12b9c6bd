"""Hostile bodies on every way JSON and text enter: each answers 400 naming what is wrong, and
nothing is stored.

One parser reads every JSON body and every JSON string sent inside a form field
(zfsplanner/web/api_parsers.py): size, nesting depth, a NUL or a lone surrogate anywhere. The
design document's own reader checks every string and key again (core/document/limits.py), for the ways
a design arrives without the API's parser (an uploaded file, the pages).
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from benchmarks.models import BenchRun, BenchUpload
from tests.benchmarks.conftest import CDM_WD
from tests.core.import_samples import text as sample_text
from tests.factories import PoolDesignFactory, design_document
from tests.imports.conftest import LINUX
from zfsplanner.imports.models import HistogramUpload, PoolImport
from zfsplanner.plans.models import PoolDesign

LONE = "\udfff"
DEEP = 100_000


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


def _post_json(client, url, body, method="post"):
    """``body`` as JSON text with its lone surrogates escaped (``"\\udfff"``), as a client sends it."""
    text = body if isinstance(body, str) else json.dumps(body)
    return getattr(client, method)(url, text, content_type="application/json")


def _said(r) -> str:
    """Every string of a JSON answer, joined: what a client reads (paths and messages)."""
    out, stack = [], [r.json()]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            out.append(str(item))
    return " | ".join(out)


def _deep(key: str) -> str:
    return "{" + f'"{key}": ' + "[" * DEEP + "]" * DEEP + "}"


# --------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    "url", ["/api/pool-imports/", "/api/histogram-uploads/"], ids=["pool-imports", "histogram-uploads"]
)
def test_a_100000_deep_json_body_is_a_400_naming_the_nesting(url, alice, client_for, design):
    r = client_for(alice).post(url, _deep("text"), content_type="application/json")
    assert r.status_code == 400, r.content
    assert "nested more than 32 levels" in r.json()["detail"]
    assert PoolImport.objects.count() == HistogramUpload.objects.count() == 0


def test_upload_settings_as_a_deeply_nested_json_string_are_a_400_naming_the_field(alice, client_for):
    body = {"team": "alpha", "files": [SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes())],
            "settings": '{"extra": ' + "[" * 50_000 + "]" * 50_000 + "}"}
    r = client_for(alice).post("/api/benchmark-uploads/", body, format="multipart")
    assert r.status_code == 400, r.content
    assert "nested more than 32 levels" in r.json()["settings"][0]
    assert BenchUpload.objects.count() == 0


def test_pasted_outputs_larger_than_a_design_still_import(alice, client_for):
    padding = "\n" * (2 * 1024 * 1024)  # the import's own limit is on the text, not the design's 1 MiB
    r = _post_json(client_for(alice), "/api/pool-imports/", {"text": sample_text(LINUX) + padding})
    assert r.status_code == 201, r.content[:300]


# --------------------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(description=f"a{LONE}b"), "description"),
        (lambda d: d.update({f"note{LONE}": 1}), "the key 'note\\udfff'"),
        (lambda d: d.update(note=f"x{LONE}"), "note"),
        (lambda d: d["vdevs"][0]["disk"].update(model=f"ST{LONE}"), "vdevs[0].disk.model"),
    ],
    ids=["description", "extra-key-name", "extra-key-value", "disk-model"],
)
def test_a_lone_surrogate_in_a_design_is_a_400_naming_the_field(change, field, alice, team, client_for, design):
    doc = design_document("tank")
    change(doc)
    client = client_for(alice)
    answers = {
        "create": _post_json(client, "/api/designs/", {**doc, "team": team.pk}),
        "put": _post_json(client, f"/api/designs/{design.pk}/", {**doc, "team": team.pk}, method="put"),
        "import": _post_json(client, "/api/designs/import/", {"team": team.pk, "document": doc}),
        "estimate": _post_json(client, "/api/estimate/", doc),
    }
    for name, r in answers.items():
        assert r.status_code == 400, (name, r.status_code, r.content[:300])
        assert field in _said(r) and "lone surrogate" in _said(r), (name, _said(r))
    assert PoolDesign.objects.count() == 1 and PoolDesign.objects.get().revision == design.revision


def test_a_lone_surrogate_in_an_imported_design_file_is_a_400_naming_the_field(alice, team, client_for):
    upload = SimpleUploadedFile("d.json", json.dumps(design_document(description=f"x{LONE}")).encode())
    r = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": upload}, format="multipart")
    assert r.status_code == 400
    assert "description" in _said(r) and "lone surrogate" in _said(r)
    assert PoolDesign.objects.count() == 0


def test_the_import_page_refuses_a_lone_surrogate_with_the_field_named(alice, team):
    c = Client()
    c.force_login(alice)
    upload = SimpleUploadedFile("d.json", json.dumps(design_document(description=f"x{LONE}")).encode())
    r = c.post("/designs/import/", {"team": team.pk, "file": upload})
    assert r.status_code == 422 and "description: contains a lone surrogate" in r.content.decode().lower()
    assert PoolDesign.objects.count() == 0


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


def test_a_lone_surrogate_in_a_runs_settings_is_a_400_naming_the_field(run, alice, client_for):
    r = _post_json(client_for(alice), f"/api/benchmarks/{run.pk}/", {"settings": {"extra": {"x": LONE}}}, "patch")
    assert r.status_code == 400
    assert "settings.extra.x: contains a lone surrogate" in r.json()["detail"]
    run.refresh_from_db()
    assert run.settings == {}


def test_a_lone_surrogate_in_upload_settings_given_as_a_json_string_is_refused(alice, client_for):
    body = {"team": "alpha", "files": [SimpleUploadedFile(CDM_WD.name, CDM_WD.read_bytes())],
            "settings": json.dumps({"extra": {"iscsi": f"LIO{LONE}"}})}
    r = client_for(alice).post("/api/benchmark-uploads/", body, format="multipart")
    assert r.status_code == 400
    assert "extra.iscsi: contains a lone surrogate" in r.json()["settings"][0]
    assert BenchUpload.objects.count() == 0


@pytest.mark.parametrize("url", ["/api/pool-imports/", "/api/teams/"])
def test_a_lone_surrogate_in_any_json_body_is_refused_before_a_view_sees_it(url, alice, client_for):
    r = _post_json(client_for(alice), url, {"text": f"pool: tank{LONE}", "name": f"t{LONE}"})
    assert r.status_code == 400 and "lone surrogate" in r.json()["detail"]


def test_a_valid_surrogate_pair_is_text(alice, team, client_for):
    doc = design_document("tank", description="backup \U0001f4be")  # sent as "\\ud83d\\udcbe"
    r = _post_json(client_for(alice), "/api/designs/", {**doc, "team": team.pk})
    assert r.status_code == 201, r.content
    assert PoolDesign.objects.get().description == "backup \U0001f4be"
