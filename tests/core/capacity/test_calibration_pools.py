"""Every empty pool measured on real OpenZFS 2.3.2 (shared/calibration/openzfs-2.3.2.json).

SIZE must match to the byte. AVAIL must be within 0.1 %; AVAIL + USED (the pool's adjusted
size, ``dsl_pool_adjustedsize()``) must match to the byte, which pins the deflate ratio, the
embedded-log metaslab and the slop rule exactly and leaves only the new pool's own metadata
(``initial_used_bytes``) as a model.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.document.parse import parse_design

CALIBRATION = json.loads((Path(__file__).resolve().parents[1] / "data" / "openzfs-2.3.2.json").read_text())
POOLS: list[dict[str, Any]] = CALIBRATION["empty_pools"]


def design_for(entry: dict[str, Any]) -> dict[str, Any]:
    """The design document for one calibration pool, read from its ``zpool create`` command."""
    create = entry["create"]
    vdev: dict[str, Any] = {
        "role": "data",
        "width": entry["children_per_vdev"],
        "count": entry["top_level_vdevs"],
        "ashift": int(re.search(r"ashift=(\d+)", create)[1]),
        "disk": {"size_bytes": entry["disk_size_bytes"]},
    }
    kind = create.split(" tank ")[1].split()[0]
    if kind.startswith("/"):
        vdev["layout"] = "stripe"
    elif kind == "mirror":
        vdev["layout"] = "mirror"
    elif kind.startswith("raidz"):
        vdev["layout"] = kind
    else:
        m = re.fullmatch(r"(draid\d):(\d+)d:(\d+)s:(\d+)c", kind)
        assert m, kind
        vdev.update(layout=m[1], draid_data=int(m[2]), draid_spares=int(m[3]))
        assert int(m[4]) == entry["children_per_vdev"]
    return {"name": "tank", "openzfs_version": "2.3.2", "disk_partitioning": "none", "vdevs": [vdev]}


IDS = [f"{p['layout']}-{p['disk_size_bytes'] >> 30}G" for p in POOLS]


def test_the_calibration_file_has_the_expected_pools():
    assert len(POOLS) == 42
    assert {p["ashift"] for p in POOLS} == {9}


@pytest.mark.parametrize("entry", POOLS, ids=IDS)
def test_zpool_size_is_exact(entry):
    cap = pool_capacity(parse_design(design_for(entry)))
    assert cap.zpool_size_bytes == entry["zpool_size"]


@pytest.mark.parametrize("entry", POOLS, ids=IDS)
def test_adjusted_size_is_exact(entry):
    """AVAIL + USED = dspace - slop, to the byte."""
    cap = pool_capacity(parse_design(design_for(entry)))
    assert cap.normal_dspace_bytes - cap.slop_bytes == entry["zfs_avail"] + entry["zfs_used"]


@pytest.mark.parametrize("entry", POOLS, ids=IDS)
def test_zfs_avail_within_a_thousandth(entry):
    cap = pool_capacity(parse_design(design_for(entry)))
    assert abs(cap.zfs_avail_bytes - entry["zfs_avail"]) <= entry["zfs_avail"] / 1000


@pytest.mark.parametrize("entry", POOLS, ids=IDS)
def test_initial_used_model_is_within_25_kib(entry):
    """The new pool's own metadata, the one modelled term, is close to the measured USED."""
    cap = pool_capacity(parse_design(design_for(entry)))
    assert abs(cap.initial_used_bytes - entry["zfs_used"]) <= 25 * 1024
