"""django-allauth glue: who may sign up, allowed email domains, and joining a team after
signing up or logging in from an invitation link.

An anonymous visitor who opens a pending invitation gets its key remembered in the
session (``remember_invitation``). When they then log in (or sign up, which logs in),
``accept_remembered_invitation`` adds them to the team and the adapter sends them to it.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import has_verified_email
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from . import services
from .models import Invitation

SESSION_INVITATION = "zfsplanner.invitation_key"
SESSION_JOINED_TEAM = "zfsplanner.joined_team"


def allowed_email(email: str) -> bool:
    domains = settings.SIGNUP_EMAIL_DOMAINS
    return not domains or email.rpartition("@")[2].lower() in domains


def remember_invitation(request: HttpRequest, key: str) -> None:
    request.session[SESSION_INVITATION] = key


def remembered_invitation(request: HttpRequest) -> Invitation | None:
    """The pending invitation this visitor opened, if any."""
    key = request.session.get(SESSION_INVITATION)
    invitation = services.invitation_for_key(key) if key else None
    return invitation if invitation is not None and invitation.is_pending else None


def accept_remembered_invitation(request: HttpRequest, user: Any) -> None:
    """After a log-in: accept the invitation opened before it, and say what happened."""
    key = request.session.pop(SESSION_INVITATION, None)
    invitation = services.invitation_for_key(key) if key else None
    if invitation is None:
        return
    try:
        accepted = services.accept_invitation(invitation, user)
    except services.InvitationUnusable as exc:
        messages.error(request, str(exc))
        return
    level = messages.SUCCESS if accepted.joined else messages.INFO
    messages.add_message(request, level, services.accepted_message(accepted))
    request.session[SESSION_JOINED_TEAM] = invitation.team.slug


def has_no_email(user: Any) -> bool:
    """An account without any email address: made by an administrator without one (sign-up needs one)."""
    from allauth.account.models import EmailAddress

    return not user.email and not EmailAddress.objects.filter(user=user).exists()


def must_verify_email(user: Any) -> bool:
    """Whether log-in (page or token endpoint) waits for the user to confirm an email address."""
    if settings.ACCOUNT_EMAIL_VERIFICATION != "mandatory" or has_no_email(user):
        return False
    return not has_verified_email(user)


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        original = "allauth.account.stages.EmailVerificationStage"
        ours = "zfsplanner.accounts.stages.EmailVerificationStage"
        return [ours if s == original else s for s in super().get_login_stages()]

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        mode = settings.SIGNUP_MODE
        if mode == "open":
            return True
        return mode == "invited" and remembered_invitation(request) is not None

    def is_email_verified(self, request: HttpRequest, email: str) -> bool:
        """Signing up with the address an invitation link was emailed to needs no second confirmation."""
        invitation = remembered_invitation(request)
        if invitation is not None and invitation.by_email and invitation.invitee.lower() == email.lower():
            return True
        return super().is_email_verified(request, email)

    def clean_email(self, email: str) -> str:
        email = super().clean_email(email)
        if not allowed_email(email):
            domains = ", ".join(settings.SIGNUP_EMAIL_DOMAINS)
            raise ValidationError(f"Use an email address at {domains}.")
        return email

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        # Accounts made by signing up prove their email address by the emailed link; see
        # signals.trust_admin_made_accounts for the others.
        user._signed_up = True
        return super().save_user(request, user, form, commit)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        return _joined_team_url(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request: HttpRequest) -> str:
        return _joined_team_url(request) or super().get_signup_redirect_url(request)


def _joined_team_url(request: HttpRequest) -> str | None:
    slug = request.session.pop(SESSION_JOINED_TEAM, None)
    return reverse("accounts:team-detail", args=[slug]) if slug else None


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    """Accounts of an identity provider's users: made at their first log-in (``SSO_CREATE_ACCOUNTS``),
    whatever ``SIGNUP_MODE`` says of local sign-up; linked to an existing account only by an address
    the provider says it verified (``SOCIALACCOUNT_EMAIL_AUTHENTICATION``, which reads only verified
    addresses)."""

    def is_open_for_signup(self, request: HttpRequest, sociallogin: Any) -> bool:
        return bool(settings.SSO_CREATE_ACCOUNTS)

    def pre_social_login(self, request: HttpRequest, sociallogin: Any) -> None:
        """A new provider account whose address the provider does not vouch for and that an account
        here already has does not get that address: the person is asked for another one (the local
        account's owner gets no e-mail on their behalf)."""
        if sociallogin.is_existing:
            return
        from allauth.account.models import EmailAddress
        from django.contrib.auth import get_user_model

        def taken(email: str) -> bool:
            return (EmailAddress.objects.filter(email__iexact=email).exists()
                    or get_user_model().objects.filter(email__iexact=email).exists())

        unvouched = {e.email.lower() for e in sociallogin.email_addresses if not e.verified and taken(e.email)}
        if unvouched:
            sociallogin.email_addresses = [e for e in sociallogin.email_addresses if e.email.lower() not in unvouched]
            if (sociallogin.user.email or "").lower() in unvouched:
                sociallogin.user.email = ""

    def save_user(self, request: HttpRequest, sociallogin: Any, form: Any = None) -> Any:
        # The provider's addresses are recorded by allauth with what the provider says of them
        # (signals.trust_admin_made_accounts is for accounts an administrator makes).
        sociallogin.user._signed_up = True
        return super().save_user(request, sociallogin, form)
