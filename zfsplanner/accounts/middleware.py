"""Log-in by a trusted authenticating proxy's header (``REMOTE_AUTH_HEADER``), as NetBox's remote
authentication: honoured only when the setting is on and only from ``REMOTE_AUTH_TRUSTED_PROXIES``."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse

from .sso import PROXY, remember_provider_login

logger = logging.getLogger(__name__)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def header_value(request: HttpRequest, name: str) -> str:
    """A request header by its configured name (``Remote-User``), stripped; empty when absent."""
    return str(request.META.get("HTTP_" + name.upper().replace("-", "_"), "")).strip() if name else ""


def from_trusted_proxy(request: HttpRequest) -> bool:
    """Does the request come straight from one of ``REMOTE_AUTH_TRUSTED_PROXIES``?"""
    try:
        peer = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(peer in net for net in settings.REMOTE_AUTH_TRUSTED_PROXIES)


class TrustedProxyUserMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = settings.REMOTE_AUTH_HEADER
        username = header_value(request, name)
        if username and from_trusted_proxy(request):
            self.log_in(request, username)
        elif username:
            logger.warning("%s header from %s ignored: not a trusted proxy", name, request.META.get("REMOTE_ADDR"))
        return self.get_response(request)

    def log_in(self, request: HttpRequest, username: str) -> None:
        current = getattr(request, "user", None)
        if current is not None and current.is_authenticated and current.get_username() == username:
            return
        model = get_user_model()
        user = model._default_manager.filter(username=username).first()
        if user is None:
            if not settings.SSO_CREATE_ACCOUNTS:
                return
            user = model._default_manager.create_user(
                username=username, email=header_value(request, settings.REMOTE_AUTH_EMAIL_HEADER) or ""
            )
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if not user.is_active:
            return
        groups = header_value(request, settings.REMOTE_AUTH_GROUPS_HEADER)
        remember_provider_login(request, PROXY, (g.strip() for g in groups.replace("|", ",").split(",")))
        auth.login(request, user, backend=MODEL_BACKEND)
