"""Every example and test design keeps its estimate, report and CSV byte for byte.

A move of code must change no figure: these golden files are the estimates as the core
computed them, written once. A change that alters a figure on purpose (a fixed rule, a
new field) rewrites them with ``ZFSPLANNER_UPDATE_GOLDEN=1 pytest tests/core/test_golden.py``,
and the diff of the golden files shows exactly which figures moved in review.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from zfsplanner.core import report
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ROOT / "tests" / "core" / "golden" / "expected"
SOURCES = {
    "example": ROOT / "examples",
    "test": ROOT / "tests" / "plans" / "designs",
    "golden": ROOT / "tests" / "core" / "golden" / "designs",
}
DESIGNS = sorted((f"{kind}-{p.stem}", p) for kind, folder in SOURCES.items() for p in folder.glob("*.json"))
UPDATE = os.environ.get("ZFSPLANNER_UPDATE_GOLDEN") == "1"


def outputs(path: Path) -> dict[str, str]:
    design = parse_design(json.loads(path.read_text()))
    est = estimate(design)
    return {
        "estimate.json": json.dumps(est.to_document(), indent=1, sort_keys=True) + "\n",
        "report.md": report.markdown(design, est),
        "estimate.csv": report.csv_text(design, est),
    }


def test_the_corpus_covers_every_layout_and_role():
    docs = [json.loads(p.read_text()) for _, p in DESIGNS]
    layouts = {v["layout"] for d in docs for v in d["vdevs"]}
    roles = {v["role"] for d in docs for v in d["vdevs"]}
    versions = {d.get("openzfs_version", "2.3") for d in docs}
    assert {"stripe", "mirror", "raidz1", "raidz2", "raidz3", "draid1", "draid2"} <= layouts
    assert {"data", "special", "dedup", "log", "cache", "spare"} <= roles
    assert {"0.8", "2.0", "2.1", "2.2", "2.3", "2.4"} <= versions


@pytest.mark.parametrize(("name", "path"), DESIGNS, ids=[n for n, _ in DESIGNS])
def test_estimate_report_and_csv_are_unchanged(name, path):
    for suffix, text in outputs(path).items():
        golden = EXPECTED / f"{name}.{suffix}"
        if UPDATE:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(text)
            continue
        assert golden.exists(), f"no golden file {golden.name}: run with ZFSPLANNER_UPDATE_GOLDEN=1 once"
        assert text == golden.read_text(), f"{name}: {suffix} differs from {golden.relative_to(ROOT)}"


@pytest.mark.parametrize(("name", "path"), DESIGNS, ids=[n for n, _ in DESIGNS])
def test_the_same_design_estimated_again_gives_the_same_figures(name, path):
    """What one estimate keeps for the next (the blocks of a histogram, a group's ashift) is not changed
    by using it."""
    design = parse_design(json.loads(path.read_text()))
    first = estimate(design).to_document()
    assert estimate(design).to_document() == first
    assert estimate(parse_design(json.loads(path.read_text()))).to_document() == first
