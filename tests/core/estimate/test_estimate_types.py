"""The estimate is typed all the way down: frozen dataclasses, tuples of them, and plain values.

Pages and reports read the estimate by attribute; a section that went back to a dict (or a
list, or ``Any``) would let a reader fall back to keys. Figures the document keys by a name
(a drive's failure rate, a vdev group's rebuild speed) are tuples of records carrying that name.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from pathlib import Path

import pytest

from zfsplanner.core.design.types import Design
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import Estimate, estimate

ROOT = Path(__file__).resolve().parents[3]
DESIGNS = sorted(
    p
    for folder in (
        ROOT / "examples",
        ROOT / "tests" / "plans" / "designs",
        ROOT / "tests" / "core" / "golden" / "designs",
    )
    for p in folder.glob("*.json")
)
SCALARS = (bool, int, float, str, type(None))
# The design a growth option leads to is the design's own type (typed by the design package, with
# the document's unknown keys kept in its ``extra``): a leaf here, as a scalar is.
LEAVES = (Design,)


def untyped_fields(tp: object, path: str, seen: set[type]) -> list[str]:
    """Where in ``tp``'s annotations something other than a scalar, a frozen dataclass or a tuple is."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return [bad for arg in typing.get_args(tp) for bad in untyped_fields(arg, path, seen)]
    if origin is tuple:
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return [bad for arg in args for bad in untyped_fields(arg, f"{path}[]", seen)]
    if isinstance(tp, type) and (tp in SCALARS + LEAVES or issubclass(tp, Enum) and issubclass(tp, str | int)):
        return []
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not tp.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{path} ({tp.__name__} is not frozen)"]
        if tp in seen:
            return []
        seen.add(tp)
        hints = typing.get_type_hints(tp)
        return [bad for f in dataclasses.fields(tp) for bad in untyped_fields(hints[f.name], f"{path}.{f.name}", seen)]
    return [f"{path}: {tp}"]


def untyped_values(value: object, path: str) -> list[str]:
    """Where in an estimate a value is something other than a scalar, a dataclass or a tuple."""
    if isinstance(value, SCALARS + LEAVES):
        return []
    if isinstance(value, tuple):
        return [bad for i, v in enumerate(value) for bad in untyped_values(v, f"{path}[{i}]")]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            bad for f in dataclasses.fields(value) for bad in untyped_values(getattr(value, f.name), f"{path}.{f.name}")
        ]
    return [f"{path}: {type(value).__name__}"]


def test_every_field_of_the_estimate_is_typed():
    assert untyped_fields(Estimate, "Estimate", set()) == []


def test_the_checks_catch_a_section_that_is_a_mapping():
    @dataclasses.dataclass(frozen=True)
    class Loose:
        sizing: typing.Mapping[str, typing.Any]

    assert untyped_fields(Loose, "Loose", set()) == ["Loose.sizing: typing.Mapping[str, typing.Any]"]
    assert untyped_values(Loose({"slog": {}}), "Loose") == ["Loose.sizing: dict"]


@pytest.mark.parametrize("path", DESIGNS, ids=[p.stem for p in DESIGNS])
def test_every_value_of_an_estimate_is_typed(path):
    e = estimate(parse_design(json.loads(path.read_text())))
    assert untyped_values(e, "estimate") == []


def test_the_corpus_fills_the_optional_planning_sections():
    """The value check above sees the dedup table, its home and a SLOG's sync range somewhere."""
    estimates = [estimate(parse_design(json.loads(p.read_text()))) for p in DESIGNS]
    assert any(e.sizing.dedup_table is not None and e.sizing.dedup_table_home is not None for e in estimates)
    assert any(e.performance.sync_write_iops_with_slog is not None for e in estimates)
    assert any(e.special.hypothetical for e in estimates) and not all(e.special.hypothetical for e in estimates)
