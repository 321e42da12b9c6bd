"""SLOG size and RAM advice figures."""

from __future__ import annotations

import pytest

from zfsplanner.core.datasets.ddt import dedup_table
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.planning.sizing import dirty_data_max, ram_advice, slog_sizing
from zfsplanner.core.units import GIB, TIB


def test_dirty_data_max_is_a_tenth_of_ram_capped_at_4_gib():
    assert dirty_data_max(16 * GIB) == pytest.approx(1.6 * GIB, abs=1)
    assert dirty_data_max(256 * GIB) == 4 * GIB
    assert dirty_data_max(None) == 4 * GIB


def test_a_slog_holds_two_txgs_of_sync_writes_up_to_the_zil_throttle():
    # 10 GbE of sync writes (1.25 GB/s) for two 5 s transaction groups = 12.5 GB, above the
    # 2 x 4 GiB where ZIL writes are throttled, so 8 GiB plus a quarter
    big = slog_sizing(1.25e9, 128 * GIB)
    assert big.by_rate_bytes == 12_500_000_000
    assert big.cap_bytes == 8 * GIB
    assert big.recommended_bytes == int(8 * GIB * 1.25)
    small = slog_sizing(100e6, 128 * GIB)  # 1 GbE-ish: 1 GB of log
    assert small.recommended_bytes == int(1e9 * 1.25)
    little_ram = slog_sizing(1.25e9, 8 * GIB)
    assert little_ram.cap_bytes == int(2 * 0.8 * GIB)


def test_l2arc_headers_cost_96_bytes_per_cached_block():
    r = ram_advice(metadata_bytes=0, dedup_table=dedup_table(0, True), cache_bytes=TIB,
                   average_block_bytes=16 * 1024, ram_bytes=None)
    assert r.l2arc_header_bytes == 6 * GIB  # the reference's example: 1 TiB at 16 KiB
    assert r.ram_share is None


def test_dedup_tables_count_in_core_as_zpool_status_does():
    legacy = ram_advice(metadata_bytes=10, dedup_table=dedup_table(10_000, False), cache_bytes=0,
                        average_block_bytes=128 * 1024, ram_bytes=10_000_000)
    fast = ram_advice(metadata_bytes=10, dedup_table=dedup_table(10_000, True), cache_bytes=0,
                      average_block_bytes=128 * 1024, ram_bytes=10_000_000)
    assert legacy.ddt_bytes == 1_441_792 and legacy.ddt_entry_bytes == 144  # 44 blocks of 32 KiB (43 measured)
    assert fast.ddt_bytes > legacy.ddt_bytes  # flat entries do not compress: 7 chunks instead of 4
    assert fast.arc_bytes == fast.ddt_bytes + 10 and fast.ram_share == pytest.approx(fast.arc_bytes / 10_000_000)


def test_the_estimate_sizes_the_slog_and_the_ram():
    doc = {
        "name": "tank",
        "host": {"ram_bytes": 64 * GIB},
        "vdevs": [
            {"role": "data", "layout": "mirror", "width": 2, "count": 2, "disk": {"size_bytes": "8TB"}},
            {"role": "log", "layout": "mirror", "width": 2,
             "disk": {"size_bytes": "16GB", "media": "ssd", "plp": True}},
            {"role": "cache", "layout": "stripe", "width": 1, "disk": {"size_bytes": "500GB", "media": "ssd"}},
        ],
        "datasets": [
            {"name": "tank/d", "recordsize": "128K", "dedup": "on",
             "contents": {"logical_bytes": 100 * 10**9, "file_count": 1000}},
        ],
    }
    e = estimate(parse_design(doc)).to_document()
    slog, ram = e["sizing"]["slog"], e["sizing"]["ram"]
    assert slog["applies"] is True and slog["ram_known"] is True
    assert slog["sync_bytes_per_s"] == 500_000_000  # the SLOG's write speed (SATA SSD default)
    assert slog["recommended_bytes"] == int(min(5e9, 2 * 0.1 * 64 * GIB) * 1.25)
    assert slog["fits"] is (slog["log_size_bytes"] >= slog["recommended_bytes"])
    assert ram["dedup_blocks"] > 0
    assert ram["ddt_bytes"] == e["sizing"]["dedup_table"]["in_core_bytes"]
    assert e["sizing"]["dedup_table"]["entries"] == ram["dedup_blocks"]
    assert ram["l2arc_header_bytes"] > 0 and ram["cache_size_bytes"] > 0
    assert ram["arc_bytes"] == ram["metadata_bytes"] + ram["ddt_bytes"] + ram["l2arc_header_bytes"]
    assert ram["ram_share"] == pytest.approx(ram["arc_bytes"] / (64 * GIB))


def test_without_a_slog_the_size_is_for_one_to_add():
    doc = {"name": "tank", "vdevs": [{"role": "data", "layout": "raidz1", "width": 3, "disk": {"size_bytes": "4TB"}}]}
    slog = estimate(parse_design(doc)).to_document()["sizing"]["slog"]
    assert slog["applies"] is False and slog["fits"] is None and slog["log_size_bytes"] is None
    assert slog["recommended_bytes"] > 0
