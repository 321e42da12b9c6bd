"""Work done once for identical parts: by identity, and copies alike but for one field."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zfsplanner.core.memo import by_identity, copy_with


@dataclass(frozen=True)
class Part:
    name: str
    extra: dict[str, Any] = field(default_factory=dict)  # what makes a design's parts unhashable


def test_a_result_is_worked_out_once_per_object_and_key():
    calls: list[tuple[str, str]] = []

    @by_identity(kept=8)
    def work(part: Part, key: str) -> str:
        calls.append((part.name, key))
        return f"{part.name}@{key}"

    a, b = Part("a"), Part("a")  # equal, not the same object
    assert work(a, "2.3") == work(a, "2.3") == "a@2.3"
    assert work(b, "2.3") == "a@2.3"
    assert work(a, "2.4") == "a@2.4"
    assert calls == [("a", "2.3"), ("a", "2.3"), ("a", "2.4")]


def test_what_is_kept_is_bounded_and_forgotten_whole():
    calls = 0

    @by_identity(kept=2)
    def work(part: Part, key: int) -> int:
        nonlocal calls
        calls += 1
        return key

    parts = [Part(str(i)) for i in range(3)]
    for p in parts:
        work(p, 0)
    work(parts[2], 0)  # kept: the third came after the first two were forgotten
    work(parts[0], 0)  # forgotten
    assert calls == 4


def test_a_copy_differs_only_in_the_changed_fields():
    extra = {"k": 1}
    one = Part("a", extra)
    other = copy_with(one, name="b")
    assert other == Part("b", extra) and other is not one
    assert other.extra is extra
    assert one == Part("a", extra)
