"""Rate limits on the expensive requests: uploads, compression measurement, estimates.

A view names which of its actions count against which rate:
``throttle_scopes = {"create": "uploads", "retry": "uploads"}`` (actions of a ViewSet, or
HTTP methods of an APIView, lower case). The rates are settings
(``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from THROTTLE_* variables); a request past
its rate gets 429 with ``Retry-After``. Requests are counted per user, or per client
address when anonymous, in the default cache (set CACHE_URL so every worker shares it).

Counting is a fixed window per rate period: one counter per user, scope and period,
created with ``add`` and raised with ``incr`` (atomic in Redis). Each request costs the same
whatever the rate — DRF's own throttle keeps a timestamp per request and rewrites the whole
list on every request — at the price of allowing up to twice the rate across the boundary of
two periods.

While the shared cache is unreachable, requests are counted per process (a rate limit is a
guard, not a reason to refuse an upload while Redis restarts): see ``LOCAL_COUNTS``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from zfsplanner.errors import CACHE_ERRORS

logger = logging.getLogger(__name__)

# Where requests are counted while the shared cache cannot be reached: per process, so each
# gunicorn worker allows the rate on its own until Redis is back.
LOCAL_COUNTS = LocMemCache("zfsplanner-throttle-fallback", {"MAX_ENTRIES": 10_000})


class ScopedActionThrottle(SimpleRateThrottle):
    """The rate of the scope the view's ``throttle_scopes`` gives the current action; others pass."""

    def __init__(self) -> None:  # the rate depends on the request: chosen in allow_request
        pass

    def scope_for(self, request: Any, view: Any) -> str | None:
        scopes = getattr(view, "throttle_scopes", None) or {}
        action = getattr(view, "action", None) or request.method.lower()
        return scopes.get(action)

    def allow_request(self, request: Any, view: Any) -> bool:
        scope = self.scope_for(request, view)
        if scope is None:
            return True
        return self.allow_scope(request, scope)

    def get_rate(self) -> str | None:
        # Read when asked (not once at import), so the THROTTLE_* settings in force apply.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_scope(self, request: Any, scope: str) -> bool:
        self.scope = scope
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        now = self.timer()
        window = int(now // self.duration)
        self.window_end = (window + 1) * self.duration
        key = f"{self.get_cache_key(request, None)}_{window}"
        try:
            count = self._count(self.cache, key)
        except CACHE_ERRORS as exc:
            # The shared cache (Redis) is down: count in this process alone rather than refuse.
            # An upload must still be stored and answered while Redis restarts (README).
            logger.warning("rate limit %s counted in this process: the cache is unavailable (%s)", scope, exc)
            count = self._count(LOCAL_COUNTS, key)
        return count <= self.num_requests

    def _count(self, cache: Any, key: str) -> int:
        cache.add(key, 0, timeout=self.duration + 1)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr: the first of a new window
            cache.add(key, 1, timeout=self.duration + 1)
            return 1

    def wait(self) -> float:
        return max(self.window_end - self.timer(), 1.0)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def page_throttled(request: HttpRequest, scope: str) -> HttpResponse | None:
    """For a plain Django view: None within the rate, else a 429 answer with Retry-After."""
    throttle = ScopedActionThrottle()
    if throttle.allow_scope(request, scope):
        return None
    wait = throttle.wait() or 1
    response = HttpResponse(
        f"Too many requests: try again in {int(wait) + 1} seconds.", status=429, content_type="text/plain"
    )
    response["Retry-After"] = str(int(wait) + 1)
    return response
