"""Pool outputs are stored before they are read: outputs that cannot be read are kept with the reason and
read again after an update (API and page); a file or a body past POOL_IMPORT_MAX_BYTES is refused while it
streams in, in words, and leaves nothing behind."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from tests.core.import_samples import text
from zfsplanner.imports import services
from zfsplanner.imports.models import POOL_OUTPUTS, PoolImport, PoolImportStatus
from zfsplanner.uploads import lifecycle

pytestmark = pytest.mark.django_db

FREEBSD = "freebsd-2.2-raidz1-gptid.txt"


@pytest.fixture
def broken_importer(monkeypatch):
    """An importer with a bug (a release that crashes on these outputs); ``.undo()`` is the fixed release."""

    def crash(*args, **kwargs):
        raise KeyError("vdev_tree")

    monkeypatch.setattr(services, "import_pool", crash)
    return monkeypatch


def spooled_files(media_root) -> list[str]:
    folder = media_root / "pool-imports" / "tmp"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_outputs_an_importer_bug_cannot_read_are_kept_and_read_after_the_fix(erin, broken_importer, token_client):
    api = token_client(erin)
    r = api.post("/api/pool-imports/", {"sources": [{"name": "status.txt", "text": text(FREEBSD)}]}, format="json")
    assert r.status_code == 400
    body = r.json()
    record = PoolImport.objects.get(pk=body["id"])
    assert body["url"] == f"/imports/pool/{record.pk}/"
    assert record.status == PoolImportStatus.FAILED and record.document == {}
    assert "reading stopped unexpectedly (KeyError: 'vdev_tree'); the outputs are kept" in record.error
    assert record.sources == [{"name": "status.txt", "text": text(FREEBSD)}]
    assert api.get(f"/api/pool-imports/{record.pk}/").json()["status"] == "failed"

    broken_importer.undo()  # the update that fixes the importer
    r = api.post(f"/api/pool-imports/{record.pk}/retry/")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "done" and r.json()["document"]["name"] == "backup" and r.json()["error"] == ""
    record.refresh_from_db()
    assert record.is_read and record.attempts == 2 and record.error_line is None


def test_unreadable_outputs_read_again_still_name_the_line(client_for, erin):
    bad = "$ zpool list -p\nNAME SIZE ALLOC\ntank 12x 3\n"
    api = client_for(erin)
    pid = api.post("/api/pool-imports/", {"sources": [{"name": "list.txt", "text": bad}]}, format="json").json()["id"]
    r = api.post(f"/api/pool-imports/{pid}/retry/")
    assert r.status_code == 400 and r.json()["line"] == 3 and r.json()["id"] == pid
    # nothing to save or answer until they are read
    assert api.post(f"/api/pool-imports/{pid}/save/", {"team": 1}, format="json").status_code == 409
    r = api.post(f"/api/pool-imports/{pid}/sizes/", {"sizes": {"q1": "4TB"}}, format="json")
    assert r.status_code == 409 and "could not be read" in r.json()["detail"]


def test_the_page_shows_why_and_reads_again(web, erin, broken_importer):
    c = web(erin, enforce_csrf_checks=True)
    page = c.get("/imports/pool/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    r = c.post("/imports/pool/", {"text": text(FREEBSD), "csrfmiddlewaretoken": token})
    assert r.status_code == 422
    record = PoolImport.objects.get()
    assert "Could not read the outputs." in r.content.decode() and f"import {record.pk}</a>" in r.content.decode()
    page = c.get(f"/imports/pool/{record.pk}/").content.decode()
    assert "Could not be read" in page and "KeyError" in page and 'id="import-retry-button"' in page
    assert "<code>pasted text</code>" in page

    broken_importer.undo()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    r = c.post(f"/imports/pool/{record.pk}/retry/", {"csrfmiddlewaretoken": token})
    assert r.status_code == 302 and r["Location"] == f"/imports/pool/{record.pk}/"
    page = c.get(r["Location"]).content.decode()
    assert "Imported pool: backup" in page and 'id="save-import-form"' in page


def test_nobody_else_reads_an_import_again(web, erin, alice, broken_importer, token_client):
    web(erin).post("/imports/pool/", {"text": text(FREEBSD)})
    record = PoolImport.objects.get()
    assert web(alice).post(f"/imports/pool/{record.pk}/retry/").status_code == 404
    assert token_client(alice).post(f"/api/pool-imports/{record.pk}/retry/").status_code == 404


def test_a_file_past_the_limit_is_refused_in_words_and_leaves_nothing(settings, media_root, web, erin, token_client):
    settings.POOL_IMPORT_MAX_BYTES = 10_000
    files = [SimpleUploadedFile("status.txt", text(FREEBSD).encode()),
             SimpleUploadedFile("disk.img", b"\0" * 10_001)]
    r = token_client(erin).post("/api/pool-imports/", {"files": files}, format="multipart")
    assert r.status_code == 413
    assert r.json()["detail"] == ("'disk.img' is larger than the upload limit of 10,000 bytes (POOL_IMPORT_MAX_BYTES); "
                                  "nothing was stored. The outputs of a pool are a few kilobytes to a few megabytes: "
                                  "is it the right file?")
    assert PoolImport.objects.count() == 0 and spooled_files(media_root) == []

    r = web(erin).post("/imports/pool/", {"files": [SimpleUploadedFile("disk.img", b"\0" * 10_001)]})
    assert r.status_code == 422 and "&#x27;disk.img&#x27; is larger than the upload limit" in r.content.decode()
    assert PoolImport.objects.count() == 0 and spooled_files(media_root) == []


def test_outputs_past_the_limit_together_are_refused_before_anything_is_stored(settings, media_root, client_for, erin):
    settings.POOL_IMPORT_MAX_BYTES = 10_000
    sources = [{"name": f"part{i}.txt", "text": "x" * 6_000} for i in range(2)]
    r = client_for(erin).post("/api/pool-imports/", {"sources": sources}, format="json")
    assert r.status_code == 413
    assert r.json()["detail"].startswith("The outputs together (12,000 bytes) is larger than the upload limit")
    assert PoolImport.objects.count() == 0


def test_an_announced_absurd_body_is_refused_before_it_is_read(erin, token_client):
    api = token_client(erin)
    f = SimpleUploadedFile("status.txt", text(FREEBSD).encode())
    r = api.post("/api/pool-imports/", {"files": [f]}, format="multipart", CONTENT_LENGTH=str(10**12))
    assert r.status_code == 413 and "The request body (1,000,000,000,000 bytes) is larger" in r.json()["detail"]
    assert PoolImport.objects.count() == 0


def test_an_import_whose_request_died_is_read_by_the_sweep(erin, django_capture_on_commit_callbacks):
    record = PoolImport.objects.create(created_by=erin, sources=[{"name": "status.txt", "text": text(FREEBSD)}])
    PoolImport.objects.filter(pk=record.pk).update(updated=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert lifecycle.sweep(POOL_OUTPUTS).requeued_pending == [record.pk]
    record.refresh_from_db()
    assert record.is_read and record.document["name"] == "backup"
