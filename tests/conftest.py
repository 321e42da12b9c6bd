"""The fixed cast every access test uses.

Team "alpha": alice is the owner, erin an editor, bob a viewer.
Team "beta": charlie is the owner and has nothing to do with alpha.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.factories import MembershipFactory, TeamFactory, UserFactory
from zfsplanner.accounts.models import Role

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
SAMPLES = Path(__file__).resolve().parent / "parsers" / "samples"


@pytest.fixture
def team(db):
    return TeamFactory(name="Alpha", slug="alpha")


@pytest.fixture
def other_team(db):
    return TeamFactory(name="Beta", slug="beta")


@pytest.fixture
def alice(team):
    return MembershipFactory(team=team, user=UserFactory(username="alice"), role=Role.OWNER).user


@pytest.fixture
def erin(team):
    return MembershipFactory(team=team, user=UserFactory(username="erin"), role=Role.EDITOR).user


@pytest.fixture
def bob(team):
    return MembershipFactory(team=team, user=UserFactory(username="bob"), role=Role.VIEWER).user


@pytest.fixture
def charlie(other_team):
    return MembershipFactory(team=other_team, user=UserFactory(username="charlie"), role=Role.OWNER).user


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def client_for():
    """client_for(user) -> an APIClient logged in (session) as that user."""

    def make(user):
        c = APIClient()
        c.force_login(user)
        return c

    return make
