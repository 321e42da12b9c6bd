"""Doing the work for identical parts of a design once: remembering a pure function of a part, which
cannot be hashed (its ``extra`` is a dict), and copying a figure for parts alike but for one field.

The parts of a :class:`.design.types.Design` are frozen, so a figure computed from one of them holds
for as long as that object lives: :func:`by_identity` keeps each result with the object it was
computed from, by identity, and keeps the object alive with it so that no other object can take its
identity. One estimate asks for the ashift of the same vdev group from several places (the capacity,
the removal rules, three risk rules); it is worked out once.

:func:`copy_with` copies a frozen figure with some fields changed, without building it field by field
again: a group of 58 vdevs has 58 figures alike but for their index.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import TypeVar

__all__ = ["by_identity", "copy_with"]

Part = TypeVar("Part")
Figure = TypeVar("Figure")
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


def copy_with(figure: Figure, **changes: object) -> Figure:
    """A copy of the frozen dataclass ``figure`` with ``changes``, its fields copied as they are (its
    ``__init__`` and ``__post_init__`` are not run again: for a figure that has neither checks nor
    derived fields)."""
    copy: Figure = object.__new__(type(figure))
    copy.__dict__.update(figure.__dict__)
    copy.__dict__.update(changes)
    return copy
