"""Rate limits on the expensive requests (uploads, compression measurement, estimates) and on sign-up.

A view names which of its actions count against which rate:
``throttle_scopes = {"create": "uploads", "retry": "uploads"}`` (actions of a ViewSet, or
HTTP methods of an APIView, lower case). The rates are settings
(``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from THROTTLE_* variables); a request past
its rate gets 429 with ``Retry-After``. Requests are counted per user, or per client
address when anonymous or for a scope in ``BY_ADDRESS`` (sign-up), in the default cache (set
CACHE_URL so every worker shares it). A page may give back what a request it counted did not
use (:func:`page_refund`: a sign-up form refused for a typo is no account made).

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

from zfsplanner.web.errors import CACHE_ERRORS

logger = logging.getLogger(__name__)

# Where requests are counted while the shared cache cannot be reached: per process, so each
# gunicorn worker allows the rate on its own until Redis is back.
LOCAL_COUNTS = LocMemCache("zfsplanner-throttle-fallback", {"MAX_ENTRIES": 10_000})
# Scopes counted per client address even for a signed-in user.
BY_ADDRESS = frozenset({"signup"})


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

    def _window_key(self, request: Any, scope: str) -> str | None:
        """The counter of ``scope`` for this request's user or address in the current window (None: no rate)."""
        self.scope = scope
        self.rate = self.get_rate()
        if self.rate is None:
            return None
        self.num_requests, self.duration = self.parse_rate(self.rate)
        window = int(self.timer() // self.duration)
        self.window_end = (window + 1) * self.duration
        return f"{self.get_cache_key(request, None)}_{window}"

    def allow_scope(self, request: Any, scope: str) -> bool:
        key = self._window_key(request, scope)
        if key is None:
            return True
        try:
            count = self._count(self.cache, key)
        except CACHE_ERRORS as exc:
            # The shared cache (Redis) is down: count in this process alone rather than refuse.
            # An upload must still be stored and answered while Redis restarts (README).
            logger.warning("rate limit %s counted in this process: the cache is unavailable (%s)", scope, exc)
            count = self._count(LOCAL_COUNTS, key)
        return count <= self.num_requests

    def refund(self, request: Any, scope: str) -> None:
        """Give back one request counted by :meth:`allow_scope` in this window."""
        key = self._window_key(request, scope)
        if key is None:
            return
        for cache in (self.cache, LOCAL_COUNTS):
            try:
                if cache.get(key):
                    cache.decr(key)
                    return
            except (ValueError, *CACHE_ERRORS):  # expired meanwhile, or the cache is down: nothing to give back
                continue

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
        signed_in = user is not None and user.is_authenticated and self.scope not in BY_ADDRESS
        ident = user.pk if signed_in else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def page_throttled(request: HttpRequest, scope: str, what: str = "Too many requests") -> HttpResponse | None:
    """For a plain Django view: None within the rate, else a 429 answer with Retry-After."""
    throttle = ScopedActionThrottle()
    if throttle.allow_scope(request, scope):
        return None
    wait = throttle.wait() or 1
    response = HttpResponse(
        f"{what}: try again in {int(wait) + 1} seconds.", status=429, content_type="text/plain; charset=utf-8"
    )
    response["Retry-After"] = str(int(wait) + 1)
    return response


def page_refund(request: HttpRequest, scope: str) -> None:
    """Give back what :func:`page_throttled` counted for a request that used nothing (a refused form)."""
    ScopedActionThrottle().refund(request, scope)
