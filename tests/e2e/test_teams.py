"""A person creates a team in the browser and invites a colleague who already has an account."""

import re

from tests.factories import UserFactory
from zfsplanner.accounts.models import Role, Team


def test_create_a_team_and_invite_an_existing_user_as_editor(page, browser, live_server, login, alice, mailoutbox):
    dave = UserFactory(username="dave", email="dave@example.com")
    login(alice)
    page.click("nav >> text=Teams")
    page.fill("#team-create input[name=name]", "Lab")
    page.click("#team-create button[type=submit]")
    page.wait_for_url("**/teams/lab-*/")
    page.fill("#invite input[name=invitee]", "dave")
    page.select_option("#invite select[name=role]", "editor")
    page.click("#invite button[type=submit]")
    page.wait_for_selector("#invitations tr[data-invitee=dave][data-state=pending]")
    assert page.locator("#members tr[data-user=dave]").count() == 0  # not a member until accepted

    link = re.search(r"https?://[^/\s]+(/invitations/\S+)", mailoutbox[0].body).group(1)
    assert mailoutbox[0].to == ["dave@example.com"]
    context = browser.new_context(base_url=live_server.url)
    try:
        theirs = context.new_page()
        theirs.goto(link)
        theirs.click("#invitation-login")
        theirs.fill("input[name=login]", "dave")
        theirs.fill("input[name=password]", "pw-for-tests-1")
        theirs.click("#login button[type=submit]")
        theirs.wait_for_url("**/teams/lab-*/")
        assert "You joined Lab as editor." in theirs.locator(".messages").inner_text()
    finally:
        context.close()
    assert Team.objects.get(name="Lab").role_of(dave) == Role.EDITOR
    page.reload()
    assert page.locator("#members tr[data-user=dave] select").input_value() == "editor"
    assert page.js_errors == []
