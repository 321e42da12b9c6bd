from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django import template
from django.conf import settings

from ..sso import source_label

register = template.Library()


@register.simple_tag(takes_context=True)
def signup_open(context: Any) -> bool:
    """Whether this visitor may sign up (SIGNUP_MODE, and an invitation when it is "invited")."""
    request = context.get("request")
    return request is not None and get_adapter(request).is_open_for_signup(request)


@register.simple_tag
def signup_domains() -> str:
    """The allowed email domains, as "@a.example or @b.example", or "" when any domain is allowed."""
    return " or ".join(f"@{d}" for d in settings.SIGNUP_EMAIL_DOMAINS)


@register.filter
def provider_name(source: str) -> str:
    """A membership's identity provider in words ("Keycloak", "LDAP", "the sign-in proxy")."""
    return source_label(source)
