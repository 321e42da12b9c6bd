"""API tokens: made with a name and a lifetime, shown once, revoked by their user or by a
password change, checked on every API request that sends ``Authorization: Token <key>``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from .models import ApiToken, RevokeReason, Team, TokenScope, key_digest, new_key
from .services import TeamError

MAX_TOKEN_DAYS = 3650
MAX_ACTIVE_TOKENS = 100
LAST_USED_RESOLUTION = timedelta(minutes=1)
# The "Collect from a server" command's token: upload only, for one team, short-lived; a user keeps at
# most MAX_UPLOAD_TOKENS of them usable (a newer one replaces the oldest).
UPLOAD_TOKEN_LIFETIME = timedelta(hours=2)
MAX_UPLOAD_TOKENS = 5
# What an upload-only token may reach: (URL name, method). Anything else is 403.
UPLOAD_ONLY_ROUTES = frozenset({
    ("imports-api:pool-import-list", "POST"),
    ("benchmarks-api:upload-list", "POST"),
})


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


def _create_token(user: Any, name: str, expires: datetime | None, **fields: Any) -> tuple[ApiToken, str]:
    """A new token row with a fresh key (only its digest and prefix stored) and the key itself."""
    key, digest = new_key()
    token = ApiToken.objects.create(user=user, name=name, prefix=key[:8], key_digest=digest, expires=expires, **fields)
    return token, key


@transaction.atomic
def issue_token(user: Any, name: str, days: int | None) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key; ``days=None`` never expires."""
    name = clean_token_name(name)
    if days is not None and not 1 <= days <= MAX_TOKEN_DAYS:
        raise TokenError("expires_in_days", f"must be between 1 and {MAX_TOKEN_DAYS}, or empty for never (got {days})")
    if ApiToken.objects.filter(user=user).active().count() >= MAX_ACTIVE_TOKENS:
        raise TokenError("name", f"you have {MAX_ACTIVE_TOKENS} active tokens; revoke some first")
    return _create_token(user, name, timezone.now() + timedelta(days=days) if days is not None else None)


@transaction.atomic
def issue_upload_token(user: Any, team: Team, name: str = "") -> tuple[ApiToken, str]:
    """A fresh upload-only token of ``user`` for ``team`` (an owner or editor), valid UPLOAD_TOKEN_LIFETIME,
    named ``name`` (by default after the team); the user's oldest usable upload tokens beyond
    MAX_UPLOAD_TOKENS are revoked."""
    if not team.can_write(user):
        raise TokenError("team", f"your role in {team.name} may not upload (owners and editors may)")
    name = clean_token_name(name) if name.strip() else f"Collect from a server ({team.name})"[:100]
    token, key = _create_token(user, name, timezone.now() + UPLOAD_TOKEN_LIFETIME, scope=TokenScope.UPLOAD, team=team)
    usable = ApiToken.objects.filter(user=user, scope=TokenScope.UPLOAD).active().order_by("-created", "-pk")
    old = list(usable.values_list("pk", flat=True)[MAX_UPLOAD_TOKENS:])
    if old:
        ApiToken.objects.filter(pk__in=old).update(revoked=timezone.now(), revoked_reason=RevokeReason.REPLACED)
    return token, key


def upload_only_team(request: Any) -> Team | None:
    """The team an upload-only token sends to, or None when the request is not made with one."""
    token = getattr(request, "auth", None)
    if isinstance(token, ApiToken) and token.scope == TokenScope.UPLOAD:
        return token.team
    return None


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


def upload_tokens(user: Any) -> Any:
    """The user's upload-only tokens (the collect command's), newest first, usable or not."""
    mine = ApiToken.objects.filter(user=user, scope=TokenScope.UPLOAD)
    return mine.select_related("team").order_by("-created", "-pk")


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
