"""Who can sign up (SIGNUP_MODE, SIGNUP_EMAIL_DOMAINS), email verification, log-in by user name or
email, password reset and email change, as the settings say."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import UserFactory
from zfsplanner.accounts import services

pytestmark = pytest.mark.django_db

PW = "Quiet-Harbor-71"


def sign_up(client, email="dana@example.com", username="dana"):
    return client.post("/accounts/signup/", {"email": email, "username": username, "password1": PW, "password2": PW})


def link_in(mail, path):
    return re.search(rf"https?://[^/\s]+({path}[^\s]+)", mail.body).group(1)


def test_sign_up_sends_a_verification_link_and_following_it_logs_in(client, mailoutbox):
    r = sign_up(client)
    assert r.status_code == 302 and r["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session
    assert mailoutbox[0].to == ["dana@example.com"] and mailoutbox[0].subject.startswith("[zfsplanner] ")
    r = client.post(link_in(mailoutbox[0], "/accounts/confirm-email/"))
    assert r.status_code == 302 and r["Location"] == "/"
    assert EmailAddress.objects.get(email="dana@example.com").verified
    assert client.get("/accounts/profile/").status_code == 200


def test_an_unverified_account_cannot_log_in(client, mailoutbox):
    sign_up(client)
    c = Client()
    r = c.post("/accounts/login/", {"login": "dana", "password": PW})
    assert r.status_code == 302 and r["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in c.session


def test_verification_can_be_switched_off(client, settings, mailoutbox):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    r = sign_up(client)
    assert r.status_code == 302 and r["Location"] == "/"
    assert client.get("/accounts/profile/").status_code == 200 and mailoutbox == []


def test_closed_sign_up_refuses_everyone(client, settings):
    settings.SIGNUP_MODE = "closed"
    r = client.get("/accounts/signup/")
    assert "Sign-up closed" in r.content.decode()
    sign_up(client)
    assert not get_user_model().objects.filter(username="dana").exists()
    assert "Sign up" not in client.get("/accounts/login/").content.decode()


def test_invited_mode_opens_sign_up_only_to_holders_of_an_invitation(client, settings, team, alice):
    settings.SIGNUP_MODE = "invited"
    sign_up(client)
    assert not get_user_model().objects.filter(username="dana").exists()
    new = services.invite(team, alice, "dana@example.com", "viewer")
    client.get(f"/invitations/{new.key}/")
    assert 'href="/accounts/signup/"' in client.get(f"/invitations/{new.key}/").content.decode()
    r = sign_up(client)
    assert r.status_code == 302 and r["Location"] == "/teams/alpha/"
    assert team.role_of(get_user_model().objects.get(username="dana")) == "viewer"


def test_invited_mode_refuses_a_revoked_invitation(client, settings, team, alice):
    settings.SIGNUP_MODE = "invited"
    new = services.invite(team, alice, "dana@example.com", "viewer")
    client.get(f"/invitations/{new.key}/")
    services.revoke_invitation(team, alice, new.invitation)
    sign_up(client)
    assert not get_user_model().objects.filter(username="dana").exists()


def test_sign_up_is_limited_to_the_allowed_domains(client, settings):
    settings.SIGNUP_EMAIL_DOMAINS = ["corp.example"]
    r = sign_up(client, email="dana@gmail.example")
    assert r.status_code == 200 and "Use an email address at corp.example." in r.content.decode()
    assert "@corp.example" in client.get("/accounts/signup/").content.decode()
    assert sign_up(client, email="dana@CORP.example").status_code == 302


def test_email_change_is_limited_to_the_allowed_domains_and_verified(alice, settings, mailoutbox):
    settings.SIGNUP_EMAIL_DOMAINS = ["corp.example"]
    c = Client()
    c.force_login(alice)
    r = c.post("/accounts/email/", {"action_add": "", "email": "alice@gmail.example"})
    assert "Use an email address at corp.example." in r.content.decode()
    r = c.post("/accounts/email/", {"action_add": "", "email": "alice@corp.example"})
    assert r.status_code == 302 and mailoutbox[0].to == ["alice@corp.example"]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # until the link is followed
    c.post(link_in(mailoutbox[0], "/accounts/confirm-email/"))
    alice.refresh_from_db()
    assert alice.email == "alice@corp.example"


def test_signing_up_with_a_taken_address_tells_only_the_owner_of_the_address(client, alice, mailoutbox):
    r = sign_up(client, email="alice@example.com", username="mallory")
    assert r.status_code == 302 and r["Location"] == "/accounts/confirm-email/"  # the same as for a new address
    assert mailoutbox[0].to == ["alice@example.com"] and "already" in mailoutbox[0].body.lower()
    assert not get_user_model().objects.filter(username="mallory").exists()


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_log_in_by_user_name_or_email(alice, login):
    r = Client().post("/accounts/login/", {"login": login, "password": "pw-for-tests-1"})
    assert r.status_code == 302 and r["Location"] == "/"


def test_password_reset_end_to_end(alice, client, mailoutbox):
    r = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert r.status_code == 302
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert unknown.status_code == 302 and unknown["Location"] == r["Location"]  # no hint either way
    assert [m.to for m in mailoutbox] == [["alice@example.com"]]
    r = client.get(link_in(mailoutbox[0], "/accounts/password/reset/key/"))
    assert r.status_code == 302  # allauth moves the key out of the URL into the session
    r = client.post(r["Location"], {"password1": "Fresh-Start-2024", "password2": "Fresh-Start-2024"})
    assert r.status_code == 302
    assert Client().post("/accounts/login/", {"login": "alice", "password": "Fresh-Start-2024"}).status_code == 302


def test_accounts_made_by_an_administrator_can_log_in_at_once():
    get_user_model().objects.create_superuser("root", "root@example.com", "Admin-Pass-321")
    assert EmailAddress.objects.get(email="root@example.com").verified
    assert Client().post("/accounts/login/", {"login": "root", "password": "Admin-Pass-321"}).status_code == 302


def test_the_admin_login_goes_through_the_site_login(client):
    r = client.get("/admin/login/?next=/admin/")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    c = Client()
    c.force_login(staff)
    assert c.get("/admin/").status_code == 200


def test_an_account_without_any_email_address_logs_in(api_client):
    get_user_model().objects.create_superuser("root", "", "Admin-Pass-321")
    r = Client().post("/accounts/login/", {"login": "root", "password": "Admin-Pass-321"})
    assert r.status_code == 302 and r["Location"] == "/"
    assert api_client.post("/api/auth/token/", {"username": "root", "password": "Admin-Pass-321"}).status_code == 200


def test_a_new_account_owns_a_team_of_its_own(client, settings):
    from zfsplanner.accounts.models import Team

    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    sign_up(client)
    dana = get_user_model().objects.get(username="dana")
    assert [(t.name, t.role_of(dana)) for t in Team.objects.for_user(dana)] == [("dana's designs", "owner")]


def test_an_invited_sign_up_joins_the_team_and_still_has_its_own(client, settings, team, alice):
    from zfsplanner.accounts.models import Team

    settings.SIGNUP_MODE = "invited"
    new = services.invite(team, alice, "dana@example.com", "viewer")
    client.get(f"/invitations/{new.key}/")
    sign_up(client)
    dana = get_user_model().objects.get(username="dana")
    assert {t.name: t.role_of(dana) for t in Team.objects.for_user(dana)} == {
        "Alpha": "viewer",
        "dana's designs": "owner",
    }
