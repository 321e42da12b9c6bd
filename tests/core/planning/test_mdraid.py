"""md RAID comparison: mdadm metadata 1.2 data offset, chunk rounding, md personalities.

Hand-checked figures: mdadm ``super1.c`` (``choose_bm_space``, end of ``validate_geometry1``)
worked by hand; the 4 TB data offset of 129 MiB is the ``Data Offset : 264192 sectors`` that
``mdadm --examine`` prints for members of that size.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.planning.mdraid import DEFAULT_CHUNK, MdLevel, md_bitmap_space, md_data_offset, md_raid_comparison
from zfsplanner.core.units import GIB, KIB, MIB

TB4 = 4_000_787_030_016


def rows_by_level(disks, **kw):
    return {r.level: r for r in md_raid_comparison(disks, **kw)}


def test_three_40gib_disks_as_raid5_hold_two_members_less_33_mib_each():
    rows = rows_by_level([40 * GIB] * 3)
    assert rows[MdLevel.RAID5].data_offset_bytes == 33 * MIB
    assert rows[MdLevel.RAID5].usable_bytes == 2 * (40 * GIB - 33 * MIB)
    assert rows[MdLevel.RAID5].usable_bytes / GIB == pytest.approx(79.94, abs=0.01)


def test_large_members_get_the_full_128_mib_headroom():
    assert md_data_offset(TB4, DEFAULT_CHUNK) == 129 * MIB  # 264192 sectors
    assert md_bitmap_space(TB4) == 128 * KIB


def test_bitmap_space_steps_at_8_and_200_gib():
    assert md_bitmap_space(32 * KIB) == 0
    assert md_bitmap_space(1 * GIB) == 4 * KIB
    assert md_bitmap_space(9 * GIB) == 64 * KIB
    assert md_bitmap_space(201 * GIB) == 128 * KIB


def test_headroom_shrinks_to_a_thousandth_but_not_below_two_chunks():
    # RAID 1 has no chunk: 100 MiB members get 64 KiB headroom, so the offset is 1 MiB
    assert md_data_offset(100 * MIB, None) == 1 * MIB
    # with 512 KiB chunks the headroom stays at 1 MiB or more
    assert md_data_offset(100 * MIB, DEFAULT_CHUNK) == 2 * MIB


def test_it_lists_only_levels_the_disk_count_allows():
    assert set(rows_by_level([GIB] * 2)) == {MdLevel.RAID0, MdLevel.RAID1, MdLevel.RAID10}
    assert set(rows_by_level([GIB] * 3)) == {MdLevel.RAID0, MdLevel.RAID1, MdLevel.RAID5, MdLevel.RAID10}
    assert set(rows_by_level([GIB] * 4)) == set(MdLevel)


def test_fault_tolerance_per_level():
    rows = rows_by_level([TB4] * 4)
    assert {lvl: r.fault_tolerance for lvl, r in rows.items()} == {
        MdLevel.RAID0: 0,
        MdLevel.RAID1: 3,
        MdLevel.RAID5: 1,
        MdLevel.RAID6: 2,
        MdLevel.RAID10: 1,
    }


def test_raid10_near2_on_an_odd_number_of_disks_keeps_half_the_chunks():
    rows = rows_by_level([40 * GIB] * 3)
    component = 40 * GIB - 33 * MIB
    chunks = component // DEFAULT_CHUNK
    assert rows[MdLevel.RAID10].usable_bytes == (chunks * 3 // 2) * DEFAULT_CHUNK


def test_raid0_uses_all_of_every_member_and_the_others_the_smallest():
    rows = rows_by_level([10 * GIB, 12 * GIB, 14 * GIB])
    offset = rows[MdLevel.RAID0].data_offset_bytes
    assert rows[MdLevel.RAID0].usable_bytes == sum(x - offset for x in (10 * GIB, 12 * GIB, 14 * GIB))
    assert rows[MdLevel.RAID5].usable_bytes == 2 * (10 * GIB - offset)
    assert any("smallest" in n for n in rows[MdLevel.RAID5].notes)


def test_members_are_rounded_down_to_the_chunk():
    odd = 40 * GIB + 123 * KIB
    rows = rows_by_level([odd] * 3)
    assert rows[MdLevel.RAID5].component_bytes % DEFAULT_CHUNK == 0
    assert rows[MdLevel.RAID1].component_bytes % (64 * KIB) == 0
    assert rows[MdLevel.RAID1].chunk_bytes is None


def test_reserved_per_disk_bytes_comes_off_each_member():
    plain = rows_by_level([TB4] * 3)[MdLevel.RAID5].usable_bytes
    swap = rows_by_level([TB4] * 3, reserved_per_disk_bytes=2 * GIB)[MdLevel.RAID5].usable_bytes
    assert plain - swap == 2 * 2 * GIB


@pytest.mark.parametrize(
    ("disks", "kw"),
    [([], {}), ([0, GIB], {}), ([GIB, GIB], {"chunk_bytes": 3000}), ([GIB, GIB], {"reserved_per_disk_bytes": GIB})],
)
def test_it_rejects_bad_input(disks, kw):
    with pytest.raises(ValueError):
        md_raid_comparison(disks, **kw)


@given(
    st.lists(st.integers(min_value=64 * MIB, max_value=20 * 10**12), min_size=2, max_size=12),
)
def test_usable_never_exceeds_raw_and_more_parity_never_more_space(disks):
    rows = rows_by_level(disks)
    for row in rows.values():
        assert 0 <= row.usable_bytes <= sum(disks)
    if MdLevel.RAID6 in rows:
        assert rows[MdLevel.RAID6].usable_bytes <= rows[MdLevel.RAID5].usable_bytes
    if MdLevel.RAID5 in rows:
        assert rows[MdLevel.RAID5].usable_bytes <= rows[MdLevel.RAID0].usable_bytes
    assert rows[MdLevel.RAID10].usable_bytes <= rows[MdLevel.RAID0].usable_bytes
    if len(disks) >= 4:  # on two disks RAID 10 keeps more headroom (chunked) than RAID 1
        assert rows[MdLevel.RAID1].usable_bytes <= rows[MdLevel.RAID10].usable_bytes


@given(st.integers(min_value=3, max_value=12), st.integers(min_value=1 * GIB, max_value=20 * 10**12))
def test_bigger_disks_never_hold_less(n, size):
    small = rows_by_level([size] * n)
    big = rows_by_level([size + 10 * GIB] * n)
    for level, row in small.items():
        assert big[level].usable_bytes >= row.usable_bytes


# ``dumpe2fs -h`` of ``mkfs.ext4 -F`` (e2fsprogs 1.47.0, default /etc/mke2fs.conf) on files of
# these sizes: (bytes, Block count, Overhead clusters). df's Size is (Block count - Overhead) × 4 KiB.
MKE2FS_1_47 = [
    (1073741824, 262144, 12949),
    (10737418240, 2621440, 66747),
    (85832663040, 20955240, 474522),
    (214748364800, 52428800, 1100294),
    (2199023255552, 536870912, 8709140),
    (5497558138880, 1342177280, 10866454),
]


@pytest.mark.parametrize("size,blocks,overhead", MKE2FS_1_47)
def test_ext4_overhead_matches_mke2fs(size, blocks, overhead):
    from zfsplanner.core.planning.mdraid import ext4_overhead_blocks

    assert ext4_overhead_blocks(blocks, size) == overhead


def test_raid5_of_three_40_gib_disks_holds_about_78_gib_under_ext4():
    row = next(r for r in md_raid_comparison([40 * GIB] * 3) if r.level == MdLevel.RAID5)
    assert 79.9 * GIB < row.usable_bytes < 80 * GIB  # the array
    assert 78.0 * GIB < row.ext4_size_bytes < 78.3 * GIB  # what df -h shows after mkfs.ext4
    assert row.ext4_avail_bytes == row.ext4_size_bytes - int(row.usable_bytes // 4096 * 0.05) * 4096
