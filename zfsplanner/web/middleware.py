"""Middleware: health check first, requests with control characters or forms with invalid text refused,
security headers on every answer.

Order in ``settings.MIDDLEWARE``: :class:`SecurityHeadersMiddleware` outermost (every answer
carries the headers, ``/healthz`` and static files included), then :class:`HealthzMiddleware`
(a container's health check reaches ``http://127.0.0.1:8000/healthz`` whatever ALLOWED_HOSTS
and the TLS redirect say), then Django's ``SecurityMiddleware`` (and WhiteNoise in production),
then :class:`RefuseControlCharactersMiddleware` and :class:`RefuseInvalidFormTextMiddleware`;
:class:`HtmxMessagesMiddleware` last, inside Django's ``MessageMiddleware`` and django-htmx's
``HtmxMiddleware``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from urllib.parse import unquote

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.template.loader import render_to_string

from .errors import CACHE_ERRORS, DATABASE_ERRORS, DATABASE_RETRY_AFTER, wants_json
from .form_text import checked_load
from .htmx import htmx_partial

Handler = Callable[[HttpRequest], HttpResponse]

# Only the app's own scripts, styles, images and fonts; no inline script, no inline style,
# no plugins, no framing by other sites, forms post only to the app itself.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# The app needs no device, sensor or payment API; deny them all to the page and any frame.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
)


class HealthzMiddleware:
    """``GET /healthz``: 200 when the database answers, 503 + Retry-After when it does not."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != "/healthz" or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        return health()


def health() -> JsonResponse:
    """``{"status": "ok"}`` when the database answers a query and the cache a lookup; 503 with
    Retry-After naming the one that does not."""
    problem = None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DATABASE_ERRORS:
        problem = "database unavailable"
    else:
        try:
            cache.get("healthz")
        except CACHE_ERRORS:
            problem = "cache unavailable"
    if problem is None:
        return JsonResponse({"status": "ok"})
    response = JsonResponse({"status": problem}, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


def _has_control(text: str) -> bool:
    return any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text)


class RefuseControlCharactersMiddleware:
    """A path or query with NUL or another control character is a 400, before any view or query sees it.

    (PostgreSQL cannot even compare a string holding NUL: without this, ``/share/x%00/`` or
    ``?q=%00`` reached the database and answered 500.)
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = unquote(request.META.get("QUERY_STRING", ""), errors="replace")
        if _has_control(request.path) or _has_control(query):
            message = "The address contains a control character (such as NUL); remove it."
            if wants_json(request):  # the API's error shape: a detail and the errors, one per field
                return JsonResponse({"detail": message, "errors": [{"field": "", "message": message}]}, status=400)
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def with_form_targets(csp: str, origins: tuple[str, ...]) -> str:
    """The policy with ``origins`` added to ``form-action``: a log-in form posts to the app, which
    sends the browser on to the identity provider, and browsers hold that redirect to form-action."""
    if not origins:
        return csp
    return csp.replace("form-action 'self'", "form-action 'self' " + " ".join(origins), 1)


class RefuseInvalidFormTextMiddleware:
    """A posted form whose fields are not UTF-8 text (invalid bytes, a lone surrogate) is a 400
    naming the field, whichever view reads it (:mod:`zfsplanner.web.form_text`); the parse stays
    lazy, so a view still installs its upload handler before the body is read."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            load = request._load_post_and_files
            request._load_post_and_files = partial(checked_load, request, load)  # type: ignore[method-assign]
        return self.get_response(request)


class SecurityHeadersMiddleware:
    """Every security header on every response that does not set its own: Content-Security-Policy
    and Permissions-Policy, and what Django's ``SecurityMiddleware`` (X-Content-Type-Options,
    Referrer-Policy, Cross-Origin-Opener-Policy, HSTS over HTTPS) and ``XFrameOptionsMiddleware``
    (X-Frame-Options) add, through their own code and settings.

    It is the outermost middleware, so answers given before the rest of the chain carry them
    too: ``/healthz`` (:class:`HealthzMiddleware`) and the static files WhiteNoise serves.
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        self.csp = getattr(settings, "CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
        self.django_headers = (SecurityMiddleware(get_response), XFrameOptionsMiddleware(get_response))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for middleware in self.django_headers:  # each sets only what the response lacks
            response = middleware.process_response(request, response)
        if self.csp and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = with_form_targets(self.csp, settings.CSP_FORM_ACTION_ORIGINS)
        if "Permissions-Policy" not in response:
            response["Permissions-Policy"] = PERMISSIONS_POLICY
        return response


class HtmxMessagesMiddleware:
    """One-time messages leave with the page they were meant for.

    ``base.html`` shows queued messages in ``#messages`` when it renders a whole page, and reading
    them there uses them up. An htmx request swaps only part of the page, so the message area
    outside it would keep showing what the page said when it loaded ("Design tank created")
    through every later save. So when an htmx request changes something (any method but GET,
    HEAD, OPTIONS), or queued a message itself, its answer also carries ``#messages`` out of
    band (``hx-swap-oob``): the messages queued since, shown once, or an empty area.

    Only answers that htmx swaps get it (``static/js/htmx-config.js``: 2xx but 204, 409, 422);
    a redirect, a client redirect (``HX-Redirect``) or a refused request leaves the messages
    queued for the next whole page.
    """

    SWAPPED_ERRORS = (409, 422)
    SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
    CLIENT_NAVIGATION = ("HX-Redirect", "HX-Location", "HX-Refresh")

    def __init__(self, get_response: Handler):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not htmx_partial(request) or not self._swapped(response):
            return response
        queued = messages.get_messages(request)
        if request.method in self.SAFE_METHODS and not len(queued):
            return response
        area = render_to_string("_messages.html", {"messages": queued, "oob": True}, request)
        response.content = response.content + area.encode(response.charset)
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response

    def _swapped(self, response: HttpResponse) -> bool:
        status = response.status_code
        return (
            not getattr(response, "streaming", False)
            and response.get("Content-Type", "").startswith("text/html")
            and ((200 <= status < 300 and status != 204) or status in self.SWAPPED_ERRORS)
            and not any(response.has_header(h) for h in self.CLIENT_NAVIGATION)
        )
