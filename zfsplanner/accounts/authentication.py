"""DRF authentication by API token: ``Authorization: Token <key>``."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from .models import ApiToken
from .tokens import token_for_key


class ApiTokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = token_for_key(key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        return token.user, token
