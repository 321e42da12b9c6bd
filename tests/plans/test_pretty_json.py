"""The JSON editor and the export write a document as ``json.dumps(doc, indent=2, ensure_ascii=False)``
does, whichever library writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.perf.bench_estimate import big_design
from zfsplanner.plans.presentation.pages import pretty_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def _standard(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_is_written_as_json_writes_it(path):
    doc = json.loads(path.read_text())
    assert pretty_json(doc) == _standard(doc)


@pytest.mark.parametrize(
    "doc",
    [
        big_design(),
        # one a document: json writes an exponent, orjson too but spelled otherwise
        {"ratio": 1e-05},
        {"ratio": 9.9999e-05, "kept": 0.0001},
        {"size": 1e16},
        {"size": 1.2345678901234567e16, "kept": 9999999999999998.0},
        {"tiny": 5e-324, "zero": -0.0},
        {"x": [float("nan")]},
        {"x": [float("-inf")]},
        {1: "a key that is not a string"},
        {"huge": 2**70, "negative": -(2**63) - 1},
        {"lone": "\ud800", "nul": "\x00", "line": "\u2028", "accents": "élan"},
        {"empty": [], "nothing": {}, "nested": [[], [{}], [[1, 2], [3, True, None]]]},
    ],
)
def test_numbers_keys_and_text_are_written_as_json_writes_them(doc):
    assert pretty_json(doc) == _standard(doc)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), json_values, max_size=5))
def test_any_document_is_written_as_json_writes_it(doc):
    assert pretty_json(doc) == _standard(doc)
