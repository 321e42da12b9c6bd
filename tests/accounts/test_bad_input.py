"""Malformed input to the accounts pages and API is refused with a 4xx naming the field, never a 500."""

import pytest
from django.test import Client

from zfsplanner.accounts.models import ApiToken, Invitation

pytestmark = pytest.mark.django_db

NASTY = ["\x00", "a\x00b", "x" * 5000, "🙂" * 300, "' OR 1=1 --", "<script>alert(1)</script>"]


def client_as(user):
    c = Client(raise_request_exception=True)
    c.force_login(user)
    return c


@pytest.mark.parametrize("value", NASTY)
def test_pages_refuse_bad_input(value, team, alice, bob):
    c = client_as(alice)
    assert c.post("/teams/new/", {"name": value}).status_code in (302, 422)
    assert c.post("/teams/alpha/invitations/", {"invitee": value, "role": value}).status_code == 422
    assert c.post("/teams/alpha/members/", {"action": "role", "user_id": value, "role": "x"}).status_code == 404
    assert c.post("/teams/alpha/members/", {"action": value, "user_id": bob.pk}).status_code == 422
    assert c.post("/accounts/profile/", {"display_name": value}).status_code in (302, 422)
    assert c.post("/accounts/profile/tokens/", {"name": value, "lifetime": value}).status_code == 422
    assert c.get(f"/invitations/{value}/").status_code in (400, 404)  # 400: NUL in the URL
    anonymous = Client(raise_request_exception=True)
    assert anonymous.post("/accounts/login/", {"login": value, "password": value}).status_code == 200
    assert anonymous.post("/accounts/signup/", {"email": value, "username": value}).status_code == 200
    assert anonymous.post("/accounts/password/reset/", {"email": value}).status_code == 200
    assert not Invitation.objects.exists() and not ApiToken.objects.exists()
    assert "<script>alert(1)</script>" not in c.get("/teams/").content.decode()


@pytest.mark.parametrize("value", NASTY)
def test_the_api_refuses_bad_input(value, team, alice, client_for, api_client):
    c = client_for(alice)
    assert c.post("/api/teams/", {"name": value}, format="json").status_code in (201, 400)  # some are fine names
    for path, body in [
        (f"/api/teams/{team.pk}/members/", {"username": value, "role": value}),
        (f"/api/teams/{team.pk}/invitations/", {"email": value}),
        (f"/api/teams/{team.pk}/invitations/", {"username": value, "expires_in_days": value}),
        ("/api/invitations/accept/", {"key": value}),
        ("/api/auth/tokens/", {"name": value, "expires_in_days": value}),
    ]:
        assert c.post(path, body, format="json").status_code in (400, 404), (path, body)
    assert c.patch("/api/auth/me/", {"display_name": value}, format="json").status_code in (200, 400)
    assert api_client.post("/api/auth/token/", {"username": value, "password": value}).status_code == 400
    if value.isascii():  # HTTP headers carry Latin-1 only
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {value}")
        assert api_client.get("/api/teams/").status_code in (401, 403)
    assert not Invitation.objects.exists() and not ApiToken.objects.exists()
