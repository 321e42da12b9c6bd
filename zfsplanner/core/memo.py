"""Remembering a pure function of a design's parts, which cannot be hashed (their ``extra`` is a dict).

The parts of a :class:`.design.types.Design` are frozen, so a figure computed from one of them holds
for as long as that object lives: :func:`by_identity` keeps each result with the object it was
computed from, by identity, and keeps the object alive with it so that no other object can take its
identity. One estimate asks for the ashift of the same vdev group from several places (the capacity,
the removal rules, three risk rules); it is worked out once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import TypeVar

__all__ = ["by_identity"]

Part = TypeVar("Part")
Key = TypeVar("Key", bound=Hashable)
Result = TypeVar("Result")


def by_identity(kept: int) -> Callable[[Callable[[Part, Key], Result]], Callable[[Part, Key], Result]]:
    """Decorate ``f(part, key)``: the result for the same ``part`` object and an equal ``key`` is
    computed once; at most ``kept`` results are kept (all forgotten when full)."""

    def decorate(f: Callable[[Part, Key], Result]) -> Callable[[Part, Key], Result]:
        seen: dict[tuple[int, Key], tuple[Part, Result]] = {}

        @wraps(f)
        def remembered(part: Part, key: Key) -> Result:
            hit = seen.get((id(part), key))
            if hit is not None and hit[0] is part:
                return hit[1]
            result = f(part, key)
            if len(seen) >= kept:
                seen.clear()
            seen[(id(part), key)] = (part, result)
            return result

        return remembered

    return decorate
