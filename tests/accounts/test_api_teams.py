"""Teams, members and invitations through the API; the answers never tell whether an account exists."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from zfsplanner.accounts import services
from zfsplanner.accounts.models import Invitation, Membership, Role, Team

pytestmark = pytest.mark.django_db

VARYING = ("id", "created", "expires", "invitee")


def without(body, keys=VARYING):
    if isinstance(body, dict):
        return {k: without(v, keys) for k, v in body.items() if k not in keys}
    return body


def test_creating_a_team_makes_the_creator_owner(charlie, client_for):
    response = client_for(charlie).post("/api/teams/", {"name": "Storage Ops", "slug": "mine"}, format="json")
    assert response.status_code == 201
    team = Team.objects.get(pk=response.json()["id"])
    assert team.slug.startswith("storage-ops-") and response.json()["slug"] == team.slug
    assert team.role_of(charlie) == Role.OWNER


def test_a_taken_name_gives_no_hint(team, charlie, client_for):
    response = client_for(charlie).post("/api/teams/", {"name": "Alpha"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] != "alpha"


def test_a_team_name_is_checked(charlie, client_for):
    c = client_for(charlie)
    assert c.post("/api/teams/", {"name": "x" * 101}, format="json").json() == {
        "name": ["Ensure this field has no more than 100 characters."]
    }
    assert "control characters" in c.post("/api/teams/", {"name": "a\x01b"}, format="json").json()["name"][0]
    assert c.post("/api/teams/", {"name": "a\x00b"}, format="json").status_code == 400
    assert list(Team.objects.filter(memberships__user=charlie)) == [Team.objects.get(slug="beta")]


def test_members_post_answers_the_same_for_existing_and_unknown_users(team, alice, client_for, mailoutbox):
    UserFactory(username="dave")
    c = client_for(alice)
    answers = [
        c.post(f"/api/teams/{team.pk}/members/", {"username": name, "role": "editor"}, format="json")
        for name in ("dave", "nobody")
    ]
    assert [a.status_code for a in answers] == [202, 202]
    bodies = [a.json() for a in answers]
    assert bodies[0]["detail"].replace("dave", "X") == bodies[1]["detail"].replace("nobody", "X")
    assert without(bodies[0]["invitation"]) == without(bodies[1]["invitation"])
    assert without(bodies[0]["invitation"]) == {
        "role": "editor",
        "state": "pending",
        "invited_by": "alice",
        "accepted": None,
        "accepted_by": None,
    }
    assert not Membership.objects.filter(user__username="dave").exists()  # joins only by accepting


def test_invitations_post_answers_the_same_for_existing_and_unknown_addresses(team, alice, client_for):
    UserFactory(username="dave", email="dave@example.com")
    c = client_for(alice)
    answers = [
        c.post(f"/api/teams/{team.pk}/invitations/", {"email": email, "role": "viewer"}, format="json")
        for email in ("dave@example.com", "nobody@example.com")
    ]
    assert [a.status_code for a in answers] == [201, 201]
    assert without(answers[0].json()) == without(answers[1].json())
    assert "key" not in answers[0].json() and "url" not in answers[0].json()


def test_invitation_errors_do_not_depend_on_the_account(team, alice, bob, client_for):
    c = client_for(alice)
    for name in ("bob", "nobody"):  # bob is already a member: still just an invitation
        r = c.post(f"/api/teams/{team.pk}/members/", {"username": name}, format="json")
        assert r.status_code == 202 and r.json()["invitation"]["role"] == "viewer"


def test_a_malformed_user_name_is_refused_naming_the_field(team, alice, client_for):
    r = client_for(alice).post(f"/api/teams/{team.pk}/members/", {"username": "two words"}, format="json")
    assert r.status_code == 400 and "username" in r.json()
    r = client_for(alice).post(f"/api/teams/{team.pk}/invitations/", {"email": "a@"}, format="json")
    assert r.status_code == 400 and r.json() == {"email": "enter a valid email address"}


def test_an_invitation_needs_exactly_one_of_email_and_username(team, alice, client_for):
    c = client_for(alice)
    for body in ({}, {"email": "a@example.com", "username": "a"}):
        r = c.post(f"/api/teams/{team.pk}/invitations/", body, format="json")
        assert r.status_code == 400 and "email" in r.json()


@pytest.mark.parametrize("who", ["erin", "bob"])
def test_only_owners_invite_and_list_invitations(team, alice, who, client_for, request):
    c = client_for(request.getfixturevalue(who))
    assert c.post(f"/api/teams/{team.pk}/members/", {"username": "dave"}, format="json").status_code == 403
    assert c.post(f"/api/teams/{team.pk}/invitations/", {"email": "d@example.com"}, format="json").status_code == 403
    assert c.get(f"/api/teams/{team.pk}/invitations/").status_code == 403
    assert not Invitation.objects.exists()


def test_outsiders_get_404_everywhere(team, alice, charlie, client_for):
    inv = services.invite(team, alice, "dana@example.com", "viewer").invitation
    c = client_for(charlie)
    for method, path in [
        ("get", f"/api/teams/{team.pk}/members/"),
        ("post", f"/api/teams/{team.pk}/members/"),
        ("get", f"/api/teams/{team.pk}/invitations/"),
        ("post", f"/api/teams/{team.pk}/invitations/"),
        ("get", f"/api/teams/{team.pk}/invitations/{inv.pk}/"),
        ("delete", f"/api/teams/{team.pk}/invitations/{inv.pk}/"),
        ("delete", f"/api/teams/{team.pk}/members/{alice.pk}/"),
    ]:
        body = {"username": "charlie", "email": "c@example.com"}
        assert getattr(c, method)(path, body, format="json").status_code == 404, (method, path)
    assert Invitation.objects.get().is_pending


def test_owner_lists_and_revokes_invitations(team, alice, client_for):
    inv = services.invite(team, alice, "dana@example.com", "viewer").invitation
    c = client_for(alice)
    listed = c.get(f"/api/teams/{team.pk}/invitations/").json()
    assert listed["count"] == 1 and listed["results"][0]["state"] == "pending"
    assert c.delete(f"/api/teams/{team.pk}/invitations/{inv.pk}/").status_code == 204
    assert c.get(f"/api/teams/{team.pk}/invitations/{inv.pk}/").json()["state"] == "revoked"
    again = c.delete(f"/api/teams/{team.pk}/invitations/{inv.pk}/")
    assert again.status_code == 400 and "invitation" in again.json()


def test_accepting_through_the_api_joins_with_the_role(team, alice, client_for):
    dave = UserFactory(username="dave")
    new = services.invite(team, alice, "dave@example.com", "editor")
    r = client_for(dave).post("/api/invitations/accept/", {"key": new.key}, format="json")
    assert r.status_code == 200
    assert r.json()["team"]["slug"] == "alpha" and r.json()["role"] == "editor" and r.json()["joined"] is True
    assert team.role_of(dave) == Role.EDITOR


def test_accepting_a_used_expired_or_revoked_invitation_is_410(team, alice, client_for):
    dave = UserFactory(username="dave")
    c = client_for(dave)
    used = services.invite(team, alice, "a@example.com", "viewer")
    services.accept_invitation(used.invitation, alice)
    expired = services.invite(team, alice, "b@example.com", "viewer")
    Invitation.objects.filter(pk=expired.invitation.pk).update(expires=timezone.now() - timedelta(minutes=1))
    revoked = services.invite(team, alice, "c@example.com", "viewer")
    services.revoke_invitation(team, alice, revoked.invitation)
    for new, state, words in [(used, "accepted", "already been used"), (expired, "expired", "expired"),
                              (revoked, "revoked", "withdrawn")]:
        r = c.post("/api/invitations/accept/", {"key": new.key}, format="json")
        assert r.status_code == 410 and r.json()["state"] == state and words in r.json()["detail"]
    assert c.post("/api/invitations/accept/", {"key": "nope"}, format="json").status_code == 404
    assert team.role_of(dave) is None


def test_accepting_needs_login(team, alice, api_client):
    new = services.invite(team, alice, "a@example.com", "viewer")
    assert api_client.post("/api/invitations/accept/", {"key": new.key}, format="json").status_code in (401, 403)
    assert Invitation.objects.get().is_pending


def test_teams_lists_only_own_teams(team, other_team, alice, client_for):
    body = client_for(alice).get("/api/teams/").json()
    assert [(t["name"], t["role"]) for t in body["results"]] == [("Alpha", "owner")]


def test_members_see_the_member_list(team, alice, bob, client_for):
    bob.first_name = "Bob B."
    bob.save()
    body = client_for(bob).get(f"/api/teams/{team.pk}/members/").json()
    assert {(m["username"], m["display_name"], m["role"]) for m in body} == {
        ("alice", "", "owner"),
        ("bob", "Bob B.", "viewer"),
    }


def test_owners_change_roles_and_remove_members(team, alice, bob, client_for):
    client = client_for(alice)
    response = client.patch(f"/api/teams/{team.pk}/members/{bob.pk}/", {"role": "editor"}, format="json")
    assert response.status_code == 200
    assert team.role_of(bob) == Role.EDITOR
    assert client.delete(f"/api/teams/{team.pk}/members/{bob.pk}/").status_code == 204
    assert team.role_of(bob) is None


def test_a_viewer_leaves_but_cannot_remove_others(team, alice, bob, erin, client_for):
    c = client_for(bob)
    assert c.delete(f"/api/teams/{team.pk}/members/{erin.pk}/").status_code == 403
    assert c.patch(f"/api/teams/{team.pk}/members/{bob.pk}/", {"role": "owner"}, format="json").status_code == 403
    assert c.delete(f"/api/teams/{team.pk}/members/{bob.pk}/").status_code == 204
    assert team.role_of(bob) is None and team.role_of(erin) == Role.EDITOR


def test_the_last_owner_cannot_leave(team, alice, client_for):
    response = client_for(alice).delete(f"/api/teams/{team.pk}/members/{alice.pk}/")
    assert response.status_code == 400 and "at least one owner" in response.json()["role"]
    assert team.role_of(alice) == Role.OWNER


def test_only_owners_rename_or_delete_the_team(team, alice, erin, client_for):
    assert client_for(erin).patch(f"/api/teams/{team.pk}/", {"name": "X"}, format="json").status_code == 403
    assert client_for(erin).delete(f"/api/teams/{team.pk}/").status_code == 403
    r = client_for(alice).patch(f"/api/teams/{team.pk}/", {"name": "Alpha Two", "slug": "hijack"}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Alpha Two" and r.json()["slug"] == "alpha"


def test_bad_role_names_the_field(team, alice, bob, client_for):
    response = client_for(alice).patch(f"/api/teams/{team.pk}/members/{bob.pk}/", {"role": "king"}, format="json")
    assert response.status_code == 400
    assert "role" in response.json()


def test_the_member_list_is_a_plain_list(team, alice, bob, client_for):
    response = client_for(alice).get(f"/api/teams/{team.pk}/members/")
    assert response.status_code == 200
    assert {m["username"] for m in response.json()} == {"alice", "bob"}
