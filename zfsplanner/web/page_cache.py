"""Whole pages rendered once and served from the cache until what they show changes.

A page that shows the same thing to the same visitor until some stored state changes (a
design's revision, its share links, the catalog) is rendered once per such state and then
served as bytes: no template, no estimate, no further query. The view names the state in
``key_parts``; this module adds what every page varies by — the template, the visitor (their
id and the name the navigation shows), the scheme and host, the build — and leaves out what
must not be cached:

* the CSRF token: the page is rendered with a placeholder that is replaced by the current
  request's token each time it is served, so a cached page never carries another session's
  token and forms keep working after a token rotates;
* one-time messages ("Saved revision 4."): a request with messages waiting is rendered
  normally, so the message is shown once and never stored.

Access checks happen before: the view looks the object up for this visitor (404 or 403
first), and only then asks for the page.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

# Letters, digits and dashes only: HTML escaping leaves it as it is, wherever the template puts it.
CSRF_PLACEHOLDER = "csrf-token-placeholder-5c0b6e1d9a"
PAGE_CACHE_SECONDS = 3600


def page_key(request: HttpRequest, template_name: str, key_parts: Sequence[object]) -> str:
    user = getattr(request, "user", None)
    visitor: tuple[object, ...] = ("anonymous",)
    if user is not None and user.is_authenticated:
        visitor = (user.pk, user.get_username(), getattr(user, "first_name", ""))
    parts = (template_name, *key_parts, *visitor, request.scheme, request.get_host())
    return "page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def _has_messages(request: HttpRequest) -> bool:
    return bool(len(messages.get_messages(request)))


def render_cached(
    request: HttpRequest,
    template_name: str,
    key_parts: Sequence[object],
    context: Callable[[], dict[str, Any]],
    timeout: Callable[[dict[str, Any]], int] | int = PAGE_CACHE_SECONDS,
) -> HttpResponse:
    """The page for this visitor and state: from the cache, or rendered (and stored) now.

    ``context`` is called only when the page has to be rendered; ``timeout`` may be a function
    of that context (e.g. until the next share link expires), at most PAGE_CACHE_SECONDS.
    """
    if _has_messages(request):
        return HttpResponse(render_to_string(template_name, context(), request))
    key = page_key(request, template_name, key_parts)
    stored = cache.get(key)
    if stored is not None:
        html = zlib.decompress(stored).decode()
    else:
        values = {**context(), "csrf_token": CSRF_PLACEHOLDER}
        html = render_to_string(template_name, values, request)
        seconds = timeout(values) if callable(timeout) else timeout
        if seconds > 0:  # compressed: a design page is ~50 KB of HTML, ~10 KB stored
            cache.set(key, zlib.compress(html.encode(), 1), timeout=min(seconds, PAGE_CACHE_SECONDS))
    return HttpResponse(html.replace(CSRF_PLACEHOLDER, get_token(request)))
