from zfsplanner.accounts.models import Team


def test_roles_decide_write_access(team, alice, erin, bob, charlie):
    assert team.can_write(alice) and team.can_manage(alice)
    assert team.can_write(erin) and not team.can_manage(erin)
    assert not team.can_write(bob)
    assert team.role_of(charlie) is None and not team.can_write(charlie)


def test_for_user_lists_only_own_teams(team, other_team, alice, charlie):
    assert list(Team.objects.for_user(alice)) == [team]
    assert list(Team.objects.for_user(charlie)) == [other_team]
