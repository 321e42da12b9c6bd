"""Efficiency by block size (reference §1.1 / §1.2 tables)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.capacity.efficiency import BLOCK_SIZES, efficiency_series, efficiency_table
from zfsplanner.core.design.types import Layout

K = 1024


def _row(rows, bs):
    return next(r for r in rows if r.block_size == bs)


def test_it_covers_4k_to_16m():
    rows = efficiency_table(Layout.RAIDZ2, 6, 12)
    assert [r.block_size for r in rows] == list(BLOCK_SIZES)
    assert rows[0].block_size == 4 * K and rows[-1].block_size == 16 * K * K


@pytest.mark.parametrize(
    "layout, width, bs, asize",
    [
        (Layout.RAIDZ1, 5, 4 * K, 8 * K),
        (Layout.RAIDZ2, 6, 8 * K, 24 * K),
        (Layout.RAIDZ2, 6, 128 * K, 192 * K),
        (Layout.RAIDZ3, 9, 128 * K, 208 * K),
        (Layout.RAIDZ2, 10, 128 * K, 172032),
        (Layout.RAIDZ2, 10, 1024 * K, 1284 * K),
    ],
)
def test_asize_matches_the_reference_table(layout, width, bs, asize):
    assert _row(efficiency_table(layout, width, 12), bs).asize_bytes == asize


def test_raidz2_8k_block_splits_into_data_parity_and_padding():
    r = _row(efficiency_table(Layout.RAIDZ2, 6, 12), 8 * K)
    assert (r.data_bytes, r.parity_bytes, r.padding_bytes) == (8 * K, 8 * K, 8 * K)
    assert r.efficiency == pytest.approx(1 / 3)
    assert r.nominal_parity_fraction == pytest.approx(1 / 3)


def test_used_is_deflated_with_the_vdev_ratio():
    # §1.4: 6-wide Z2 ashift 12, ratio 341: 4 KiB costs 8184 B, 128 KiB 130 944 B
    rows = efficiency_table(Layout.RAIDZ2, 6, 12)
    assert _row(rows, 4 * K).used_bytes == 8184
    assert _row(rows, 128 * K).used_bytes == 130944


def test_draid_pads_small_blocks_to_whole_rows():
    r = _row(efficiency_table(Layout.DRAID2, 24, 12, draid_data=8), 4 * K)
    assert r.asize_bytes == 40 * K and r.padding_bytes == 28 * K and r.parity_bytes == 8 * K


def test_mirrors_count_their_copies_as_redundancy():
    r = _row(efficiency_table(Layout.MIRROR, 2, 12), 128 * K)
    assert r.asize_bytes == 128 * K and r.raw_bytes == 256 * K
    assert r.efficiency == 0.5 and r.nominal_parity_fraction == 0.5 and r.used_bytes == 128 * K


def test_series_are_chart_ready():
    s = efficiency_series(efficiency_table(Layout.RAIDZ1, 4, 12))
    assert s["labels"][0] == "4K" and s["labels"][-1] == "16M"
    assert len(s["datasets"]) == 3 and all(len(d["data"]) == len(BLOCK_SIZES) for d in s["datasets"])


@given(
    layout=st.sampled_from([Layout.RAIDZ1, Layout.RAIDZ2, Layout.RAIDZ3]),
    extra=st.integers(1, 20),
    ashift=st.integers(9, 14),
)
def test_raidz_rows_are_consistent(layout, extra, ashift):
    parity = {Layout.RAIDZ1: 1, Layout.RAIDZ2: 2, Layout.RAIDZ3: 3}[layout]
    width = parity + extra
    sector = 1 << ashift
    for r in efficiency_table(layout, width, ashift):
        assert r.padding_bytes % sector == 0 and r.padding_bytes >= 0
        assert r.asize_bytes >= r.block_size
        assert r.data_bytes + r.parity_bytes + r.padding_bytes == r.asize_bytes
        assert r.efficiency <= r.nominal_data_fraction + 1e-12
        assert (r.asize_bytes // sector) % (parity + 1) == 0


@given(data=st.integers(1, 16), parity=st.integers(1, 3), spares=st.integers(0, 2), ashift=st.integers(9, 13))
def test_draid_rows_are_whole_stripes(data, parity, spares, ashift):
    layout = {1: Layout.DRAID1, 2: Layout.DRAID2, 3: Layout.DRAID3}[parity]
    for r in efficiency_table(layout, data + parity + spares, ashift, draid_data=data):
        assert r.asize_bytes % ((data + parity) << ashift) == 0
        assert r.efficiency <= r.nominal_data_fraction + 1e-12
