"""Dataset USED: data, tails, compression, copies, special class, versions, inputs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfsplanner.core.capacity.placement import AllocTarget
from zfsplanner.core.capacity.zvol import zvol_volsize_to_reservation
from zfsplanner.core.datasets.inputs import DatasetError
from zfsplanner.core.datasets.usage import dataset_usage
from zfsplanner.core.design.types import Compressibility, Contents, Dataset, DatasetType, Layout
from zfsplanner.core.properties.resolve import default
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

K = 1024
M = 1024 * K
MIRROR = [AllocTarget.for_vdev(Layout.MIRROR, 2, 12)]
RAIDZ2_6 = [AllocTarget.for_vdev(Layout.RAIDZ2, 6, 12)]
SPECIAL = [AllocTarget.for_vdev(Layout.MIRROR, 3, 12)]


def fs(hist=None, *, logical=None, files=None, profile=None, **kw) -> Dataset:
    comp = Compressibility(profile=profile) if profile else None
    return Dataset(
        name="tank/fs",
        contents=Contents(logical_bytes=logical, file_count=files, file_size_histogram=hist, compressibility=comp),
        **kw,
    )


def usage(ds, normal=RAIDZ2_6, version="2.3", **kw):  # version: as a document names it
    return dataset_usage(ds, version=V(version), normal=normal, spa_min_alloc=4096, spa_gcd_alloc=4096, **kw)


def test_large_incompressible_files_cost_their_raidz_asize():
    u = usage(fs(((1 * M, 1000),), compression="off"))
    # 8 records of 128K at 192K asize each (§1.1), charged 130944 each (§1.4)
    assert u.data_allocated_bytes == 1000 * 8 * 192 * K
    assert u.data_blocks == 8000
    # each file has one L1 indirect (8 pointers, one 4K sector), 2 copies of 12K on raidz2
    assert u.metadata_allocated_bytes >= 1000 * 2 * 12 * K
    data_used = 1000 * 8 * 130944
    indirect_used = 1000 * 2 * 3 * 341 * 8  # 3 sectors of 4K = 24 units of 512, x 341
    assert data_used + indirect_used < u.zfs_used_bytes < (data_used + indirect_used) * 1.005


def test_the_tail_record_is_full_size_without_compression():
    u = usage(fs(((129 * K, 10),), compression="off"))
    assert u.data_allocated_bytes == 10 * 2 * 192 * K
    assert u.logicalused_bytes > 10 * 256 * K


def test_compression_trims_the_tail_record():
    on = usage(fs(((129 * K, 10),), compression="lz4", profile="incompressible"))
    off = usage(fs(((129 * K, 10),), compression="off"))
    assert on.data_allocated_bytes < off.data_allocated_bytes
    assert dict(on.psize_histogram) == {4096: 10, 128 * K: 10}


def test_small_files_are_one_block_rounded_to_512():
    u = usage(fs(((1000, 100),), compression="off"), normal=MIRROR)
    assert dict(u.psize_histogram) == {1024: 100}
    assert u.data_allocated_bytes == 100 * 4096


def test_compressible_text_uses_less_space():
    text = usage(fs(((1 * M, 100),), compression="zstd", profile="text"))
    raw = usage(fs(((1 * M, 100),), compression="zstd", profile="incompressible"))
    assert text.zfs_used_bytes < raw.zfs_used_bytes / 2
    assert text.compressratio > 2.5 and raw.compressratio == 1.0
    assert text.compression == "zstd-3"


def test_zeros_with_compression_take_no_data_space():
    u = usage(fs(((1 * M, 100),), compression="lz4", profile="zeros"))
    assert u.data_allocated_bytes == 0 and u.data_blocks == 0


def test_copies_doubles_the_data():
    one = usage(fs(((1 * M, 100),), compression="off"))
    two = usage(fs(((1 * M, 100),), compression="off", copies=2))
    assert two.data_allocated_bytes == 2 * one.data_allocated_bytes
    assert two.metadata_allocated_bytes > one.metadata_allocated_bytes


def test_default_compression_follows_the_version():
    ds = fs(((1 * M, 10),), profile="text")
    assert usage(ds, version="2.1").compression == "off"
    assert usage(ds, version="2.2").compression == "lz4"


def test_default_volblocksize_follows_the_version():
    assert default("volblocksize", V("2.1")) == 8 * K and default("volblocksize", V("2.2")) == 16 * K
    vol = Dataset(name="tank/v", type=DatasetType.VOLUME, volsize=1 * M * 1024, contents=Contents(logical_bytes=M))
    assert usage(vol, version="2.1").block_size_bytes == 8 * K
    assert usage(vol, version="2.3").block_size_bytes == 16 * K


def test_sparse_zvols_have_no_refreservation():
    vol = Dataset(
        name="tank/v",
        type=DatasetType.VOLUME,
        volsize=1024 * M,
        extra={"sparse": True},
        contents=Contents(logical_bytes=10 * M),
    )
    u = usage(vol)
    assert u.refreservation_bytes is None and u.zfs_used_bytes == u.referenced_bytes


def test_refreservation_on_mirrors_is_volsize_plus_metadata():
    # no raidz/dRAID vdev: data is nblocks * volblocksize (libzfs volsize_from_vdevs)
    r = zvol_volsize_to_reservation(1024 * M, 16 * K, 1, MIRROR)
    assert r == 1024 * M + (7 + 64 + 1) * 2 * 128 * K


def test_metadata_and_small_blocks_go_to_special():
    ds = fs(((4 * K, 1000), (1 * M, 100)), compression="off", special_small_blocks=16 * K)
    u = usage(ds, special=SPECIAL)
    small = 1000 * 4 * K
    assert u.special_allocated_bytes == small + u.metadata_allocated_bytes
    assert u.normal_allocated_bytes == 100 * 8 * 192 * K
    # special allocations are still charged to USED (all released versions)
    assert u.zfs_used_bytes > 100 * 8 * 130944 + small


def test_without_special_small_blocks_only_metadata_goes_to_special():
    u = usage(fs(((4 * K, 1000),), compression="off"), special=SPECIAL)
    assert u.special_allocated_bytes == u.metadata_allocated_bytes > 0


def test_special_small_blocks_compares_the_compressed_size():
    ds = fs(((64 * K, 100),), compression="zstd", profile="logs", special_small_blocks=16 * K)
    assert usage(ds, special=SPECIAL).special_allocated_bytes > usage(ds, special=SPECIAL).metadata_allocated_bytes


def test_zvol_blocks_go_to_special_only_from_2_4():
    vol = Dataset(
        name="tank/v",
        type=DatasetType.VOLUME,
        volsize=1024 * M,
        volblocksize=16 * K,
        special_small_blocks=16 * K,
        compression="off",
        contents=Contents(logical_bytes=100 * M),
    )
    old = usage(vol, version="2.3", special=SPECIAL)
    new = usage(vol, version="2.4", special=SPECIAL)
    assert old.special_allocated_bytes == old.metadata_allocated_bytes
    assert new.special_allocated_bytes > 100 * M
    assert any("2.4" in n for n in old.notes)


def test_small_blocks_stop_at_75_percent_of_the_special_class():
    ds = fs(((4 * K, 100_000),), compression="off", special_small_blocks=4 * K)
    u = usage(ds, special=SPECIAL, special_usable_bytes=100 * M)
    assert u.special_allocated_bytes == pytest.approx(75 * M, rel=0.001)
    assert any("75 %" in n for n in u.notes)


def test_metadata_spills_to_normal_when_special_is_full():
    ds = fs(((4 * K, 100_000),), compression="off")
    u = usage(ds, special=SPECIAL, special_usable_bytes=1 * M)
    assert u.special_allocated_bytes == pytest.approx(1 * M, rel=0.001)
    assert u.normal_allocated_bytes > u.data_allocated_bytes


def test_identical_vdevs_cost_the_same_as_one():
    ds = fs(((300 * K, 1000),), compression="off")
    one = usage(ds)
    many = usage(ds, normal=[AllocTarget.for_vdev(Layout.RAIDZ2, 6, 12, share=0.25)] * 4)
    assert one == many


def test_mixed_vdevs_are_weighted_by_share():
    ds = fs(((1 * M, 100),), compression="off")
    mixed = usage(
        ds,
        normal=[
            AllocTarget.for_vdev(Layout.RAIDZ2, 6, 12, share=0.5),
            *[AllocTarget.for_vdev(Layout.MIRROR, 2, 12, share=0.5)],
        ],
    )
    assert mixed.data_allocated_bytes == (192 * K + 128 * K) // 2 * 8 * 100


def test_overhead_fraction_against_nominal():
    u = usage(fs(((1 * M, 100),), compression="off"))
    assert u.nominal_parity_fraction == pytest.approx(1 / 3)
    assert u.raidz_overhead_fraction >= 1 / 3 - 1e-9
    m = usage(fs(((1 * M, 100),), compression="off"), normal=MIRROR)
    assert m.raidz_overhead_fraction == 0 and m.nominal_parity_fraction == 0


def test_file_count_without_histogram_spreads_logical_bytes():
    u = usage(fs(logical=10 * M, files=10, compression="off"))
    assert u.data_blocks == 80 and u.logical_bytes == 10 * M


def test_logical_bytes_alone_is_treated_as_large_files():
    u = usage(fs(logical=100 * M, compression="off"))
    assert u.data_blocks == 800 and any("no file count" in n for n in u.notes)


def test_file_count_alone_costs_only_metadata():
    u = usage(fs(files=10_000))
    assert u.data_allocated_bytes == 0 and u.metadata_allocated_bytes > 0


def test_histogram_is_scaled_to_logical_bytes():
    u = usage(fs(((1 * M, 10),), logical=20 * M, compression="off"))
    assert u.data_blocks == 160 and any("scaled" in n for n in u.notes)


def test_no_contents_is_an_empty_dataset():
    u = usage(Dataset(name="tank/e"))
    assert u.zfs_used_bytes == u.empty_used_bytes > 0 and u.data_blocks == 0


def test_it_needs_a_normal_vdev():
    with pytest.raises(DatasetError):
        dataset_usage(fs(), version=V("2.3"), normal=[], spa_min_alloc=4096, spa_gcd_alloc=4096)


def test_unknown_dnodesize_is_rejected():
    with pytest.raises(DatasetError):
        usage(fs(files=10, extra={"dnodesize": "3k"}))


def test_more_directories_than_one_are_supported():
    one = usage(fs(files=100_000))
    many = usage(fs(files=100_000, extra={"files_per_directory": 1000}))
    assert one.metadata_allocated_bytes != many.metadata_allocated_bytes


sizes = st.integers(0, 20 * M)


@settings(max_examples=60, deadline=None)
@given(
    hist=st.lists(st.tuples(sizes, st.integers(1, 500)), min_size=1, max_size=8),
    extra=st.tuples(sizes, st.integers(1, 500)),
    rs=st.sampled_from([4 * K, 16 * K, 128 * K, 1 * M]),
    comp=st.sampled_from(["off", "lz4", "zstd"]),
    profile=st.sampled_from(["incompressible", "text", "mixed"]),
)
def test_used_never_shrinks_when_files_are_added(hist, extra, rs, comp, profile):
    base = usage(fs(tuple(hist), recordsize=rs, compression=comp, profile=profile))
    more = usage(fs((*hist, extra), recordsize=rs, compression=comp, profile=profile))
    assert more.zfs_used_bytes >= base.zfs_used_bytes
    assert base.data_allocated_bytes + base.metadata_allocated_bytes == (
        base.special_allocated_bytes + base.normal_allocated_bytes
    )
    # allocated never less than what is stored
    assert base.data_allocated_bytes >= sum(p * n for p, n in base.psize_histogram)
