"""How big the special vdev must be: the ``special_small_blocks`` curve and a recommended size.

Which block lands on the special class follows ``spa_preferred_class()``
(``module/zfs/spa_misc.c``; ``shared/reference/zfs-space-accounting.md`` §4.1): all
metadata (dnodes, directories, indirect blocks) goes there, and a level-0 data block
goes there when its allocated ``psize`` (after compression and rounding to the
allocation unit) is at most the dataset's ``special_small_blocks`` and the class is
below ``100 - zfs_special_class_metadata_reserve_pct`` (75 %) full. Past 75 % only
metadata keeps going there, and past 100 % metadata spills to the normal class (§4.3).

The curve is computed from the blocks ``dataset.dataset_usage`` already counted: the
cost of each distinct ``psize`` on each class is computed once, sorted by ``psize`` and
summed cumulatively, so every threshold is a binary search plus two lookups. The curve
shows what the dataset would *ask* of the special class (as if it had room); the 75 %
point is reported next to it, so a chart can show where the class stops taking blocks.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..capacity.placement import AllocTarget, Geometry, dva_cost, dva_costs, group_targets
from ..design.types import Layout
from ..geometry.metaslab import metaslab_shift
from ..geometry.partitioning import leaf_asize, linux_whole_disk_partition_bytes
from ..units import MIB, is_power_of_two
from .usage import SPECIAL_SMALL_RESERVE_PCT, DatasetUsage

SMALL_BLOCKS_SHARE = (100 - SPECIAL_SMALL_RESERVE_PCT) / 100  # 0.75
FIRST_THRESHOLD = 4096  # below one 4 KiB sector a threshold only matters on ashift-9 pools


@dataclass(frozen=True)
class CurvePoint:
    special_small_blocks: int
    special_allocated_bytes: int
    normal_allocated_bytes: int


def thresholds(block_size: int, alloc_unit: int) -> list[int]:
    """0, then every power of two from the allocation unit (at most 4 KiB) through ``block_size``."""
    start = min(FIRST_THRESHOLD, max(alloc_unit, 512))
    if not is_power_of_two(start):
        start = 1 << (start - 1).bit_length()
    out = [0]
    t = start
    while t <= block_size:
        out.append(t)
        t <<= 1
    if out[-1] != block_size and block_size > 0:
        out.append(block_size)
    return out


def _class_cost(demand: Sequence[tuple[int, float]], groups: list[tuple[Geometry, float]]) -> list[float]:
    """Raw allocated bytes of each (psize, DVAs) entry spread over ``groups``."""
    out = []
    spread = [(g, share, dva_costs(g)) for g, share in groups]
    for psize, dvas in demand:
        cost = 0.0
        for g, share, known in spread:
            cost += dva_cost(g, psize, known)[0] * share
        out.append(cost * dvas)
    return out


def special_curve(
    usage: DatasetUsage,
    normal: Sequence[AllocTarget],
    special: Sequence[AllocTarget],
    points: Sequence[int],
) -> list[CurvePoint]:
    """Special- and normal-class bytes of the dataset for each ``special_small_blocks`` in ``points``.

    Metadata is on the special class at every point (it goes there whatever the
    threshold); data blocks move over as the threshold reaches their ``psize``. A zvol
    before OpenZFS 2.4 keeps its data on the normal class (the property only applies to
    filesystems there).
    """
    normal_groups = group_targets(normal)
    special_groups = group_targets(special)
    meta = sum(_class_cost(usage.metadata_dvas, special_groups))
    data = [(p, d) for p, d in usage.data_dvas if p > 0 and d > 0]
    psizes = [p for p, _ in data]
    on_special = [0.0, *accumulate(_class_cost(data, special_groups))]
    on_normal = [0.0, *accumulate(_class_cost(data, normal_groups))]
    total_normal = on_normal[-1]
    out = []
    for t in points:
        j = bisect_right(psizes, t) if usage.small_blocks_allowed and t > 0 else 0
        out.append(CurvePoint(t, int(round(meta + on_special[j])), int(round(total_normal - on_normal[j]))))
    return out


def recommended_class_bytes(demand_bytes: float, headroom: float) -> int:
    """Special class size (``zpool list`` SIZE of the special vdevs) that holds ``demand_bytes``
    below the 75 % point where small blocks stop, plus ``headroom`` (0.25 = a quarter more)."""
    return int(demand_bytes * (1 + headroom) / SMALL_BLOCKS_SHARE + 0.5)


def vdev_size_for_disk(disk_bytes: int, layout: Layout, width: int, logical_sector: int, whole_disk: bool) -> int:
    """``zpool list -v`` SIZE of one special vdev built from disks of ``disk_bytes`` (mirror or raidz)."""
    osize = linux_whole_disk_partition_bytes(disk_bytes, logical_sector) if whole_disk else disk_bytes
    leaf = leaf_asize(osize)
    if leaf <= 0:
        return 0
    asize = leaf * width if layout not in (Layout.MIRROR, Layout.STRIPE) else leaf
    shift = metaslab_shift(asize)
    return (asize >> shift) << shift


def disk_bytes_for(
    class_bytes: int, layout: Layout, width: int, count: int, logical_sector: int = 512, whole_disk: bool = True
) -> int:
    """The smallest disk (to 1 MB) whose ``count`` vdevs of ``layout``/``width`` give ``class_bytes`` of SIZE.

    Inverts the pool engine's partition, label and metaslab rounding by bisection.
    """
    per_vdev = -(-class_bytes // max(count, 1))
    lo, hi = 64 * MIB, max(per_vdev * 2 + 256 * MIB, 128 * MIB)
    while vdev_size_for_disk(hi, layout, width, logical_sector, whole_disk) < per_vdev:
        hi *= 2
    step = 1_000_000
    lo //= step
    hi = -(-hi // step)
    while lo < hi:
        mid = (lo + hi) // 2
        if vdev_size_for_disk(mid * step, layout, width, logical_sector, whole_disk) >= per_vdev:
            hi = mid
        else:
            lo = mid + 1
    return lo * step
