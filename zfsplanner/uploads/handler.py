"""Streaming uploads: every uploaded file goes straight to disk, hashed on the way.

One handler for every kind of upload (benchmark logs, file listings, compression samples);
each kind's limit and spool folder are in its :class:`~.kinds.UploadKind`. A handler is
installed per view (``install_upload_handler(request, kind)``) before the body is read. It refuses a
request whose Content-Length is over the limit before reading anything, and stops reading a
file as soon as more than the limit arrives (the Content-Length may be missing or wrong).
Nothing is held in memory beyond one chunk.

No partial file outlives its request: a file still arriving when the request ends (the client
cut off, a read error, an exception anywhere) is removed when Django finishes the request
(``request_finished``; nothing calls ``upload_interrupted`` then), and so is one whose gunicorn
worker is aborted past ``--timeout`` (the ``worker_abort`` hook, ``zfsplanner/server/gunicorn_config.py``).
A process killed outright (``SIGKILL``, the OOM killer) cannot clean up after itself:
:func:`sweep_spool_files`, run by the periodic sweep, removes files of every upload kind's
spool folder that nobody has written to for UPLOAD_TEMP_MAX_AGE seconds (an hour; a file
still arriving is written every chunk).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import File
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.core.signals import request_finished
from django.http import HttpRequest
from rest_framework import status

from .kinds import KINDS, UploadKind
from .text import TextCheck, UploadRefused

logger = logging.getLogger(__name__)

# Room for the multipart boundaries and the small form fields sent next to the file(s).
FORM_OVERHEAD_BYTES = 1024 * 1024


class UploadTooLarge(UploadRefused):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "upload_too_large"

    def __init__(self, kind: UploadKind, what: str, size: int | None = None) -> None:
        seen = f" ({size:,} bytes)" if size is not None else ""
        super().__init__(
            f"{what}{seen} is larger than the upload limit of {kind.max_bytes():,} bytes "
            f"({kind.setting}); nothing was stored." + (f" {kind.too_large_hint}" if kind.too_large_hint else "")
        )


def max_request_bytes() -> int:
    """The largest request body any upload kind accepts: its file limit and the form around it
    (the reverse proxy's ``client_max_body_size``, zfsplanner/server/proxy.py)."""
    return max(kind.max_bytes() for kind in KINDS) + FORM_OVERHEAD_BYTES


def check_content_length(request: HttpRequest, kind: UploadKind) -> None:
    """Refuse a request body that announces more than one upload's worth of bytes."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > kind.max_bytes() + FORM_OVERHEAD_BYTES:
        raise UploadTooLarge(kind, "The request body", length)


def discard(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class SpooledUpload(UploadedFile):
    """An uploaded file already on disk, with its sha256 and size computed while it arrived."""

    def __init__(self, path: str, name: str, content_type: str | None, size: int, charset: str | None, sha256: str):
        super().__init__(open(path, "rb"), name, content_type, size, charset)  # noqa: SIM115
        self.path = path
        self.sha256 = sha256

    def temporary_file_path(self) -> str:
        return self.path

    def close(self) -> None:
        try:
            self.file.close()
        finally:
            discard(self.path)


@dataclass(frozen=True)
class Spooled:
    path: str
    sha256: str
    size: int


def spool(f: Any, kind: UploadKind) -> Spooled:
    """``f`` on disk in the kind's spool folder with its sha256 and size.

    A file the handler already spooled (and checked) is used as it is; anything else (a Django
    file, a stream, bytes) is streamed to disk in chunks and refused as soon as it passes the
    limit (:class:`UploadTooLarge`) or holds what its kind's files may not
    (:class:`~.text.UnreadableUpload`).
    """
    if isinstance(f, SpooledUpload):
        return Spooled(f.path, f.sha256, f.size)
    limit = kind.max_bytes()
    digest = hashlib.sha256()
    size = 0
    check = TextCheck(kind.text, str(getattr(f, "name", "") or "the file"))
    with tempfile.NamedTemporaryFile(dir=kind.spool_dir(), prefix=kind.prefix, delete=False) as out:
        try:
            if isinstance(f, bytes):
                chunks: Any = [f]
            elif hasattr(f, "chunks"):
                chunks = f.chunks(kind.chunk_size)
            else:
                chunks = iter(lambda: f.read(kind.chunk_size), b"")
            for chunk in chunks:
                size += len(chunk)
                if size > limit:
                    raise UploadTooLarge(kind, repr(getattr(f, "name", "the file")))
                check.feed(chunk)
                digest.update(chunk)
                out.write(chunk)
            check.close()
        except BaseException:
            out.close()
            discard(out.name)
            raise
    return Spooled(out.name, digest.hexdigest(), size)


class MovableFile(File):  # type: ignore[type-arg]
    """Bytes already on disk (a spooled upload): FileSystemStorage moves them instead of copying."""

    def __init__(self, path: str, name: str) -> None:
        super().__init__(open(path, "rb"), name)  # noqa: SIM115
        self._path = path

    def temporary_file_path(self) -> str:
        return self._path


class StreamingUploadHandler(FileUploadHandler):
    """Writes each file to a temporary file under MEDIA_ROOT, hashing and counting bytes, and
    checking them as the kind's files must be (:class:`~.text.TextCheck`)."""

    def __init__(self, request: HttpRequest | None, kind: UploadKind) -> None:
        super().__init__(request)
        self.kind = kind
        self.chunk_size = kind.chunk_size
        self.limit = kind.max_bytes()
        self._fh: Any = None
        self._hash: Any = None
        self._check: TextCheck | None = None
        self._size = 0

    def handle_raw_input(self, input_data: Any, META: Any, content_length: int, boundary: Any, encoding: Any = None):  # noqa: N803
        if content_length and content_length > self.limit + FORM_OVERHEAD_BYTES:
            raise UploadTooLarge(self.kind, "The request body", content_length)
        return None

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self._fh = tempfile.NamedTemporaryFile(  # noqa: SIM115
            dir=self.kind.spool_dir(), prefix=self.kind.prefix, delete=False
        )
        self._hash = hashlib.sha256()
        self._check = TextCheck(self.kind.text, self.file_name or "upload")
        self._size = 0
        _UNFINISHED.__dict__.setdefault("handlers", []).append(weakref.ref(self))

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self._size += len(raw_data)
        if self._size > self.limit:
            self._abort()
            raise UploadTooLarge(self.kind, f"{self.file_name!r}")
        try:
            self._check.feed(raw_data)  # type: ignore[union-attr]
        except UploadRefused:
            self._abort()
            raise
        self._hash.update(raw_data)
        self._fh.write(raw_data)
        return None

    def file_complete(self, file_size: int) -> SpooledUpload:
        try:
            self._check.close()  # type: ignore[union-attr]
        except UploadRefused:
            self._abort()
            raise
        self._fh.close()
        path = self._fh.name
        self._fh = None
        name = self.file_name or "upload"
        return SpooledUpload(path, name, self.content_type, self._size, self.charset, self._hash.hexdigest())

    def upload_interrupted(self) -> None:
        self._abort()

    def _abort(self) -> None:
        if self._fh is not None:
            self._fh.close()
            discard(self._fh.name)
            self._fh = None


# Handlers that opened a file during this thread's request (a WSGI worker serves one request per
# thread at a time); whatever they still hold when the request finishes is a partial file.
_UNFINISHED = threading.local()


def discard_unfinished(**kwargs: Any) -> None:
    """Remove the partial files of this thread's request: when Django finishes it, and when gunicorn
    aborts the worker serving it (past ``--timeout``: ``zfsplanner/server/gunicorn_config.py``)."""
    for ref in _UNFINISHED.__dict__.pop("handlers", []):
        handler = ref()
        if handler is not None and handler._fh is not None:
            logger.info("request ended while %r was arriving; its partial file is removed", handler.file_name)
            handler.upload_interrupted()


request_finished.connect(discard_unfinished, dispatch_uid="zfsplanner.uploads.handler.discard_unfinished")


def install_upload_handler(request: HttpRequest, kind: UploadKind) -> None:
    """Use only the streaming handler for this request (call before the body is read)."""
    request.upload_handlers = [StreamingUploadHandler(request, kind)]


def sweep_spool_files(max_age: float | None = None) -> list[str]:
    """Remove what dead requests left in every upload kind's spool folder; the paths removed.

    A spooled file is either still arriving (written every chunk), or moved into storage
    within moments of its request's end, or removed with its request. One that nobody has
    written for ``max_age`` seconds (UPLOAD_TEMP_MAX_AGE) belonged to a process that was
    killed: a gunicorn worker past its timeout, a slow client cut off, the OOM killer.
    """
    age = float(max_age if max_age is not None else getattr(settings, "UPLOAD_TEMP_MAX_AGE", 3600))
    cutoff = time.time() - age
    removed: list[str] = []
    for kind in KINDS:
        folder = Path(settings.MEDIA_ROOT) / kind.spool_subdir / "tmp"
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        for entry in entries:
            if not entry.name.startswith(kind.prefix) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                stale = entry.stat(follow_symlinks=False).st_mtime < cutoff
            except FileNotFoundError:  # moved or removed meanwhile
                continue
            if stale:
                discard(entry.path)
                removed.append(entry.path)
    if removed:
        logger.warning("removed %d partial upload file(s) left by dead requests: %s", len(removed), removed[:20])
    return removed
