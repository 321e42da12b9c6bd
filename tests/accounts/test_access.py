"""Every URL of the accounts area (team pages, profile, invitations, the accounts API and the
django-allauth pages) × every kind of visitor, read from the URL configuration: a URL added
there without an entry in ACCESS fails ``test_every_accounts_url_has_an_entry``.

Visitors: anonymous; charlie, owner of another team (outsider); bob, viewer; erin, editor;
alice, owner of team "alpha". Each cell is one request on fresh data; the expected status is
the whole contract (302 for pages that send an anonymous visitor to the log-in page)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from zfsplanner.accounts import services, tokens

pytestmark = pytest.mark.django_db

VISITORS = ("anonymous", "outsider", "viewer", "editor", "owner")


@dataclass(frozen=True)
class Cell:
    method: str
    path: str  # {team}, {slug}, {invitation}, {key}, {token}, {bob} are filled from the fixtures
    expect: dict[str, int]  # visitor -> status; "*" for every visitor not named
    data: dict[str, Any] = field(default_factory=dict)
    api: bool = False

    def status_for(self, visitor: str) -> int:
        return self.expect.get(visitor, self.expect.get("*", 0))


LOGIN = {"anonymous": 302}
MEMBERS = {"anonymous": 302, "outsider": 404, "*": 200}
OWNERS_PAGE = {"anonymous": 302, "outsider": 404, "viewer": 403, "editor": 403, "owner": 302}
API_MEMBERS = {"anonymous": 403, "outsider": 404, "*": 200}
API_OWNERS = {"anonymous": 403, "outsider": 404, "viewer": 403, "editor": 403}

ACCESS: dict[str, list[Cell]] = {
    # --- team pages and the profile
    "accounts:team-list": [Cell("get", "/teams/", {**LOGIN, "*": 200})],
    "accounts:team-create": [Cell("post", "/teams/new/", {**LOGIN, "*": 302}, {"name": "New"})],
    "accounts:team-detail": [Cell("get", "/teams/{slug}/", MEMBERS)],
    "accounts:member-change": [
        Cell("post", "/teams/{slug}/members/", OWNERS_PAGE, {"action": "role", "user_id": "{bob}", "role": "editor"})
    ],
    "accounts:team-leave": [Cell("post", "/teams/{slug}/leave/", {"anonymous": 302, "outsider": 404, "*": 302})],
    "accounts:invitation-create": [
        Cell("post", "/teams/{slug}/invitations/", OWNERS_PAGE, {"invitee": "x@example.com", "role": "viewer"})
    ],
    "accounts:invitation-revoke": [Cell("post", "/teams/{slug}/invitations/{invitation}/revoke/", OWNERS_PAGE)],
    # The link itself is the credential: whoever holds it sees the invitation.
    "accounts:invitation-accept": [
        Cell("get", "/invitations/{key}/", {"*": 200}),
        Cell("post", "/invitations/{key}/", {"anonymous": 200, "*": 302}),
    ],
    "accounts:profile": [
        Cell("get", "/accounts/profile/", {**LOGIN, "*": 200}),
        Cell("post", "/accounts/profile/", {**LOGIN, "*": 302}, {"display_name": "X"}),
    ],
    "accounts:token-create": [
        Cell("post", "/accounts/profile/tokens/", {**LOGIN, "*": 201}, {"name": "t", "lifetime": "30"})
    ],
    "accounts:token-revoke": [  # alice's token: nobody else finds it
        Cell("post", "/accounts/profile/tokens/{token}/revoke/", {**LOGIN, "owner": 302, "*": 404})
    ],
    # --- the accounts API
    "accounts-api:token-obtain": [
        Cell("post", "/api/auth/token/", {"*": 400}, {"username": "alice", "password": "wrong"}, api=True)
    ],
    "accounts-api:me": [
        Cell("get", "/api/auth/me/", {"anonymous": 403, "*": 200}, api=True),
        Cell("patch", "/api/auth/me/", {"anonymous": 403, "*": 200}, {"display_name": "X"}, api=True),
    ],
    "accounts-api:invitation-accept": [
        Cell("post", "/api/invitations/accept/", {"anonymous": 403, "*": 200}, {"key": "{key}"}, api=True)
    ],
    "accounts-api:team-list": [
        Cell("get", "/api/teams/", {"anonymous": 403, "*": 200}, api=True),
        Cell("post", "/api/teams/", {"anonymous": 403, "*": 201}, {"name": "New"}, api=True),
    ],
    "accounts-api:team-detail": [
        Cell("get", "/api/teams/{team}/", API_MEMBERS, api=True),
        Cell("patch", "/api/teams/{team}/", {**API_OWNERS, "owner": 200}, {"name": "Alpha 2"}, api=True),
        Cell("delete", "/api/teams/{team}/", {**API_OWNERS, "owner": 204}, api=True),
    ],
    "accounts-api:team-members": [
        Cell("get", "/api/teams/{team}/members/", API_MEMBERS, api=True),
        Cell("post", "/api/teams/{team}/members/", {**API_OWNERS, "owner": 202}, {"username": "dave"}, api=True),
    ],
    "accounts-api:team-member": [
        Cell("patch", "/api/teams/{team}/members/{bob}/", {**API_OWNERS, "owner": 200}, {"role": "editor"}, api=True),
        # bob removes himself (leaves); everyone else needs to be owner
        Cell("delete", "/api/teams/{team}/members/{bob}/", {**API_OWNERS, "viewer": 204, "owner": 204}, api=True),
    ],
    "accounts-api:team-invitations": [
        Cell("get", "/api/teams/{team}/invitations/", {**API_OWNERS, "owner": 200}, api=True),
        Cell("post", "/api/teams/{team}/invitations/", {**API_OWNERS, "owner": 201}, {"email": "x@e.com"}, api=True),
    ],
    "accounts-api:team-invitation": [
        Cell("get", "/api/teams/{team}/invitations/{invitation}/", {**API_OWNERS, "owner": 200}, api=True),
        Cell("delete", "/api/teams/{team}/invitations/{invitation}/", {**API_OWNERS, "owner": 204}, api=True),
    ],
    "accounts-api:token-list": [
        Cell("get", "/api/auth/tokens/", {"anonymous": 403, "*": 200}, api=True),
        Cell("post", "/api/auth/tokens/", {"anonymous": 403, "*": 201}, {"name": "t"}, api=True),
    ],
    "accounts-api:token-detail": [
        Cell("get", "/api/auth/tokens/{token}/", {"anonymous": 403, "owner": 200, "*": 404}, api=True),
        Cell("delete", "/api/auth/tokens/{token}/", {"anonymous": 403, "owner": 204, "*": 404}, api=True),
    ],
    # --- django-allauth pages (GET; their forms are tested in test_signup.py)
    "account_login": [Cell("get", "/accounts/login/", {"anonymous": 200, "*": 302})],
    "account_logout": [Cell("get", "/accounts/logout/", {"anonymous": 302, "*": 200})],
    "account_signup": [Cell("get", "/accounts/signup/", {"anonymous": 200, "*": 302})],
    "account_inactive": [Cell("get", "/accounts/inactive/", {"*": 200})],
    "account_reauthenticate": [Cell("get", "/accounts/reauthenticate/", {**LOGIN, "*": 200})],
    "account_email": [Cell("get", "/accounts/email/", {**LOGIN, "*": 200})],
    "account_email_verification_sent": [Cell("get", "/accounts/confirm-email/", {"*": 200})],
    "account_confirm_email": [Cell("get", "/accounts/confirm-email/not-a-key/", {"*": 200})],
    "account_change_password": [Cell("get", "/accounts/password/change/", {**LOGIN, "*": 200})],
    "account_set_password": [Cell("get", "/accounts/password/set/", {"*": 302})],
    "account_reset_password": [Cell("get", "/accounts/password/reset/", {"*": 200})],
    "account_reset_password_done": [Cell("get", "/accounts/password/reset/done/", {"*": 200})],
    "account_reset_password_from_key": [Cell("get", "/accounts/password/reset/key/1-not-a-key/", {"*": 200})],
    "account_reset_password_from_key_done": [Cell("get", "/accounts/password/reset/key/done/", {"*": 200})],
    "account_confirm_login_code": [Cell("get", "/accounts/login/code/confirm/", {"*": 302})],  # no code pending
    # --- log-in with an identity provider (none configured here: its URLs are 404)
    "socialaccount_login_cancelled": [Cell("get", "/accounts/3rdparty/login/cancelled/", {"*": 200})],
    "socialaccount_login_error": [Cell("get", "/accounts/3rdparty/login/error/", {"*": 401})],
    "socialaccount_signup": [Cell("get", "/accounts/3rdparty/signup/", {"*": 302})],  # no provider log-in pending
    "socialaccount_connections": [Cell("get", "/accounts/3rdparty/", {**LOGIN, "*": 200})],
    "openid_connect_login": [Cell("post", "/accounts/oidc/corp/login/", {"*": 404})],
    "openid_connect_callback": [Cell("get", "/accounts/oidc/corp/login/callback/", {"*": 404})],
}


def _walk(patterns, namespace=None):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern):
            yield namespace, p


def accounts_url_names() -> set[str]:
    names = set()
    for namespace, pattern in _walk(get_resolver().url_patterns):
        if namespace in ("accounts", "accounts-api"):
            names.add(f"{namespace}:{pattern.name}")
        elif pattern.callback.__module__.startswith(("allauth.", "zfsplanner.accounts.")):  # sign-up wraps allauth's
            names.add(pattern.name)
    return names


def test_every_accounts_url_has_an_entry():
    assert accounts_url_names() == set(ACCESS)


CELLS = [
    pytest.param(name, i, visitor, id=f"{name}-{ACCESS[name][i].method}-{visitor}")
    for name in ACCESS
    for i in range(len(ACCESS[name]))
    for visitor in VISITORS
]


@pytest.mark.parametrize(("name", "index", "visitor"), CELLS)
def test_access(name, index, visitor, team, alice, erin, bob, charlie, request):
    cell = ACCESS[name][index]
    user = {"outsider": charlie, "viewer": bob, "editor": erin, "owner": alice}.get(visitor)
    new = services.invite(team, alice, "dana@example.com", "viewer")
    token, _ = tokens.issue_token(alice, "alice's", None)
    values = {"team": team.pk, "slug": team.slug, "invitation": new.invitation.pk, "key": new.key,
              "token": token.pk, "bob": bob.pk}
    path = cell.path.format(**values)
    data = {k: str(v).format(**values) for k, v in cell.data.items()}
    client = APIClient() if cell.api else Client()
    if user is not None:
        client.force_login(user)
    kwargs = {"format": "json"} if cell.api else {}
    response = getattr(client, cell.method)(path, data, **kwargs)
    assert response.status_code == cell.status_for(visitor), (cell.method, path, visitor)


PAGES = [
    (name, cell)
    for name, cells in ACCESS.items()
    for cell in cells
    if cell.method == "get" and not cell.api and 200 in cell.expect.values()
]


@pytest.mark.parametrize(("name", "cell"), PAGES, ids=[name for name, _ in PAGES])
def test_pages_use_the_site_layout_without_inline_style_or_script(name, cell, team, alice):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    visitor = next(v for v in ("owner", "anonymous") if cell.status_for(v) == 200)
    client = Client()
    if visitor == "owner":
        client.force_login(alice)
    html = client.get(cell.path.format(key=new.key, slug=team.slug)).content.decode()
    assert 'class="topbar"' in html and "<h1" in html
    assert " style=" not in html
    assert not [s for s in re.findall(r"<script[^>]*>", html) if "src=" not in s]
