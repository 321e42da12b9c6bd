"""A team grows on its own in a real browser: sign up, confirm the address, create a team,
invite a colleague who signs up from the link and sees the team's design with the invited
role; password reset by email; expired and revoked invitations refused with a clear message."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import PoolDesignFactory, UserFactory, design_document
from zfsplanner.accounts import services
from zfsplanner.accounts.models import Invitation, Role, Team

PW = "Quiet-Harbor-71"


def link_in(mailoutbox, to, path):
    mails = [m for m in mailoutbox if to in m.to]
    assert mails, f"no email to {to}: {[m.to for m in mailoutbox]}"
    return re.search(rf"https?://[^/\s]+({path}[^\s]+)", mails[-1].body).group(1)


def fits_390(page):
    """Nothing wider than a 390 px phone screen (no sideways scrolling)."""
    page.set_viewport_size({"width": 390, "height": 800})
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def sign_up(page, email, username):
    page.fill("input[name=email]", email)
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PW)
    page.fill("input[name=password2]", PW)
    page.click("#signup button[type=submit]")


@pytest.fixture
def fresh_page(browser, live_server):
    """A second browser with its own cookies: the invited colleague."""
    context = browser.new_context(base_url=live_server.url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    context.close()


def test_sign_up_verify_create_a_team_invite_and_the_invitee_sees_the_design(page, fresh_page, mailoutbox):
    page.goto("/accounts/login/")
    page.click("text=Sign up")
    sign_up(page, "olga@example.com", "olga")
    page.wait_for_selector("#verification-sent")
    page.goto(link_in(mailoutbox, "olga@example.com", "/accounts/confirm-email/"))
    page.click("#email-confirm button[type=submit]")
    page.wait_for_url("**/")

    page.click("nav >> text=Teams")
    page.fill("#team-create input[name=name]", "Lab")
    page.click("#team-create button[type=submit]")
    page.wait_for_url("**/teams/lab-*/")
    team = Team.objects.get(name="Lab")
    assert team.role_of(UserFactory(username="olga")) == Role.OWNER
    design = PoolDesignFactory(team=team, name="scratch", document=design_document("scratch"))
    page.fill("#invite input[name=invitee]", "sam@example.com")
    page.select_option("#invite select[name=role]", "viewer")
    page.click("#invite button[type=submit]")
    page.wait_for_selector('#invitations tr[data-invitee="sam@example.com"][data-state=pending]')
    assert "Invitation to join as viewer sent to sam@example.com" in page.locator(".messages").inner_text()
    assert fits_390(page)

    invited = fresh_page
    invited.goto(link_in(mailoutbox, "sam@example.com", "/invitations/"))
    assert "Join Lab" in invited.locator("h1").inner_text()
    invited.click("#invitation-signup")
    sign_up(invited, "sam@example.com", "sam")
    invited.wait_for_url(f"**/teams/{team.slug}/")
    assert "You joined Lab as viewer." in invited.locator(".messages").inner_text()
    assert invited.locator("#members tr[data-user=sam]").inner_text().strip().endswith("Viewer")
    invited.click("text=scratch")
    invited.wait_for_url(f"**/designs/{design.pk}/")
    assert invited.locator("h1").inner_text() == "scratch"
    assert invited.locator("#open-designer").count() == 0  # a viewer reads, does not edit

    page.reload()
    assert page.locator('#invitations tr[data-invitee="sam@example.com"]').get_attribute("data-state") == "accepted"
    assert page.js_errors == [] and invited.js_errors == []


def test_password_reset_by_email(page, alice, mailoutbox):
    page.goto("/accounts/login/")
    page.click("text=Forgot your password?")
    page.fill("input[name=email]", "alice@example.com")
    page.click("#password-reset button[type=submit]")
    page.wait_for_selector("#password-reset-done")
    page.goto(link_in(mailoutbox, "alice@example.com", "/accounts/password/reset/key/"))
    page.fill("input[name=password1]", "Fresh-Start-2024")
    page.fill("input[name=password2]", "Fresh-Start-2024")
    page.click("#password-reset-key button[type=submit]")
    page.wait_for_selector("text=Your password is changed")
    page.goto("/accounts/login/")
    page.fill("input[name=login]", "alice@example.com")
    page.fill("input[name=password]", "Fresh-Start-2024")
    page.click("#login button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator("a.who").inner_text() == "alice"
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("expire", "This invitation has expired. Ask the team's owner for a new one."),
        ("revoke", "This invitation was withdrawn by the team's owner."),
    ],
)
def test_an_expired_or_revoked_invitation_is_refused(page, login, team, alice, spoil, message):
    dave = UserFactory(username="dave")
    new = services.invite(team, alice, "dave@example.com", "editor")
    if spoil == "expire":
        Invitation.objects.filter(pk=new.invitation.pk).update(expires=timezone.now() - timedelta(minutes=1))
    else:
        login(alice)
        page.goto("/teams/alpha/")
        page.click('#invitations tr[data-invitee="dave@example.com"] button')
        page.wait_for_selector('#invitations tr[data-invitee="dave@example.com"][data-state=revoked]')
        page.click("nav >> text=Log out")
    login(dave)
    page.goto(f"/invitations/{new.key}/")
    assert page.locator("#invitation-refused [role=alert]").inner_text() == message
    assert team.role_of(dave) is None
    assert fits_390(page)


def test_profile_tokens_and_leaving_a_team(page, login, team, alice, bob, api_client):
    login(bob)
    page.click("a.who")
    page.fill("#token-create input[name=name]", "laptop")
    page.select_option("#token-create select[name=lifetime]", "30")
    page.click("#token-create button[type=submit]")
    key = page.locator("#new-token-key").input_value()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api_client.get("/api/teams/").status_code == 200
    assert fits_390(page)
    page.click('#token-list tr[data-token="laptop"] button')
    page.wait_for_selector("text=Token 'laptop' revoked")
    assert api_client.get("/api/teams/").status_code in (401, 403)
    page.click('#profile-teams tr[data-team="alpha"] button')
    page.wait_for_selector("text=You left Alpha.")
    assert team.role_of(bob) is None
    assert page.js_errors == []
