"""dRAID geometry: default data disks, groups, child and top-level asize, whole-stripe metaslabs.

Step 3 (dRAID) and 4 of the capacity pipeline (:mod:`zfsplanner.core.capacity.pool`), after
``vdev_draid_open()`` and ``vdev_draid_metaslab_init()`` (``module/zfs/vdev_draid.c``).
"""

from __future__ import annotations

from math import gcd

from ..design.types import VdevGroup
from ..units import MIB, rounddown, roundup

# include/sys/vdev_draid.h
VDEV_DRAID_ROWHEIGHT = 16 * MIB
VDEV_DRAID_REFLOW_RESERVE = 2 * VDEV_DRAID_ROWHEIGHT


def draid_default_data(children: int, spares: int, parity: int) -> int:
    """Data disks per dRAID group when ``:Nd`` is omitted (``cmd/zpool/zpool_vdev.c``)."""
    return min(children - spares - parity, 8)


def draid_groups(children: int, spares: int, data: int, parity: int) -> int:
    """Smallest group count that fills whole rows (``draid_config_by_type()``).

    ``ngroups`` is the smallest n with ``n x (D + p)`` a multiple of ``children - spares``.
    """
    ndisks = children - spares
    width = data + parity
    return ndisks // gcd(width, ndisks)


def draid_child_asize(leaf: int) -> int:
    """Usable bytes per dRAID child: less the 32 MiB reflow reserve, whole 16 MiB rows.

    ``vdev_draid_open()`` (``module/zfs/vdev_draid.c``), ``VDEV_DRAID_REFLOW_RESERVE`` and
    ``VDEV_DRAID_ROWHEIGHT`` (``include/sys/vdev_draid.h``).
    """
    return rounddown(leaf - VDEV_DRAID_REFLOW_RESERVE, VDEV_DRAID_ROWHEIGHT)


def draid_vdev_asize(child_asize: int, ndisks: int, group_width: int) -> int:
    """dRAID top-level asize: all non-spare children, rounded down to whole groups.

    ``vdev_draid_open()``: ``((child_asize x ndisks) / groupsz) x groupsz`` with
    ``groupsz = (D + p) x 16 MiB``.
    """
    groupsz = group_width * VDEV_DRAID_ROWHEIGHT
    return rounddown(child_asize * ndisks, groupsz)


def draid_metaslab_bytes(ms_index: int, ms_shift: int, group_width: int, ashift: int) -> int:
    """Usable bytes of dRAID metaslab ``ms_index``.

    ``vdev_draid_metaslab_init()``: the start is rounded up to a multiple of
    ``(D + p) << ashift`` and the size rounded down to one, since dRAID only writes
    whole stripes.
    """
    sz = group_width << ashift
    start = ms_index << ms_shift
    astart = roundup(start, sz)
    return rounddown((1 << ms_shift) - (astart - start), sz)


def draid_metaslab_total(ms_count: int, ms_shift: int, group_width: int, ashift: int) -> int:
    """Sum of :func:`draid_metaslab_bytes` over ``ms_count`` metaslabs without a full loop.

    The start offset modulo ``(D + p) << ashift`` repeats with a period of the odd part of
    ``D + p`` (at most 255), so one period is summed and multiplied out.
    """
    sz = group_width << ashift
    period = sz // gcd(1 << ms_shift, sz)
    full, rest = divmod(ms_count, period)
    one_period = [draid_metaslab_bytes(m, ms_shift, group_width, ashift) for m in range(min(period, ms_count))]
    return full * sum(one_period) + sum(one_period[:rest])


def draid_data_disks(group: VdevGroup) -> int:
    """dRAID data disks per redundancy group: as given, else ``min(children - spares - p, 8)``.

    The default is the one ``zpool create`` applies (``cmd/zpool/zpool_vdev.c``,
    ``draid_config_by_type()``).
    """
    if group.draid_data is not None:
        return group.draid_data
    return draid_default_data(group.width, group.draid_spares or 0, group.parity)
