"""Posted form fields that are not UTF-8 text are refused as the JSON API refuses them (zfsplanner/web/form_text.py).

Django reads form bytes as UTF-8 with ``errors="replace"``: ``x%ED%BF%BF`` (the UTF-8 bytes of a
lone surrogate) was saved as ``x\\ufffd\\ufffd\\ufffd``. Every form, urlencoded or multipart, now
answers 400 naming the field, and nothing is saved. The suite runs on PostgreSQL in CI too.
"""

from __future__ import annotations

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from benchmarks.models import BenchRun, BenchUpload
from tests.benchmarks.conftest import CDM_WD
from tests.factories import BenchRunFactory
from zfsplanner.accounts.models import Team
from zfsplanner.accounts.tokens import issue_token
from zfsplanner.web.form_text import text_problem

pytestmark = pytest.mark.django_db

LONE = b"x%ED%BF%BF"  # a lone surrogate (U+DFFF) as UTF-8 bytes, percent-encoded
FORM = "application/x-www-form-urlencoded"
BOUNDARY = "hostileboundary"


def _multipart(fields: dict[str, bytes], files: dict[str, tuple[bytes, bytes]]) -> bytes:
    """A multipart body written by hand: the test client would encode a str value as valid UTF-8."""
    parts = [b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (BOUNDARY.encode(), k.encode(), v)
             for k, v in fields.items()]
    parts += [b"--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\n"
              b"Content-Type: text/plain\r\n\r\n%s\r\n" % (BOUNDARY.encode(), k.encode(), name, data)
              for k, (name, data) in files.items()]
    return b"".join(parts) + b"--%s--\r\n" % BOUNDARY.encode()


def _refused(r, field: str, problem: str) -> None:
    assert r.status_code == 400, r.status_code
    said = html.unescape(r.content.decode())
    assert f"The field “{field}” {problem}" in said, said
    assert "Nothing was saved" in said


def test_a_team_name_with_a_lone_surrogate_is_refused(alice, web):
    r = web(alice).post("/teams/new/", b"name=" + LONE, content_type=FORM)
    _refused(r, "name", "contains a lone surrogate (\\udfff)")
    assert not Team.objects.filter(name__startswith="x").exists()


def test_a_display_name_with_bytes_that_are_not_utf8_is_refused(alice, web):
    r = web(alice).post("/accounts/profile/", b"display_name=caf%E9", content_type=FORM)
    _refused(r, "display name", "is not UTF-8 text (byte 0xe9)")
    alice.refresh_from_db()
    assert "caf" not in alice.first_name


def test_a_run_label_with_a_lone_surrogate_is_refused(alice, team, web):
    run = BenchRunFactory(upload__team=team, label="fast pool")
    r = web(alice).post(f"/benchmarks/{run.pk}/edit/", b"label=" + LONE, content_type=FORM)
    _refused(r, "label", "contains a lone surrogate (\\udfff)")
    run.refresh_from_db()
    assert run.label == "fast pool"


def test_a_label_sent_with_an_upload_is_refused_and_nothing_is_stored(alice, team, web, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    body = _multipart({"team": str(team.pk).encode(), "label": b"x\xed\xbf\xbf"},
                      {"files": (b"cdm.txt", CDM_WD.read_bytes())})
    r = web(alice).post("/benchmarks/upload/", body, content_type=f"multipart/form-data; boundary={BOUNDARY}")
    _refused(r, "label", "contains a lone surrogate (\\udfff)")
    assert not BenchUpload.objects.exists() and not BenchRun.objects.exists()
    assert [p for p in (tmp_path / "media").rglob("*") if p.is_file()] == []


def test_a_field_name_that_is_not_utf8_is_refused(alice, web):
    r = web(alice).post("/teams/new/", b"name=ok&n%FF=1", content_type=FORM)
    _refused(r, "n\\xff", "has a name that is not UTF-8 text (byte 0xff)")


def test_json_clients_get_the_field_in_json(alice, web):
    r = web(alice).post("/teams/new/", b"name=" + LONE, content_type=FORM, HTTP_ACCEPT="application/json")
    assert r.status_code == 400
    assert r.json() == {"detail": r.json()["detail"], "field": "name"} and "lone surrogate" in r.json()["detail"]


def test_text_in_every_script_is_kept(alice, web):
    name = "Équipe 東京 🙂 \ufffd"  # a real U+FFFD typed by someone is text
    r = web(alice).post("/teams/new/", {"name": name})
    assert r.status_code == 302
    assert Team.objects.filter(name=name).exists()


def test_a_form_with_valid_text_and_a_file_is_stored_as_before(alice, team, web, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    log = SimpleUploadedFile("a.txt", CDM_WD.read_bytes())
    r = web(alice).post("/benchmarks/upload/", {"team": team.pk, "label": "Équipe 東京", "files": log})
    assert r.status_code == 302
    assert BenchUpload.objects.get().size == CDM_WD.stat().st_size
    assert BenchRun.objects.get().label == "Équipe 東京"


@pytest.mark.parametrize(
    ("value", "problem"),
    [("plain", None), ("\ufffd", None), ("a\udced\udcbf\udcbf", "contains a lone surrogate (\\udfff)"),
     ("caf\udce9", "is not UTF-8 text (byte 0xe9)")],
)
def test_text_problem(value, problem):
    got = text_problem(value)
    assert got == problem or (problem is not None and got is not None and got.startswith(problem))


# --------------------------------------------------------------------------- the API's form parsers


def _token_client(user) -> APIClient:
    """A client sending an API token (no session: DRF's own parsers read the body, not the page's)."""
    _token, key = issue_token(user, "test", 1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_the_api_refuses_a_multipart_label_with_a_lone_surrogate(alice, team, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    body = _multipart({"team": b"alpha", "label": b"x\xed\xbf\xbf"}, {"files": (b"cdm.txt", CDM_WD.read_bytes())})
    r = _token_client(alice).post("/api/benchmark-uploads/", body,
                                  content_type=f"multipart/form-data; boundary={BOUNDARY}")
    assert r.status_code == 400, r.content
    assert r.json()["detail"].startswith("label: contains a lone surrogate (\\udfff)")
    assert not BenchUpload.objects.exists() and not BenchRun.objects.exists()
    assert [p for p in (tmp_path / "media").rglob("*") if p.is_file()] == []


def test_the_api_refuses_a_urlencoded_name_that_is_not_utf8(alice):
    r = _token_client(alice).post("/api/teams/", b"name=caf%E9", content_type=FORM)
    assert r.status_code == 400, r.content
    assert r.json()["detail"] == "name: is not UTF-8 text (byte 0xe9)"
    assert not Team.objects.filter(name__startswith="caf").exists()


def test_the_api_keeps_form_text_in_every_script(alice, team, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    r = _token_client(alice).post("/api/benchmark-uploads/", {
        "team": "alpha", "label": "Équipe 東京", "files": [SimpleUploadedFile("a.txt", CDM_WD.read_bytes())],
    }, format="multipart")
    assert r.status_code == 201, r.content
    assert BenchRun.objects.get().label == "Équipe 東京"
