"""Compression tests: samples go to a temporary MEDIA_ROOT; tasks run in-process (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def text_sample(n_bytes: int = 300_000) -> bytes:
    """Repetitive but not trivial text: compresses well, differently per algorithm."""
    lines = [
        f"{i:08d} INFO request id={i * 7919 % 100003} path=/api/designs/{i % 97}/ status=200\n" for i in range(10**5)
    ]
    return "".join(lines).encode()[:n_bytes]


def upload(data: bytes, name: str = "sample.log") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")
