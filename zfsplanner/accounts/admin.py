from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from . import services
from .models import ApiToken, Invitation, Membership, RevokeReason, Team
from .tokens import revoke_token

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Django's user admin; an account added here gets its own team, as one made by signing up does."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            services.personal_team(obj)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "personal_for", "created"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["team", "user", "role"]
    list_filter = ["role"]
    search_fields = ["team__name", "user__username"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations are made by team owners (the key is emailed, never stored); staff only look and revoke."""

    list_display = ["invitee", "team", "role", "state", "created", "expires", "invited_by", "accepted_by"]
    list_filter = ["role"]
    search_fields = ["invitee", "team__name"]
    readonly_fields = [f.name for f in Invitation._meta.fields]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Revoke the selected pending invitations")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Invitation]) -> None:
        count = queryset.pending().update(revoked=timezone.now())  # type: ignore[attr-defined]
        self.message_user(request, f"{count} invitation(s) revoked.")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their users (the key is shown to them once); staff only look and revoke."""

    list_display = ["name", "user", "prefix", "state", "created", "expires", "last_used"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = [f.name for f in ApiToken._meta.fields]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        tokens: Any = queryset.filter(revoked__isnull=True)
        count = 0
        for token in tokens:
            revoke_token(token, RevokeReason.BY_ADMIN)
            count += 1
        self.message_user(request, f"{count} token(s) revoked.")
