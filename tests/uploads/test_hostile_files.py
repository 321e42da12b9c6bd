"""Binary files, UTF-16 text and NUL bytes, for every upload kind, through the API and the pages.

Each is refused before any row is written: 400 from the API, the form again with the message
(422, which htmx swaps) from the pages, naming the file and the line; no upload row, no stored
file, no spooled file left. (On PostgreSQL a NUL reaching a text column was a 500; the
suite runs there in CI.) What a kind reads decides what it refuses (zfsplanner/uploads/text.py):
pool outputs and design documents are UTF-8 text, listings lines of bytes, benchmark logs UTF-8,
UTF-16 or 8-bit text, compression samples any bytes.
"""

from __future__ import annotations

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.models import BenchRun, BenchUpload
from tests.benchmarks.conftest import CDM_WD
from tests.core.import_samples import text as sample_text
from tests.factories import PoolDesignFactory, design_document
from tests.imports.conftest import LINUX
from zfsplanner.imports.models import HistogramUpload, PoolImport
from zfsplanner.plans.models import PoolDesign

ZPOOL = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE\n\ttank        ONLINE\n"
BINARY = bytes(range(256)) * 16
HOSTILE = {
    "binary": (BINARY, 1, "contains a NUL byte"),
    "utf-16": (ZPOOL.encode("utf-16"), 1, "is saved as UTF-16"),
    "nul": (b"zpool list\n  NAME\x00\n", 2, "contains a NUL byte"),
}
NOT_UTF8 = (b"zpool list\n\xed\xbf\xbf\n", 2, "is not UTF-8 text (byte 0xed)")


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


def _nothing_on_disk(media) -> None:
    files = [p for p in media.rglob("*") if p.is_file()] if media.exists() else []
    assert files == [], files


def _refused(text: str, line: int, problem: str) -> None:
    assert f"'hostile.txt', line {line}: {problem}" in html.unescape(text), text


def _file(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("hostile.txt", data, content_type="text/plain")


# --------------------------------------------------------------------------- pool outputs


@pytest.mark.parametrize(("data", "line", "problem"), [*HOSTILE.values(), NOT_UTF8], ids=[*HOSTILE, "not-utf-8"])
def test_pool_outputs_through_the_api(data, line, problem, alice, client_for, _media):
    r = client_for(alice).post("/api/pool-imports/", {"files": [_file(data)]}, format="multipart")
    assert r.status_code == 400, r.content
    _refused(r.json()["detail"], line, problem)
    assert not PoolImport.objects.exists()
    _nothing_on_disk(_media)


@pytest.mark.parametrize(("data", "line", "problem"), [*HOSTILE.values(), NOT_UTF8], ids=[*HOSTILE, "not-utf-8"])
def test_pool_outputs_through_the_page(data, line, problem, alice, web, _media):
    r = web(alice).post("/imports/pool/", {"files": [_file(data)]})
    assert r.status_code == 422
    _refused(r.content.decode(), line, problem)
    assert not PoolImport.objects.exists()
    _nothing_on_disk(_media)


def test_pool_outputs_as_utf8_text_with_a_bom_are_read(alice, client_for):
    outputs = sample_text(LINUX)
    r = client_for(alice).post("/api/pool-imports/", {"files": [_file(b"\xef\xbb\xbf" + outputs.encode())]},
                               format="multipart")
    assert r.status_code == 201, r.content
    assert PoolImport.objects.get().sources[0]["text"] == outputs


# --------------------------------------------------------------------------- file listings


LISTING_HOSTILE = {
    "binary": (BINARY, 1, "contains a NUL byte"),
    "utf-16": ("4096\t/data/a\n".encode("utf-16"), 1, "is saved as UTF-16"),
    "nul": (b"4096\t/data/a\n8192\t/data/b\x00c\n", 2, "contains a NUL byte"),
}


@pytest.mark.parametrize(("data", "line", "problem"), LISTING_HOSTILE.values(), ids=LISTING_HOSTILE)
def test_file_listings_through_the_api(data, line, problem, alice, client_for, design, _media):
    r = client_for(alice).post(
        "/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data", "file": _file(data)},
        format="multipart",
    )
    assert r.status_code == 400, r.content
    _refused(r.json()["detail"], line, problem)
    assert not HistogramUpload.objects.exists()
    assert PoolDesign.objects.get(pk=design.pk).revision == 1
    _nothing_on_disk(_media)


@pytest.mark.parametrize(("data", "line", "problem"), LISTING_HOSTILE.values(), ids=LISTING_HOSTILE)
def test_file_listings_through_the_page(data, line, problem, alice, web, design, _media):
    r = web(alice).post(f"/designs/{design.pk}/histograms/upload/", {"dataset": "tank/data", "file": _file(data)})
    assert r.status_code == 422
    _refused(r.content.decode(), line, problem)
    assert not HistogramUpload.objects.exists()
    _nothing_on_disk(_media)


def test_a_listing_with_paths_that_are_not_utf8_is_kept(alice, client_for, design):
    data = b"4096\t/data/caf\xe9\n8192\t/data/b\n"  # du prints the file system's bytes
    r = client_for(alice).post(
        "/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data", "file": _file(data)},
        format="multipart",
    )
    assert r.status_code == 202, r.content
    assert HistogramUpload.objects.get().size == len(data)


# --------------------------------------------------------------------------- benchmark logs


LOG_HOSTILE = {
    "binary": (BINARY, 1, "contains a NUL byte"),
    "nul": (b"fio-3.36\nread: IOPS=100\x00\n", 2, "contains a NUL byte"),
    "utf-16-with-nul": ("CrystalDiskMark 8\r\n\x00\r\n".encode("utf-16"), 2, "contains a NUL character"),
}


@pytest.mark.parametrize(("data", "line", "problem"), LOG_HOSTILE.values(), ids=LOG_HOSTILE)
def test_benchmark_logs_through_the_api(data, line, problem, alice, team, client_for, _media):
    r = client_for(alice).post("/api/benchmark-uploads/", {"team": "alpha", "files": [_file(data)]},
                               format="multipart")
    assert r.status_code == 400, r.content
    _refused(r.json()["detail"], line, problem)
    assert not BenchUpload.objects.exists() and not BenchRun.objects.exists()
    _nothing_on_disk(_media)


@pytest.mark.parametrize(("data", "line", "problem"), LOG_HOSTILE.values(), ids=LOG_HOSTILE)
def test_benchmark_logs_through_the_page(data, line, problem, alice, team, web, _media):
    r = web(alice).post("/benchmarks/upload/", {"team": team.pk, "files": [_file(data)]}, HTTP_HX_REQUEST="true")
    assert r.status_code == 422
    _refused(r.content.decode(), line, problem)
    assert not BenchUpload.objects.exists() and not BenchRun.objects.exists()
    _nothing_on_disk(_media)


def test_a_benchmark_log_saved_as_utf16_is_stored(alice, team, client_for, django_capture_on_commit_callbacks):
    data = CDM_WD.read_bytes().decode("utf-8").encode("utf-16")  # as CrystalDiskMark saves it on Windows
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(alice).post("/api/benchmark-uploads/", {"team": "alpha", "files": [_file(data)]},
                                   format="multipart")
    assert r.status_code in (201, 202), r.content
    assert BenchUpload.objects.get().status == "done"


# --------------------------------------------------------------------------- design documents


@pytest.mark.parametrize(("data", "line", "problem"), [*HOSTILE.values(), NOT_UTF8], ids=[*HOSTILE, "not-utf-8"])
def test_design_documents_through_the_api(data, line, problem, alice, team, client_for):
    r = client_for(alice).post("/api/designs/import/", {"team": team.pk, "file": _file(data)}, format="multipart")
    assert r.status_code == 400, r.content
    _refused(str(r.json()), line, problem)
    assert not PoolDesign.objects.exists()


@pytest.mark.parametrize(("data", "line", "problem"), [*HOSTILE.values(), NOT_UTF8], ids=[*HOSTILE, "not-utf-8"])
def test_design_documents_through_the_page(data, line, problem, alice, team, web):
    r = web(alice).post("/designs/import/", {"team": team.pk, "file": _file(data)})
    assert r.status_code in (400, 422)
    _refused(r.content.decode(), line, problem)
    assert not PoolDesign.objects.exists()


# --------------------------------------------------------------------------- compression samples


def test_a_compression_sample_may_hold_any_bytes(alice, client_for):
    """Samples are data whose compression is measured: binary files and NUL runs are what they hold."""
    r = client_for(alice).post("/api/compression/measure/", {"file": _file(BINARY + bytes(4096)), "algorithms": "lz4"},
                               format="multipart")
    assert r.status_code == 200, r.content
    assert r.json()["files"][0]["size_bytes"] == len(BINARY) + 4096
