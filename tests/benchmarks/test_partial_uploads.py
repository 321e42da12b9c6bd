"""A request that dies mid-upload leaves no partial file behind, and the sweep removes what a killed
process could not (zfsplanner/uploads/handler.py: one handler for every upload kind)."""

from __future__ import annotations

import gc
import io
import os
import time
from pathlib import Path

import pytest
from django.test import Client

from benchmarks.models import BENCHMARK_LOGS, BenchUpload
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.compression.models import COMPRESSION_SAMPLES
from zfsplanner.imports.models import FILE_LISTINGS, HistogramUpload
from zfsplanner.uploads.handler import sweep_spool_files
from zfsplanner.wsgi import application

BOUNDARY = "----cutoff"
CSRF = "k" * 32  # the cookie's secret, sent back in the header as a browser's script does


class CutOff(io.RawIOBase):
    """A client that sends the first ``keep`` bytes of ``body`` and then drops the connection."""

    def __init__(self, body: bytes, keep: int) -> None:
        self.body, self.keep, self.pos = body, keep, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.pos >= self.keep:
            raise OSError("connection reset by peer")
        n = self.keep - self.pos if size is None or size < 0 else min(size, self.keep - self.pos)
        chunk = self.body[self.pos : self.pos + n]
        self.pos += n
        return chunk


def _multipart(fields: dict[str, str], name: str, data: bytes) -> bytes:
    out = b""
    for k, v in fields.items():
        out += f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
    out += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="big.log"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    return out + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def _cut_off_request(user, path: str, body: bytes, keep: int) -> int:
    """POST ``body`` through the whole WSGI stack as ``user``'s browser session (CSRF cookie and
    header), cut off after ``keep`` bytes."""
    c = Client()
    c.force_login(user)
    statuses: list[str] = []
    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "SERVER_NAME": "testserver", "SERVER_PORT": "80",
        "wsgi.url_scheme": "http", "wsgi.input": CutOff(body, keep), "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": f"multipart/form-data; boundary={BOUNDARY}", "CONTENT_LENGTH": str(len(body)),
        "HTTP_COOKIE": f"sessionid={c.cookies['sessionid'].value}; csrftoken={CSRF}", "HTTP_X_CSRFTOKEN": CSRF,
        "HTTP_ACCEPT": "application/json",
    }
    response = application(environ, lambda status, headers, *_: statuses.append(status))
    b"".join(response)
    response.close()
    del response
    gc.collect()  # what the end of a request does in a server (the request and its handler let go)
    return int(statuses[0].split()[0])


def _spooled(kind) -> list[Path]:
    return sorted(p for p in kind.spool_dir().iterdir() if p.name.startswith(kind.prefix))


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


@pytest.mark.django_db(transaction=True)
def test_a_benchmark_upload_cut_off_midway_leaves_no_file(alice, settings):
    body = _multipart({"team": "alpha"}, "files", b"1, 2, 0, 4096\n" * 400_000)  # 5.6 MB
    status = _cut_off_request(alice, "/api/benchmark-uploads/", body, keep=len(body) // 2)
    assert status == 400  # the body could not be read
    assert _spooled(BENCHMARK_LOGS) == []
    assert BenchUpload.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_listing_upload_cut_off_midway_leaves_no_file(alice, settings, design):
    body = _multipart({"design": str(design.pk), "dataset": "tank/data"}, "file", b"4096\n" * 2_000_000)
    status = _cut_off_request(alice, "/api/histogram-uploads/", body, keep=len(body) * 3 // 4)
    assert status == 400
    assert _spooled(FILE_LISTINGS) == []
    assert HistogramUpload.objects.count() == 0


def test_the_sweep_removes_what_killed_processes_left_and_keeps_files_still_arriving(settings):
    old = time.time() - 2 * 3600
    left = []
    for kind in (BENCHMARK_LOGS, FILE_LISTINGS, COMPRESSION_SAMPLES):
        dead = kind.spool_dir() / f"{kind.prefix}dead"
        dead.write_bytes(b"x" * 1000)
        os.utime(dead, (old, old))
        arriving = kind.spool_dir() / f"{kind.prefix}arriving"
        arriving.write_bytes(b"y")
        left.append((dead, arriving))
    other = BENCHMARK_LOGS.spool_dir() / "not-a-spool-file"
    other.write_bytes(b"z")
    os.utime(other, (old, old))

    removed = sweep_spool_files()

    assert sorted(removed) == sorted(str(dead) for dead, _ in left)
    for dead, arriving in left:
        assert not dead.exists() and arriving.exists()
    assert other.exists()  # only the mechanism's own files (its prefix) are touched
    settings.UPLOAD_TEMP_MAX_AGE = 0
    assert len(sweep_spool_files()) == 3  # the bound is the setting


@pytest.mark.django_db
def test_the_periodic_sweep_removes_partial_files(settings):
    from zfsplanner.uploads.tasks import sweep_uploads_task

    dead = FILE_LISTINGS.spool_dir() / f"{FILE_LISTINGS.prefix}killed-mid-upload"
    dead.write_bytes(b"4096\n" * 1000)
    old = time.time() - 3601
    os.utime(dead, (old, old))
    assert sweep_uploads_task().endswith("partial files removed: 1")
    assert not dead.exists()
