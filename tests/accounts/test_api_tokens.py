"""API tokens: obtained with a password (throttled), named, expiring, revocable, revoked by a
password change; failed log-ins are limited with a clear message."""

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.test import Client
from django.utils import timezone

from tests.factories import UserFactory
from zfsplanner.accounts import tokens
from zfsplanner.accounts.models import ApiToken, RevokeReason, key_digest

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-1"


REFUSED = {"detail": "Invalid, expired or revoked token."}


def refused(response):
    """DRF answers 403 (not 401) because session authentication comes first in the settings."""
    return response.status_code in (401, 403) and response.json() == REFUSED


def authed(api_client, key):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api_client


def test_the_token_endpoint_gives_a_named_expiring_token_that_works(alice, api_client):
    r = api_client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    assert r.status_code == 200
    body = r.json()
    assert body["name"] == "api/auth/token" and body["state"] == "active"
    token = ApiToken.objects.get(pk=body["id"])
    assert timedelta(days=89) < token.expires - timezone.now() <= timedelta(days=90)
    assert authed(api_client, body["token"]).get("/api/teams/").status_code == 200
    assert token.key_digest == key_digest(body["token"]) and body["token"] not in token.key_digest


def test_the_token_endpoint_accepts_the_email_address_a_name_and_a_lifetime(alice, api_client):
    body = {"username": "alice@example.com", "password": PASSWORD, "name": "backup host", "expires_in_days": None}
    r = api_client.post("/api/auth/token/", body, format="json")
    assert r.status_code == 200 and r.json()["name"] == "backup host" and r.json()["expires"] is None


def test_wrong_password_and_unknown_user_get_the_same_answer(alice, api_client):
    wrong = api_client.post("/api/auth/token/", {"username": "alice", "password": "nope"})
    unknown = api_client.post("/api/auth/token/", {"username": "nobody", "password": "nope"})
    assert wrong.status_code == unknown.status_code == 400
    assert wrong.json() == unknown.json() == {"non_field_errors": ["Unable to log in with provided credentials."]}


def test_the_token_endpoint_is_throttled_with_retry_after(api_client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"auth-token": "3/minute"}}
    for _ in range(3):
        assert api_client.post("/api/auth/token/", {}).status_code == 400
    r = api_client.post("/api/auth/token/", {})
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 60


def test_failed_attempts_block_the_account_name_with_a_clear_message(alice, api_client):
    for _ in range(5):
        assert api_client.post("/api/auth/token/", {"username": "alice", "password": "guess"}).status_code == 400
    r = api_client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    assert r.status_code == 429 and r["Retry-After"] == "300"
    assert r.json()["detail"].startswith("Too many failed login attempts. Try again later.")
    page = Client().post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert page.status_code == 200 and "Too many failed login attempts. Try again later." in page.content.decode()
    assert "_auth_user_id" not in page.wsgi_request.session


def test_the_login_page_limits_failed_attempts_too(alice):
    c = Client()
    for _ in range(5):
        r = c.post("/accounts/login/", {"login": "alice", "password": "guess"})
        assert "The username and/or password you specified are not correct." in r.content.decode()
    r = c.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in r.content.decode()


def test_an_unverified_account_gets_no_token_when_verification_is_mandatory(api_client):
    from allauth.account.models import EmailAddress

    user = UserFactory(username="fresh")
    EmailAddress.objects.filter(user=user).update(verified=False)
    r = api_client.post("/api/auth/token/", {"username": "fresh", "password": PASSWORD})
    assert r.status_code == 400 and "Verify your email address" in r.json()["non_field_errors"][0]


def test_an_expired_token_is_refused(alice, api_client):
    token, key = tokens.issue_token(alice, "old", 1)
    ApiToken.objects.filter(pk=token.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert refused(authed(api_client, key).get("/api/teams/"))


def test_a_revoked_token_is_refused(alice, api_client, client_for):
    token, key = tokens.issue_token(alice, "ci", 30)
    assert client_for(alice).delete(f"/api/auth/tokens/{token.pk}/").status_code == 204
    assert refused(authed(api_client, key).get("/api/teams/"))
    token.refresh_from_db()
    assert token.state == "revoked" and token.revoked_reason == RevokeReason.BY_USER


def test_a_password_change_revokes_every_token(alice, api_client):
    keys = [tokens.issue_token(alice, name, None)[1] for name in ("a", "b")]
    alice.set_password("a-new-Password-2")
    alice.save()
    for key in keys:
        assert refused(authed(api_client, key).get("/api/teams/"))
    assert set(ApiToken.objects.values_list("revoked_reason", flat=True)) == {RevokeReason.PASSWORD_CHANGED}


def test_the_password_change_page_revokes_tokens_and_keeps_the_session(alice, api_client):
    _, key = tokens.issue_token(alice, "a", None)
    c = Client()
    c.force_login(alice)
    r = c.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "Brand-New-Pass-9", "password2": "Brand-New-Pass-9"},
    )
    assert r.status_code == 302
    assert refused(authed(api_client, key).get("/api/teams/"))
    assert c.get("/accounts/profile/").status_code == 200


def test_a_rehash_on_login_is_not_a_password_change(api_client):
    user = UserFactory(username="legacy")
    user.password = make_password(PASSWORD, hasher="pbkdf2_sha1")
    user.save()
    _, key = tokens.issue_token(user, "a", None)
    assert Client().post("/accounts/login/", {"login": "legacy", "password": PASSWORD}).status_code == 302
    user.refresh_from_db()
    assert not user.password.startswith("pbkdf2_sha1$")  # Django upgraded the hash ...
    assert authed(api_client, key).get("/api/teams/").status_code == 200  # ... and the token still works


def test_users_list_create_and_revoke_only_their_own_tokens(alice, charlie, client_for):
    theirs, _ = tokens.issue_token(charlie, "theirs", None)
    c = client_for(alice)
    r = c.post("/api/auth/tokens/", {"name": "CI", "expires_in_days": 7}, format="json")
    assert r.status_code == 201 and len(r.json()["token"]) >= 40 and r.json()["prefix"] == r.json()["token"][:8]
    listed = c.get("/api/auth/tokens/").json()
    assert [t["name"] for t in listed["results"]] == ["CI"] and "token" not in listed["results"][0]
    assert c.get(f"/api/auth/tokens/{theirs.pk}/").status_code == 404
    assert c.delete(f"/api/auth/tokens/{theirs.pk}/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.state == "active"


def test_token_requests_are_checked(alice, client_for):
    c = client_for(alice)
    assert c.post("/api/auth/tokens/", {"name": "", "expires_in_days": 7}, format="json").json().keys() == {"name"}
    r = c.post("/api/auth/tokens/", {"name": "x", "expires_in_days": 0}, format="json")
    assert r.status_code == 400 and "expires_in_days" in r.json()
    r = c.post("/api/auth/tokens/", {"name": "x\x01"}, format="json")
    assert r.status_code == 400 and r.json() == {"name": "must not contain control characters"}
    assert not ApiToken.objects.exists()


def test_the_default_lifetime_is_api_token_days(alice, client_for, settings):
    settings.API_TOKEN_DAYS = 10
    r = client_for(alice).post("/api/auth/tokens/", {"name": "x"}, format="json")
    expires = ApiToken.objects.get(pk=r.json()["id"]).expires
    assert timedelta(days=9) < expires - timezone.now() <= timedelta(days=10)


def test_last_used_is_recorded(alice, api_client):
    token, key = tokens.issue_token(alice, "a", None)
    authed(api_client, key).get("/api/teams/")
    token.refresh_from_db()
    assert token.last_used is not None and timezone.now() - token.last_used < timedelta(minutes=1)


def test_profile_api_shows_and_changes_the_display_name(alice, client_for):
    c = client_for(alice)
    assert c.get("/api/auth/me/").json() == {
        "id": alice.pk, "username": "alice", "display_name": "", "email": "alice@example.com"
    }
    r = c.patch("/api/auth/me/", {"display_name": " Alice A. ", "username": "root", "email": "x@y.z"}, format="json")
    assert r.status_code == 200 and r.json()["display_name"] == "Alice A."
    alice.refresh_from_db()
    assert (alice.first_name, alice.username, alice.email) == ("Alice A.", "alice", "alice@example.com")


def test_old_single_tokens_carry_over_as_named_tokens(alice):
    migration = importlib.import_module("zfsplanner.accounts.migrations.0003_existing_tokens_and_emails")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp, user_id integer)")
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)", ["a" * 40, timezone.now().replace(tzinfo=None), alice.pk]
        )
    try:
        migration.forward(apps, SimpleNamespace(connection=connection))  # it needs only the schema editor's connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM authtoken_token")
            assert cursor.fetchone()[0] == 0
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE authtoken_token")
    token = tokens.token_for_key("a" * 40)
    assert token is not None and token.user == alice and token.expires is None
