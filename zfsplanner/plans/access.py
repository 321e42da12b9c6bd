"""Who reaches a design, or a 404: team members (``get_design_for_user``, ``design_state``) and
whoever holds an active share link (``get_shared_design``, read only).

The designs a user sees are ``PoolDesign.objects.for_user(user)`` (the team scope every app
shares, in ``zfsplanner.accounts.models``); the teams they may write to are
``Team.objects.writable_by(user)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from zfsplanner.accounts.models import WRITE_ROLES, Membership, Team

from .models import PoolDesign, ShareLink


def get_design_for_user(request: HttpRequest, pk: int) -> tuple[PoolDesign, bool]:
    """The design if the user is in its team (else 404), and whether they may change it.

    One query: the design, its team and the user's role in it.
    """
    if not getattr(request.user, "is_authenticated", False):
        raise Http404("No such design.")
    role = Membership.objects.filter(team=OuterRef("team_id"), user=request.user).values("role")[:1]
    designs = PoolDesign.objects.select_related("team").annotate(viewer_role=Subquery(role))
    design = get_object_or_404(designs.exclude(viewer_role=None), pk=pk)
    return design, design.viewer_role in WRITE_ROLES  # type: ignore[attr-defined]


def get_writable_design_for_user(request: HttpRequest, pk: int, action: str = "change this design") -> PoolDesign:
    """The design if the user is an owner or editor of its team: 404 for an outsider, 403 saying who
    may ``action`` for a viewer."""
    design, can_write = get_design_for_user(request, pk)
    if not can_write:
        raise PermissionDenied(f"Only owners and editors of the team can {action}.")
    return design


@dataclass(frozen=True)
class DesignState:
    """What a design's cached page and estimate depend on, with the visitor's role in its team."""

    revision_key: str  # id, revision and last-saved time
    team_name: str
    role: str
    share_stamp: str  # changes when a share link is created, revoked or deleted

    @property
    def can_write(self) -> bool:
        return self.role in WRITE_ROLES


def design_state(user: Any, pk: object) -> DesignState | None:
    """The state of design ``pk`` if ``user`` is a member of its team, else None — in one small
    query, so that a cached page or estimate is served without loading the design.

    The same access rule as ``get_design_for_user`` (membership of the design's team), written
    as SQL because this runs on every view of a design page and every estimate request.
    """
    text = str(pk)
    if not getattr(user, "is_authenticated", False) or not (text.isascii() and text.isdigit()):
        return None
    design_id = int(text)
    if design_id > 2**63 - 1:
        return None
    sql = f"""
        SELECT d.revision, d.updated, t.name, m.role,
               (SELECT count(*) || ':' || coalesce(max(s.id), 0) || ':' || count(*) FILTER (WHERE s.revoked)
                  FROM {ShareLink._meta.db_table} s WHERE s.design_id = d.id)
          FROM {PoolDesign._meta.db_table} d
          JOIN {Team._meta.db_table} t ON t.id = d.team_id
          JOIN {Membership._meta.db_table} m ON m.team_id = d.team_id AND m.user_id = %s
         WHERE d.id = %s
    """  # noqa: S608 - table names from the models; values are parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, design_id])
        row = cursor.fetchone()
    if row is None:
        return None
    revision, updated, team_name, role, share_stamp = row
    return DesignState(f"{design_id}:{revision}:{str(updated).replace(' ', 'T')}", team_name, role, share_stamp)

def get_shared_design(token: str) -> PoolDesign:
    """The design an active link points to; 404 for unknown, revoked and expired tokens alike."""
    link = get_object_or_404(ShareLink.objects.active().select_related("design__team"), token=token)
    return link.design


