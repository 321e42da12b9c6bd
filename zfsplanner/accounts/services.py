"""Team and membership changes, shared by the pages and the API.

The rules: whoever creates a team owns it; only owners add, re-role or remove members; a
team always keeps at least one owner; a user is a member of a team at most once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify

from .models import Membership, Role, Team


class TeamError(ValueError):
    """A refused change; ``field`` names the input it is about."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class NotOwner(PermissionError):
    pass


def team_slug(name: str, slug: str | None = None, exclude_pk: int | None = None) -> str:
    """The slug for a team name (or the one given), refused when empty or taken."""
    value = slug if slug else slugify(name)[:100]
    if not value:
        raise TeamError("name", "needs at least one letter or digit")
    if Team.objects.filter(slug=value).exclude(pk=exclude_pk).exists():
        raise TeamError("slug", f"a team with slug {value!r} already exists")
    return value


@transaction.atomic
def create_team(user: Any, name: str, slug: str | None = None) -> Team:
    name = name.strip()
    if not name:
        raise TeamError("name", "is required")
    team = Team.objects.create(name=name, slug=team_slug(name, slug))
    Membership.objects.create(team=team, user=user, role=Role.OWNER)
    return team


def _require_owner(team: Team, actor: Any) -> None:
    if not team.can_manage(actor):
        raise NotOwner("Only owners of the team manage its members.")


def _role(role: str) -> Role:
    if role not in Role.values:
        raise TeamError("role", f"must be one of {', '.join(Role.values)}")
    return Role(role)


@transaction.atomic
def add_member(team: Team, actor: Any, username: str, role: str) -> Membership:
    _require_owner(team, actor)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise TeamError("username", f"no user is called {username!r}")
    if team.memberships.filter(user=user).exists():
        raise TeamError("username", f"{username} is already a member of this team")
    return Membership.objects.create(team=team, user=user, role=_role(role))


@transaction.atomic
def change_role(team: Team, actor: Any, membership: Membership, role: str) -> Membership:
    _require_owner(team, actor)
    new_role = _role(role)
    _keep_an_owner(team, membership, new_role)
    membership.role = new_role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(team: Team, actor: Any, membership: Membership) -> None:
    _require_owner(team, actor)
    _keep_an_owner(team, membership, None)
    membership.delete()


def _keep_an_owner(team: Team, membership: Membership, new_role: Role | None) -> None:
    losing_owner = membership.role == Role.OWNER and new_role != Role.OWNER
    if losing_owner and team.memberships.select_for_update().filter(role=Role.OWNER).count() == 1:
        raise TeamError("role", "a team needs at least one owner")
