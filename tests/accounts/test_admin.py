"""Staff see and revoke invitations and API tokens in the admin; nobody makes one there."""

import pytest
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts import services, tokens
from zfsplanner.accounts.models import ApiToken, Invitation

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client():
    c = Client()
    c.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return c


def test_staff_list_and_revoke_invitations(team, alice, staff_client):
    inv = services.invite(team, alice, "dana@example.com", "viewer").invitation
    assert "dana@example.com" in staff_client.get("/admin/accounts/invitation/").content.decode()
    assert staff_client.get("/admin/accounts/invitation/add/").status_code == 403
    r = staff_client.post("/admin/accounts/invitation/", {"action": "revoke", "_selected_action": [inv.pk]})
    assert r.status_code == 302 and Invitation.objects.get().state == "revoked"


def test_staff_list_and_revoke_tokens(alice, staff_client):
    token, key = tokens.issue_token(alice, "ci", None)
    page = staff_client.get("/admin/accounts/apitoken/").content.decode()
    assert token.prefix in page and key not in page
    assert staff_client.get("/admin/accounts/apitoken/add/").status_code == 403
    staff_client.post("/admin/accounts/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    assert ApiToken.objects.get().revoked_reason == "by_admin"


def test_a_user_added_in_the_admin_gets_a_team_of_their_own(staff_client):
    from django.contrib.auth import get_user_model

    from zfsplanner.accounts.models import Team

    pw = "Quiet-Harbor-71"
    r = staff_client.post(
        "/admin/auth/user/add/",
        {"username": "frank", "password1": pw, "password2": pw, "usable_password": "true"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    frank = get_user_model().objects.get(username="frank")
    assert [t.name for t in Team.objects.for_user(frank)] == ["frank's designs"]
    assert Team.objects.get(personal_for=frank).role_of(frank) == "owner"
