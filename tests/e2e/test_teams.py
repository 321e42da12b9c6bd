"""A person creates a team in the browser and gives a colleague a role."""

from tests.factories import UserFactory
from zfsplanner.accounts.models import Role, Team


def test_create_a_team_and_add_an_editor(page, login, alice):
    UserFactory(username="dave")
    login(alice)
    page.click("text=Teams")
    page.fill("#team-create input[name=name]", "Lab")
    page.click("#team-create button[type=submit]")
    page.wait_for_url("**/teams/lab/")
    page.fill("#member-add input[name=username]", "dave")
    page.select_option("#member-add select[name=role]", "editor")
    page.click("#member-add button[type=submit]")
    page.wait_for_selector("tr[data-user=dave]")
    assert Team.objects.get(slug="lab").role_of(UserFactory(username="dave")) == Role.EDITOR
    assert page.js_errors == []
