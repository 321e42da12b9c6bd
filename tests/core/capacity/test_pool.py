"""Pool capacity: worked examples from shared/reference/zfs-space-accounting.md and the rules behind them.

Figures marked "reference" are the checked worked examples of the reference (§1.2, §2.4, §3.4,
§7.3); "#1089" are the `zpool list`/`zfs list` figures published in openzfs/zfs#1089.
"""

from __future__ import annotations

from typing import Any

import pytest

from zfsplanner.core.capacity.pool import initial_root_used, pool_capacity
from zfsplanner.core.design.types import InvalidDesign, Layout, Role
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.alloc import deflate_ratio
from zfsplanner.core.geometry.draid import draid_groups, draid_metaslab_bytes, draid_metaslab_total
from zfsplanner.core.geometry.metaslab import deflated, metaslab_shift
from zfsplanner.core.geometry.partitioning import gpt_label_blocks, leaf_asize, linux_whole_disk_partition_bytes
from zfsplanner.core.geometry.slop import SPA_MAX_SLOP, SPA_MIN_SLOP, slop_space
from zfsplanner.core.units import GIB, MIB, TIB, zfs_nicenum
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

TB4 = 4_000_787_030_016  # a "4 TB" disk, 512-byte logical sectors
TB3 = 3_000_592_982_016  # a "3 TB" disk


def disk(size: int = TB4, **kw: Any) -> dict[str, Any]:
    return {"size_bytes": size, **kw}


def design(*vdevs: dict[str, Any], **top: Any) -> Any:
    return parse_design({"name": "tank", "vdevs": list(vdevs), **top})


def data(layout: str, width: int, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "data", "layout": layout, "width": width, "ashift": 12, "disk": disk()}
    out.update(kw)
    return out


# --------------------------------------------------------------------------- worked examples


def test_it_partitions_a_whole_4tb_disk_like_zpool_label_disk():
    assert linux_whole_disk_partition_bytes(TB4, 512) == 4_000_776_716_288
    assert leaf_asize(4_000_776_716_288) == 4_000_771_997_696


def test_it_gives_6x4tb_raidz2_the_reference_size_and_avail():
    cap = pool_capacity(design(data("raidz2", 6)))
    vdev = cap.vdevs[0]
    assert vdev.asize == 24_004_631_986_176
    assert (vdev.ms_shift, vdev.ms_count) == (34, 1397)
    assert cap.zpool_size_bytes == 24_000_277_250_048
    assert zfs_nicenum(cap.zpool_size_bytes) == "21.8T"
    assert vdev.deflate_ratio == 341
    # §3.4: one metaslab goes to the embedded log, slop = 128 GiB - 10.66 GiB
    assert vdev.embedded_log and vdev.elog_size_bytes == 16 * GIB
    assert cap.normal_dspace_bytes == 1396 * 16 * GIB // 512 * 341
    assert cap.slop_bytes == SPA_MAX_SLOP - 16 * GIB // 512 * 341
    assert cap.usable_bytes == cap.normal_dspace_bytes - cap.slop_bytes
    assert cap.zfs_avail_bytes / TIB == pytest.approx(14.41, abs=0.005)


def test_it_gives_a_2x4tb_mirror_232_metaslabs():
    cap = pool_capacity(design(data("mirror", 2)))
    assert cap.zpool_size_bytes == 3_985_729_650_688
    assert cap.vdevs[0].ms_count == 232
    assert cap.raw_bytes == 2 * TB4
    assert cap.vdevs[0].deflate_ratio == 512


def test_it_sizes_draid2_8d_24c_2s_like_the_reference():
    cap = pool_capacity(design(data("draid2", 24, draid_data=8, draid_spares=2)))
    vdev = cap.vdevs[0]
    assert vdev.draid_groups == 11
    assert vdev.asize == 88_015_959_490_560
    assert (vdev.ms_shift, vdev.ms_count) == (34, 5123)
    assert vdev.deflate_ratio == 409
    assert cap.zpool_size_bytes / TIB == pytest.approx(80.05, abs=0.005)
    assert cap.zpool_size_bytes < vdev.ms_count << vdev.ms_shift  # metaslabs trimmed to 10-sector stripes
    assert cap.zfs_avail_bytes / TIB == pytest.approx(63.82, abs=0.005)
    assert vdev.min_alloc == 8 * 4096
    assert cap.spa_min_alloc == 8 * 4096
    assert vdev.fault_tolerance == 2


@pytest.mark.parametrize(
    ("width", "size", "avail"),
    [(6, "16.2T", "10.7T"), (10, "27.2T", "20.4T"), (12, "32.5T", "24.4T")],
)
def test_it_reproduces_issue_1089_with_that_eras_rules(width, size, avail):
    """#1089 (2012): 3 TB disks, ashift 12, raidz2; metaslabs of highbit(asize/200), slop 1/64."""
    leaf = leaf_asize(linux_whole_disk_partition_bytes(TB3, 512))
    asize = width * leaf
    shift = metaslab_shift(asize, legacy=True)
    pool_size = (asize >> shift) << shift
    dspace = deflated(pool_size, deflate_ratio(Layout.RAIDZ2, width, 12))
    usable = dspace - slop_space(dspace, 0, V("0.6.4"))
    assert (zfs_nicenum(pool_size), zfs_nicenum(usable)) == (size, avail)


def test_draid_default_data_disks_are_at_most_eight():
    cap = pool_capacity(design(data("draid1", 14, draid_spares=1)))
    assert cap.vdevs[0].draid_data == 8
    cap = pool_capacity(design(data("draid2", 6)))
    assert cap.vdevs[0].draid_data == 4


def test_draid_groups_fill_whole_rows():
    assert draid_groups(24, 2, 8, 2) == 11
    assert draid_groups(10, 1, 4, 2) == 3
    assert draid_groups(14, 2, 8, 1) == 4  # the example in vdev_draid.c
    assert draid_groups(8, 0, 6, 2) == 1


@pytest.mark.parametrize(
    ("count", "shift", "width", "ashift"), [(5123, 34, 10, 12), (174, 32, 4, 9), (17, 29, 6, 9), (300, 30, 11, 13)]
)
def test_draid_metaslab_total_equals_the_metaslab_by_metaslab_sum(count, shift, width, ashift):
    size, sz = 1 << shift, width << ashift
    sizes = []
    for m in range(count):
        start = m * size
        astart = -(-start // sz) * sz
        sizes.append((size - (astart - start)) // sz * sz)
    assert draid_metaslab_total(count, shift, width, ashift) == sum(sizes)
    assert draid_metaslab_bytes(0, shift, width, ashift) == sizes[0]


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("asize", "shift"),
    [
        (1019 * MIB, 26),  # < 8 GiB: about 16 metaslabs
        (50 * GIB, 29),  # 8-100 GiB: 512 MiB each
        (1 * TIB, 33),  # about 200
        (24 * TIB, 34),  # capped at 16 GiB
        (3 * 1024 * TIB, 35),  # beyond 131072 x 16 GiB
        (40 * MIB, 24),  # never under 16 MiB
    ],
)
def test_metaslab_shift_follows_vdev_metaslab_set_size(asize, shift):
    assert metaslab_shift(asize) == shift


def test_legacy_metaslab_shift_has_no_16_gib_cap():
    assert metaslab_shift(24 * TIB, legacy=True) == 37
    assert metaslab_shift(1 * GIB, legacy=True) == 24


def test_slop_is_clamped_between_128_mib_and_128_gib():
    assert slop_space(1 * GIB) == SPA_MIN_SLOP
    assert slop_space(100 * MIB) == 50 * MIB  # never more than half the pool
    assert slop_space(100 * GIB) == 100 * GIB // 32
    assert slop_space(100 * TIB) == SPA_MAX_SLOP
    assert slop_space(100 * TIB, 300 * GIB) == SPA_MAX_SLOP // 2  # the elog takes at most half


def test_slop_rules_of_older_releases():
    assert slop_space(100 * TIB, 0, V("2.0.5")) == 100 * TIB // 32  # no cap before 2.0.6
    assert slop_space(100 * TIB, 16 * GIB, V("2.0.6")) == SPA_MAX_SLOP  # cap, but no embedded log
    assert slop_space(100 * TIB, 0, V("0.6.4")) == 100 * TIB // 64
    assert slop_space(1 * GIB, 0, V("0.6.5")) == 32 * MIB


def test_4kn_disks_lose_the_reserve_in_4k_blocks():
    assert gpt_label_blocks(512) == 33
    assert gpt_label_blocks(4096) == 5
    part = linux_whole_disk_partition_bytes(TB4, 4096)
    blocks = TB4 // 4096
    assert part == ((blocks - 1 - 5 + 1 - 16384 - 2048) // 2048) * 2048 * 4096
    assert TB4 - part > 72 * MIB


def test_partitioning_none_uses_the_whole_device():
    whole = pool_capacity(design(data("stripe", 1)))
    raw = pool_capacity(design(data("stripe", 1), disk_partitioning="none"))
    assert raw.vdevs[0].leaf_asize == (TB4 // (256 * 1024)) * 256 * 1024 - 4608 * 1024
    assert raw.vdevs[0].leaf_asize > whole.vdevs[0].leaf_asize


def test_a_vdev_can_override_the_pool_partitioning():
    cap = pool_capacity(design(data("stripe", 1, disk_partitioning="none"), data("stripe", 1)))
    assert cap.vdevs[0].leaf_asize > cap.vdevs[1].leaf_asize


def test_reserved_per_disk_bytes_comes_off_every_member():
    plain = pool_capacity(design(data("mirror", 2, disk=disk(100 * GIB)), disk_partitioning="none"))
    swap = pool_capacity(
        design(data("mirror", 2, disk=disk(100 * GIB), reserved_per_disk_bytes=2 * GIB), disk_partitioning="none")
    )
    assert plain.vdevs[0].leaf_asize - swap.vdevs[0].leaf_asize == 2 * GIB


def test_it_picks_ashift_from_the_physical_sector_when_the_design_has_none():
    cap = pool_capacity(
        design(
            {
                "role": "data",
                "layout": "mirror",
                "width": 2,
                "disk": {"size_bytes": TB4, "model": "ST4000", "physical_sector_bytes": 4096},
            }
        )
    )
    vdev = cap.vdevs[0]
    assert vdev.ashift == 12
    assert vdev.ashift_source == "physical sector of ST4000"
    assert any("ashift 12" in n for n in vdev.notes)


def test_auto_ashift_assumes_4k_when_the_sector_is_unknown():
    vdev = pool_capacity(design({"role": "data", "layout": "stripe", "width": 1, "disk": disk()})).vdevs[0]
    assert vdev.ashift == 12
    assert "assumed 4096 B" in vdev.ashift_source


def test_auto_ashift_ignores_a_physical_sector_above_16k_from_2_2_and_uses_the_logical_one():
    # vdev_ashift_optimize() from 2.1.6/2.2.0 (PR #13798): a 64 KiB physical sector is above
    # zfs_vdev_max_auto_ashift (14), so zpool falls back to the logical sector (openzfs/zfs#18045).
    big = {"size_bytes": TB4, "physical_sector_bytes": 65536}
    capped = pool_capacity(design({"role": "data", "layout": "stripe", "width": 1, "disk": big}))
    assert capped.vdevs[0].ashift == 9
    assert "logical sector" in capped.vdevs[0].ashift_source
    big4k = {"size_bytes": TB4, "logical_sector_bytes": 4096, "physical_sector_bytes": 65536}
    assert pool_capacity(design({"role": "data", "layout": "mirror", "width": 2, "disk": big4k})).vdevs[0].ashift == 12
    old = pool_capacity(design({"role": "data", "layout": "stripe", "width": 1, "disk": big}, openzfs_version="2.1"))
    assert old.vdevs[0].ashift == 16
    small = {"size_bytes": TB4, "logical_sector_bytes": 512, "physical_sector_bytes": 512}
    assert pool_capacity(design({"role": "data", "layout": "stripe", "width": 1, "disk": small})).vdevs[0].ashift == 9
    explicit = pool_capacity(design(data("stripe", 1, ashift=9)))
    assert (explicit.vdevs[0].ashift, explicit.vdevs[0].ashift_source) == (9, "design")


def test_an_ashift_below_the_logical_sector_is_raised_from_2_3_and_fails_before():
    # 2.2.7/2.3.0 raise an impossible ashift to the logical sector (PR #16690); 2.2.2 builds a
    # vdev whose first writes fail, so the design cannot be built there.
    raised = pool_capacity(design(data("stripe", 1, ashift=9, disk=disk(logical_sector_bytes=4096))))
    assert raised.vdevs[0].ashift == 12
    assert any("zpool get ashift still prints 9" in n for n in raised.vdevs[0].notes)
    with pytest.raises(InvalidDesign) as exc:
        pool_capacity(
            design(data("stripe", 1, ashift=9, disk=disk(logical_sector_bytes=4096)), openzfs_version="2.2")
        )
    assert exc.value.errors[0][0] == "vdevs[0].ashift"
    assert "PR #16690" in exc.value.errors[0][1]


def test_mixed_member_sizes_use_the_smallest():
    small, big = 10 * 10**9, 12 * 10**9
    mixed = pool_capacity(
        design({"role": "data", "layout": "mirror", "width": 2, "ashift": 12, "disks": [disk(small), disk(big)]})
    )
    even = pool_capacity(design(data("mirror", 2, disk=disk(small))))
    assert mixed.zpool_size_bytes == even.zpool_size_bytes
    assert mixed.raw_bytes == small + big
    assert any("smallest" in n for n in mixed.vdevs[0].notes)
    raidz = pool_capacity(
        design(
            {"role": "data", "layout": "raidz1", "width": 3, "ashift": 12, "disks": [disk(big), disk(small), disk(big)]}
        )
    )
    assert raidz.vdevs[0].asize == 3 * even.vdevs[0].leaf_asize


def test_it_rejects_a_disk_below_64_mib_after_partitioning():
    with pytest.raises(InvalidDesign) as exc:
        pool_capacity(
            design(data("stripe", 1), {"role": "log", "layout": "stripe", "width": 1, "disk": disk(70 * MIB)})
        )
    assert [p for p, _ in exc.value.errors] == ["vdevs[1].disk.size_bytes"]
    assert "64 MiB" in exc.value.errors[0][1]
    with pytest.raises(InvalidDesign) as exc:
        pool_capacity(design({"role": "data", "layout": "mirror", "width": 2, "disks": [disk(), disk(60 * MIB)]}))
    assert [p for p, _ in exc.value.errors] == ["vdevs[0].disks[1].size_bytes"]


def test_it_blames_the_reserve_when_the_reserve_eats_the_disk():
    with pytest.raises(InvalidDesign) as exc:
        pool_capacity(design(data("stripe", 1, disk=disk(GIB), reserved_per_disk_bytes=2 * GIB)))
    assert [p for p, _ in exc.value.errors] == ["vdevs[0].reserved_per_disk_bytes"]


def test_size_counts_special_and_dedup_but_not_log_cache_or_spares():
    ssd = disk(960 * 10**9)
    cap = pool_capacity(
        design(
            data("raidz2", 6),
            {"role": "special", "layout": "mirror", "width": 2, "ashift": 12, "disk": ssd},
            {"role": "dedup", "layout": "mirror", "width": 2, "ashift": 12, "disk": ssd},
            {"role": "log", "layout": "mirror", "width": 2, "ashift": 12, "disk": disk(16 * 10**9)},
            {"role": "cache", "layout": "stripe", "width": 1, "count": 2, "ashift": 12, "disk": ssd},
            {"role": "spare", "layout": "stripe", "width": 1, "disk": disk()},
        )
    )
    by_role = {r: [v for v in cap.vdevs if v.role == r] for r in Role}
    assert cap.zpool_size_bytes == cap.normal_size_bytes + cap.special_size_bytes
    assert cap.special_size_bytes == sum(v.zpool_size_bytes for v in by_role[Role.SPECIAL] + by_role[Role.DEDUP])
    log = by_role[Role.LOG][0]
    assert cap.log_size_bytes == log.zpool_size_bytes == log.ms_count << log.ms_shift
    assert cap.cache_size_bytes == 2 * (by_role[Role.CACHE][0].leaf_asize - 4096)
    assert by_role[Role.SPARE][0].zpool_size_bytes == 0
    assert cap.spare_raw_bytes == TB4
    assert cap.raw_bytes == 6 * TB4 + 2 * 960 * 10**9 * 3 + 2 * 16 * 10**9
    assert cap.allocating_raw_bytes == 6 * TB4 + 4 * 960 * 10**9
    assert [v.index for v in cap.vdevs] == list(range(7))
    assert [v.group_index for v in cap.vdevs] == [0, 1, 2, 3, 4, 4, 5]
    # special space never shows as AVAIL; the first metadata lands there at the mirror's ratio
    alone = pool_capacity(design(data("raidz2", 6)))
    assert cap.normal_dspace_bytes == alone.normal_dspace_bytes
    assert cap.initial_used_bytes < alone.initial_used_bytes


def test_embedded_log_on_special_only_from_2_4():
    special = {"role": "special", "layout": "mirror", "width": 2, "ashift": 12, "disk": disk(2 * 10**12)}
    v23 = pool_capacity(design(data("raidz2", 6), special, openzfs_version="2.3"))
    v24 = pool_capacity(design(data("raidz2", 6), special, openzfs_version="2.4"))
    sp23 = next(v for v in v23.vdevs if v.role == Role.SPECIAL)
    sp24 = next(v for v in v24.vdevs if v.role == Role.SPECIAL)
    assert not sp23.embedded_log and sp24.embedded_log
    assert sp24.dspace_bytes == sp23.dspace_bytes - sp24.elog_dspace_bytes
    assert v24.zpool_size_bytes == v23.zpool_size_bytes
    assert v24.elog_dspace_bytes == v23.elog_dspace_bytes + sp24.elog_dspace_bytes
    assert v24.normal_dspace_bytes == v23.normal_dspace_bytes


def test_special_embedded_log_lowers_slop_on_a_pool_below_the_cap():
    small = disk(500 * 10**9)
    special = {"role": "special", "layout": "mirror", "width": 2, "ashift": 12, "disk": small}
    v23 = pool_capacity(design(data("mirror", 2, disk=small), special, openzfs_version="2.3"))
    v24 = pool_capacity(design(data("mirror", 2, disk=small), special, openzfs_version="2.4"))
    sp24 = next(v for v in v24.vdevs if v.role == Role.SPECIAL)
    assert v24.elog_dspace_bytes == v23.elog_dspace_bytes + sp24.elog_dspace_bytes > v23.elog_dspace_bytes
    assert v24.slop_bytes == slop_space(v24.normal_dspace_bytes, v24.elog_dspace_bytes, V("2.4")) < v23.slop_bytes
    assert v24.zfs_avail_bytes - v23.zfs_avail_bytes == v23.slop_bytes - v24.slop_bytes


def test_small_vdevs_have_no_embedded_log():
    cap = pool_capacity(design(data("mirror", 2, disk=disk(20 * 10**9))))
    assert cap.vdevs[0].ms_count <= 64
    assert not cap.vdevs[0].embedded_log
    assert cap.elog_dspace_bytes == 0
    assert cap.slop_bytes == cap.normal_dspace_bytes // 32


def test_the_embedded_log_needs_more_than_64_metaslabs():
    # 65 x 512 MiB metaslabs: just over zfs_embedded_slog_min_ms
    size = 65 * 512 * MIB + 5 * MIB
    cap = pool_capacity(design(data("stripe", 1, disk=disk(size)), disk_partitioning="none"))
    assert cap.vdevs[0].ms_count == 65 and cap.vdevs[0].embedded_log
    cap = pool_capacity(design(data("stripe", 1, disk=disk(size - 512 * MIB)), disk_partitioning="none"))
    assert cap.vdevs[0].ms_count == 64 and not cap.vdevs[0].embedded_log


def test_fault_tolerance_per_layout():
    cap = pool_capacity(
        design(
            data("mirror", 3),
            data("raidz3", 7),
            data("draid2", 10, draid_data=4, draid_spares=1),
            data("stripe", 1),
        )
    )
    assert [v.fault_tolerance for v in cap.vdevs] == [2, 3, 2, 0]


def test_removability_follows_zpool_remove_rules():
    ssd = {"role": "special", "layout": "mirror", "width": 2, "ashift": 12, "disk": disk(10**12)}
    log = {"role": "log", "layout": "mirror", "width": 2, "ashift": 12, "disk": disk(16 * 10**9)}
    cache = {"role": "cache", "layout": "stripe", "width": 1, "ashift": 12, "disk": disk(10**12)}
    mirrors = pool_capacity(design(data("mirror", 2, count=2), ssd, log, cache))
    assert all(v.removable for v in mirrors.vdevs)
    with_raidz = pool_capacity(design(data("raidz1", 3), ssd, log))
    assert [v.removable for v in with_raidz.vdevs] == [False, False, True]
    assert any("raidz" in n for n in with_raidz.vdevs[1].notes)
    mixed_ashift = pool_capacity(design(data("mirror", 2), data("mirror", 2, ashift=13)))
    assert not any(v.removable for v in mixed_ashift.vdevs)
    odd_special = pool_capacity(design(data("mirror", 2, count=2), {**ssd, "ashift": 13}))
    assert [v.removable for v in odd_special.vdevs] == [True, True, False]
    only_one = pool_capacity(design(data("mirror", 2), ssd))
    assert [v.removable for v in only_one.vdevs] == [False, True]


def test_spa_alloc_units_come_from_normal_vdevs():
    cap = pool_capacity(
        design(data("mirror", 2), data("mirror", 2, ashift=13), {**data("mirror", 2), "role": "special", "ashift": 9})
    )
    assert cap.spa_min_alloc == 4096
    assert cap.spa_gcd_alloc == 4096
    draid = pool_capacity(design(data("draid1", 8, draid_data=3, draid_spares=1), data("mirror", 2)))
    assert (draid.spa_min_alloc, draid.spa_gcd_alloc) == (4096, 4096)
    three = pool_capacity(design(data("draid1", 8, draid_data=3, draid_spares=1)))
    assert (three.spa_min_alloc, three.spa_gcd_alloc) == (3 * 4096, 3 * 4096)


def test_every_version_gives_the_same_size_for_a_plain_pool():
    caps = {v: pool_capacity(design(data("raidz2", 6), openzfs_version=v)) for v in ("2.1", "2.2", "2.3", "2.4")}
    assert len({c.zpool_size_bytes for c in caps.values()}) == 1
    assert len({c.zfs_avail_bytes for c in caps.values()}) == 1
    assert pool_capacity(design(data("raidz2", 6))).openzfs_version == "2.3"


def test_count_copies_are_identical_but_for_their_index():
    cap = pool_capacity(design(data("raidz2", 6, count=3)))
    assert [v.index for v in cap.vdevs] == [0, 1, 2]
    assert len({(v.zpool_size_bytes, v.dspace_bytes) for v in cap.vdevs}) == 1
    assert cap.zpool_size_bytes == 3 * cap.vdevs[0].zpool_size_bytes


def test_layout_fields_are_filled():
    cap = pool_capacity(design(data("draid1", 8, draid_data=3, draid_spares=1)))
    vdev = cap.vdevs[0]
    assert (vdev.layout, vdev.width, vdev.parity, vdev.draid_spares) == (Layout.DRAID1, 8, 1, 1)
    assert vdev.raw_bytes == 8 * TB4
    mirror = pool_capacity(design(data("mirror", 2))).vdevs[0]
    assert (mirror.draid_data, mirror.draid_spares, mirror.draid_groups) == (None, None, None)


def test_initial_metadata_costs_more_on_raidz_than_on_a_mirror():
    mirror = initial_root_used(12, Layout.MIRROR, 2, None, 0)
    raidz2 = initial_root_used(12, Layout.RAIDZ2, 6, None, 0)
    assert mirror < raidz2
    # 94 blocks: the 6 KiB one takes two 4 KiB sectors on ashift 12, the others one
    assert mirror == 95 * 4096
    assert initial_root_used(12, Layout.MIRROR, 2, None, 2) == mirror + 8 * 4096


def test_avail_never_goes_negative():
    cap = pool_capacity(design(data("stripe", 1, disk=disk(80 * MIB)), disk_partitioning="none"))
    assert cap.zfs_avail_bytes >= 0
    assert cap.zfs_avail_bytes <= cap.normal_dspace_bytes
