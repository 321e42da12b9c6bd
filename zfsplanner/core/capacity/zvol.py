"""The ``refreservation`` that ``zfs create -V`` gives a non-sparse zvol."""

from __future__ import annotations

from collections.abc import Sequence

from ..design.types import DRAID_LAYOUTS, RAIDZ_LAYOUTS
from ..geometry.alloc import SPA_OLD_MAXBLOCKSIZE, block_asize
from .placement import AllocTarget

DNODES_PER_LEVEL = 1024  # libzfs: 1 << (DN_MAX_INDBLKSHIFT - SPA_BLKPTRSHIFT)
ZVOL_META_DNODE_LEVELS = 7  # libzfs: "start with metadnode L0-L6"
DN_MAX_INDBLKSHIFT = 17
SPA_DVAS_PER_BP = 3


def zvol_volsize_to_reservation(volsize: int, volblocksize: int, copies: int, targets: Sequence[AllocTarget]) -> int:
    """``refreservation`` that ``zfs create -V`` sets on a non-sparse zvol.

    ``lib/libzfs/libzfs_dataset.c``, ``zvol_volsize_to_reservation()`` and
    ``volsize_from_vdevs()``: the data blocks are scaled by the worst raidz/dRAID vdev's
    ``asize(volblocksize) / asize(128K) * 128K`` (mirrors and disks count as 1:1), and
    every indirect level plus 7 meta-dnode levels is budgeted as an uncompressed 128 KiB
    block with ``copies + 1`` DVAs.
    """
    nblocks = volsize // volblocksize
    data = 0
    for t in targets:
        if t.layout not in RAIDZ_LAYOUTS and t.layout not in DRAID_LAYOUTS:
            continue
        tsize = block_asize(t.layout, t.width, t.ashift, SPA_OLD_MAXBLOCKSIZE, t.draid_data)
        asize = block_asize(t.layout, t.width, t.ashift, volblocksize, t.draid_data)
        data = max(data, nblocks * asize * SPA_OLD_MAXBLOCKSIZE // tsize)
    if data == 0:
        data = nblocks * volblocksize
    numdb = ZVOL_META_DNODE_LEVELS
    n = nblocks
    while n > 1:
        n = (n + DNODES_PER_LEVEL - 1) // DNODES_PER_LEVEL
        numdb += n
    numdb *= min(SPA_DVAS_PER_BP, copies + 1)
    return data * copies + numdb * (1 << DN_MAX_INDBLKSHIFT)
