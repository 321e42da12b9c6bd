"""Whether a request asks for a part of a page (NetBox's ``utilities/htmx.py``).

One URL serves a page and its swappable parts: a view renders ``"<template>#<partial>"`` when
``htmx_partial(request)`` and the whole page otherwise. A boosted link or form (``hx-boost``)
navigates, so it gets the whole page. Checks that mean "any htmx request" (to answer with
``HX-Redirect`` rather than a 302, say) read ``request.htmx`` itself.
"""

from __future__ import annotations

from django.http import HttpRequest


def htmx_partial(request: HttpRequest) -> bool:
    """True for an htmx request that swaps part of the page (not a boosted navigation)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted
