"""Invitations: an owner invites by email address or user name; the link works once, expires,
can be revoked, and joins whoever follows it (after logging in) with the chosen role."""

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.utils import timezone

from tests.factories import UserFactory
from zfsplanner.accounts import services
from zfsplanner.accounts.models import Invitation, InvitationState, Role

pytestmark = pytest.mark.django_db

PW = "Quiet-Harbor-71"
LINK = re.compile(r"https?://[^/\s]+(/invitations/[^/\s]+/)")


def client_as(user):
    c = Client()
    c.force_login(user)
    return c


def invite(client, invitee, role="editor", capture=None):
    """Invite through the team page; returns (response, path of the emailed link or None)."""
    with capture(execute=True):
        r = client.post("/teams/alpha/invitations/", {"invitee": invitee, "role": role})
    return r


def emailed_link(mailoutbox, to):
    mails = [m for m in mailoutbox if to in m.to]
    assert len(mails) == 1, [m.to for m in mailoutbox]
    return LINK.search(mails[0].body).group(1)


def same_but_for_name_and_time(html, name):
    html = re.sub(r'datetime="[^"]+"', "", html.replace(name, "NAME"))
    return re.sub(r"/invitations/\d+/", "/invitations/ID/", html)


def test_owner_invites_an_address_and_the_link_is_emailed(
    team, alice, mailoutbox, django_capture_on_commit_callbacks
):
    r = invite(client_as(alice), "dana@example.com", capture=django_capture_on_commit_callbacks)
    assert r.status_code == 302
    inv = Invitation.objects.get()
    assert (inv.invitee, inv.role, inv.state, inv.invited_by) == ("dana@example.com", Role.EDITOR, "pending", alice)
    mail = mailoutbox[0]
    assert mail.to == ["dana@example.com"] and "Alpha" in mail.subject and "editor" in mail.body
    path = emailed_link(mailoutbox, "dana@example.com")
    assert services.invitation_for_key(path.split("/")[2]) == inv
    page = client_as(alice).get("/teams/alpha/").content.decode()
    assert 'data-invitee="dana@example.com" data-state="pending"' in page


def test_inviting_a_user_name_emails_that_account(team, alice, mailoutbox, django_capture_on_commit_callbacks):
    dave = UserFactory(username="dave", email="dave@corp.example")
    invite(client_as(alice), "dave", capture=django_capture_on_commit_callbacks)
    assert [m.to for m in mailoutbox] == [["dave@corp.example"]]
    path = emailed_link(mailoutbox, "dave@corp.example")
    c = client_as(dave)
    assert "Join Alpha" in c.get(path).content.decode()
    r = c.post(path)
    assert r.status_code == 302 and r["Location"] == "/teams/alpha/"
    assert team.role_of(dave) == Role.EDITOR


def test_owner_sees_the_same_answer_for_existing_and_unknown_users(
    team, alice, mailoutbox, django_capture_on_commit_callbacks
):
    UserFactory(username="dave")
    c = client_as(alice)
    pages = []
    for name in ("dave", "nobody"):
        r = invite(c, name, capture=django_capture_on_commit_callbacks)
        assert r.status_code == 302
        pages.append(c.get(r["Location"]).content.decode())
    message = "sent to the email address of the account “{}”, if there is one"
    assert message.format("dave") in pages[0] and message.format("nobody") in pages[1]
    rows = [re.search(rf'<tr data-invitee="{n}".*?</tr>', pages[1], re.S).group(0) for n in ("dave", "nobody")]
    assert same_but_for_name_and_time(rows[0], "dave") == same_but_for_name_and_time(rows[1], "nobody")
    assert team.role_of(UserFactory(username="dave")) is None  # nobody joins without accepting


@pytest.mark.parametrize(
    ("invitee", "message"),
    [("", "enter an email address or a user name"), ("a@b", "enter a valid email address"), ("no spaces", "user name")],
)
def test_a_malformed_invitee_is_refused_naming_the_field(team, alice, invitee, message):
    r = client_as(alice).post("/teams/alpha/invitations/", {"invitee": invitee, "role": "viewer"})
    assert r.status_code == 422
    assert 'data-field="invitee"' in r.content.decode() and message in r.content.decode()
    assert not Invitation.objects.exists()


def test_a_bad_role_is_refused(team, alice):
    r = client_as(alice).post("/teams/alpha/invitations/", {"invitee": "x@example.com", "role": "god"})
    assert r.status_code == 422 and 'data-field="role"' in r.content.decode()


def test_inviting_again_replaces_the_pending_invitation(team, alice):
    first = services.invite(team, alice, "dana@example.com", "viewer")
    second = services.invite(team, alice, "DANA@EXAMPLE.COM", "editor")
    first.invitation.refresh_from_db()
    assert first.invitation.state == InvitationState.REVOKED and second.invitation.is_pending
    assert services.invitation_for_key(first.key).state == "revoked"


def test_a_team_sends_at_most_50_invitations_a_day(team, alice):
    for i in range(services.MAX_INVITATIONS_PER_DAY):
        services.invite(team, alice, f"p{i}@example.com", "viewer")
    with pytest.raises(services.TeamError, match="50 invitations in the last day"):
        services.invite(team, alice, "one-more@example.com", "viewer")


def test_anonymous_visitor_sees_the_invitation_and_how_to_accept(team, alice, client):
    new = services.invite(team, alice, "dana@example.com", "editor")
    page = client.get(f"/invitations/{new.key}/").content.decode()
    assert "Join Alpha" in page and "editor" in page
    assert 'href="/accounts/login/"' in page and 'href="/accounts/signup/"' in page


def test_logging_in_after_opening_the_link_joins(team, alice, client):
    dave = UserFactory(username="dave")
    new = services.invite(team, alice, "dave", "editor")
    client.get(f"/invitations/{new.key}/")
    r = client.post("/accounts/login/", {"login": "dave", "password": "pw-for-tests-1"})
    assert r.status_code == 302 and r["Location"] == "/teams/alpha/"
    assert team.role_of(dave) == Role.EDITOR
    assert "You joined Alpha as editor." in client.get("/teams/alpha/").content.decode()


def test_signing_up_with_the_invited_address_joins_without_a_second_confirmation(
    team, alice, client, mailoutbox
):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    client.get(f"/invitations/{new.key}/")
    r = client.post(
        "/accounts/signup/",
        {"email": "dana@example.com", "username": "dana", "password1": PW, "password2": PW},
    )
    assert r.status_code == 302 and r["Location"] == "/teams/alpha/"
    dana = EmailAddress.objects.get(email="dana@example.com")
    assert dana.verified and team.role_of(dana.user) == Role.VIEWER
    assert mailoutbox == []


def test_signing_up_with_another_address_joins_after_confirming_it(team, alice, client, mailoutbox):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    client.get(f"/invitations/{new.key}/")
    r = client.post(
        "/accounts/signup/",
        {"email": "dana@home.example", "username": "dana", "password1": PW, "password2": PW},
    )
    assert r.status_code == 302 and r["Location"] == "/accounts/confirm-email/"
    assert Invitation.objects.get().is_pending
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)", mailoutbox[0].body).group(1)
    r = client.post(confirm)
    assert r.status_code == 302 and r["Location"] == "/teams/alpha/"
    assert team.role_of(EmailAddress.objects.get(email="dana@home.example").user) == Role.VIEWER


@pytest.mark.parametrize(
    ("spoil", "status", "message"),
    [
        (lambda inv: Invitation.objects.filter(pk=inv.pk).update(expires=timezone.now() - timedelta(seconds=1)),
         410, "This invitation has expired"),
        (lambda inv: Invitation.objects.filter(pk=inv.pk).update(revoked=timezone.now()),
         410, "This invitation was withdrawn"),
    ],
    ids=["expired", "revoked"],
)
def test_an_expired_or_revoked_invitation_is_refused_with_a_clear_message(team, alice, spoil, status, message):
    dave = UserFactory(username="dave")
    new = services.invite(team, alice, "dave", "editor")
    spoil(new.invitation)
    c = client_as(dave)
    for r in (c.get(f"/invitations/{new.key}/"), c.post(f"/invitations/{new.key}/")):
        assert r.status_code == status and message in r.content.decode()
    assert team.role_of(dave) is None


def test_an_invitation_works_once(team, alice, erin):
    dave = UserFactory(username="dave")
    new = services.invite(team, alice, "dave", "viewer")
    assert client_as(dave).post(f"/invitations/{new.key}/").status_code == 302
    r = client_as(UserFactory(username="eve")).post(f"/invitations/{new.key}/")
    assert r.status_code == 410 and "already been used" in r.content.decode()
    inv = Invitation.objects.get()
    assert inv.state == InvitationState.ACCEPTED and inv.accepted_by == dave
    assert team.role_of(UserFactory(username="eve")) is None


def test_an_unknown_key_is_a_clear_404(client):
    r = client.get("/invitations/not-a-key/")
    assert r.status_code == 404 and "This invitation link is not valid" in r.content.decode()


def test_accepting_when_already_a_member_keeps_the_role(team, alice, bob):
    new = services.invite(team, alice, "bob", "owner")
    r = client_as(bob).post(f"/invitations/{new.key}/", follow=True)
    assert "already a member of Alpha (viewer)" in r.content.decode()
    assert team.role_of(bob) == Role.VIEWER


def test_owner_revokes_a_pending_invitation(team, alice):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    c = client_as(alice)
    r = c.post(f"/teams/alpha/invitations/{new.invitation.pk}/revoke/")
    assert r.status_code == 302
    assert Invitation.objects.get().state == InvitationState.REVOKED
    again = c.post(f"/teams/alpha/invitations/{new.invitation.pk}/revoke/")
    assert again.status_code == 422 and "only a pending invitation can be revoked" in again.content.decode()


def test_only_owners_revoke(team, alice, erin, charlie):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    assert client_as(erin).post(f"/teams/alpha/invitations/{new.invitation.pk}/revoke/").status_code == 403
    assert client_as(charlie).post(f"/teams/alpha/invitations/{new.invitation.pk}/revoke/").status_code == 404
    assert Invitation.objects.get().is_pending


def test_the_key_is_stored_only_as_a_digest(team, alice):
    new = services.invite(team, alice, "dana@example.com", "viewer")
    assert new.key not in Invitation.objects.values_list("key_digest", flat=True)[0]
    assert len(new.key) >= 40


def test_invitations_expire_after_the_configured_days(team, alice, settings):
    settings.INVITATION_DAYS = 3
    inv = services.invite(team, alice, "dana@example.com", "viewer").invitation
    assert timedelta(days=2, hours=23) < inv.expires - timezone.now() <= timedelta(days=3)


def test_no_email_is_sent_for_an_unknown_user_name(team, alice, mailoutbox, django_capture_on_commit_callbacks):
    invite(client_as(alice), "nobody", capture=django_capture_on_commit_callbacks)
    assert mailoutbox == [] and Invitation.objects.get().invitee == "nobody"


def test_the_email_goes_out_even_when_the_broker_is_down(
    team, alice, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from zfsplanner.accounts.tasks import send_invitation_task

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(send_invitation_task, "delay", broker_down)
    r = invite(client_as(alice), "dana@example.com", capture=django_capture_on_commit_callbacks)
    assert r.status_code == 302 and [m.to for m in mailoutbox] == [["dana@example.com"]]
