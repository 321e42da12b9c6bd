"""The rules spanning a design's parts, run on a ``Design`` changed in memory (``design_errors``) with the
same paths and messages ``parse_design`` gives a document that breaks them."""

from __future__ import annotations

import glob
import json
from dataclasses import replace
from typing import Any

import pytest

from zfsplanner.core.design.types import Dataset, InvalidDesign, Role
from zfsplanner.core.document.checks import design_errors
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.versions import Version


def document(**top: Any) -> dict[str, Any]:
    return {
        "name": "tank",
        "openzfs_version": "2.3",
        "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": {"size_bytes": "4TB"}}],
        "datasets": [{"name": "tank/a"}, {"name": "tank/b"}],
        **top,
    }


def parse_errors(doc: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(InvalidDesign) as caught:
        parse_design(doc)
    return caught.value.errors


GOOD = parse_design(document())
TINY = replace(GOOD.vdevs[0].disks[0], size_bytes=32 * 1024**2, size_text=None)


@pytest.mark.parametrize(
    "changed",
    [
        pytest.param(replace(GOOD, name="mirror"), id="reserved pool name"),
        pytest.param(replace(GOOD, datasets=(Dataset("tank/a"), Dataset("tank/a"))), id="a name twice"),
        pytest.param(replace(GOOD, datasets=(Dataset("other/a"),)), id="a dataset outside the pool"),
        pytest.param(replace(GOOD, vdevs=(replace(GOOD.vdevs[0], role=Role.SPECIAL),)), id="no data vdev"),
        pytest.param(
            replace(GOOD, openzfs_version=Version.parse("2.2"), features={"fast_dedup": True}), id="feature too new"
        ),
        pytest.param(replace(GOOD, extra={"reliability": {"rebuild_bytes_per_s": {"vdevs[3]": 1}}}), id="planning"),
        pytest.param(replace(GOOD, vdevs=(replace(GOOD.vdevs[0], disks=(TINY,) * 6),)), id="a member too small"),
    ],
)
def test_a_changed_design_is_refused_as_its_document_would_be(changed):
    errors = design_errors(changed)
    assert errors and errors == parse_errors(design_to_document(changed))


def test_a_design_that_reads_breaks_no_rule():
    designs = [json.load(open(p)) for p in sorted(glob.glob("examples/*.json"))]
    assert designs
    for doc in designs:
        assert design_errors(parse_design(doc)) == []


def test_the_typed_design_keeps_every_field_of_a_document():
    for path in sorted(glob.glob("examples/*.json")):
        design = parse_design(json.load(open(path)))
        out = design_to_document(design)
        assert parse_design(out) == design and design_to_document(parse_design(out)) == out, path
