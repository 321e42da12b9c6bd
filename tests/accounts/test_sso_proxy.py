"""Log-in by a trusted authenticating proxy's header, and provider groups that become team roles."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import MembershipFactory, TeamFactory, UserFactory
from zfsplanner.accounts import sso_config
from zfsplanner.accounts.models import Membership, Role

pytestmark = pytest.mark.django_db

HEADERS = {
    "HTTP_REMOTE_USER": "dana", "HTTP_REMOTE_GROUPS": "storage-admins,staff", "HTTP_REMOTE_EMAIL": "dana@example.com",
}


@pytest.fixture
def proxy_on(settings):
    settings.REMOTE_AUTH_HEADER = "Remote-User"
    settings.REMOTE_AUTH_GROUPS_HEADER = "Remote-Groups"
    settings.REMOTE_AUTH_EMAIL_HEADER = "Remote-Email"
    settings.REMOTE_AUTH_TRUSTED_PROXIES = sso_config.trusted_proxies("127.0.0.1, 10.0.0.0/8")
    settings.SSO_GROUP_TEAMS = sso_config.group_teams(
        '{"storage-admins": {"team": "storage", "role": "editor", "name": "Storage"},'
        ' "staff": {"team": "alpha", "role": "viewer"}}'
    )
    return settings


def whoami(client, **headers):
    r = client.get("/accounts/profile/", **headers)
    return r.wsgi_request.user.get_username() if r.wsgi_request.user.is_authenticated else None


def test_the_header_is_ignored_when_the_setting_is_off(web):
    assert whoami(web(), **HEADERS) is None
    assert not get_user_model().objects.filter(username="dana").exists()


def test_the_header_is_ignored_from_an_address_that_is_not_a_trusted_proxy(web, proxy_on):
    assert whoami(web(), REMOTE_ADDR="192.0.2.7", **HEADERS) is None
    assert not get_user_model().objects.filter(username="dana").exists()


def test_a_trusted_proxy_logs_the_user_in_and_groups_give_teams(web, proxy_on, team):
    client = web()
    assert whoami(client, REMOTE_ADDR="10.1.2.3", **HEADERS) == "dana"
    dana = get_user_model().objects.get(username="dana")
    assert dana.email == "dana@example.com" and not dana.has_usable_password()
    held = {m.team.slug: (m.role, m.source) for m in Membership.objects.filter(user=dana)}
    assert held["storage"] == (Role.EDITOR, "proxy") and held["alpha"] == (Role.VIEWER, "proxy")
    page = client.get("/teams/storage/", REMOTE_ADDR="10.1.2.3", **HEADERS).content.decode()
    assert "from the sign-in proxy" in page
    assert "to leave, leave that group" in page and "Leave Storage</button>" not in page


def test_a_group_taken_away_removes_its_team_at_the_next_log_in_and_local_memberships_stay(web, proxy_on, team):
    dana = UserFactory(username="dana")
    local = MembershipFactory(team=TeamFactory(slug="beta", name="Beta"), user=dana, role=Role.OWNER)
    whoami(web(), **HEADERS)
    slugs = set(Membership.objects.filter(user=dana).values_list("team__slug", flat=True))
    assert slugs == {"alpha", "beta", "storage"}
    # a new log-in (another browser) without the storage-admins group
    whoami(web(), **{**HEADERS, "HTTP_REMOTE_GROUPS": "staff"})
    assert set(Membership.objects.filter(user=dana).values_list("team__slug", flat=True)) == {"alpha", "beta"}
    local.refresh_from_db()
    assert local.role == Role.OWNER and local.source == ""


def test_a_local_membership_of_a_mapped_team_is_left_as_it_is(web, proxy_on, team):
    dana = UserFactory(username="dana")
    MembershipFactory(team=team, user=dana, role=Role.OWNER)  # alpha, given in the app
    whoami(web(), **HEADERS)  # staff -> alpha viewer
    m = Membership.objects.get(user=dana, team=team)
    assert (m.role, m.source) == (Role.OWNER, "")


def test_the_highest_role_wins_when_two_groups_name_one_team(web, proxy_on, settings):
    settings.SSO_GROUP_TEAMS = sso_config.group_teams(
        '{"a": {"team": "storage", "role": "viewer"}, "b": {"team": "storage", "role": "owner"}}'
    )
    whoami(web(), **{**HEADERS, "HTTP_REMOTE_GROUPS": "a|b"})
    assert Membership.objects.get(user__username="dana", team__slug="storage").role == Role.OWNER


def test_an_owner_cannot_change_a_membership_the_provider_gives(web, proxy_on, alice, team):
    whoami(web(), **HEADERS)
    dana = get_user_model().objects.get(username="dana")
    r = web(alice).post(f"/teams/{team.slug}/members/", {"action": "role", "user_id": dana.pk, "role": "owner"})
    assert r.status_code == 422
    assert "comes from a group at the sign-in proxy: change it there" in r.content.decode()
    assert Membership.objects.get(user=dana, team=team).role == Role.VIEWER


def test_no_account_is_made_when_provider_accounts_are_not_created(web, proxy_on, settings):
    settings.SSO_CREATE_ACCOUNTS = False
    assert whoami(web(), **HEADERS) is None
    assert not get_user_model().objects.filter(username="dana").exists()


def test_an_account_made_by_the_proxy_makes_an_api_token_that_works(web, proxy_on, api_client):
    client = web()
    whoami(client, **HEADERS)
    r = client.post("/accounts/profile/tokens/", {"name": "scripts", "lifetime": "90"}, **HEADERS)
    assert r.status_code == 201
    key = r.context["new_key"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    teams = api_client.get("/api/teams/").json()
    assert {t["slug"] for t in teams["results"]} >= {"storage"}


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("not json", "SSO_GROUP_TEAMS is not valid JSON"),
        ('{"g": {"team": "x y"}}', "is not a slug"),
        ('{"g": {"team": "x", "role": "admin"}}', "role 'admin' is not one of viewer, editor, owner"),
    ],
)
def test_a_bad_mapping_is_refused_at_start_up(raw, words):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match=words):
        sso_config.group_teams(raw)
