"""Log-in stages that replace allauth's (see ``AccountAdapter.get_login_stages``)."""

from __future__ import annotations

from typing import Any

from allauth.account import stages

from .adapter import has_no_email


class EmailVerificationStage(stages.EmailVerificationStage):
    """allauth's check at log-in, except for accounts with no email address at all: there is nothing
    to confirm, and an administrator who made a superuser without one must still get in."""

    def handle(self) -> Any:
        user = self.login.user  # None when allauth plays a sign-up for an address already taken
        if user is not None and has_no_email(user):
            return None, True
        return super().handle()
