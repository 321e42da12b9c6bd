"""DRF authentication by API token: ``Authorization: Token <key>``; an upload-only token reaches only
the two upload endpoints (``UPLOAD_ONLY_ROUTES``), every other API request with it is 403."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from .models import ApiToken, TokenScope
from .tokens import UPLOAD_ONLY_ROUTES, token_for_key


class ApiTokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
        found = super().authenticate(request)
        if found is not None and found[1].scope == TokenScope.UPLOAD:
            match = getattr(request, "resolver_match", None)
            route = f"{match.namespace}:{match.url_name}" if match is not None else ""
            if (route, request.method) not in UPLOAD_ONLY_ROUTES:
                raise exceptions.PermissionDenied(
                    "This token may only send pool outputs and benchmark runs (an upload-only token)."
                )
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = token_for_key(key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        return token.user, token
