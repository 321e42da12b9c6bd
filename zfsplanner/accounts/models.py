"""Teams, membership roles, invitations and API tokens.

A design belongs to a team; what a user may do with it follows their role in that
team: owners manage members, editors change designs, viewers only read. Owners invite
people by email address or user name; an API token lets scripts act as its user.

Secrets (invitation and token keys) are stored only as SHA-256 digests: the key itself
is shown once, when it is made.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any, ClassVar, Self, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


WRITE_ROLES = (Role.OWNER, Role.EDITOR)


_M = TypeVar("_M", bound=models.Model)


class ScopedQuerySet(models.QuerySet[_M]):
    """The rows a user may see, decided in one place per model: ``Model.objects.for_user(user)``.

    Every view, API view, form and task reaches rows through it; an anonymous user sees none.
    A model says how it is scoped by its queryset's base: :class:`TeamScopedQuerySet` (what a
    team owns: its members see it) or :class:`OwnerScopedQuerySet` (what one account owns).
    """

    def for_user(self, user: object) -> Self:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(self.visible_to(user))

    def visible_to(self, user: object) -> Q:
        raise NotImplementedError


class TeamScopedQuerySet(ScopedQuerySet[_M]):
    """What a team owns: its members see it, its owners and editors change it.

    ``team_field`` is the path from the model to its team (``"team"``, ``"design__team"``; ``"pk"``
    for the team itself). Teams are matched through a subquery of the user's memberships, so a
    row comes back once without ``distinct()``.
    """

    team_field: ClassVar[str] = "team"

    def _teams(self, user: object, roles: tuple[str, ...] | None = None) -> Q:
        memberships = Membership.objects.filter(user=user)
        if roles is not None:
            memberships = memberships.filter(role__in=roles)
        return Q(**{f"{self.team_field}__in": memberships.values("team")})

    def visible_to(self, user: object) -> Q:
        return self._teams(user)

    def writable_by(self, user: object) -> Self:
        """What ``user`` may change: what belongs to the teams in which they are an owner or editor."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(self._teams(user, WRITE_ROLES))


class OwnerScopedQuerySet(ScopedQuerySet[_M]):
    """What one account owns (a compression sample, an import preview): only its owner sees it.

    ``owner_field`` names the model's user field.
    """

    owner_field: ClassVar[str] = "owner"

    def visible_to(self, user: object) -> Q:
        return Q(**{self.owner_field: user})


class TeamQuerySet(TeamScopedQuerySet["Team"]):
    team_field = "pk"


class Team(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    personal_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The account this team was made for, as its own place for designs; empty for a shared team.",
    )

    objects = TeamQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def role_of(self, user: object) -> str | None:
        """The user's role in this team, or None for an outsider."""
        if not getattr(user, "is_authenticated", False):
            return None
        m = self.memberships.filter(user=user).only("role").first()
        return m.role if m else None

    def can_write(self, user: object) -> bool:
        return self.role_of(user) in WRITE_ROLES

    def can_manage(self, user: object) -> bool:
        return self.role_of(user) == Role.OWNER


class Membership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created = models.DateTimeField(auto_now_add=True)
    source = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="The identity provider whose group grants this membership (set again at every log-in "
        "through it); empty for a membership given in the app.",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="unique_team_member")]
        ordering = ["team", "user"]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} as {self.role}"

    @property
    def is_rw(self) -> bool:
        return self.role in WRITE_ROLES

    @property
    def from_provider(self) -> bool:
        return bool(self.source)


def new_key() -> tuple[str, str]:
    """A fresh random key (43 URL-safe characters, 256 bits) and its digest for storage."""
    key = secrets.token_urlsafe(32)
    return key, key_digest(key)


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class InvitationState(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    EXPIRED = "expired", "Expired"
    REVOKED = "revoked", "Revoked"


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def pending(self, now: datetime | None = None) -> InvitationQuerySet:
        now = now or timezone.now()
        return self.filter(accepted__isnull=True, revoked__isnull=True, expires__gt=now)


class Invitation(models.Model):
    """A single-use link that makes whoever follows it (after logging in) a member with ``role``.

    ``invitee`` is what the owner typed: an email address, or the user name of an account,
    whose email address then gets the link. Either way the owner learns nothing about
    whether an account exists.
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.CharField(max_length=254, help_text="Email address or user name the invitation was sent to.")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    key_digest = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    accepted = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["team", "-created"])]

    def __str__(self) -> str:
        return f"{self.invitee} to {self.team} as {self.role}"

    @property
    def state(self) -> InvitationState:
        if self.accepted is not None:
            return InvitationState.ACCEPTED
        if self.revoked is not None:
            return InvitationState.REVOKED
        if self.expires <= timezone.now():
            return InvitationState.EXPIRED
        return InvitationState.PENDING

    @property
    def is_pending(self) -> bool:
        return self.state == InvitationState.PENDING

    @property
    def by_email(self) -> bool:
        return "@" in self.invitee


class TokenState(models.TextChoices):
    ACTIVE = "active", "Active"
    EXPIRED = "expired", "Expired"
    REVOKED = "revoked", "Revoked"


class RevokeReason(models.TextChoices):
    BY_USER = "by_user", "revoked by its user"
    PASSWORD_CHANGED = "password_changed", "password changed"
    BY_ADMIN = "by_admin", "revoked by an administrator"
    REPLACED = "replaced", "replaced by a newer collect command"


class TokenScope(models.TextChoices):
    """What a token may do: everything its user may (``full``), or only send pool outputs and benchmark
    runs for one team (``upload``: the short-lived token of the "Collect from a server" command)."""

    FULL = "full", "Full access"
    UPLOAD = "upload", "Upload only (pool outputs and benchmark runs)"


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self, now: datetime | None = None) -> ApiTokenQuerySet:
        now = now or timezone.now()
        return self.filter(revoked__isnull=True).filter(Q(expires__isnull=True) | Q(expires__gt=now))


class ApiToken(models.Model):
    """A named key for the API (``Authorization: Token <key>``); it may expire and is revoked
    when its user's password changes."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=8, editable=False, help_text="First characters of the key, to recognise it.")
    key_digest = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(null=True, blank=True, help_text="Empty: never expires.")
    last_used = models.DateTimeField(null=True, blank=True, editable=False)
    revoked = models.DateTimeField(null=True, blank=True)
    revoked_reason = models.CharField(max_length=20, choices=RevokeReason.choices, blank=True)
    scope = models.CharField(max_length=10, choices=TokenScope.choices, default=TokenScope.FULL)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        help_text="An upload-only token's team: what it sends belongs there.",
    )

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"

    @property
    def state(self) -> TokenState:
        if self.revoked is not None:
            return TokenState.REVOKED
        if self.expires is not None and self.expires <= timezone.now():
            return TokenState.EXPIRED
        return TokenState.ACTIVE


class SizeUnit(models.TextChoices):
    TIB = "TiB", "TiB: binary, what zpool and zfs count in (their T means TiB)"
    TB = "TB", "TB: decimal, as on drive labels"


class Profile(models.Model):
    """A user's preferences: for now the unit sizes are shown in (a page's ``?unit=`` overrides it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    size_unit = models.CharField(
        "Sizes in",
        max_length=3,
        choices=SizeUnit.choices,
        default=SizeUnit.TIB,
        help_text="The unit of every size on the design pages and in reports; ?unit=TB or ?unit=TiB in a page's "
        "address overrides it.",
    )

    def __str__(self) -> str:
        return f"profile of {self.user}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        cache.set(_unit_key(self.user_id), self.size_unit, UNIT_CACHE_SECONDS)


UNIT_CACHE_SECONDS = 24 * 3600


def _unit_key(user_id: object) -> str:
    return f"size-unit:{user_id}"


def preferred_unit(user: object) -> str | None:
    """The user's chosen unit, or None (anonymous, or never chosen).

    Kept in the cache (set when the profile is saved): a page served from the page cache
    asks for it on every request and should not need a query for it."""
    if not getattr(user, "is_authenticated", False):
        return None
    key = _unit_key(getattr(user, "pk", None))
    unit = cache.get(key)
    if unit is None:
        unit = Profile.objects.filter(user=user).values_list("size_unit", flat=True).first() or ""
        cache.set(key, unit, UNIT_CACHE_SECONDS)
    return str(unit) or None


def keep_unit(user: Any, unit: str) -> bool:
    """Make ``unit`` (TB or TiB) the one every design page shows ``user`` from now on, as the profile's
    setting does: a plan saved from the quick planner keeps the unit it was read in. True when it changed."""
    if unit not in SizeUnit.values or preferred_unit(user) == unit:
        return False
    profile = Profile.objects.filter(user=user).first() or Profile(user=user)
    profile.size_unit = unit
    profile.save()
    return True


def request_unit(request: object) -> str:
    """The unit a page shows this request: ``?unit=TB|TiB``, else the user's preference, else TiB."""
    asked = getattr(request, "GET", {}).get("unit")
    for unit in (asked, preferred_unit(getattr(request, "user", None))):
        if unit in SizeUnit.values:
            return str(unit)
    return SizeUnit.TIB.value
