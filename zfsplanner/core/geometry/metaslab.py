"""Metaslabs: how big they are and how raw space is deflated into a class's space.

Steps 4 and 5 of the capacity pipeline (:mod:`zfsplanner.core.capacity.pool`): top-level asize ->
metaslab shift and count (``vdev_metaslab_set_size()``, ``vdev_metaslab_init()``,
``module/zfs/vdev.c``); metaslabs -> deflated space (``vdev_deflated_space()``).
"""

from __future__ import annotations

from ..units import highbit

SPA_MINBLOCKSHIFT = 9
SPA_MAXBLOCKSHIFT = 24

# module/zfs/vdev.c tunables (man zfs.4)
ZFS_VDEV_DEFAULT_MS_COUNT = 200
ZFS_VDEV_MIN_MS_COUNT = 16
ZFS_VDEV_MS_COUNT_LIMIT = 1 << 17
ZFS_VDEV_DEFAULT_MS_SHIFT = 29
ZFS_VDEV_MAX_MS_SHIFT = 34
ZFS_EMBEDDED_SLOG_MIN_MS = 64
LEGACY_METASLABS_PER_VDEV = 200  # zfs-0.7 and earlier


def metaslab_shift(asize: int, *, legacy: bool = False) -> int:
    """log2 of the metaslab size of a top-level vdev of ``asize`` bytes.

    ``vdev_metaslab_set_size()`` (``module/zfs/vdev.c``, zfs-0.8 to master): aim for 200
    metaslabs of 512 MiB to 16 GiB, at least 16 and at most 131 072 of them. With
    ``legacy=True`` the zfs-0.7-and-earlier rule: ``max(highbit(asize / 200), 24)``.
    """
    if legacy:
        return max(highbit(asize // LEGACY_METASLABS_PER_VDEV), SPA_MAXBLOCKSHIFT)
    count = asize >> ZFS_VDEV_DEFAULT_MS_SHIFT
    if count < ZFS_VDEV_MIN_MS_COUNT:
        shift = highbit(asize // ZFS_VDEV_MIN_MS_COUNT)
    elif count > ZFS_VDEV_DEFAULT_MS_COUNT:
        shift = highbit(asize // ZFS_VDEV_DEFAULT_MS_COUNT)
    else:
        shift = ZFS_VDEV_DEFAULT_MS_SHIFT
    if shift < SPA_MAXBLOCKSHIFT:
        shift = SPA_MAXBLOCKSHIFT
    elif shift > ZFS_VDEV_MAX_MS_SHIFT:
        shift = ZFS_VDEV_MAX_MS_SHIFT
        if (asize >> shift) > ZFS_VDEV_MS_COUNT_LIMIT:
            shift = highbit(asize // ZFS_VDEV_MS_COUNT_LIMIT)
    return shift


def deflated(raw: int, ratio: int) -> int:
    """``vdev_deflated_space()``: ``(raw >> SPA_MINBLOCKSHIFT) x deflate_ratio``."""
    return (raw >> SPA_MINBLOCKSHIFT) * ratio
