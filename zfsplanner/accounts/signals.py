"""Reactions to account events, wherever they come from (pages, API, admin, manage.py)."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from allauth.socialaccount.signals import pre_social_login
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest

from . import services
from .adapter import accept_remembered_invitation
from .models import RevokeReason
from .sso import OIDC_PREFIX, oidc_groups, provider_login, remember_provider_login, sync_provider_teams
from .tokens import revoke_all


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.password_changed")
def revoke_tokens_on_password_change(sender: Any, instance: Any, created: bool, raw: bool, **kwargs: Any) -> None:
    """A new password revokes every API token of the account.

    ``set_password`` leaves the new password in ``_password`` until the save; Django's own
    rehashing of a password on log-in (same password, stronger hash) clears it first, so it
    does not count as a change.
    """
    if not created and not raw and getattr(instance, "_password", None) is not None:
        revoke_all(instance, RevokeReason.PASSWORD_CHANGED)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.trust_admin_made")
def trust_admin_made_accounts(sender: Any, instance: Any, created: bool, raw: bool, **kwargs: Any) -> None:
    """An account made by an administrator (admin, ``createsuperuser``, ``load_demo``) has its
    email address counted as verified; one made by signing up verifies it by the emailed link."""
    if created and not raw and instance.email and not getattr(instance, "_signed_up", False):
        from allauth.account.models import EmailAddress

        email = instance.email.lower()
        taken = EmailAddress.objects.filter(email__iexact=email, verified=True).exists()
        EmailAddress.objects.get_or_create(
            user=instance, email=email, defaults={"verified": not taken, "primary": True}
        )


@receiver(user_logged_in, dispatch_uid="accounts.accept_invitation")
def accept_invitation_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        accept_remembered_invitation(request, user)


@receiver(user_signed_up, dispatch_uid="accounts.account_made")
def note_the_account_made(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """The sign-up page counts against THROTTLE_SIGNUP only the requests that made an account (views.signup)."""
    if request is not None:
        request.account_made = True  # type: ignore[attr-defined]


@receiver(user_signed_up, dispatch_uid="accounts.personal_team")
def give_a_new_account_its_team(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Someone who signs up can save a design at once: they own a team of their own from the start.

    (Accounts made otherwise get theirs when they first create a design.)
    """
    services.personal_team(user)


@receiver(pre_social_login, dispatch_uid="accounts.provider_groups")
def note_provider_groups(sender: Any, request: HttpRequest, sociallogin: Any, **kwargs: Any) -> None:
    """An OpenID Connect log-in: note its provider and the ``groups`` claim before the user logs in."""
    provider = sociallogin.account.provider
    remember_provider_login(request, f"{OIDC_PREFIX}{provider}", oidc_groups(sociallogin.account.extra_data or {}))


@receiver(user_logged_in, dispatch_uid="accounts.provider_teams")
def apply_provider_teams(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """A log-in through a provider applies its groups to the user's teams (``SSO_GROUP_TEAMS``)."""
    login = provider_login(request, user)
    if login is not None:
        sync_provider_teams(user, login)
