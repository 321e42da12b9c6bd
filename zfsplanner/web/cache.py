"""Django's Redis cache, with one Redis client object per connection pool instead of one per call.

``django.core.cache.backends.redis.RedisCacheClient`` builds a new ``redis.Redis`` for every
cache operation, and redis-py's constructor fills a table of about 160 response callbacks each
time: a fifth of a millisecond per ``cache.get``, more than the round trip to Redis. A cached
page or estimate makes several cache calls per request, so the client is built once per pool
(Django keeps one cache object per thread, and a ``redis.Redis`` shares its pool safely).
CACHE_URL ``redis://…`` selects this backend (settings.py).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
