"""Pagination for the API lists: ``?limit=&offset=`` with bounds the database can take."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 2**31 - 1


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """A larger ``limit`` is cut to ``max_limit``; an ``offset`` past a 32-bit integer is a 400 naming it
    (PostgreSQL cannot take it in ``OFFSET``)."""

    max_limit = 1000

    def get_offset(self, request: Any) -> int:
        offset = super().get_offset(request)
        if offset > MAX_OFFSET:
            raise ValidationError({"offset": f"must be at most {MAX_OFFSET}"})
        return offset
