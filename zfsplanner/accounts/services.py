"""Team, membership and invitation changes, shared by the pages and the API.

The rules: whoever creates a team owns it; only owners invite, re-role or remove members;
anyone may leave a team; a team always keeps at least one owner; a user is a member of a
team at most once. People join only through an invitation they accept, so nothing an owner
does tells them whether an account exists for an address or a user name. A team's address
(slug) is its name plus a random suffix, so creating a team never reveals another's.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from kombu.exceptions import OperationalError as KombuOperationalError

from .models import Invitation, InvitationState, Membership, Role, Team, key_digest, new_key
from .sso import source_label

logger = logging.getLogger(__name__)

MAX_TEAM_NAME = 100
MAX_INVITATIONS_PER_DAY = 50
USERNAME_CHARS = "letters, digits and @ . + - _"


class TeamError(ValueError):
    """A refused change; ``field`` names the input it is about."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class NotOwner(PermissionError):
    pass


def _not_from_provider(membership: Membership) -> None:
    """A membership an identity provider's group gives is changed at the provider (the next log-in
    would set it again)."""
    if membership.source:
        raise TeamError(
            "role", f"this membership comes from a group at {source_label(membership.source)}: change it there"
        )


class InvitationUnusable(ValueError):
    """The invitation cannot be accepted; ``state`` says why (a message for the person holding it)."""

    MESSAGES = {
        InvitationState.ACCEPTED: "This invitation has already been used. Ask the team's owner for a new one.",
        InvitationState.EXPIRED: "This invitation has expired. Ask the team's owner for a new one.",
        InvitationState.REVOKED: "This invitation was withdrawn by the team's owner.",
    }

    TITLES = {
        InvitationState.ACCEPTED: "Invitation already used",
        InvitationState.EXPIRED: "Invitation expired",
        InvitationState.REVOKED: "Invitation withdrawn",
    }

    def __init__(self, state: InvitationState):
        self.state = state
        super().__init__(self.MESSAGES[state])


def team_slug(name: str) -> str:
    """A new, unused slug for a team name: the slugified name plus a random suffix."""
    base = slugify(name)[:90].strip("-")
    if not base:
        raise TeamError("name", "needs at least one letter or digit")
    for _ in range(100):  # 16.7 million suffixes per name: a clash is rare, 100 in a row impossible
        candidate = f"{base}-{secrets.token_hex(3)}"
        if not Team.objects.filter(slug=candidate).exists():
            return candidate
    raise RuntimeError(f"no free slug for {base!r} after 100 tries")


def clean_team_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise TeamError("name", "is required")
    if len(name) > MAX_TEAM_NAME:
        raise TeamError("name", f"at most {MAX_TEAM_NAME} characters (got {len(name)})")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise TeamError("name", "must not contain control characters")
    return name


@transaction.atomic
def create_team(user: Any, name: str, *, personal: bool = False) -> Team:
    name = clean_team_name(name)
    team = Team.objects.create(name=name, slug=team_slug(name), personal_for=user if personal else None)
    Membership.objects.create(team=team, user=user, role=Role.OWNER)
    return team


def personal_team_name(user: Any) -> str:
    """“alice's designs”: the display name, or the user name when there is none."""
    who = (getattr(user, "first_name", "") or "").strip() or user.get_username()
    suffix = "'s designs"
    who = "".join(c for c in who if ord(c) >= 32 and ord(c) != 127)[: MAX_TEAM_NAME - len(suffix)].strip()
    return f"{who}{suffix}"


@transaction.atomic
def personal_team(user: Any) -> Team:
    """The user's own team, made on first need: they own it, and it is named after them.

    It is the team a design goes to when its author has no other place for it. An earlier
    personal team counts only while the user still owns it (owners may hand a team over
    and leave); otherwise a new one is made.
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one per user, even if raced
    team = (
        Team.objects.filter(personal_for=user, memberships__user=user, memberships__role=Role.OWNER)
        .order_by("created", "pk")
        .first()
    )
    if team is not None:
        return team
    return create_team(user, personal_team_name(user), personal=True)


def _require_owner(team: Team, actor: Any) -> None:
    if not team.can_manage(actor):
        raise NotOwner("Only owners of the team manage its members.")


def _role(role: str) -> Role:
    if role not in Role.values:
        raise TeamError("role", f"must be one of {', '.join(Role.values)}")
    return Role(role)


@transaction.atomic
def change_role(team: Team, actor: Any, membership: Membership, role: str) -> Membership:
    _require_owner(team, actor)
    _not_from_provider(membership)
    new_role = _role(role)
    _keep_an_owner(team, membership, new_role)
    membership.role = new_role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(team: Team, actor: Any, membership: Membership) -> None:
    """Owners remove anyone; every member may remove themselves (leave)."""
    if membership.user_id != actor.pk:
        _require_owner(team, actor)
    _not_from_provider(membership)
    _keep_an_owner(team, membership, None)
    membership.delete()


def leave_team(team: Team, user: Any) -> None:
    membership = team.memberships.filter(user=user).first()
    if membership is None:
        raise TeamError("team", "you are not a member of this team")
    remove_member(team, user, membership)


def is_last_owner(team: Team, user: Any) -> bool:
    owners = list(team.memberships.filter(role=Role.OWNER).values_list("user_id", flat=True)[:2])
    return owners == [user.pk]


def _keep_an_owner(team: Team, membership: Membership, new_role: Role | None) -> None:
    losing_owner = membership.role == Role.OWNER and new_role != Role.OWNER
    if losing_owner and team.memberships.select_for_update().filter(role=Role.OWNER).count() == 1:
        raise TeamError("role", "a team needs at least one owner; make someone else owner first")


# --------------------------------------------------------------------------- invitations


def clean_invitee(value: str, field: str = "invitee") -> str:
    """An email address (domain lower-cased) or a user name; only the form is checked."""
    value = value.strip()
    if not value:
        raise TeamError(field, "enter an email address or a user name")
    if "@" in value:
        try:
            validate_email(value)
        except ValidationError as exc:
            raise TeamError(field, "enter a valid email address") from exc
        local, _, domain = value.rpartition("@")
        return f"{local}@{domain.lower()}"
    if len(value) > 150 or not all(c.isalnum() or c in "@.+-_" for c in value):
        raise TeamError(field, f"a user name has at most 150 characters: {USERNAME_CHARS}")
    return value


UNKNOWN_INVITATION = "This invitation link is not valid. Check that it was copied whole, or ask for a new one."


def invitation_sent_message(invitation: Invitation) -> str:
    """What the owner is told: the same whether or not an account exists for the invitee."""
    role = invitation.get_role_display().lower()
    if invitation.by_email:
        return f"Invitation to join as {role} sent to {invitation.invitee}; they appear as a member once they accept."
    return (
        f"Invitation to join as {role} sent to the email address of the account “{invitation.invitee}”, "
        "if there is one; they appear as a member once they accept."
    )


def accepted_message(accepted: Accepted) -> str:
    team = accepted.membership.team
    role = accepted.membership.get_role_display().lower()
    if accepted.joined:
        return f"You joined {team.name} as {role}."
    return f"You are already a member of {team.name} ({role}); your role is unchanged."


@dataclass(frozen=True)
class NewInvitation:
    """An invitation just made, with the key for its link (never stored in clear)."""

    invitation: Invitation
    key: str


@transaction.atomic
def invite(
    team: Team, actor: Any, invitee: str, role: str, *, days: int | None = None, field: str = "invitee"
) -> NewInvitation:
    """A pending invitation for ``invitee``; an earlier pending one for the same person is revoked.

    Answers the same whether or not an account exists for the address or user name. The
    caller sends the link (``send_invitation``) once the transaction commits.
    """
    _require_owner(team, actor)
    invitee = clean_invitee(invitee, field)
    new_role = _role(role)
    days = settings.INVITATION_DAYS if days is None else days
    if not 1 <= days <= 90:
        raise TeamError("expires_in_days", f"must be between 1 and 90 (got {days})")
    now = timezone.now()
    Team.objects.select_for_update().filter(pk=team.pk).first()  # one inviter at a time per team
    if team.invitations.filter(created__gt=now - timedelta(days=1)).count() >= MAX_INVITATIONS_PER_DAY:
        raise TeamError(field, f"this team sent {MAX_INVITATIONS_PER_DAY} invitations in the last day; try tomorrow")
    team.invitations.pending(now).filter(invitee__iexact=invitee).update(revoked=now)
    key, digest = new_key()
    invitation = Invitation.objects.create(
        team=team,
        invitee=invitee,
        role=new_role,
        key_digest=digest,
        invited_by=actor,
        expires=now + timedelta(days=days),
    )
    return NewInvitation(invitation, key)


def send_invitation(new: NewInvitation, accept_url: str) -> None:
    """Email the link after the transaction commits, from the worker when there is one.

    The worker looks up the account for a user name, so the request takes the same time
    whether or not one exists.
    """
    from .tasks import send_invitation_task

    def enqueue() -> None:
        try:
            send_invitation_task.delay(new.invitation.pk, accept_url)
        except (KombuOperationalError, OSError):  # the broker is unreachable: send from here, lose nothing
            logger.warning("broker unreachable; sending invitation %s in the request", new.invitation.pk)
            send_invitation_task.apply(args=(new.invitation.pk, accept_url))

    transaction.on_commit(enqueue)


@transaction.atomic
def revoke_invitation(team: Team, actor: Any, invitation: Invitation) -> Invitation:
    _require_owner(team, actor)
    if invitation.state != InvitationState.PENDING:
        raise TeamError("invitation", f"only a pending invitation can be revoked (this one is {invitation.state})")
    invitation.revoked = timezone.now()
    invitation.save(update_fields=["revoked"])
    return invitation


def invitation_for_key(key: str) -> Invitation | None:
    if not key or len(key) > 100:
        return None
    return Invitation.objects.select_related("team", "invited_by").filter(key_digest=key_digest(key)).first()


@dataclass(frozen=True)
class Accepted:
    membership: Membership
    joined: bool  # False: the user was already a member, and keeps their role


@transaction.atomic
def accept_invitation(invitation: Invitation, user: Any) -> Accepted:
    """Make ``user`` a member with the invitation's role; the invitation is used up.

    Raises ``InvitationUnusable`` for an accepted, expired or revoked invitation.
    """
    claimed = Invitation.objects.filter(pk=invitation.pk).pending().update(accepted=timezone.now(), accepted_by=user)
    if claimed != 1:
        invitation.refresh_from_db()
        raise InvitationUnusable(invitation.state)
    existing = invitation.team.memberships.filter(user=user).first()
    if existing is not None:
        return Accepted(existing, joined=False)
    membership = Membership.objects.create(team=invitation.team, user=user, role=invitation.role)
    return Accepted(membership, joined=True)
