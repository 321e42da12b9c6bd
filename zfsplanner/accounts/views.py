"""Team pages (your teams, creating one, members, invitations), the invitation link, and your
profile (display name, email, API tokens, teams, leaving one)."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.views import signup as allauth_signup
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from zfsplanner.web.throttling import page_refund, page_throttled

from . import services, tokens
from .access import get_team_for_user
from .adapter import remember_invitation
from .forms import DisplayNameForm, InvitationForm, TokenForm, UnitForm
from .models import ApiToken, Membership, Profile, Role, Team


def _memberships(request: HttpRequest) -> list[Membership]:
    memberships = list(Membership.objects.filter(user=request.user).select_related("team").order_by("team__name"))
    for m in memberships:
        m.last_owner = m.role == Role.OWNER and services.is_last_owner(m.team, request.user)  # type: ignore[attr-defined]
    return memberships


@login_required
@require_GET
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/team_list.html", {"memberships": _memberships(request)})


@login_required
@require_POST
def team_create(request: HttpRequest) -> HttpResponse:
    try:
        team = services.create_team(request.user, request.POST.get("name", ""))
    except services.TeamError as exc:
        context = {"memberships": _memberships(request), "error": exc, "name": request.POST.get("name", "")}
        return render(request, "accounts/team_list.html", context, status=422)
    messages.success(request, f"Team {team.name} created; you are its owner. Invite people below.")
    return redirect("accounts:team-detail", slug=team.slug)


@login_required
@require_GET
def team_detail(request: HttpRequest, slug: str) -> HttpResponse:
    team = get_team_for_user(request, slug)
    return render(request, "accounts/team_detail.html", _detail_context(request, team))


def _detail_context(
    request: HttpRequest, team: Team, error: services.TeamError | None = None, form: InvitationForm | None = None
) -> dict[str, object]:
    can_manage = team.can_manage(request.user)
    invitations = team.invitations.select_related("invited_by", "accepted_by")[:50] if can_manage else []
    members = team.memberships.select_related("user").order_by("user__username")
    return {
        "team": team,
        "members": members,
        "own_source": next((m.source for m in members if m.user_id == request.user.pk), ""),
        "can_manage": can_manage,
        "roles": Role.choices,
        "error": error,
        "designs": team.designs.order_by("name"),
        "invitations": invitations,
        "invite_form": form or InvitationForm(),
    }


@login_required
@require_POST
def member_change(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners change a member's role or remove a member; members remove themselves (leave)."""
    team = get_team_for_user(request, slug)
    action = request.POST.get("action", "")
    user_id = request.POST.get("user_id", "")
    user_id = int(user_id) if user_id.isascii() and user_id.isdigit() else 0
    membership = get_object_or_404(team.memberships, user_id=user_id)
    try:
        if action == "role":
            services.change_role(team, request.user, membership, request.POST.get("role", ""))
        elif action == "remove":
            services.remove_member(team, request.user, membership)
        else:
            raise services.TeamError("action", "must be role or remove")
    except services.NotOwner:
        return HttpResponse("Only owners of the team manage its members.", status=403)
    except services.TeamError as exc:
        return render(request, "accounts/team_detail.html", _detail_context(request, team, exc), status=422)
    if membership.user_id == request.user.pk and action == "remove":
        messages.info(request, f"You left {team.name}.")
        return redirect("accounts:team-list")
    return redirect("accounts:team-detail", slug=team.slug)


@login_required
@require_POST
def team_leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Leave a team (from the profile or the team page); the last owner cannot."""
    team = get_team_for_user(request, slug)
    back = "accounts:profile" if request.POST.get("from") == "profile" else "accounts:team-list"
    try:
        services.leave_team(team, request.user)
    except services.TeamError as exc:
        messages.error(request, f"You cannot leave {team.name}: {exc.message}.")
        return redirect(back)
    messages.info(request, f"You left {team.name}.")
    return redirect(back)


@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    team = get_team_for_user(request, slug)
    if not team.can_manage(request.user):
        return HttpResponse("Only owners of the team invite people.", status=403)
    form = InvitationForm(request.POST)
    try:
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            raise services.TeamError(field, " ".join(errors))
        new = services.invite(team, request.user, form.cleaned_data["invitee"], form.cleaned_data["role"])
    except services.TeamError as exc:
        return render(request, "accounts/team_detail.html", _detail_context(request, team, exc, form), status=422)
    url = request.build_absolute_uri(reverse("accounts:invitation-accept", args=[new.key]))
    services.send_invitation(new, url)
    messages.success(request, services.invitation_sent_message(new.invitation))
    return redirect("accounts:team-detail", slug=team.slug)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    team = get_team_for_user(request, slug)
    if not team.can_manage(request.user):
        return HttpResponse("Only owners of the team manage its invitations.", status=403)
    invitation = get_object_or_404(team.invitations, pk=pk)
    try:
        services.revoke_invitation(team, request.user, invitation)
    except services.TeamError as exc:
        return render(request, "accounts/team_detail.html", _detail_context(request, team, exc), status=422)
    messages.info(request, f"The invitation for {invitation.invitee} is revoked; its link no longer works.")
    return redirect("accounts:team-detail", slug=team.slug)


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, key: str) -> HttpResponse:
    """The link in the invitation email. Logged in: a button joins. Not logged in: the key is
    remembered and logging in or signing up joins (see ``adapter``)."""
    invitation = services.invitation_for_key(key)
    if invitation is None:
        context = {"title": "Invitation not valid", "message": services.UNKNOWN_INVITATION}
        return render(request, "accounts/invitation_unusable.html", context, status=404)
    if not invitation.is_pending:
        return _unusable(request, services.InvitationUnusable(invitation.state))
    if not request.user.is_authenticated:
        remember_invitation(request, key)
        context = {"invitation": invitation, "can_sign_up": get_adapter(request).is_open_for_signup(request)}
        return render(request, "accounts/invitation_accept.html", context)
    if request.method == "GET":
        return render(request, "accounts/invitation_accept.html", {"invitation": invitation})
    try:
        accepted = services.accept_invitation(invitation, request.user)
    except services.InvitationUnusable as exc:
        return _unusable(request, exc)
    messages.success(request, services.accepted_message(accepted))
    return redirect("accounts:team-detail", slug=invitation.team.slug)


def _unusable(request: HttpRequest, exc: services.InvitationUnusable) -> HttpResponse:
    """410 Gone with what happened to the invitation, in words for the person holding the link."""
    context = {"title": exc.TITLES[exc.state], "message": str(exc)}
    return render(request, "accounts/invitation_unusable.html", context, status=410)


# --------------------------------------------------------------------------- profile


def _profile_context(request: HttpRequest, **extra: object) -> dict[str, object]:
    all_tokens = ApiToken.objects.filter(user=request.user)
    context: dict[str, object] = {
        "name_form": DisplayNameForm(initial={"display_name": request.user.first_name}),  # type: ignore[union-attr]
        "token_form": TokenForm(),
        "active_tokens": all_tokens.active(),
        "old_tokens": all_tokens.exclude(pk__in=all_tokens.active().values("pk"))[:20],
        "memberships": _memberships(request),
        "unit_form": _unit_form(request),
    }
    context.update(extra)
    return context


def _unit_form(request: HttpRequest, data: object = None) -> UnitForm:
    instance = Profile.objects.filter(user=request.user).first() or Profile(user=request.user)
    return UnitForm(data, instance=instance)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and "size_unit" in request.POST:
        unit_form = _unit_form(request, request.POST)
        if not unit_form.is_valid():
            return render(request, "accounts/profile.html", _profile_context(request, unit_form=unit_form), status=422)
        unit_form.save()
        messages.success(request, f"Sizes are now shown in {unit_form.instance.size_unit}.")
        return redirect("accounts:profile")
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if not form.is_valid():
            return render(request, "accounts/profile.html", _profile_context(request, name_form=form), status=422)
        request.user.first_name = form.cleaned_data["display_name"]  # type: ignore[union-attr]
        request.user.save(update_fields=["first_name"])  # type: ignore[union-attr]
        messages.success(request, "Display name saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", _profile_context(request))


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """A new token is shown on the page this once (never stored in clear, never in a redirect)."""
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            token, key = tokens.issue_token(request.user, form.cleaned_data["name"], form.cleaned_data["days"])
        except tokens.TokenError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            context = _profile_context(request, new_token=token, new_key=key)
            return render(request, "accounts/profile.html", context, status=201)
    return render(request, "accounts/profile.html", _profile_context(request, token_form=form), status=422)


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    tokens.revoke_token(token)
    messages.info(request, f"Token {token.name!r} revoked; scripts using it now get 401.")
    return redirect("accounts:profile")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """The sign-up page (allauth's), with at most THROTTLE_SIGNUP accounts made per client address:
    past it, 429 with Retry-After. A form refused (a typo, a name taken) does not count."""
    if request.method != "POST":
        return allauth_signup(request)
    throttled = page_throttled(request, "signup", "Too many accounts were created from your address")
    if throttled is not None:
        return throttled
    response = allauth_signup(request)
    if not getattr(request, "account_made", False):
        page_refund(request, "signup")
    return response
