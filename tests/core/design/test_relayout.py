"""Switching a vdev group's layout keeps its disks: the shape the new layout gets."""

from __future__ import annotations

import pytest

from zfsplanner.core.design.relayout import Shape, same_disks
from zfsplanner.core.design.types import Layout


@pytest.mark.parametrize(
    ("old", "new", "width", "count", "expected"),
    [
        (Layout.RAIDZ2, Layout.MIRROR, 6, 1, Shape(2, 3)),  # 6 disks: 3 × 2-way, not one 6-way mirror
        (Layout.RAIDZ1, Layout.MIRROR, 4, 2, Shape(2, 4)),
        (Layout.RAIDZ2, Layout.MIRROR, 5, 1, Shape(2, 2)),  # an odd disk is left over
        (Layout.STRIPE, Layout.MIRROR, 1, 1, Shape(2, 1)),
        (Layout.RAIDZ2, Layout.STRIPE, 6, 1, Shape(1, 6)),
        (Layout.MIRROR, Layout.STRIPE, 2, 3, Shape(1, 6)),
        (Layout.MIRROR, Layout.RAIDZ2, 2, 3, Shape(6, 1)),
        (Layout.STRIPE, Layout.DRAID2, 1, 24, Shape(24, 1)),
        (Layout.RAIDZ1, Layout.RAIDZ2, 8, 2, Shape(8, 2)),  # within a family: as it was
        (Layout.RAIDZ2, Layout.DRAID2, 12, 1, Shape(12, 1)),
        (Layout.MIRROR, Layout.MIRROR, 3, 4, Shape(3, 4)),
    ],
)
def test_the_same_disks_in_the_new_layout(old, new, width, count, expected):
    assert same_disks(old, new, width, count) == expected


def test_a_shape_that_is_no_shape_is_left_as_it_is():
    assert same_disks(Layout.RAIDZ2, Layout.MIRROR, 0, 1) == Shape(0, 1)
