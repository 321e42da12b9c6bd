"""Error answers: JSON for JSON clients, pages for browsers, 503 + Retry-After when the database is down.

``handler400/403/404/500`` in ``zfsplanner/urls.py`` point here. A client wants JSON when
it asks for the API (``/api/…``), sends ``Accept: application/json`` without ``text/html``,
or is a script that names no HTML at all. A database that cannot be reached (PostgreSQL
restarting, a failover, too many connections) is not a bug in the request: it answers
503 with ``Retry-After`` so clients and proxies retry instead of giving up. The same holds
for the shared cache (Redis, when CACHE_URL names it): sessions, cached pages and rate
limits live there.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.template.exceptions import TemplateDoesNotExist
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

DATABASE_RETRY_AFTER = 30  # seconds: about what a PostgreSQL restart or failover takes
DATABASE_ERRORS = (OperationalError, InterfaceError)
CACHE_ERRORS = (RedisConnectionError, RedisTimeoutError)


def wants_json(request: HttpRequest) -> bool:
    if request.path.startswith("/api/"):
        return True
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def _page(
    request: HttpRequest, template: str, status: int, fallback: str, *, with_request: bool = True, **extra: str
) -> HttpResponse:
    """The page, rendered with the request's context, or without it (standalone) when the database is out."""
    context = {"request_path": request.path, **extra}
    try:
        body = loader.get_template(template).render(context, request if with_request else None)
    except TemplateDoesNotExist:
        body = f"<!doctype html><title>{fallback}</title><h1>{fallback}</h1>"
    return HttpResponse(body, status=status, content_type="text/html; charset=utf-8")


def database_unavailable(request: HttpRequest, service: str = "database") -> HttpResponse:
    """503 + Retry-After: ``service`` ("database" or "cache") cannot be reached."""
    message = f"The {service} is unavailable for a moment; try again shortly."
    if wants_json(request):
        response: HttpResponse = JsonResponse({"detail": message}, status=503)
    else:
        response = _page(request, "503.html", 503, "Service unavailable", with_request=False, service=service)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400; a refused form field (``InvalidFormText``) is named, with why."""
    field = getattr(exception, "field", None)
    message = str(getattr(exception, "message", "")) if isinstance(field, str) else ""
    if wants_json(request):
        return JsonResponse({"detail": message, "field": field} if message else {"detail": "Bad request."}, status=400)
    return _page(request, "400.html", 400, "Bad request", message=message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if wants_json(request):
        detail = str(exception) if exception and str(exception) else "You do not have permission to do this."
        return JsonResponse({"detail": detail}, status=403)
    return _page(request, "403.html", 403, "Forbidden")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return _page(request, "404.html", 404, "Not found")


def server_error(request: HttpRequest, *args: Any) -> HttpResponse:
    """A 500, or a 503 when what went wrong is the database connection (read from the exception being handled)."""
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_ERRORS):
        logger.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
        return database_unavailable(request)
    if isinstance(exc, CACHE_ERRORS):
        logger.warning("cache unavailable for %s %s: %s", request.method, request.path, exc)
        return database_unavailable(request, "cache")
    if wants_json(request):
        return JsonResponse({"detail": "Server error; it has been logged."}, status=500)
    return _page(request, "500.html", 500, "Server error", with_request=False)
