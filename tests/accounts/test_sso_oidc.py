"""Log-in with OpenID Connect against a real provider process (the code flow with PKCE)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts import sso_config
from zfsplanner.accounts.models import Membership, Role

from .oidc_server import authorize, oidc_provider, set_user, use_provider

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def issuer():
    with oidc_provider() as url:
        yield url


@pytest.fixture
def corp(settings, issuer):
    use_provider(settings, issuer)
    return issuer


def log_in_with_provider(client: Client, sub: str) -> object:
    page = client.get("/accounts/login/").content.decode()
    assert "Log in with Corp SSO" in page
    start = client.post("/accounts/oidc/corp/login/")
    assert start.status_code == 302, start.content[:300]
    back = urlsplit(authorize(start["Location"], sub))
    return client.get(f"{back.path}?{back.query}")


def test_the_code_flow_logs_in_makes_the_account_and_gives_the_groups_teams(corp):
    set_user(corp, "dana-1", email="dana@example.com", email_verified=True, preferred_username="dana",
             groups=["storage-admins", "unmapped"])
    client = Client()
    done = log_in_with_provider(client, "dana-1")
    assert done.status_code == 302, done.content[:500]
    user = client.get("/teams/").wsgi_request.user
    assert user.is_authenticated and user.email == "dana@example.com"
    m = Membership.objects.get(user=user, team__slug="storage")
    assert (m.role, m.source) == (Role.EDITOR, "oidc:corp")
    assert "from Corp SSO" in client.get("/teams/storage/").content.decode()


def test_a_group_removed_at_the_provider_removes_the_team_at_the_next_log_in(corp):
    set_user(corp, "erik-1", email="erik@example.com", email_verified=True, groups=["storage-admins"])
    log_in_with_provider(Client(), "erik-1")
    user = get_user_model().objects.get(email="erik@example.com")
    assert Membership.objects.filter(user=user, team__slug="storage").exists()
    set_user(corp, "erik-1", email="erik@example.com", email_verified=True, groups=[])
    log_in_with_provider(Client(), "erik-1")
    assert not Membership.objects.filter(user=user, team__slug="storage").exists()


def test_a_verified_address_links_the_existing_local_account(corp):
    local = UserFactory(username="frida", email="frida@example.com")
    set_user(corp, "frida-1", email="frida@example.com", email_verified=True)
    client = Client()
    log_in_with_provider(client, "frida-1")
    assert client.get("/teams/").wsgi_request.user.pk == local.pk


def test_an_unverified_address_does_not_take_over_a_local_account(corp, mailoutbox):
    local = UserFactory(username="gus", email="gus@example.com")
    set_user(corp, "mallory-1", email="gus@example.com", email_verified=False)
    client = Client()
    done = log_in_with_provider(client, "mallory-1")
    # not logged in as gus, and asked for an address of one's own; gus gets no e-mail
    assert done.status_code == 302 and done["Location"] == "/accounts/3rdparty/signup/"
    assert not client.get("/teams/").wsgi_request.user.is_authenticated
    assert mailoutbox == []
    local.refresh_from_db()
    assert local.has_usable_password()
    assert get_user_model().objects.filter(email__iexact="gus@example.com").count() == 1


def test_without_a_provider_the_button_is_gone(settings):
    settings.OIDC_PROVIDERS = []
    settings.SOCIALACCOUNT_PROVIDERS = sso_config.socialaccount_providers([], "openid")
    page = Client().get("/accounts/login/").content.decode()
    assert "Log in with" not in page and 'id="sso-providers"' not in page
    assert Client().post("/accounts/oidc/corp/login/").status_code == 404


def test_with_local_sign_up_closed_provider_users_still_get_an_account(corp, settings):
    settings.SIGNUP_MODE = "closed"
    set_user(corp, "hana-1", email="hana@example.com", email_verified=True, preferred_username="hana")
    client = Client()
    page = client.get("/accounts/login/").content.decode()
    assert "Sign up" not in page and "Log in with Corp SSO" in page
    log_in_with_provider(client, "hana-1")
    assert client.get("/teams/").wsgi_request.user.email == "hana@example.com"
    assert Client().get("/accounts/signup/").status_code == 200  # the page says sign-up is closed
    assert "closed" in Client().get("/accounts/signup/").content.decode().lower()
