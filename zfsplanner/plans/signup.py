"""A plan made in the quick planner before signing up belongs to the account from the moment it is made.

"Save as a design" sends a visitor to log in (or sign up) with the planner's whole state in ``next``
(``/plan/save/?layout=…``). Signing up saves that plan in the new account's own team at once, in the
sign-up request, with the unit it was read in as the account's unit: so it is there whichever device
or browser then confirms the e-mail address and logs in. The browser that signed up follows ``next``
after confirming and is shown the design (``services.designs.saved_unchanged`` finds it); another
device logs in to the designs list, where it is.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from django.http import HttpRequest
from django.urls import reverse

from zfsplanner.accounts.models import keep_unit
from zfsplanner.accounts.services import personal_team
from zfsplanner.core.design.types import InvalidDesign

from .forms.quick import FIELDS, QuickPlanForm, form_data
from .models import PoolDesign
from .services.designs import save_design_document

logger = logging.getLogger(__name__)
SIGNUP_SUMMARY = "from the quick planner, when the account was made"


def planned_query(request: HttpRequest | None) -> dict[str, str] | None:
    """The quick planner's state that a sign-up request carries in ``next`` (POST or GET), else None."""
    if request is None:
        return None
    target = request.POST.get("next") or request.GET.get("next") or ""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or parts.path != reverse("plans:quick-plan-save"):
        return None
    return {k: v for k, v in parse_qsl(parts.query) if k in FIELDS}


def keep_the_plan(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> PoolDesign | None:
    """On ``user_signed_up``: the plan the visitor was saving becomes a design of the new account."""
    query = planned_query(request)
    if query is None:
        return None
    data = form_data(query)
    form = QuickPlanForm(data)
    if not form.is_valid():
        return None  # a hand-edited link: the save page says what is wrong after log-in
    try:
        design = save_design_document(personal_team(user), form.document(), user, summary=SIGNUP_SUMMARY)
    except InvalidDesign:
        logger.info("sign-up of %s: the planned pool is not valid, nothing saved", user.pk)
        return None
    keep_unit(user, str(data["unit"]))
    return design
