"""Sending an invitation's link: takes the invitation id, re-loads it, finds the address."""

from __future__ import annotations

import logging

from celery import shared_task
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import OperationalError
from django.template.loader import render_to_string

from .models import Invitation

logger = logging.getLogger(__name__)


def invitation_address(invitation: Invitation) -> str | None:
    """The invitee's email address: as typed, or that of the active account with the user name."""
    if invitation.by_email:
        return invitation.invitee
    from allauth.account.models import EmailAddress

    user = get_user_model().objects.filter(username__iexact=invitation.invitee, is_active=True).first()
    if user is None:
        return None
    primary = EmailAddress.objects.filter(user=user, primary=True).values_list("email", flat=True).first()
    return primary or user.email or None


# OSError covers an SMTP server that is down or refuses the connection.
@shared_task(autoretry_for=(OperationalError, OSError), retry_backoff=True, max_retries=5, acks_late=True)
def send_invitation_task(invitation_id: int, accept_url: str) -> None:
    invitation = Invitation.objects.select_related("team", "invited_by").filter(pk=invitation_id).first()
    if invitation is None or not invitation.is_pending:
        logger.info("invitation %s is gone or no longer pending; not sent", invitation_id)
        return
    address = invitation_address(invitation)
    if address is None:
        logger.info("invitation %s: no account with that user name has an email address", invitation_id)
        return
    context = {"invitation": invitation, "accept_url": accept_url}
    subject = render_to_string("accounts/email/invitation_subject.txt", context).strip()
    body = render_to_string("accounts/email/invitation_message.txt", context)
    send_mail(subject, body, None, [address])
