"""Team pages: owners invite and manage members and roles; members leave; others get nothing."""

import pytest
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts.models import Invitation, Membership, Role, Team

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
    team = Team.objects.get(name="Storage Ops")
    assert r.status_code == 302 and r["Location"] == f"/teams/{team.slug}/"
    assert team.slug.startswith("storage-ops-")
    assert team.role_of(alice) == Role.OWNER


def test_a_team_named_like_another_gets_its_own_slug_and_no_hint(team, charlie):
    r = client_as(charlie).post("/teams/new/", {"name": "Alpha"})
    assert r.status_code == 302
    mine = Team.objects.get(memberships__user=charlie, name="Alpha")
    assert mine.slug != "alpha" and mine.slug.startswith("alpha-")
    assert "already" not in client_as(charlie).get(r["Location"]).content.decode()


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "name: is required"), ("!!!", "name: needs at least one letter or digit"), ("x" * 101, "name: at most 100")],
)
def test_a_bad_team_name_is_refused_with_422_naming_the_field(alice, name, message):
    r = client_as(alice).post("/teams/new/", {"name": name})
    assert r.status_code == 422 and message in r.content.decode()
    assert not Team.objects.filter(memberships__user=alice).exclude(slug="alpha").exists()


def test_outsider_gets_404(team, alice, charlie):
    c = client_as(charlie)
    assert c.get("/teams/alpha/").status_code == 404
    assert c.post("/teams/alpha/invitations/", {"invitee": "charlie", "role": "owner"}).status_code == 404
    assert c.post("/teams/alpha/members/", {"action": "remove", "user_id": alice.pk}).status_code == 404
    assert not team.memberships.filter(user=charlie).exists() and not Invitation.objects.exists()


def test_editor_cannot_manage_members_nor_see_invitations(team, alice, erin, bob):
    r = client_as(erin).post("/teams/alpha/members/", {"action": "role", "user_id": bob.pk, "role": "owner"})
    assert r.status_code == 403
    assert team.role_of(bob) == Role.VIEWER
    assert client_as(erin).post("/teams/alpha/invitations/", {"invitee": "x@example.com"}).status_code == 403
    page = client_as(erin).get("/teams/alpha/").content.decode()
    assert 'id="invite"' not in page and 'id="invitations"' not in page and "bob" in page


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


def test_a_viewer_leaves_the_team(team, alice, bob):
    r = client_as(bob).post("/teams/alpha/leave/")
    assert r.status_code == 302 and r["Location"] == "/teams/"
    assert team.role_of(bob) is None


def test_the_last_owner_cannot_leave(team, alice):
    c = client_as(alice)
    r = c.post("/teams/alpha/leave/", {"from": "profile"}, follow=True)
    assert "You cannot leave Alpha: a team needs at least one owner" in r.content.decode()
    assert team.role_of(alice) == Role.OWNER


def test_an_owner_leaves_once_there_is_another_owner(team, alice, erin):
    client_as(alice).post("/teams/alpha/members/", {"action": "role", "user_id": erin.pk, "role": "owner"})
    assert client_as(alice).post("/teams/alpha/leave/").status_code == 302
    assert team.role_of(alice) is None and team.role_of(erin) == Role.OWNER


def test_the_team_page_tells_owners_how_people_join(team, alice):
    page = client_as(alice).get("/teams/alpha/").content.decode()
    assert 'id="invite"' in page and "createsuperuser" not in page and "/admin/" not in page


def test_member_names_show_the_display_name(team, alice, bob):
    bob.first_name = "Bob Builder"
    bob.save()
    page = client_as(alice).get("/teams/alpha/").content.decode()
    assert "Bob Builder" in page and "(bob)" in page


def test_pages_need_login(client, team):
    for path in ("/teams/", "/teams/alpha/", "/accounts/profile/"):
        r = client.get(path)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), path
    UserFactory(username="dave")  # nothing above may have created anything
    assert Team.objects.count() == 1
