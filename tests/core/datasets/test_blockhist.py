"""A measured block-size histogram is allocated block by block, not as one ratio."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.compressor_inputs import make
from zfsplanner.core.datasets import blockhist
from zfsplanner.core.datasets.measure import Setting, measure_bytes
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.alloc import raidz_asize
from zfsplanner.core.versions import Version

DISK = {"size_bytes": 4_000_787_030_016, "logical_sector_bytes": 512, "physical_sector_bytes": 4096}


def design(layout: str, width: int, contents: dict[str, Any], **ds: Any) -> Any:
    return parse_design(
        {
            "name": "tank",
            "vdevs": [{"role": "data", "layout": layout, "width": width, "ashift": 12, "disk": DISK}],
            "datasets": [{"name": "tank/d", "recordsize": "128K", "compression": "lz4", "contents": contents, **ds}],
        }
    )


def test_each_measured_size_is_padded_on_its_own_on_raidz():
    # 100 records of 128K: half compress to 20K, half to 120K. On a 6-wide raidz2 each is
    # allocated with its own parity and padding (vdev_raidz_psize_to_asize).
    hist = [[20480, 50], [122880, 50]]
    d = design("raidz2", 6, {"logical_bytes": 100 * 131072, "file_count": 1, "block_size_histogram": hist})
    got = estimate(d).to_document()["datasets"][0]
    expected = 50 * raidz_asize(20480, 6, 2, 12) + 50 * raidz_asize(122880, 6, 2, 12)
    assert got["data_allocated_bytes"] == expected
    # the same average size as one ratio allocates differently
    avg = design("raidz2", 6, {"logical_bytes": 100 * 131072, "file_count": 1,
                               "compressibility": {"ratio": 131072 / 71680}})
    assert estimate(avg).to_document()["datasets"][0]["data_allocated_bytes"] != expected


def test_the_estimate_allocates_what_the_measurement_stored():
    data = make("mixed", 3 * 131072 + 5000, 11)
    doc = measure_bytes(data, Setting("lz4", "lz4", 131072), 12, Version.parse("2.3")).document()
    d = design("stripe", 1, {"logical_bytes": len(data), "file_count": 1,
                             "block_size_histogram": doc["block_size_histogram"]})
    got = estimate(d).to_document()["datasets"][0]
    # on one disk at the same ashift every measured block is allocated as it was stored
    assert got["data_allocated_bytes"] == sum(p * n for p, n in doc["block_size_histogram"])
    assert 0 < got["data_allocated_bytes"] < 4 * 131072


def test_counts_scale_to_the_dataset_and_sizes_round_to_the_pool_unit():
    # measured at ashift 9 (sizes in 512 B steps); the pool has 4 KiB sectors
    hist = [[1536, 1], [65024, 3]]
    d = design("mirror", 2, {"logical_bytes": 40 * 131072, "file_count": 10, "block_size_histogram": hist})
    got = estimate(d).to_document()["datasets"][0]
    assert got["data_allocated_bytes"] == 10 * 4096 + 30 * 65536


def test_a_bad_histogram_is_refused_naming_the_entry():
    with pytest.raises(InvalidDesign) as exc:
        estimate(design("mirror", 2, {"logical_bytes": 1 << 20, "block_size_histogram": [[4096, -1]]})).to_document()
    assert "block_size_histogram[0]" in str(exc.value)


def test_the_histogram_round_trips_through_the_document():
    hist = [[4096, 3], [0, 1]]
    d = design("mirror", 2, {"logical_bytes": 1 << 20, "block_size_histogram": hist})
    doc = design_to_document(d)
    assert doc["datasets"][0]["contents"]["block_size_histogram"] == hist
    assert parse_design(doc) == d


def test_a_document_with_a_bad_histogram_is_refused_when_read_with_the_entry_in_the_path():
    with pytest.raises(InvalidDesign) as exc:
        design("mirror", 2, {"logical_bytes": 1 << 20, "block_size_histogram": [[4096, 1], [4096, -1]]})
    assert exc.value.errors == [
        (
            "datasets[0].contents.block_size_histogram[1]",
            "must be a [psize_bytes, count] pair of non-negative integers, not [4096, -1]",
        )
    ]


def test_a_histogram_that_counts_no_blocks_is_refused_when_read():
    with pytest.raises(InvalidDesign) as exc:
        design("mirror", 2, {"logical_bytes": 1 << 20, "block_size_histogram": [[4096, 0]]})
    assert exc.value.errors == [("datasets[0].contents.block_size_histogram", "counts no blocks")]


def test_file_and_block_histograms_are_checked_by_one_rule():
    contents = {"file_size_histogram": [[4096, "3"]], "block_size_histogram": [[4096, "3"]]}
    with pytest.raises(InvalidDesign) as exc:
        design("mirror", 2, contents)
    messages = dict(exc.value.errors)
    assert messages["datasets[0].contents.file_size_histogram[0]"] == (
        "must be a [size_bytes, count] pair of non-negative integers, not [4096, '3']"
    )
    assert messages["datasets[0].contents.block_size_histogram[0]"] == (
        "must be a [psize_bytes, count] pair of non-negative integers, not [4096, '3']"
    )


def test_a_histogram_the_estimate_cannot_use_is_named_in_words_with_its_path_apart():
    with pytest.raises(blockhist.BlockHistogramError) as exc:
        blockhist.read({"block_size_histogram": [[512, 1], [512, True]]})
    assert exc.value.path == "contents.block_size_histogram[1]"
    assert str(exc.value) == (
        "entry 2 of the block size histogram must be a [psize_bytes, count] pair of non-negative integers, "
        "not [512, True]"
    )
