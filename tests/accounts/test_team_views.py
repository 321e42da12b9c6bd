"""Team pages: owners manage members and roles; others read or get nothing."""

import pytest
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts.models import Membership, Role, Team

pytestmark = pytest.mark.django_db


def client_as(user):
    c = Client()
    c.force_login(user)
    return c


def test_team_list_shows_only_my_teams(team, other_team, alice, charlie):
    page = client_as(alice).get("/teams/").content.decode()
    assert "Alpha" in page and "Beta" not in page


def test_it_creates_a_team_and_makes_me_owner(alice):
    r = client_as(alice).post("/teams/new/", {"name": "Storage Ops"})
    assert r.status_code == 302 and r["Location"] == "/teams/storage-ops/"
    assert Team.objects.get(slug="storage-ops").role_of(alice) == Role.OWNER


def test_a_taken_slug_is_refused_with_422_naming_it(team, alice):
    r = client_as(alice).post("/teams/new/", {"name": "Alpha"})
    assert r.status_code == 422
    assert "slug: a team with slug &#x27;alpha&#x27; already exists" in r.content.decode()
    assert Team.objects.filter(slug="alpha").count() == 1


def test_outsider_gets_404(team, charlie):
    assert client_as(charlie).get("/teams/alpha/").status_code == 404
    r = client_as(charlie).post("/teams/alpha/members/", {"action": "add", "username": "charlie", "role": "owner"})
    assert r.status_code == 404
    assert not team.memberships.filter(user=charlie).exists()


def test_owner_adds_a_member(team, alice):
    dave = UserFactory(username="dave")
    r = client_as(alice).post("/teams/alpha/members/", {"action": "add", "username": "dave", "role": "editor"})
    assert r.status_code == 302
    assert team.role_of(dave) == Role.EDITOR


def test_adding_an_unknown_user_names_the_field(team, alice):
    r = client_as(alice).post("/teams/alpha/members/", {"action": "add", "username": "nobody", "role": "viewer"})
    assert r.status_code == 422 and "username: no user is called" in r.content.decode()


def test_editor_cannot_manage_members(team, alice, erin, bob):
    r = client_as(erin).post("/teams/alpha/members/", {"action": "role", "user_id": bob.pk, "role": "owner"})
    assert r.status_code == 403
    assert team.role_of(bob) == Role.VIEWER
    page = client_as(erin).get("/teams/alpha/").content.decode()
    assert 'id="member-add"' not in page and "bob" in page


def test_owner_changes_a_role_and_removes_a_member(team, alice, bob):
    c = client_as(alice)
    assert c.post("/teams/alpha/members/", {"action": "role", "user_id": bob.pk, "role": "editor"}).status_code == 302
    assert team.role_of(bob) == Role.EDITOR
    assert c.post("/teams/alpha/members/", {"action": "remove", "user_id": bob.pk}).status_code == 302
    assert team.role_of(bob) is None


def test_the_last_owner_cannot_step_down(team, alice):
    r = client_as(alice).post("/teams/alpha/members/", {"action": "role", "user_id": alice.pk, "role": "viewer"})
    assert r.status_code == 422 and "a team needs at least one owner" in r.content.decode()
    assert Membership.objects.get(team=team, user=alice).role == Role.OWNER


def test_password_change_page_needs_login(client):
    assert client.get("/accounts/password/").status_code == 302
