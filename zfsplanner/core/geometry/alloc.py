"""What one block costs on a top-level vdev, and the vdev's deflate ratio.

These are the per-block rules every other estimate builds on. Sources are
openzfs/zfs ``module/zfs/vdev_raidz.c`` (``vdev_raidz_psize_to_asize``),
``module/zfs/vdev_draid.c`` (``vdev_draid_psize_to_asize``), ``module/zfs/vdev.c``
(``vdev_default_asize``, ``vdev_set_deflate_ratio``) and ``module/zfs/spa_misc.c``
(``dva_get_dsize_sync``); see ``shared/reference/zfs-space-accounting.md`` §1.
"""

from __future__ import annotations

from ..design.types import DRAID_LAYOUTS, PARITY, RAIDZ_LAYOUTS, Layout
from ..units import ceil_div, roundup

SPA_MINBLOCKSHIFT = 9
SPA_OLD_MAXBLOCKSIZE = 128 * 1024  # the block size the deflate ratio is computed for


def raidz_asize(psize: int, width: int, parity: int, ashift: int) -> int:
    """Allocated bytes of a ``psize`` block on a RAIDZ vdev (parity and padding included).

    ``vdev_raidz_psize_to_asize()``: data sectors, plus ``parity`` sectors per row of
    ``width - parity`` data sectors, rounded up to a multiple of ``parity + 1`` sectors
    so that any freed segment can hold a minimal block.
    """
    sector = 1 << ashift
    data = ceil_div(psize, sector)
    total = data + parity * ceil_div(data, width - parity)
    return roundup(total, parity + 1) * sector


def draid_asize(psize: int, data_disks: int, parity: int, ashift: int) -> int:
    """Allocated bytes of a ``psize`` block on dRAID: whole rows of ``D + p`` sectors.

    ``vdev_draid_psize_to_asize()``; dRAID pads every block to full stripes.
    """
    sector = 1 << ashift
    rows = ceil_div(psize, data_disks * sector)
    return rows * (data_disks + parity) * sector


def plain_asize(psize: int, ashift: int) -> int:
    """Mirror or single disk: psize rounded up to the sector (``vdev_default_asize``)."""
    return roundup(psize, 1 << ashift)


def block_asize(layout: Layout, width: int, ashift: int, psize: int, draid_data: int | None = None) -> int:
    """Allocated bytes of one copy of a ``psize`` block on a top-level vdev of ``layout``."""
    if layout in RAIDZ_LAYOUTS:
        return raidz_asize(psize, width, PARITY[layout], ashift)
    if layout in DRAID_LAYOUTS:
        if draid_data is None:
            raise ValueError("dRAID needs its data-disk count")
        return draid_asize(psize, draid_data, PARITY[layout], ashift)
    return plain_asize(psize, ashift)


def min_alloc(layout: Layout, ashift: int, draid_data: int | None = None) -> int:
    """Smallest allocation (``vdev_get_min_alloc``): one sector, or D sectors on dRAID."""
    if layout in DRAID_LAYOUTS:
        if draid_data is None:
            raise ValueError("dRAID needs its data-disk count")
        return draid_data << ashift
    return 1 << ashift


def deflate_ratio(layout: Layout, width: int, ashift: int, draid_data: int | None = None) -> int:
    """The vdev's deflate ratio out of 512 (``vdev_set_deflate_ratio``).

    ``(1 << 17) / (asize(128 KiB) >> 9)``, computed once for a 128 KiB block at txg 0
    (so for the vdev's original width after a RAIDZ expansion) and never changed.
    """
    asize = block_asize(layout, width, ashift, SPA_OLD_MAXBLOCKSIZE, draid_data)
    return SPA_OLD_MAXBLOCKSIZE // (asize >> SPA_MINBLOCKSHIFT)


def nominal_parity_fraction(layout: Layout, width: int, draid_data: int | None = None) -> float:
    """Parity columns over all columns of a stripe, the layout's nominal cost before padding:
    ``p/N`` (raidz), ``p/(D+p)`` (dRAID, ``D`` data disks per redundancy group), 0 for mirrors
    and single disks (a mirror's other copies are not in its ``asize``). The one home of this rule."""
    p = PARITY[layout]
    if layout in RAIDZ_LAYOUTS:
        return p / width
    if layout in DRAID_LAYOUTS:
        if not draid_data:
            raise ValueError("dRAID needs its data-disk count")
        return p / (draid_data + p)
    return 0.0


def deflate(asize: int, ratio: int) -> int:
    """Bytes charged to ``zfs list`` for ``asize`` raw bytes (``vdev_deflated_space``)."""
    return (asize >> SPA_MINBLOCKSHIFT) * ratio
