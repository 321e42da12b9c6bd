"""Single sign-on settings read from the environment: OpenID Connect providers, LDAP / Active
Directory, a trusted proxy's user header, and the provider groups that grant team roles.

Plain functions of the environment's text, called by ``zfsplanner/settings.py``; a bad value is
``ImproperlyConfigured`` at start-up, naming the variable. ``docs/authentication.md`` shows a worked
setup of each.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

ROLES = ("viewer", "editor", "owner")  # accounts.models.Role (settings are read before the models)
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
_HEADER = re.compile(r"^[A-Za-z0-9-]+$")

Getter = Callable[[str, str], str]
"""``get(NAME, default)``: an environment variable as text."""


@dataclass(frozen=True)
class OidcProvider:
    id: str  # the provider's slug in the callback URL: /accounts/oidc/<id>/login/callback/
    name: str  # the log-in button's label
    issuer: str
    client_id: str
    client_secret: str


def oidc_providers(get: Getter) -> list[OidcProvider]:
    """``OIDC_ISSUER``, ``OIDC_CLIENT_ID``, ``OIDC_CLIENT_SECRET``, ``OIDC_NAME`` (and ``OIDC_ID``) for
    one provider; ``OIDC_PROVIDERS``, a JSON list of ``{"id", "name", "issuer", "client_id",
    "client_secret"}``, for more."""
    found: list[OidcProvider] = []
    issuer = get("OIDC_ISSUER", "")
    if issuer:
        found.append(_provider({
            "id": get("OIDC_ID", "oidc"), "name": get("OIDC_NAME", "Single sign-on"), "issuer": issuer,
            "client_id": get("OIDC_CLIENT_ID", ""), "client_secret": get("OIDC_CLIENT_SECRET", ""),
        }, "OIDC_*"))
    raw = get("OIDC_PROVIDERS", "")
    if raw:
        items = _json(raw, "OIDC_PROVIDERS")
        if not isinstance(items, list):
            raise ImproperlyConfigured("OIDC_PROVIDERS must be a JSON list of providers")
        found.extend(_provider(item, f"OIDC_PROVIDERS[{i}]") for i, item in enumerate(items))
    ids = [p.id for p in found]
    if len(set(ids)) != len(ids):
        raise ImproperlyConfigured(f"OIDC provider ids must differ (got {', '.join(ids)})")
    return found


def _provider(item: Any, where: str) -> OidcProvider:
    if not isinstance(item, Mapping):
        raise ImproperlyConfigured(f"{where} must be an object")
    values = {k: item.get(k) for k in ("id", "name", "issuer", "client_id", "client_secret")}
    missing = [k for k, v in values.items() if not isinstance(v, str) or not v]
    if missing:
        raise ImproperlyConfigured(f"{where}: {', '.join(missing)} must be set")
    if not _SLUG.match(values["id"]):
        raise ImproperlyConfigured(f"{where}: id {values['id']!r} may hold only letters, digits, - and _")
    if not values["issuer"].startswith(("https://", "http://")):
        raise ImproperlyConfigured(f"{where}: issuer must be the provider's URL (https://…)")
    return OidcProvider(**values)


def origins(providers: list[OidcProvider]) -> tuple[str, ...]:
    """The providers' origins (``https://sso.example.com``), for the form-action policy."""
    out: list[str] = []
    for p in providers:
        parts = urlsplit(p.issuer)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in out:
            out.append(origin)
    return tuple(out)


def socialaccount_providers(providers: list[OidcProvider], scopes: str) -> dict[str, Any]:
    """``SOCIALACCOUNT_PROVIDERS`` for django-allauth's OpenID Connect provider; ``scopes``:
    ``OIDC_SCOPES`` (``openid profile email``; add the one that brings the ``groups`` claim where the
    provider needs one, e.g. ``groups`` on Authentik)."""
    return {
        "openid_connect": {
            "OAUTH_PKCE_ENABLED": True,
            "SCOPE": scopes.split() or ["openid", "profile", "email"],
            "APPS": [
                {
                    "provider_id": p.id,
                    "name": p.name,
                    "client_id": p.client_id,
                    "secret": p.client_secret,
                    "settings": {"server_url": p.issuer},
                }
                for p in providers
            ],
        }
    }


@dataclass(frozen=True)
class TeamGrant:
    """What a provider group gives: a role in a team (made at the first log-in that needs it)."""

    team: str  # slug
    role: str
    name: str = ""  # the team's name when it is made; the slug when empty


def group_teams(raw: str) -> dict[str, TeamGrant]:
    """``SSO_GROUP_TEAMS``: JSON ``{"group": {"team": "slug", "role": "editor"}}``. A group is the
    OIDC ``groups`` claim's value, an LDAP group's DN or a name in the proxy's groups header."""
    if not raw:
        return {}
    data = _json(raw, "SSO_GROUP_TEAMS")
    if not isinstance(data, Mapping):
        raise ImproperlyConfigured("SSO_GROUP_TEAMS must be a JSON object: group -> {team, role}")
    out: dict[str, TeamGrant] = {}
    for group, grant in data.items():
        where = f"SSO_GROUP_TEAMS[{group!r}]"
        if not isinstance(grant, Mapping) or not isinstance(grant.get("team"), str):
            raise ImproperlyConfigured(f"{where} must be an object with a team (its slug) and a role")
        team, role = grant["team"], grant.get("role", "viewer")
        if not _SLUG.match(team):
            raise ImproperlyConfigured(f"{where}: team {team!r} is not a slug")
        if role not in ROLES:
            raise ImproperlyConfigured(f"{where}: role {role!r} is not one of {', '.join(ROLES)}")
        out[str(group).lower()] = TeamGrant(team, role, str(grant.get("name") or ""))
    return out


def trusted_proxies(raw: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``REMOTE_AUTH_TRUSTED_PROXIES``: addresses or networks, comma-separated."""
    nets = []
    for part in (p.strip() for p in raw.split(",")):
        if part:
            try:
                nets.append(ipaddress.ip_network(part, strict=False))
            except ValueError as exc:
                raise ImproperlyConfigured(f"REMOTE_AUTH_TRUSTED_PROXIES: {part!r} is not an address") from exc
    return tuple(nets)


def header_name(value: str, name: str) -> str:
    """A header name as configured (``Remote-User``); empty is off."""
    if value and not _HEADER.match(value):
        raise ImproperlyConfigured(f"{name}: {value!r} is not a header name (letters, digits and -)")
    return value


LDAP_GROUP_TYPES = ("groupOfNames", "groupOfUniqueNames", "posixGroup", "activeDirectory", "nestedActiveDirectory")


def ldap_settings(get: Getter, flag: Callable[[str, bool], bool]) -> dict[str, Any]:
    """The ``AUTH_LDAP_*`` settings of django-auth-ldap, or nothing when ``LDAP_SERVER_URI`` is not set."""
    uri = get("LDAP_SERVER_URI", "")
    if not uri:
        return {}
    if not uri.startswith(("ldap://", "ldaps://")):
        raise ImproperlyConfigured("LDAP_SERVER_URI must start with ldap:// or ldaps://")
    import ldap  # python-ldap, needed only with LDAP configured
    from django_auth_ldap import config

    user_base = get("LDAP_USER_SEARCH_BASE", "")
    if not user_base:
        raise ImproperlyConfigured("LDAP_USER_SEARCH_BASE must be set with LDAP_SERVER_URI")
    kind = get("LDAP_GROUP_TYPE", "groupOfNames")
    if kind not in LDAP_GROUP_TYPES:
        raise ImproperlyConfigured(f"LDAP_GROUP_TYPE must be one of {', '.join(LDAP_GROUP_TYPES)}")
    active_directory = kind.endswith("ctiveDirectory")
    user_filter = get("LDAP_USER_FILTER", "(sAMAccountName=%(user)s)" if active_directory else "(uid=%(user)s)")
    out: dict[str, Any] = {
        "AUTH_LDAP_SERVER_URI": uri,
        "AUTH_LDAP_BIND_DN": get("LDAP_BIND_DN", ""),
        "AUTH_LDAP_BIND_PASSWORD": get("LDAP_BIND_PASSWORD", ""),
        "AUTH_LDAP_START_TLS": flag("LDAP_START_TLS", False),
        "AUTH_LDAP_USER_SEARCH": config.LDAPSearch(user_base, ldap.SCOPE_SUBTREE, user_filter),
        "AUTH_LDAP_USER_ATTR_MAP": {"first_name": "givenName", "last_name": "sn", "email": "mail"},
        "AUTH_LDAP_ALWAYS_UPDATE_USER": True,
        "AUTH_LDAP_CACHE_TIMEOUT": 0,
        "AUTH_LDAP_CONNECTION_OPTIONS": {ldap.OPT_REFERRALS: 0, ldap.OPT_NETWORK_TIMEOUT: 10},
    }
    ca_file = get("LDAP_CA_CERT_FILE", "")
    if ca_file:
        out["AUTH_LDAP_GLOBAL_OPTIONS"] = {ldap.OPT_X_TLS_CACERTFILE: ca_file, ldap.OPT_X_TLS_NEWCTX: 0}
    group_base = get("LDAP_GROUP_SEARCH_BASE", "")
    if group_base:
        types: dict[str, tuple[Any, str]] = {
            "groupOfNames": (config.GroupOfNamesType(), "(objectClass=groupOfNames)"),
            "groupOfUniqueNames": (config.GroupOfUniqueNamesType(), "(objectClass=groupOfUniqueNames)"),
            "posixGroup": (config.PosixGroupType(), "(objectClass=posixGroup)"),
            "activeDirectory": (config.ActiveDirectoryGroupType(), "(objectClass=group)"),
            "nestedActiveDirectory": (config.NestedActiveDirectoryGroupType(), "(objectClass=group)"),
        }
        group_type, group_filter = types[kind]
        out["AUTH_LDAP_GROUP_SEARCH"] = config.LDAPSearch(group_base, ldap.SCOPE_SUBTREE, group_filter)
        out["AUTH_LDAP_GROUP_TYPE"] = group_type
    return out


def _json(raw: str, name: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not valid JSON: {exc}") from exc
