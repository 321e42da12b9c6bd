"""The cache: keys that carry the build, the Redis backend's reused client, and the health check."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from zfsplanner.server.build import source_digest
from zfsplanner.web.cache import RedisCache
from zfsplanner.web.throttling import ScopedActionThrottle

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/6"


def test_the_build_digest_follows_every_source_file_and_nothing_else(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "page.html").write_text("<p>hi</p>\n")
    first = source_digest(tmp_path)
    assert first == source_digest(tmp_path)
    (tmp_path / "notes.txt").write_text("not source")
    (tmp_path / "pkg" / "a.pyc").write_bytes(b"\0")
    assert source_digest(tmp_path) == first
    (tmp_path / "pkg" / "page.html").write_text("<p>hello</p>\n")
    changed = source_digest(tmp_path)
    assert changed != first
    (tmp_path / "pkg" / "page.html").rename(tmp_path / "pkg" / "other.html")
    assert source_digest(tmp_path) not in (first, changed)


def test_cache_keys_carry_the_build_unless_a_prefix_is_given():
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    assert prefix == (os.environ.get("CACHE_KEY_PREFIX") or source_digest(ROOT / "zfsplanner"))


@pytest.mark.django_db
def test_healthz_names_the_cache_when_it_is_down(free_tcp_port):
    down = {"default": {"BACKEND": "zfsplanner.web.cache.RedisCache", "LOCATION": f"redis://127.0.0.1:{free_tcp_port}/0"}}
    assert Client().get("/healthz").json() == {"status": "ok"}
    with override_settings(CACHES=down):
        response = Client().get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "cache unavailable"}
    assert response["Retry-After"] == "30"
    cache.clear()


@pytest.mark.services
def test_the_redis_backend_builds_one_client_per_pool_and_counts_atomically():
    one = RedisCache(REDIS_URL, {"KEY_PREFIX": "test-cache-backend"})
    two = RedisCache(REDIS_URL, {"KEY_PREFIX": "test-cache-backend"})
    one.clear()
    assert one._cache.get_client() is one._cache.get_client()
    assert one._cache.get_client(write=True) is one._cache.get_client()  # one server: one pool
    one.set("page", "x" * 60_000, timeout=60)
    assert two.get("page") == "x" * 60_000
    assert one.add("n", 0, timeout=60) and not two.add("n", 0, timeout=60)
    assert [one.incr("n"), two.incr("n"), one.incr("n")] == [1, 2, 3]
    one.delete("page")
    assert two.get("page") is None
    one.clear()


@pytest.mark.services
@pytest.mark.django_db
def test_throttle_windows_are_shared_by_every_worker_through_redis(rf, settings):
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.settings import api_settings

    settings.CACHES = {"default": {"BACKEND": "zfsplanner.web.cache.RedisCache", "LOCATION": REDIS_URL}}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "estimate": "3/minute"},
    }
    api_settings.reload()
    try:
        cache.clear()
        request = rf.post("/api/estimate/", REMOTE_ADDR="192.0.2.7")
        request.user = AnonymousUser()
        allowed = [ScopedActionThrottle().allow_scope(request, "estimate") for _ in range(5)]
        assert allowed == [True, True, True, False, False]
        throttle = ScopedActionThrottle()
        assert not throttle.allow_scope(request, "estimate")
        assert 1 <= throttle.wait() <= 60
    finally:
        cache.clear()
        api_settings.reload()
