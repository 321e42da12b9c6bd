"""A vdev group's shape when a person switches its layout: the same disks, laid out as the new layout
is normally built.

Width and count mean different things per layout (a mirror's width is its copies, a raidz's its
disks), so keeping them when the layout changes gives a different pool: 6 disks of raidz2 switched
to *mirror* would become one 6-way mirror (16.7 % of the raw space usable). :func:`same_disks`
keeps the number of disks instead: the pages that let a person switch the layout call it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import Layout


@dataclass(frozen=True)
class Shape:
    width: int  # disks per vdev
    count: int  # vdevs


def _family(layout: Layout) -> str:
    if layout == Layout.MIRROR:
        return "mirror"
    if layout == Layout.STRIPE:
        return "stripe"
    return "parity"  # raidz and dRAID: width is the disks of one vdev


def same_disks(old: Layout, new: Layout, width: int, count: int) -> Shape:
    """The shape of ``new`` for the ``width × count`` disks a group of ``old`` had.

    * to a mirror: 2-way mirrors, disks ÷ 2 vdevs (an odd disk is left over; one disk gives
      one 2-way mirror);
    * to single disks (stripe): one vdev per disk;
    * from mirrors or single disks to raidz or dRAID: one vdev of all the disks;
    * within a family (raidz1 → raidz2, raidz → dRAID, mirror → mirror): the shape as it was.
    """
    if _family(old) == _family(new) or width < 1 or count < 1:
        return Shape(width, count)
    disks = width * count
    if new == Layout.MIRROR:
        return Shape(2, max(disks // 2, 1))
    if new == Layout.STRIPE:
        return Shape(1, disks)
    return Shape(disks, 1)
