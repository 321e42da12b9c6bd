"""Imports tests: uploads go to a temporary MEDIA_ROOT; tasks run in-process."""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.core.import_samples import text
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.tokens import issue_token

LINUX = "linux-2.3-raidz2-special-log-cache-spare.txt"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def pool_outputs() -> str:
    return text(LINUX)


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank"))


@pytest.fixture
def token_client():
    """token_client(user) -> an APIClient sending a fresh API token of that user (no session)."""

    def make(user) -> APIClient:
        _token, key = issue_token(user, "test", 1)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make
