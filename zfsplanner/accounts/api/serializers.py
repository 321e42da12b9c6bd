"""API shapes for teams, members, invitations, API tokens and one's own profile.

Only validation and conversion here; the rules live in ``accounts.services`` and ``accounts.tokens``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework import serializers

from ..models import ApiToken, Invitation, InvitationState, Membership, RevokeReason, Role, Team, TokenState
from ..services import TeamError, clean_team_name
from ..tokens import MAX_TOKEN_DAYS


class TeamSerializer(serializers.ModelSerializer):
    slug = serializers.SlugField(read_only=True, help_text="The team's address: its name plus a random suffix.")
    role = serializers.SerializerMethodField(help_text="Your role in this team.")

    class Meta:
        model = Team
        fields = ["id", "name", "slug", "role", "created"]

    def get_role(self, team: Team) -> str | None:
        return team.role_of(self.context["request"].user)

    def validate_name(self, value: str) -> str:
        try:
            return clean_team_name(value)
        except TeamError as exc:
            raise serializers.ValidationError(exc.message) from exc


class MembershipSerializer(serializers.ModelSerializer):
    user_id = serializers.IntegerField(source="user.pk", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    display_name = serializers.CharField(source="user.first_name", read_only=True)
    role = serializers.ChoiceField(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["user_id", "username", "display_name", "role", "created"]
        read_only_fields = ["created"]


class MemberAddSerializer(serializers.Serializer):
    """Adding a member sends them an invitation; the answer is the same whether the user exists or not."""

    username = serializers.CharField(max_length=254, help_text="User name or email address of the person.")
    role = serializers.ChoiceField(choices=Role.choices, default=Role.VIEWER)


class InvitationSerializer(serializers.ModelSerializer):
    state = serializers.ChoiceField(choices=InvitationState.choices, read_only=True)
    invited_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    accepted_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = Invitation
        fields = ["id", "invitee", "role", "state", "created", "expires", "invited_by", "accepted", "accepted_by"]
        read_only_fields = fields


class InvitationCreateSerializer(serializers.Serializer):
    email = serializers.CharField(required=False, max_length=254, help_text="Invite this address ...")
    username = serializers.CharField(required=False, max_length=254, help_text="... or the account with this name.")
    role = serializers.ChoiceField(choices=Role.choices, default=Role.VIEWER)
    expires_in_days = serializers.IntegerField(
        required=False, min_value=1, max_value=90, help_text="Default: INVITATION_DAYS (14)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [f for f in ("email", "username") if attrs.get(f)]
        if len(given) != 1:
            raise serializers.ValidationError({"email": "give either email or username (exactly one)"})
        attrs["field"] = given[0]
        return attrs


class MemberAddedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    invitation = InvitationSerializer()


class InvitationAcceptSerializer(serializers.Serializer):
    key = serializers.CharField(max_length=100, help_text="The key at the end of the invitation link.")


class InvitationAcceptedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    team = TeamSerializer()
    role = serializers.ChoiceField(choices=Role.choices)
    joined = serializers.BooleanField(help_text="False if you were already a member (your role is unchanged).")


class ApiTokenSerializer(serializers.ModelSerializer):
    state = serializers.ChoiceField(choices=TokenState.choices, read_only=True)
    revoked_reason = serializers.ChoiceField(choices=[("", ""), *RevokeReason.choices], read_only=True)

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "state", "created", "expires", "last_used", "revoked", "revoked_reason"]
        read_only_fields = fields


class ApiTokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    expires_in_days = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_TOKEN_DAYS,
        help_text="Days until the token stops working; null: never. Default: API_TOKEN_DAYS (90).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs.setdefault("expires_in_days", settings.API_TOKEN_DAYS)
        return attrs


class NewApiTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(read_only=True, help_text="The key: shown this once; send it as 'Token <key>'.")

    class Meta(ApiTokenSerializer.Meta):
        fields = ["token", *ApiTokenSerializer.Meta.fields]
        read_only_fields = fields


class TokenObtainSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=254, help_text="User name or email address.")
    password = serializers.CharField(max_length=4096, style={"input_type": "password"}, trim_whitespace=False)
    name = serializers.CharField(max_length=100, required=False, default="api/auth/token")
    expires_in_days = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_TOKEN_DAYS, help_text="Default: 90; null: never."
    )


class ProfileSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(
        source="first_name", max_length=150, allow_blank=True, help_text="Shown to your teams instead of the user name."
    )

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "display_name", "email"]
        read_only_fields = ["id", "username", "email"]

    def validate_display_name(self, value: str) -> str:
        value = value.strip()
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise serializers.ValidationError("must not contain control characters")
        return value
