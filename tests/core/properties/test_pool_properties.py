"""Properties every pool estimate must have, whatever the disks (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.metaslab import deflated
from zfsplanner.core.geometry.partitioning import gpt_label_blocks, leaf_asize, linux_whole_disk_partition_bytes
from zfsplanner.core.geometry.slop import SPA_MIN_SLOP, slop_space
from zfsplanner.core.units import GIB, MIB, TIB
from zfsplanner.core.versions import Version

disk_sizes = st.integers(min_value=1 * GIB, max_value=30 * TIB)
ashifts = st.integers(min_value=9, max_value=13)
versions = st.sampled_from(["2.1", "2.2", "2.3", "2.4"])
partitionings = st.sampled_from(["linux-whole-disk", "none"])


def pool(*vdevs: dict[str, Any], **top: Any) -> Any:
    return pool_capacity(parse_design({"name": "tank", "vdevs": list(vdevs), **top}))


def vdev(layout: str, width: int, size: int, ashift: int, **kw: Any) -> dict[str, Any]:
    return {"role": "data", "layout": layout, "width": width, "ashift": ashift, "disk": {"size_bytes": size}, **kw}


@st.composite
def data_vdevs(draw: st.DrawFn) -> dict[str, Any]:
    layout = draw(st.sampled_from(["stripe", "mirror", "raidz1", "raidz2", "raidz3", "draid1", "draid2"]))
    size = draw(disk_sizes)
    ashift = draw(ashifts)
    if layout == "stripe":
        return vdev(layout, 1, size, ashift)
    if layout == "mirror":
        return vdev(layout, draw(st.integers(2, 4)), size, ashift)
    parity = int(layout[-1])
    if layout.startswith("raidz"):
        return vdev(layout, draw(st.integers(parity + 1, 16)), size, ashift)
    spares = draw(st.integers(0, 2))
    data = draw(st.integers(1, 8))
    width = draw(st.integers(data + parity + spares, data + parity + spares + 12))
    return vdev(layout, width, size, ashift, draid_data=data, draid_spares=spares)


@settings(max_examples=60, deadline=None)
@given(size=disk_sizes, ashift=ashifts, width=st.integers(4, 16), version=versions)
def test_more_parity_never_gives_more_space(size, ashift, width, version):
    caps = [pool(vdev(f"raidz{p}", width, size, ashift), openzfs_version=version) for p in (1, 2, 3)]
    assert caps[0].zpool_size_bytes == caps[1].zpool_size_bytes == caps[2].zpool_size_bytes
    assert caps[0].zfs_avail_bytes >= caps[1].zfs_avail_bytes >= caps[2].zfs_avail_bytes


@settings(max_examples=40, deadline=None)
@given(size=disk_sizes, ashift=ashifts, data=st.integers(2, 8), extra=st.integers(0, 8))
def test_more_draid_parity_never_gives_more_space(size, ashift, data, extra):
    children = data + 3 + extra
    caps = [pool(vdev(f"draid{p}", children, size, ashift, draid_data=data, draid_spares=0)) for p in (1, 2, 3)]
    assert caps[0].zfs_avail_bytes >= caps[1].zfs_avail_bytes >= caps[2].zfs_avail_bytes


@settings(max_examples=60, deadline=None)
@given(size=disk_sizes, ashift=ashifts, parity=st.integers(1, 3), width=st.integers(4, 20))
def test_a_wider_raidz_never_has_less_raw_size_or_avail(size, ashift, parity, width):
    narrow = pool(vdev(f"raidz{parity}", width, size, ashift))
    wide = pool(vdev(f"raidz{parity}", width + 1, size, ashift))
    assert wide.raw_bytes > narrow.raw_bytes
    assert wide.zpool_size_bytes >= narrow.zpool_size_bytes
    assert wide.zfs_avail_bytes >= narrow.zfs_avail_bytes


@settings(max_examples=100, deadline=None)
@given(v=data_vdevs(), version=versions, partitioning=partitionings)
def test_usable_never_exceeds_raw(v, version, partitioning):
    cap = pool(v, openzfs_version=version, disk_partitioning=partitioning)
    assert cap.zfs_avail_bytes <= cap.usable_bytes <= cap.normal_dspace_bytes
    assert cap.normal_dspace_bytes + cap.elog_dspace_bytes <= cap.zpool_size_bytes <= cap.allocating_raw_bytes
    assert cap.allocating_raw_bytes <= cap.raw_bytes


@settings(max_examples=100, deadline=None)
@given(v=data_vdevs(), version=versions)
def test_avail_plus_used_is_dspace_less_slop(v, version):
    cap = pool(v, openzfs_version=version)
    assume(cap.zfs_avail_bytes > 0)
    assert cap.zfs_avail_bytes + cap.initial_used_bytes == cap.normal_dspace_bytes - cap.slop_bytes
    assert cap.slop_bytes == slop_space(cap.normal_dspace_bytes, cap.elog_dspace_bytes, Version.parse(version))
    assert min(cap.normal_dspace_bytes // 2, SPA_MIN_SLOP) <= cap.slop_bytes
    assert cap.slop_bytes <= max(cap.normal_dspace_bytes // 32, SPA_MIN_SLOP)


@settings(max_examples=80, deadline=None)
@given(a=data_vdevs(), b=data_vdevs(), version=versions)
def test_adding_a_whole_vdev_never_shrinks_usable(a, b, version):
    one = pool(a, openzfs_version=version)
    two = pool(a, b, openzfs_version=version)
    assert two.zpool_size_bytes > one.zpool_size_bytes
    assert two.raw_bytes > one.raw_bytes
    assert two.zfs_avail_bytes >= one.zfs_avail_bytes


@settings(max_examples=80, deadline=None)
@given(v=data_vdevs(), grow=st.integers(min_value=0, max_value=4 * TIB), version=versions)
def test_bigger_disks_never_shrink_usable(v, grow, version):
    bigger = {**v, "disk": {"size_bytes": v["disk"]["size_bytes"] + grow}}
    small, big = pool(v, openzfs_version=version), pool(bigger, openzfs_version=version)
    assert big.zpool_size_bytes >= small.zpool_size_bytes
    assert big.zfs_avail_bytes >= small.zfs_avail_bytes


@settings(max_examples=60, deadline=None)
@given(size=disk_sizes, ashift=ashifts, n=st.integers(2, 5), version=versions)
def test_an_n_way_mirror_keeps_one_nth_of_raw_before_slop(size, ashift, n, version):
    cap = pool(vdev("mirror", n, size, ashift), openzfs_version=version)
    v = cap.vdevs[0]
    assert v.deflate_ratio == 512
    assert cap.normal_dspace_bytes + cap.elog_dspace_bytes == deflated(v.zpool_size_bytes, 512) == v.zpool_size_bytes
    assert v.zpool_size_bytes <= cap.raw_bytes // n
    # only the partition table, labels and the last partial metaslab are lost
    assert cap.raw_bytes // n - v.zpool_size_bytes < (1 << v.ms_shift) + 20 * MIB


@settings(max_examples=100, deadline=None)
@given(v=data_vdevs(), version=versions)
def test_size_is_a_whole_number_of_metaslabs(v, version):
    cap = pool(v, openzfs_version=version)
    for vd in cap.vdevs:
        whole = vd.ms_count << vd.ms_shift
        assert whole <= vd.asize
        if vd.draid_data is None:
            assert vd.zpool_size_bytes == whole
        else:
            # dRAID trims every metaslab to whole (D + p)-sector stripes
            stripe = (vd.draid_data + vd.parity) << vd.ashift
            assert whole - vd.ms_count * stripe < vd.zpool_size_bytes <= whole


@settings(max_examples=100, deadline=None)
@given(size=st.integers(min_value=80 * MIB, max_value=30 * TIB), lbs=st.sampled_from([512, 4096]))
def test_whole_disk_partitioning_takes_between_9_mib_and_one_alignment_unit_more(size, lbs):
    part = linux_whole_disk_partition_bytes(size, lbs)
    overhead = size - part
    resv_and_start = (16384 + 2048) * lbs
    assert part % (2048 * lbs) == 0
    # plus the backup GPT and the end alignment (less than 2048 blocks) and a partial block
    assert resv_and_start + gpt_label_blocks(lbs) * lbs <= overhead
    assert overhead < resv_and_start + (gpt_label_blocks(lbs) + 2048 + 1) * lbs
    assert leaf_asize(part) <= part - 4608 * 1024
