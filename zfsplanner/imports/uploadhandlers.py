"""Listings go straight to disk, hashed on the way, and stop at ``IMPORT_UPLOAD_MAX_BYTES``.

Installed per view before the body is read (``install_upload_handler(request)``): a request
whose Content-Length is over the limit is refused before reading anything, and a file is cut
off as soon as more than the limit arrives. Nothing is held in memory beyond one chunk.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest
from rest_framework import status
from rest_framework.exceptions import APIException

FORM_OVERHEAD_BYTES = 1024 * 1024


def max_upload_bytes() -> int:
    return int(getattr(settings, "IMPORT_UPLOAD_MAX_BYTES", 4 * 1000 * 1000 * 1000))


def spool_dir() -> Path:
    """Under MEDIA_ROOT, so storing a spooled file is a rename, not a copy."""
    path = Path(settings.MEDIA_ROOT) / "histograms" / "tmp"
    path.mkdir(parents=True, exist_ok=True)
    return path


def discard(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class UploadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "upload_too_large"

    def __init__(self, what: str, size: int | None = None) -> None:
        seen = f" ({size:,} bytes)" if size is not None else ""
        super().__init__(f"{what}{seen} is larger than the limit of {max_upload_bytes():,} bytes "
                         "(IMPORT_UPLOAD_MAX_BYTES); nothing was stored.")


def check_content_length(request: HttpRequest) -> None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > max_upload_bytes() + FORM_OVERHEAD_BYTES:
        raise UploadTooLarge("The request body", length)


class SpooledListing(UploadedFile):
    """An uploaded file already on disk, with the sha256 and size computed while it arrived."""

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


class ListingUploadHandler(FileUploadHandler):
    chunk_size = 1024 * 1024

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.limit = max_upload_bytes()
        self._fh: Any = None
        self._hash: Any = None
        self._size = 0

    def handle_raw_input(self, input_data: Any, META: Any, content_length: int, boundary: Any, encoding: Any = None):  # noqa: N803
        if content_length and content_length > self.limit + FORM_OVERHEAD_BYTES:
            raise UploadTooLarge("The request body", content_length)
        return None

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self._fh = tempfile.NamedTemporaryFile(dir=spool_dir(), prefix="listing-", delete=False)  # noqa: SIM115
        self._hash = hashlib.sha256()
        self._size = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self._size += len(raw_data)
        if self._size > self.limit:
            self._abort()
            raise UploadTooLarge(f"{self.file_name!r}")
        self._hash.update(raw_data)
        self._fh.write(raw_data)
        return None

    def file_complete(self, file_size: int) -> SpooledListing:
        self._fh.close()
        path = self._fh.name
        self._fh = None
        return SpooledListing(path, self.file_name or "listing", self.content_type, self._size, self.charset,
                              self._hash.hexdigest())

    def upload_interrupted(self) -> None:
        self._abort()

    def _abort(self) -> None:
        if self._fh is not None:
            self._fh.close()
            discard(self._fh.name)
            self._fh = None


def install_upload_handler(request: HttpRequest) -> None:
    request.upload_handlers = [ListingUploadHandler(request)]
