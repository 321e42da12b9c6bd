"""A user's personal team: made on first need, owned by them, named after them, made once."""

from tests.factories import UserFactory
from zfsplanner.accounts import services
from zfsplanner.accounts.models import Membership, Role, Team


def test_it_makes_an_owned_team_named_after_the_user(db):
    dana = UserFactory(username="dana")
    team = services.personal_team(dana)
    assert team.name == "dana's designs"
    assert team.slug.startswith("danas-designs-")
    assert team.personal_for == dana
    assert team.role_of(dana) == Role.OWNER
    assert list(Team.objects.for_user(dana)) == [team]


def test_it_prefers_the_display_name(db):
    user = UserFactory(username="u1", first_name="Alice Martin")
    assert services.personal_team(user).name == "Alice Martin's designs"


def test_it_returns_the_same_team_the_second_time(db):
    dana = UserFactory(username="dana")
    first = services.personal_team(dana)
    assert services.personal_team(dana) == first
    assert Team.objects.filter(personal_for=dana).count() == 1


def test_a_shared_team_is_not_the_personal_one(alice, team):
    own = services.personal_team(alice)
    assert own != team and own.personal_for == alice
    assert set(Team.objects.for_user(alice)) == {team, own}


def test_a_team_handed_over_is_no_longer_personal(db):
    dana, eve = UserFactory(username="dana"), UserFactory(username="eve")
    first = services.personal_team(dana)
    Membership.objects.create(team=first, user=eve, role=Role.OWNER)
    services.leave_team(first, dana)
    second = services.personal_team(dana)
    assert second != first and second.role_of(dana) == Role.OWNER


def test_a_long_display_name_still_fits(db):
    user = UserFactory(username="long", first_name="x" * 150)
    team = services.personal_team(user)
    assert len(team.name) <= services.MAX_TEAM_NAME and team.name.endswith("'s designs")
