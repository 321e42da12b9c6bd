"""Sessions read from the shared cache and written through to the database, working from the
database alone while the cache (Redis) is unreachable.

Django's ``cached_db`` store already reads the database when a cache lookup fails, but then
writes the session back into the cache without a guard, and checks a new key against the
cache the same way: with Redis down, every logged-in request (an upload from the browser, the
API with a session) would fail. Here the cache is only an accelerator: a cache operation that
cannot reach Redis is logged and skipped, and the database answers. Selected by settings.py
when CACHE_URL names a shared cache.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends import cached_db

from zfsplanner.web.errors import CACHE_ERRORS

logger = logging.getLogger(__name__)


class _SkipWhenDown:
    """The cache, with each operation that cannot reach it answered as a miss (None / False)."""

    def __init__(self, cache: Any) -> None:
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._cache, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return _skip(name, attr, *args, **kwargs)

        return call

    def __contains__(self, key: str) -> bool:
        return bool(_skip("has_key", self._cache.has_key, key))


def _skip(name: str, operation: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return operation(*args, **kwargs)
    except CACHE_ERRORS as exc:
        logger.warning("session cache %s skipped, the database answers: %s", name, exc)
        return None


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _SkipWhenDown(self._cache)
