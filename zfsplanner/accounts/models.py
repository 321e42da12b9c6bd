"""Teams and membership roles.

A design belongs to a team; what a user may do with it follows their role in that
team: owners manage members, editors change designs, viewers only read.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


WRITE_ROLES = (Role.OWNER, Role.EDITOR)


class TeamQuerySet(models.QuerySet["Team"]):
    def for_user(self, user: object) -> TeamQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(memberships__user=user).distinct()


class Team(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = TeamQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def role_of(self, user: object) -> str | None:
        """The user's role in this team, or None for an outsider."""
        if not getattr(user, "is_authenticated", False):
            return None
        m = self.memberships.filter(user=user).only("role").first()
        return m.role if m else None

    def can_write(self, user: object) -> bool:
        return self.role_of(user) in WRITE_ROLES

    def can_manage(self, user: object) -> bool:
        return self.role_of(user) == Role.OWNER


class Membership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="unique_team_member")]
        ordering = ["team", "user"]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} as {self.role}"

    @property
    def is_rw(self) -> bool:
        return self.role in WRITE_ROLES
