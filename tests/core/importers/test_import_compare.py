"""layout_difference: the vdevs of a design against those of the pool imported for it."""

from __future__ import annotations

from zfsplanner.core.design.types import Design, Disk, Layout, Role, VdevGroup
from zfsplanner.core.importers.compare import layout_difference

HDD = Disk(size_bytes=16_000_000_000_000)
SSD = Disk(size_bytes=960_000_000_000)


def group(layout: Layout, width: int, count: int = 1, role: Role = Role.DATA, disk: Disk = HDD) -> VdevGroup:
    return VdevGroup(role=role, layout=layout, width=width, disks=(disk,) * width, count=count)


def design(*groups: VdevGroup) -> Design:
    return Design(name="tank", vdevs=groups)


def test_the_same_layout_is_no_difference_whatever_the_disk_sizes():
    small = Disk(size_bytes=14_000_000_000_000)
    assert layout_difference(design(group(Layout.RAIDZ2, 6)), design(group(Layout.RAIDZ2, 6, disk=small))) is None


def test_a_wider_design_is_named_with_both_disk_counts():
    assert layout_difference(design(group(Layout.RAIDZ2, 8)), design(group(Layout.RAIDZ2, 6))) == (
        "the design has 8 disks in raidz2, the pool 6 in raidz2: the figures compare different layouts")


def test_the_same_disks_grouped_otherwise_give_their_shapes():
    assert layout_difference(design(group(Layout.RAIDZ2, 6, count=2)), design(group(Layout.RAIDZ2, 12))) == (
        "the design has 12 disks in raidz2 (2 × 6-wide raidz2), the pool 12 in raidz2 (12-wide raidz2): "
        "the figures compare different layouts")


def test_a_special_vdev_on_one_side_only():
    special = group(Layout.MIRROR, 2, role=Role.SPECIAL, disk=SSD)
    assert layout_difference(design(group(Layout.RAIDZ2, 6)), design(group(Layout.RAIDZ2, 6), special)) == (
        "the design has no special vdevs, the pool has 2 special disks in mirrors: "
        "the figures compare different layouts")
    assert layout_difference(design(group(Layout.RAIDZ2, 8), special), design(group(Layout.RAIDZ1, 8))) == (
        "the design has 8 disks in raidz2, the pool 8 in raidz1; the design has 2 special disks in mirrors, "
        "the pool none: the figures compare different layouts")


def test_log_cache_and_spares_change_none_of_the_compared_figures():
    extra = (group(Layout.MIRROR, 2, role=Role.LOG, disk=SSD), group(Layout.STRIPE, 1, role=Role.CACHE, disk=SSD),
             group(Layout.STRIPE, 1, role=Role.SPARE))
    assert layout_difference(design(group(Layout.MIRROR, 2, count=3)), design(group(Layout.MIRROR, 2, count=3),
                                                                              *extra)) is None
