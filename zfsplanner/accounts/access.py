"""Who reaches a team, or a 404: its members (``Team.objects.for_user``), so outsiders learn nothing."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from .models import Team


def get_team_for_user(request: HttpRequest, slug: str) -> Team:
    """The team if the user is a member; 404 otherwise."""
    team = Team.objects.for_user(request.user).filter(slug=slug).first()
    if team is None:
        raise Http404("No such team")
    return team
