"""Pages, reports, exports and chart builders read the typed estimate by attribute, never its document
by key: ``Estimate.to_document()`` is for the API, the CLI and the golden files only.

A source scan of the modules that read an estimate, named one by one, so that a reader which goes
back to ``estimate.to_document()["pool"]`` fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

READERS = (
    "zfsplanner/core/report/markdown.py",
    "zfsplanner/core/report/spreadsheet.py",
    "zfsplanner/core/report/headline.py",
    "zfsplanner/core/report/planning.py",
    "zfsplanner/core/importers/compare.py",
    "tests/oracles/writer.py",
    "tests/oracles/writer_json.py",
    "tests/oracles/writer_model.py",
    "zfsplanner/core/risk/fixes.py",
    "zfsplanner/plans/presentation/charts.py",
    "zfsplanner/plans/presentation/lines.py",
    "zfsplanner/plans/presentation/pages.py",
    "zfsplanner/plans/presentation/planning.py",
    "zfsplanner/plans/presentation/quick.py",
    "zfsplanner/plans/presentation/summary.py",
    "zfsplanner/plans/services/attached.py",
    "zfsplanner/plans/services/fixes.py",
    "zfsplanner/plans/templatetags/plans_planning.py",
    "zfsplanner/plans/views/advisor.py",
    "zfsplanner/plans/views/designs.py",
    "zfsplanner/imports/attached.py",
    "zfsplanner/imports/presentation.py",
)

# Keys only the estimate document has (the design document has ``vdevs`` and ``datasets`` too, and a
# reader of a design document may read those): its sections, figures of its rows and of its planning
# sections.
ESTIMATE_KEYS = (
    "pool",
    "risks",
    "efficiency",
    "md_raid",
    "raidz_expansion",
    "special",
    "reliability",
    "performance",
    "sizing",
    "units",
    "special_small_blocks_curve",
    "zfs_avail_after_bytes",
    "initial_used_bytes",
    "fault_tolerance",
    "removable",
    "group_index",
    "dspace_bytes",
    "normal_dspace_bytes",
    "draid",
    "compressratio",
    "raidz_overhead_fraction",
    # inside the planning sections
    "assumptions",
    "groups",
    "slog",
    "ram",
    "dedup_table",
    "dedup_table_home",
    "demand_bytes",
    "class_size_bytes",
    "recommended_bytes",
    "resilver_seconds",
    "data_loss_probability",
    "pool_loss_probability",
    "sync_write_iops_with_slog",
    "special_allocated_bytes",
    "normal_allocated_bytes",
)
KEY_READ = re.compile(r"""(?:\[|\.get\()\s*["'](""" + "|".join(ESTIMATE_KEYS) + r""")["']""")

# What may be turned into a document in these modules: the stored design (its JSON), never the estimate.
DOCUMENT_OF = {"design", "group", "form"}


def _tree(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(), filename=path)


def test_the_readers_exist():
    assert all((ROOT / path).is_file() for path in READERS)


@pytest.mark.parametrize("path", READERS)
def test_no_estimate_key_is_read(path):
    found = [
        f"{path}:{n}: {line.strip()}"
        for n, line in enumerate((ROOT / path).read_text().splitlines(), 1)
        if KEY_READ.search(line)
    ]
    assert found == [], "read the typed Estimate's attributes instead:\n" + "\n".join(found)


@pytest.mark.parametrize("path", READERS)
def test_no_estimate_is_turned_into_its_document(path):
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to_document":
            receiver = ast.unparse(node.func.value).split(".")[-1]
            if receiver not in DOCUMENT_OF:
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


@pytest.mark.parametrize("path", READERS)
def test_an_estimate_given_is_the_typed_one(path):
    """A parameter or field named ``estimate`` is annotated ``Estimate`` (or ``Estimate | None``)."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.arg | ast.AnnAssign):
            name = node.arg if isinstance(node, ast.arg) else ast.unparse(node.target)
            annotation = node.annotation
            if name in ("estimate", "self.estimate") and annotation is not None:
                text = ast.unparse(annotation)
                if text not in ("Estimate", "Estimate | None"):
                    found.append(f"{path}:{node.lineno}: {name}: {text}")
    assert found == []


def test_the_scan_finds_a_key_read():
    assert KEY_READ.search('pool = estimate.to_document()["pool"]')
    assert KEY_READ.search("risks = doc.get('risks') or []")
    assert not KEY_READ.search('for v in document.get("vdevs") or []:')
