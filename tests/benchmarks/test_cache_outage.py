"""Uploads while the shared cache (Redis) is unreachable: stored and answered, never refused.

The cache holds sessions (read through to the database), cached pages and the rate-limit
counters. With it down, a rate limit is counted in each process alone (zfsplanner/web/throttling.py)
instead of answering 503; the fault test on the real stack (test_faults.py) stops the one Redis
that is broker and cache at once, as docker-compose.yml sets it up.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.settings import api_settings

from benchmarks.models import BenchUpload
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_JSON
from zfsplanner.web import throttling


@pytest.fixture
def logged_in(settings, alice, client_for, time_machine):
    """alice's session (cached, written through to the database, as in production), made while
    the cache still answered."""
    from datetime import UTC, datetime

    time_machine.move_to(datetime(2026, 3, 2, 12, 30, 30, tzinfo=UTC), tick=False)  # one rate window
    settings.SESSION_ENGINE = "zfsplanner.web.sessions"
    return client_for(alice)


@pytest.fixture
def cache_down(logged_in, settings, free_tcp_port):
    """Then Redis as the cache (the session store's first stop, the rate counters) on a port
    nothing listens on."""
    throttling.LOCAL_COUNTS.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "uploads": "3/hour"},
    }
    api_settings.reload()
    settings.CACHES = {
        "default": {"BACKEND": "zfsplanner.web.cache.RedisCache", "LOCATION": f"redis://127.0.0.1:{free_tcp_port}/0"}
    }
    yield logged_in
    api_settings.reload()
    throttling.LOCAL_COUNTS.clear()


@pytest.mark.django_db
def test_uploads_are_stored_and_answered_while_the_cache_is_down(cache_down):
    client = cache_down
    ids = []
    for path in (CDM_WD, CDM_CRUCIAL, FIO_JSON):
        r = client.post("/api/benchmark-uploads/", {"team": "alpha", "files": [
            SimpleUploadedFile(path.name, path.read_bytes())]}, format="multipart")
        assert r.status_code == 201, r.content
        ids += [u["id"] for u in r.json()["uploads"]]
    assert BenchUpload.objects.filter(pk__in=ids).count() == 3
    # The rate still holds, counted by this process while the shared counters are out of reach.
    r = client.post("/api/benchmark-uploads/", {"team": "alpha", "files": [
        SimpleUploadedFile("4.txt", b"not a log\n")]}, format="multipart")
    assert r.status_code == 429 and int(r["Retry-After"]) == 29 * 60 + 30
    assert client.get(f"/api/benchmark-uploads/{ids[0]}/").status_code == 200


@pytest.mark.django_db
def test_a_listing_is_stored_and_answered_while_the_cache_is_down(cache_down, team):
    from tests.factories import PoolDesignFactory, design_document

    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    r = cache_down.post("/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data",
                                                           "text": "4096\n8192\n"}, format="json")
    assert r.status_code == 202, r.content
