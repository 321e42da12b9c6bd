"""REST API: teams, members and invitations; API tokens; your profile.

Adding a member by user name sends an invitation and answers 202 whether or not the account
exists; the person joins when they accept it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.core.internal.ratelimit import parse_rates
from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import services, tokens
from ..adapter import must_verify_email
from ..models import ApiToken, Team
from .serializers import (
    ApiTokenCreateSerializer,
    ApiTokenSerializer,
    InvitationAcceptedSerializer,
    InvitationAcceptSerializer,
    InvitationCreateSerializer,
    InvitationSerializer,
    MemberAddedSerializer,
    MemberAddSerializer,
    MembershipSerializer,
    NewApiTokenSerializer,
    ProfileSerializer,
    TeamSerializer,
    TokenObtainSerializer,
)

BAD_CREDENTIALS = "Unable to log in with provided credentials."
GONE = OpenApiResponse(description="The invitation was used, has expired or was revoked; `detail` says which.")


@contextmanager
def team_errors() -> Iterator[None]:
    """The services' refusals as API errors: 400 naming the field, 403 for non-owners."""
    try:
        yield
    except services.TeamError as exc:
        raise ValidationError({exc.field: exc.message}) from exc
    except services.NotOwner as exc:
        raise PermissionDenied(str(exc)) from exc


def _owner_only(team: Team, user: Any) -> None:
    if not team.can_manage(user):
        raise PermissionDenied("Only owners of the team manage its members and invitations.")


def _send(request: Request, new: services.NewInvitation) -> None:
    url = request.build_absolute_uri(reverse("accounts:invitation-accept", args=[new.key]))
    services.send_invitation(new, url)


class CanManageTeam(permissions.BasePermission):
    message = "Only owners of the team can change it or its members."

    def has_object_permission(self, request: Request, view: Any, obj: Team) -> bool:
        if view.action in ("update", "partial_update", "destroy"):
            return obj.can_manage(request.user)
        return True  # member and invitation actions check the role themselves


class TeamViewSet(viewsets.ModelViewSet):
    """Your teams. Creating a team makes you its owner; owners invite and manage members."""

    serializer_class = TeamSerializer
    permission_classes = [permissions.IsAuthenticated, CanManageTeam]

    def get_queryset(self) -> QuerySet[Team]:
        return Team.objects.for_user(self.request.user)

    def perform_create(self, serializer: TeamSerializer) -> None:  # type: ignore[override]
        with team_errors():
            serializer.instance = services.create_team(self.request.user, serializer.validated_data["name"])

    @extend_schema(methods=["GET"], responses={200: MembershipSerializer(many=True)})
    @extend_schema(methods=["POST"], request=MemberAddSerializer, responses={202: MemberAddedSerializer})
    @action(detail=True, methods=["get", "post"], serializer_class=MembershipSerializer, pagination_class=None)
    def members(self, request: Request, pk: str | None = None) -> Response:
        """List members; owners add one with ``{"username": ..., "role": "viewer"}``, which sends an
        invitation (202, the same answer whether or not such an account exists)."""
        team = self.get_object()
        if request.method == "GET":
            members = team.memberships.select_related("user").order_by("user__username")
            return Response(MembershipSerializer(members, many=True).data)
        _owner_only(team, request.user)
        data = MemberAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with team_errors():
            new = services.invite(
                team, request.user, data.validated_data["username"], data.validated_data["role"], field="username"
            )
        _send(request, new)
        body = {"detail": services.invitation_sent_message(new.invitation), "invitation": new.invitation}
        return Response(MemberAddedSerializer(body).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(methods=["PUT", "PATCH"], request=MembershipSerializer, responses={200: MembershipSerializer})
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(
        detail=True,
        methods=["put", "patch", "delete"],
        url_path=r"members/(?P<user_id>[0-9]{1,18})",
        serializer_class=MembershipSerializer,
    )
    def member(self, request: Request, pk: str | None = None, user_id: str = "") -> Response:
        """Owners change a member's role (``{"role": "editor"}``) or remove them; anyone removes
        themselves (leaves), except the last owner."""
        team = self.get_object()
        leaving = request.method == "DELETE" and int(user_id) == request.user.pk
        if not leaving:
            _owner_only(team, request.user)
        membership = get_object_or_404(team.memberships, user_id=int(user_id))
        with team_errors():
            if request.method == "DELETE":
                services.remove_member(team, request.user, membership)
                return Response(status=status.HTTP_204_NO_CONTENT)
            membership = services.change_role(team, request.user, membership, str(request.data.get("role")))
        return Response(MembershipSerializer(membership).data)

    @extend_schema(methods=["GET"], responses={200: InvitationSerializer(many=True)})
    @extend_schema(methods=["POST"], request=InvitationCreateSerializer, responses={201: InvitationSerializer})
    @action(detail=True, methods=["get", "post"], serializer_class=InvitationSerializer)
    def invitations(self, request: Request, pk: str | None = None) -> Response:
        """Owners list the team's invitations (newest first, with their state) and invite someone by
        ``email`` or ``username``; the link is emailed, never returned."""
        team = self.get_object()
        _owner_only(team, request.user)
        if request.method == "GET":
            page = self.paginate_queryset(team.invitations.select_related("invited_by", "accepted_by"))
            return self.get_paginated_response(InvitationSerializer(page, many=True).data)
        data = InvitationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        field = data.validated_data["field"]
        with team_errors():
            new = services.invite(
                team,
                request.user,
                data.validated_data[field],
                data.validated_data["role"],
                days=data.validated_data.get("expires_in_days"),
                field=field,
            )
        _send(request, new)
        return Response(InvitationSerializer(new.invitation).data, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses={200: InvitationSerializer})
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(
        detail=True,
        methods=["get", "delete"],
        url_path=r"invitations/(?P<invitation_id>[0-9]+)",
        serializer_class=InvitationSerializer,
    )
    def invitation(self, request: Request, pk: str | None = None, invitation_id: str = "") -> Response:
        """One invitation; DELETE revokes it while pending (it stays listed as revoked)."""
        team = self.get_object()
        _owner_only(team, request.user)
        invitation = get_object_or_404(team.invitations, pk=int(invitation_id))
        if request.method == "DELETE":
            with team_errors():
                services.revoke_invitation(team, request.user, invitation)
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(InvitationSerializer(invitation).data)


class InvitationAcceptView(APIView):
    """Accept an invitation with the key from its link: you join the team with the invited role."""

    @extend_schema(
        request=InvitationAcceptSerializer,
        responses={
            200: InvitationAcceptedSerializer,
            404: OpenApiResponse(description="No invitation has this key."),
            410: GONE,
        },
    )
    def post(self, request: Request) -> Response:
        data = InvitationAcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invitation_for_key(data.validated_data["key"])
        if invitation is None:
            raise NotFound(services.UNKNOWN_INVITATION)
        try:
            accepted = services.accept_invitation(invitation, request.user)
        except services.InvitationUnusable as exc:
            return Response({"detail": str(exc), "state": exc.state}, status=status.HTTP_410_GONE)
        team = invitation.team
        body = {
            "detail": services.accepted_message(accepted),
            "team": team,
            "role": accepted.membership.role,
            "joined": accepted.joined,
        }
        return Response(InvitationAcceptedSerializer(body, context={"request": request}).data)


def _login_failed_window() -> int:
    """Seconds until a blocked client may try again: the longest window of LOGIN_FAILED_LIMIT."""
    rates = parse_rates(settings.ACCOUNT_RATE_LIMITS.get("login_failed"))
    return int(max((rate.duration for rate in rates), default=60))


class TokenObtainView(APIView):
    """Exchange a user name (or email address) and password for a new API token.

    Throttled per client address (429 with ``Retry-After``); failed attempts also count toward the
    log-in page's limit for the same account. Each call makes a new named token.
    """

    authentication_classes: list[type] = []
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"post": "auth-token"}  # per client address (zfsplanner.web.throttling)

    @extend_schema(
        request=TokenObtainSerializer,
        responses={
            200: NewApiTokenSerializer,
            400: OpenApiResponse(description="Wrong credentials (the same answer for unknown users)."),
            429: OpenApiResponse(description="Too many attempts; see the Retry-After header."),
        },
    )
    def post(self, request: Request) -> Response:
        data = TokenObtainSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request
        try:
            user = get_adapter(django_request).authenticate(
                django_request, username=data.validated_data["username"], password=data.validated_data["password"]
            )
        except DjangoValidationError as exc:  # allauth's "too many failed login attempts"
            raise Throttled(wait=_login_failed_window(), detail=" ".join(exc.messages)) from exc
        if user is None:
            raise ValidationError({"non_field_errors": [BAD_CREDENTIALS]})
        if must_verify_email(user):
            raise ValidationError({"non_field_errors": ["Verify your email address first (see the email we sent)."]})
        days = data.validated_data.get("expires_in_days", settings.API_TOKEN_DAYS)
        with team_errors():
            token, key = tokens.issue_token(user, data.validated_data["name"], days)
        token.token = key  # type: ignore[attr-defined]
        return Response(NewApiTokenSerializer(token).data)


class ApiTokenViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Your API tokens (newest first). Create one with a name and a lifetime; DELETE revokes it.
    A password change revokes them all."""

    serializer_class = ApiTokenSerializer
    queryset = ApiToken.objects.none()  # for the schema; requests get their own tokens below

    def get_queryset(self) -> QuerySet[ApiToken]:
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user)

    @extend_schema(request=ApiTokenCreateSerializer, responses={201: NewApiTokenSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = ApiTokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with team_errors():
            token, key = tokens.issue_token(
                request.user, data.validated_data["name"], data.validated_data["expires_in_days"]
            )
        token.token = key  # type: ignore[attr-defined]
        return Response(NewApiTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: ApiToken) -> None:
        tokens.revoke_token(instance)


class ProfileView(generics.RetrieveUpdateAPIView):
    """You: user name, display name (changeable) and email address (changed in the browser, where
    the new address is verified)."""

    serializer_class = ProfileSerializer

    def get_object(self) -> Any:
        return self.request.user

