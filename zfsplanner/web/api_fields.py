"""Ids in request bodies, looked up only among what the requesting user may see.

A body that names another object by id (a run's ``design``, the ``team`` a pool import is
saved to) must not tell an object of someone else's team from an id that does not exist:
either answer would let anyone enumerate ids. :class:`VisibleObjectField` looks the id up
in ``scope(user)`` (the model's ``for_user`` queryset), so both answer the same 400:
"no design with id 7 in your teams". What the user may see is answered in full (a design
of another of their teams, a team where they are a viewer), by the view's own checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Model, QuerySet
from rest_framework import serializers


class VisibleObjectField(serializers.PrimaryKeyRelatedField):
    """A primary key among ``scope(request.user)``; unknown and not-yours are one answer."""

    default_error_messages = {
        "does_not_exist": "no {what} with id {pk_value} in your teams",
        "incorrect_type": "must be the id of a {what} (an integer), not {data_type}",
    }

    def __init__(self, *, scope: Callable[[Any], QuerySet[Any]], model: type[Model], what: str, **kwargs: Any):
        self.scope = scope
        self.what = what
        # The model names the field's type in the API schema; the lookup itself is get_queryset's.
        super().__init__(queryset=model._default_manager.none(), **kwargs)

    def get_queryset(self) -> QuerySet[Any]:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.queryset.none()  # type: ignore[union-attr]
        return self.scope(user)

    def fail(self, key: str, **kwargs: Any) -> Any:
        if key in ("does_not_exist", "incorrect_type"):
            kwargs.setdefault("what", self.what)
            if "pk_value" in kwargs:
                kwargs["pk_value"] = str(kwargs["pk_value"])[:40]
        return super().fail(key, **kwargs)
