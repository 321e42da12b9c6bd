"""Log-in through an identity provider: the groups it names become team roles.

Every log-in through a provider (OpenID Connect, LDAP, the trusted proxy's header) carries the
user's groups. :func:`sync_provider_teams` applies ``SSO_GROUP_TEAMS`` to them at each such log-in:
a membership a group grants is added (its team made when it does not exist yet), its role follows
the group, and a membership the provider granted before is removed when no group grants it any
more. Memberships given in the app (invitations, an owner's choice) are left alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest

from .models import Membership, Role, Team

ROLE_RANK = {Role.VIEWER: 0, Role.EDITOR: 1, Role.OWNER: 2}
LDAP = "ldap"
PROXY = "proxy"
OIDC_PREFIX = "oidc:"
_REQUEST_ATTR = "_zfsplanner_provider_login"


@dataclass(frozen=True)
class ProviderLogin:
    """Who vouched for a log-in and the groups it named."""

    source: str  # "oidc:<provider id>", "ldap" or "proxy"
    groups: frozenset[str]


@dataclass
class TeamChanges:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def source_label(source: str) -> str:
    """A membership's source as the team page names it: "Keycloak", "LDAP", "the sign-in proxy"."""
    if source.startswith(OIDC_PREFIX):
        wanted = source.removeprefix(OIDC_PREFIX)
        return next((p.name for p in settings.OIDC_PROVIDERS if p.id == wanted), wanted)
    return {LDAP: "LDAP", PROXY: "the sign-in proxy"}.get(source, source)


def remember_provider_login(request: HttpRequest, source: str, groups: Iterable[str]) -> None:
    """Note, before the log-in completes, the provider and groups it came with."""
    setattr(request, _REQUEST_ATTR, ProviderLogin(source, frozenset(g for g in groups if g)))


def provider_login(request: HttpRequest | None, user: Any) -> ProviderLogin | None:
    """The provider a log-in went through, if any: the one noted on the request, or LDAP (the LDAP
    back end leaves the directory's entry on the user it authenticates)."""
    noted = getattr(request, _REQUEST_ATTR, None) if request is not None else None
    if isinstance(noted, ProviderLogin):
        return noted
    ldap_user = getattr(user, "ldap_user", None)
    if ldap_user is not None:
        return ProviderLogin(LDAP, frozenset(ldap_user.group_dns))
    return None


def oidc_groups(data: Mapping[str, Any]) -> set[str]:
    """The ``groups`` claim of the userinfo and the ID token (allauth keeps both)."""
    out: set[str] = set()
    for part in (data.get("userinfo"), data.get("id_token"), data):
        if isinstance(part, Mapping):
            value = part.get("groups")
            if isinstance(value, str):
                out.add(value)
            elif isinstance(value, list):
                out.update(str(v) for v in value if isinstance(v, str | int))
    return out


def granted_roles(groups: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Team slug -> (role, team name) that ``groups`` grant by ``SSO_GROUP_TEAMS`` (the highest role
    when several groups name one team). Groups compare without case (LDAP DNs are case-blind)."""
    out: dict[str, tuple[str, str]] = {}
    for group in groups:
        grant = settings.SSO_GROUP_TEAMS.get(group.lower())
        if grant is None:
            continue
        before = out.get(grant.team)
        if before is None or ROLE_RANK[Role(grant.role)] > ROLE_RANK[Role(before[0])]:
            out[grant.team] = (grant.role, grant.name or grant.team)
    return out


@transaction.atomic
def sync_provider_teams(user: Any, login: ProviderLogin) -> TeamChanges:
    """Apply the provider's groups to ``user``'s memberships (see the module's docstring)."""
    changes = TeamChanges()
    grants = granted_roles(login.groups)
    held = {m.team.slug: m for m in Membership.objects.filter(user=user).select_related("team")}
    for slug, membership in held.items():
        if membership.source == login.source and slug not in grants:
            membership.delete()
            changes.removed.append(slug)
    for slug, (role, name) in grants.items():
        membership = held.get(slug)
        if membership is None:
            team, _ = Team.objects.get_or_create(slug=slug, defaults={"name": name})
            Membership.objects.create(team=team, user=user, role=role, source=login.source)
            changes.added.append(slug)
        elif membership.source == login.source and membership.role != role:
            membership.role = role
            membership.save(update_fields=["role"])
            changes.changed.append(slug)
    return changes
