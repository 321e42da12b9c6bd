"""Log-in with LDAP against a real OpenLDAP server; directory groups become team roles."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts import sso_config
from zfsplanner.accounts.models import Membership, Role

from .ldap_server import ADMIN_DN, ADMIN_PASSWORD, SUFFIX, available, ldap_server

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not available(), reason="slapd is not installed (apt-get install slapd ldap-utils)"),
]
STORAGE = f"cn=storage-admins,ou=groups,{SUFFIX}"
STAFF = f"cn=staff,ou=groups,{SUFFIX}"


@pytest.fixture(scope="module")
def directory(tmp_path_factory):
    with ldap_server(tmp_path_factory.mktemp("slapd")) as uri:
        yield uri


@pytest.fixture
def ldap_on(settings, directory):
    env = {
        "LDAP_SERVER_URI": directory,
        "LDAP_BIND_DN": ADMIN_DN,
        "LDAP_BIND_PASSWORD": ADMIN_PASSWORD,
        "LDAP_USER_SEARCH_BASE": f"ou=people,{SUFFIX}",
        "LDAP_GROUP_SEARCH_BASE": f"ou=groups,{SUFFIX}",
    }
    for name, value in sso_config.ldap_settings(lambda k, d: env.get(k, d), lambda k, d: d).items():
        setattr(settings, name, value)
    settings.AUTHENTICATION_BACKENDS = ["django_auth_ldap.backend.LDAPBackend", *settings.AUTHENTICATION_BACKENDS]
    # Upper case as Active Directory writes DNs: groups compare without case.
    mapping = {STORAGE.upper(): {"team": "storage", "role": "owner"}, STAFF: {"team": "staff", "role": "viewer"}}
    settings.SSO_GROUP_TEAMS = sso_config.group_teams(json.dumps(mapping))
    return settings


def log_in(client: Client, login: str, password: str):
    return client.post("/accounts/login/", {"login": login, "password": password})


def test_a_directory_user_logs_in_with_the_directory_password_and_gets_the_groups_teams(ldap_on):
    client = Client()
    r = log_in(client, "dana", "dana-directory-pass")
    assert r.status_code == 302, r.content.decode()[:2000]
    dana = get_user_model().objects.get(username="dana")
    assert (dana.email, dana.first_name, dana.last_name) == ("dana@example.org", "Dana", "Scully")
    held = {m.team.slug: (m.role, m.source) for m in Membership.objects.filter(user=dana)}
    assert held["storage"] == (Role.OWNER, "ldap") and held["staff"] == (Role.VIEWER, "ldap")
    assert "from LDAP" in client.get("/teams/storage/").content.decode()


def test_a_wrong_directory_password_is_refused(ldap_on):
    r = log_in(Client(), "fox", "not-the-password")
    assert r.status_code == 200 and 'class="error" role="alert"' in r.content.decode()
    assert not get_user_model().objects.filter(username="fox").exists()


def test_leaving_a_directory_group_removes_the_team_at_the_next_log_in(ldap_on):
    import ldap

    log_in(Client(), "fox", "fox-directory-pass")
    fox = get_user_model().objects.get(username="fox")
    assert set(Membership.objects.filter(user=fox).values_list("team__slug", flat=True)) == {"staff"}
    conn = ldap.initialize(ldap_on.AUTH_LDAP_SERVER_URI)
    conn.simple_bind_s(ADMIN_DN, ADMIN_PASSWORD)
    member = f"uid=fox,ou=people,{SUFFIX}".encode()
    conn.modify_s(STAFF, [(ldap.MOD_DELETE, "member", [member])])
    try:
        log_in(Client(), "fox", "fox-directory-pass")
        assert not Membership.objects.filter(user=fox).exists()
    finally:
        conn.modify_s(STAFF, [(ldap.MOD_ADD, "member", [member])])
        conn.unbind_s()


def test_local_accounts_keep_logging_in_beside_the_directory(ldap_on):
    UserFactory(username="local")
    assert log_in(Client(), "local", "pw-for-tests-1").status_code == 302
