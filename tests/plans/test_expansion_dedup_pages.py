"""The design page, the report and the API for a pool being expanded and a dataset with dedup: USED
before and after the expansion, and the dedup table on disk and in RAM, in people's words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import PoolDesignFactory

pytestmark = pytest.mark.django_db

GIB = 1024**3


def document(dedup_disk: str = "1GB") -> dict[str, Any]:
    return {
        "format": "zfsplanner.design/1",
        "name": "tank",
        "openzfs_version": "2.3",
        "vdevs": [
            {"role": "data", "layout": "raidz1", "width": 6, "expanded_from_width": 4, "ashift": 12,
             "disk": {"size_bytes": "4TB"}},
            {"role": "dedup", "layout": "mirror", "width": 2, "disk": {"size_bytes": dedup_disk, "media": "ssd"}},
        ],
        "datasets": [
            {"name": "tank/data", "recordsize": "128K", "compression": "off",
             "contents": {"logical_bytes": 2000 * GIB, "file_count": 2000, "logical_bytes_written_before": 1200 * GIB}},
            {"name": "tank/vm", "recordsize": "16K", "dedup": "on", "contents": {"logical_bytes": 100 * GIB}},
        ],
    }


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=document())


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_design_page_shows_used_before_and_after_and_the_dedup_table(client, bob, design):
    client.force_login(bob)
    page = text(client.get(f"/designs/{design.pk}/").content.decode())
    assert "RAIDZ expansion of vdev group 1: 4 → 6 disks" in page
    assert "Dataset tank/data: data written before" in page and "Dataset tank/data: data written after" in page
    assert "Dataset tank/data: a rewrite of the old data frees" in page
    assert "zfs rewrite, OpenZFS 2.3.4 and later" in page
    assert "shows less USED than the data written to it" in page
    assert "Dedup table" in page and " in RAM" in page
    assert "on disk, in the dedup mirror (group 2), which does not hold it" in page
    assert "The dedup table does not fit the dedup mirror (group 2)" in page
    for path in ("logical_bytes_written_before", "dedup_table_home", "vdevs[1]", "in_core_bytes", "on_disk_bytes"):
        assert path not in page


def test_the_report_shows_both(client, bob, design):
    client.force_login(bob)
    page = text(client.get(f"/designs/{design.pk}/report/").content.decode())
    assert "USED of each dataset, by when its data was written" in page
    assert "A rewrite of the old data frees" in page
    assert re.search(r"Dedup table in RAM \S+ \S+ [\d,]+ unique blocks \(fast dedup\); \S+ \S+ on disk in the "
                     r"dedup mirror \(group 2\), which does not hold it", page)


def test_the_api_estimate_has_the_contract_sections(client_for, bob, design):
    api = client_for(bob)
    e = api.get(f"/api/designs/{design.pk}/estimate/").json()
    table = e["sizing"]["dedup_table"]
    assert set(table) == {"entries", "on_disk_bytes", "in_core_bytes", "fast_dedup"} and table["fast_dedup"] is True
    assert e["sizing"]["ram"]["ddt_bytes"] == table["in_core_bytes"]
    (x,) = e["raidz_expansion"]
    (ds,) = x["datasets"]
    assert ds["name"] == "tank/data" and ds["logical_bytes_written_before"] == 1200 * GIB
    assert ds["used_written_before_bytes"] + ds["used_written_after_bytes"] == ds["zfs_used_bytes"]
    assert ds["zfs_used_bytes"] < ds["logical_bytes"] and ds["rewrite_frees_bytes"] > 0
    assert x["old_logical_bytes"] == 1200 * GIB  # the vdev takes what its datasets wrote before
