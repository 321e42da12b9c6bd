"""Team pages: your teams, creating one, and (for owners) managing members and roles."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import services
from .models import Membership, Role, Team


def get_team_for_user(request: HttpRequest, slug: str) -> Team:
    """The team if the user is a member; 404 otherwise, so outsiders learn nothing."""
    team = Team.objects.for_user(request.user).filter(slug=slug).first()
    if team is None:
        raise Http404("No such team")
    return team


@login_required
@require_GET
def team_list(request: HttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("team").order_by("team__name")
    return render(request, "accounts/team_list.html", {"memberships": memberships})


@login_required
@require_POST
def team_create(request: HttpRequest) -> HttpResponse:
    try:
        team = services.create_team(request.user, request.POST.get("name", ""), request.POST.get("slug") or None)
    except services.TeamError as exc:
        memberships = Membership.objects.filter(user=request.user).select_related("team").order_by("team__name")
        context = {"memberships": memberships, "error": exc, "name": request.POST.get("name", "")}
        return render(request, "accounts/team_list.html", context, status=422)
    messages.success(request, f"Team {team.name} created; you are its owner.")
    return redirect("accounts:team-detail", slug=team.slug)


@login_required
@require_GET
def team_detail(request: HttpRequest, slug: str) -> HttpResponse:
    team = get_team_for_user(request, slug)
    return render(request, "accounts/team_detail.html", _detail_context(request, team))


def _detail_context(request: HttpRequest, team: Team, error: services.TeamError | None = None) -> dict[str, object]:
    return {
        "team": team,
        "members": team.memberships.select_related("user").order_by("user__username"),
        "can_manage": team.can_manage(request.user),
        "roles": Role.choices,
        "error": error,
        "designs": team.designs.order_by("name"),
    }


@login_required
@require_http_methods(["POST"])
def member_change(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners add a member (username + role), change a role, or remove a member."""
    team = get_team_for_user(request, slug)
    action = request.POST.get("action", "")
    try:
        if action == "add":
            services.add_member(
                team, request.user, request.POST.get("username", "").strip(), request.POST.get("role", "")
            )
        elif action in ("role", "remove"):
            membership = get_object_or_404(team.memberships, user_id=request.POST.get("user_id") or 0)
            if action == "role":
                services.change_role(team, request.user, membership, request.POST.get("role", ""))
            else:
                services.remove_member(team, request.user, membership)
        else:
            raise services.TeamError("action", "must be add, role or remove")
    except services.NotOwner:
        return HttpResponse("Only owners of the team manage its members.", status=403)
    except services.TeamError as exc:
        return render(request, "accounts/team_detail.html", _detail_context(request, team, exc), status=422)
    if action == "remove" and not team.memberships.filter(user=request.user).exists():
        messages.info(request, f"You left {team.name}.")
        return redirect("accounts:team-list")
    return redirect("accounts:team-detail", slug=team.slug)
