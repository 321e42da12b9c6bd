"""API tokens: made with a name and a lifetime, shown once, revoked by their user or by a
password change, checked on every API request that sends ``Authorization: Token <key>``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from .models import ApiToken, RevokeReason, key_digest, new_key
from .services import TeamError

MAX_TOKEN_DAYS = 3650
MAX_ACTIVE_TOKENS = 100
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenError(TeamError):
    """A refused token request; ``field`` names the input."""


def clean_token_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise TokenError("name", "give the token a name, e.g. the script or machine that uses it")
    if len(name) > 100:
        raise TokenError("name", f"at most 100 characters (got {len(name)})")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise TokenError("name", "must not contain control characters")
    return name


@transaction.atomic
def issue_token(user: Any, name: str, days: int | None) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key; ``days=None`` never expires."""
    name = clean_token_name(name)
    if days is not None and not 1 <= days <= MAX_TOKEN_DAYS:
        raise TokenError("expires_in_days", f"must be between 1 and {MAX_TOKEN_DAYS}, or empty for never (got {days})")
    if ApiToken.objects.filter(user=user).active().count() >= MAX_ACTIVE_TOKENS:
        raise TokenError("name", f"you have {MAX_ACTIVE_TOKENS} active tokens; revoke some first")
    key, digest = new_key()
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=key[:8],
        key_digest=digest,
        expires=timezone.now() + timedelta(days=days) if days is not None else None,
    )
    return token, key


def token_for_key(key: str) -> ApiToken | None:
    """The active token with this key, or None (unknown, expired and revoked look the same)."""
    if not key or len(key) > 100:
        return None
    try:  # by its unique digest; the active() conditions are checked here (a simpler, faster query)
        token = ApiToken.objects.select_related("user").get(key_digest=key_digest(key))
    except ApiToken.DoesNotExist:
        return None
    now = timezone.now()
    if token.revoked is not None or (token.expires is not None and token.expires <= now):
        return None
    if token.last_used is None or now - token.last_used > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


def revoke_token(token: ApiToken, reason: RevokeReason = RevokeReason.BY_USER) -> ApiToken:
    if token.revoked is None:
        token.revoked = timezone.now()
        token.revoked_reason = reason
        token.save(update_fields=["revoked", "revoked_reason"])
    return token


def revoke_all(user: Any, reason: RevokeReason) -> int:
    """Revoke every token of ``user`` that is still usable; how many were."""
    usable = ApiToken.objects.filter(user=user, revoked__isnull=True)
    return usable.update(revoked=timezone.now(), revoked_reason=reason)
