"""The designs in examples/ are valid and estimate, as the README shows."""

import json
from pathlib import Path

import pytest

from zfsplanner.core.estimate import estimate_document

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))


def test_there_are_examples():
    assert [p.name for p in EXAMPLES] == ["draid.json", "home-server.json"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_estimates(path):
    e = estimate_document(json.loads(path.read_text()))
    assert e["pool"]["zpool_size_bytes"] > e["pool"]["zfs_avail_bytes"] > 0
