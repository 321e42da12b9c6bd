"""A design is the typed ``Design`` everywhere inside; the design document (a dict) is read and written
only at the edges. A function outside the edges that takes a design document (a parameter named
``doc``/``document``/``design_document`` annotated as a dict or Mapping) or returns one (a function
named for a document, returning a dict or Mapping) fails here.

The edges: the core's document package (parse, export, limits), import (the core's importers turn a
pool's outputs into a document; the imports app previews and answers it), the API, the revision store
(``plans/models.py``; ``plans/services/designs.py``, where a document that comes in is saved) and the
JSON editor's form and export (``plans/forms/designs.py``, ``plans/presentation/pages.py``'s JSON).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EDGES = (
    "zfsplanner/core/document/",
    "zfsplanner/core/importers/",
    "zfsplanner/imports/",
    "zfsplanner/plans/api/",
    "zfsplanner/accounts/api/",
    "zfsplanner/plans/models.py",
    "zfsplanner/plans/services/designs.py",
    "zfsplanner/plans/forms/designs.py",
    # the quick planner's hand-off: its answers written as the document of /plan/design.json and
    # "Save as a design" (a catalog disk stays a reference there); parsed once into the Design it shows
    "zfsplanner/plans/forms/quick.py",
)
# JSON documents that are not designs: estimates, figures, measurements, benchmark logs.
NOT_DESIGNS = {
    ("zfsplanner/core/estimate/build.py", "estimate_document"),
    ("zfsplanner/core/risk/registry.py", "risk_to_document"),
    ("benchmarks/services.py", "_result_document"),
    ("zfsplanner/core/datasets/measure.py", "document"),
    ("zfsplanner/compression/services.py", "status_document"),
    ("zfsplanner/plans/services/samples.py", "measurement_document"),
    ("zfsplanner/plans/presentation/pages.py", "pretty_json"),  # the JSON tab: the document as exported
}
NOT_DESIGN_PACKAGES = (
    "zfsplanner/parsers/",
    "zfsplanner/core/estimate/figures.py",
    "zfsplanner/core/planning/figures.py",
)
DOCUMENT_NAMES = {"doc", "document", "design_document", "design_doc"}


def _is_document_type(annotation: ast.expr | None) -> bool:
    text = ast.unparse(annotation) if annotation is not None else ""
    words = ("dict[", "Dict[", "Mapping[", "MutableMapping[")
    return any(word in text for word in words) or text in ("dict", "Mapping", "Doc", "Document")


def document_functions(source: str) -> list[str]:
    """Every function of ``source`` that takes or returns a design document, by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if any(a.arg in DOCUMENT_NAMES and _is_document_type(a.annotation) for a in args):
            found.append(f"{node.name} takes a document")
        named = "document" in node.name or node.name.endswith("_doc")
        if named and node.name != "to_document" and _is_document_type(node.returns):
            found.append(f"{node.name} returns a document")
    return found


def _inside() -> list[Path]:
    paths = sorted([*(ROOT / "zfsplanner").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])
    return [
        p
        for p in paths
        if "migrations" not in p.parts
        and not str(p.relative_to(ROOT)).startswith(EDGES + NOT_DESIGN_PACKAGES)
    ]


INSIDE = _inside()


@pytest.mark.parametrize("path", INSIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_design_document_below_the_edges(path):
    rel = str(path.relative_to(ROOT))
    found = [f for f in document_functions(path.read_text()) if (rel, f.split()[0]) not in NOT_DESIGNS]
    assert found == []


def test_the_check_finds_a_document_taken_or_returned():
    source = (
        "def put_item(doc: Mapping[str, Any], section: str) -> Doc: ...\n"
        "class F:\n"
        "    def to_document(self) -> dict[str, Any]: ...\n"
        "    def apply(self, document: dict) -> None: ...\n"
        "def design_document(c: Candidate) -> dict[str, Any]: ...\n"
        "def put_group(design: Design, index: int | None, group: VdevGroup) -> Design: ...\n"
    )
    assert document_functions(source) == [
        "put_item takes a document",
        "design_document returns a document",
        "apply takes a document",
    ]


def test_the_inside_covers_the_core_the_apps_and_the_designer():
    names = {str(p.relative_to(ROOT)) for p in INSIDE}
    for must in (
        "zfsplanner/plans/services/editing.py",
        "zfsplanner/plans/services/fixes.py",
        "zfsplanner/plans/presentation/summary.py",
        "zfsplanner/plans/views/designer/page.py",
        "zfsplanner/core/risk/fixes.py",
        "zfsplanner/core/advisor.py",
        "zfsplanner/core/estimate/growth_options.py",
        "benchmarks/views.py",
    ):
        assert must in names
