"""Dnode and directory metadata against real OpenZFS 2.3.2 (data/openzfs-2.3.2-dirs-sample.json).

Empty files cost only a dnode and a directory entry, so these cases isolate the metadata
model: 1,000 and 20,000 empty files, all in one directory or 1,000 per directory, on a
pool of one data and one special file vdev (ashift 12, lz4, ``special_small_blocks=0``).
The dataset's growth is ``zfs list -p -o used`` (which equals the growth of the ``DMU
dnode`` and ``ZFS directory`` rows of ``zdb -LbbbsP``); the special class grows by that
plus 36,864 B of the pool's own blocks (MOS and space maps rewritten by the sync), the same
in every case whatever the number of files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zfsplanner.core.capacity.placement import AllocTarget
from zfsplanner.core.datasets.directories import directory_blocks, zap_leaves
from zfsplanner.core.datasets.metadata import RedundantMetadata
from zfsplanner.core.datasets.usage import dataset_usage
from zfsplanner.core.design.types import Contents, Dataset, Layout
from zfsplanner.core.units import parse_zfs_size
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

SAMPLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "openzfs-2.3.2-dirs-sample.json").read_text())
RECORDS = SAMPLE["records"]
DISK = [AllocTarget.for_vdev(Layout.STRIPE, 1, 12)]


def _id(r: dict) -> str:
    return f"{r['kind']}-{r['layout']}-{r['n']}-rs{r['recordsize']}"


def _per_dir(r: dict) -> int:
    return r["n"] if r["layout"] == "one" else SAMPLE["meta"]["per_dir"]


def _usage(r: dict, files: int):
    ds = Dataset(
        name="tank/data",
        recordsize=parse_zfs_size(r["recordsize"]),
        compression=r["compression"],
        special_small_blocks=int(r["special_small_blocks"]),
        contents=Contents(file_count=files, files_per_directory=_per_dir(r)),
    )
    return dataset_usage(ds, version=V("2.3.2"), normal=DISK, special=DISK, spa_min_alloc=4096, spa_gcd_alloc=4096)


def _growth(r: dict) -> tuple[int, int]:
    before, after = _usage(r, 0), _usage(r, r["n"])
    return (
        after.special_allocated_bytes - before.special_allocated_bytes,
        after.zfs_used_bytes - before.zfs_used_bytes,
    )


def test_the_sample_has_the_four_cases():
    assert len(RECORDS) == 4 and all(r["kind"] == "empty" for r in RECORDS)


@pytest.mark.parametrize("r", RECORDS, ids=_id)
def test_the_dataset_growth_is_the_dnode_and_directory_blocks(r):
    """The measurement itself: what the dataset is charged is its dnode and ZAP blocks."""
    zdb = r["delta"]["zdb"]
    assert r["delta"]["zfs"]["used"] == zdb["DMU dnode"]["asize"] + zdb["ZFS directory"]["asize"]


@pytest.mark.parametrize("r", RECORDS, ids=_id)
def test_special_class_growth_is_within_five_percent(r):
    special, used = _growth(r)
    measured = r["delta"]["zfs"]["used"]
    assert special == pytest.approx(measured, rel=0.05)
    assert used == pytest.approx(measured, rel=0.05)
    assert _usage(r, r["n"]).normal_allocated_bytes == 0  # empty files, metadata only


@pytest.mark.parametrize("r", RECORDS, ids=_id)
def test_the_directory_blocks_match_zdb(r):
    """Directories alone: microzaps of 1,000 names in 3 sectors, the 20,000-name fat ZAP's
    128 leaves, the 20-entry root stored as one sector (asize, both copies)."""
    special, _ = _growth(r)
    zdb = r["delta"]["zdb"]
    for obj in r["zdb_dir_objects"].values():
        if obj["zap"] == "fat":
            assert round(zap_leaves(obj["entries"])) == obj["leafs"]
    # directory bytes = growth - zdb's dnode bytes, within one block (two copies) of each
    assert special - zdb["DMU dnode"]["asize"] == pytest.approx(zdb["ZFS directory"]["asize"], abs=2 * 2 * 4096)


# The same family, a case held for checking (not in the sample file): 2,048 empty files in one directory make
# the special class grow by 831,488 B, of which 36,864 B are the pool's own blocks (as in every
# case above), so the dataset's metadata is 794,624 B.
TWO_K_ONE_DIR = {"recordsize": "128K", "compression": "lz4", "special_small_blocks": "0", "layout": "one", "n": 2048}
POOL_OWN_BLOCKS = 36_864


def test_the_pool_grows_by_the_same_own_blocks_in_every_sample_case():
    for r in RECORDS:
        assert r["delta"]["alloc_by_class"]["special"] - r["delta"]["zfs"]["used"] == POOL_OWN_BLOCKS


def test_2048_empty_files_in_one_directory_are_a_fat_zap_of_16_leaves_over_4_kib():
    """The 2,048th name upgrades the micro ZAP: 16 leaves of 128 names, each more than one
    4 KiB sector after lz4 (the free chunks' list compresses to 5 B a chunk, not to nothing)."""
    special, used = _growth(TWO_K_ONE_DIR)
    assert special + POOL_OWN_BLOCKS == 831_488
    assert used == special
    assert round(zap_leaves(2048)) == 16
    # before: 663,552 B, each leaf priced at one sector
    leaves = [b for b in directory_blocks(2048, 1, RedundantMetadata.ALL, V("2.3"), 4096, 4096) if b.count == 16]
    assert len(leaves) == 1 and leaves[0].psize == 2 * 4096 and leaves[0].dvas == 2
