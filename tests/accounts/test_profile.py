"""The profile page: display name, email, API tokens (create, revoke), teams and leaving one."""

import re

import pytest
from django.test import Client

from zfsplanner.accounts import tokens
from zfsplanner.accounts.models import ApiToken, Role

pytestmark = pytest.mark.django_db


def client_as(user):
    c = Client()
    c.force_login(user)
    return c


def test_the_profile_shows_name_email_tokens_and_teams(team, alice):
    tokens.issue_token(alice, "backup host", 30)
    page = client_as(alice).get("/accounts/profile/").content.decode()
    assert "alice@example.com" in page and 'data-token="backup host"' in page
    assert 'data-team="alpha"' in page and "Last owner" in page
    assert 'href="/accounts/email/"' in page and 'href="/accounts/password/change/"' in page


def test_it_saves_the_display_name_shown_in_the_top_bar(alice):
    c = client_as(alice)
    assert c.post("/accounts/profile/", {"display_name": "  Alice Liddell "}).status_code == 302
    alice.refresh_from_db()
    assert alice.first_name == "Alice Liddell"
    assert 'class="who"' in (page := c.get("/").content.decode()) and "Alice Liddell" in page


def test_a_display_name_with_control_characters_is_refused(alice):
    r = client_as(alice).post("/accounts/profile/", {"display_name": "a\x07b"})
    assert r.status_code == 422 and "control characters" in r.content.decode()


def test_a_new_token_is_shown_once_and_works(alice, api_client):
    c = client_as(alice)
    r = c.post("/accounts/profile/tokens/", {"name": "CI", "lifetime": "30"})
    assert r.status_code == 201
    key = re.search(r'id="new-token-key" readonly value="([^"]+)"|readonly value="([^"]+)" id="new-token-key"',
                    r.content.decode())
    key = next(g for g in key.groups() if g)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api_client.get("/api/teams/").status_code == 200
    assert key not in c.get("/accounts/profile/").content.decode()
    assert ApiToken.objects.get().expires is not None


def test_a_token_that_never_expires(alice):
    client_as(alice).post("/accounts/profile/tokens/", {"name": "forever", "lifetime": "never"})
    assert ApiToken.objects.get().expires is None


def test_a_token_needs_a_name(alice):
    r = client_as(alice).post("/accounts/profile/tokens/", {"name": "", "lifetime": "30"})
    assert r.status_code == 422 and not ApiToken.objects.exists()


def test_revoking_a_token_from_the_profile(alice, charlie):
    mine, _ = tokens.issue_token(alice, "a", None)
    theirs, _ = tokens.issue_token(charlie, "b", None)
    c = client_as(alice)
    assert c.post(f"/accounts/profile/tokens/{mine.pk}/revoke/").status_code == 302
    assert c.post(f"/accounts/profile/tokens/{theirs.pk}/revoke/").status_code == 404
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.state, theirs.state) == ("revoked", "active")
    assert "Expired and revoked tokens" in c.get("/accounts/profile/").content.decode()


def test_leaving_a_team_from_the_profile(team, alice, bob):
    r = client_as(bob).post("/teams/alpha/leave/", {"from": "profile"})
    assert r.status_code == 302 and r["Location"] == "/accounts/profile/"
    assert team.role_of(bob) is None


def test_the_last_owner_is_told_why_they_cannot_leave(team, alice):
    r = client_as(alice).post("/teams/alpha/leave/", {"from": "profile"}, follow=True)
    assert "a team needs at least one owner" in r.content.decode()
    assert team.role_of(alice) == Role.OWNER
