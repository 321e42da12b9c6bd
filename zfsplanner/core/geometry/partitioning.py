"""What ZFS is given of a disk: Linux whole-disk partitioning, labels and the user's reserve.

Steps 1 and 2 of the capacity pipeline (:mod:`zfsplanner.core.capacity.pool`): disk bytes ->
partition ZFS is given (``lib/libzfs/os/linux/libzfs_pool_os.c``, ``zpool_label_disk()``,
for Linux whole disks; the size as is otherwise) -> leaf asize, whole 256 KiB label units
less 4.5 MiB of labels and boot area (``module/zfs/vdev.c``, ``vdev_open()``).
"""

from __future__ import annotations

from ..design.types import Design, Disk, Partitioning, VdevGroup
from ..units import KIB, MIB, ceil_div, rounddown

VDEV_LABEL_SIZE = 256 * KIB  # sizeof (vdev_label_t), include/sys/vdev_impl.h
VDEV_LABEL_START_SIZE = 2 * VDEV_LABEL_SIZE + 3584 * KIB  # two labels + VDEV_BOOT_SIZE (3.5 MiB)
VDEV_LABEL_END_SIZE = 2 * VDEV_LABEL_SIZE
SPA_MINDEVSIZE = 64 * MIB  # include/sys/fs/zfs.h

# lib/libefi/rdwr_efi.c, include/sys/efi_partition.h, include/sys/vdev_disk.h (all in logical blocks)
EFI_NUMPAR = 9
EFI_GPE_SIZE = 128
EFI_MIN_ARRAY_SIZE = 16 * KIB
EFI_MIN_RESV_SIZE = 16 * 1024
NEW_START_BLOCK = 2048
PARTITION_END_ALIGNMENT = 2048


def gpt_label_blocks(logical_sector: int) -> int:
    """Logical blocks one GPT copy takes besides the header block (``efi_alloc_and_init()``).

    ``NBLOCKS(9, lbs)`` = 1 + the entry array for ``EFI_NUMPAR`` (9) entries of 128 B, but at
    least ``EFI_MIN_ARRAY_SIZE`` (16 KiB) + one block: 33 blocks at 512 B, 5 at 4 KiB
    (``lib/libefi/rdwr_efi.c``).
    """
    lbs = logical_sector
    nblocks = 1 + ceil_div(EFI_NUMPAR * EFI_GPE_SIZE, lbs)
    if nblocks * lbs < EFI_MIN_ARRAY_SIZE + lbs:
        nblocks = EFI_MIN_ARRAY_SIZE // lbs + 1
    return nblocks


def linux_whole_disk_partition_bytes(size_bytes: int, logical_sector: int = 512) -> int:
    """Bytes of partition 1 when ``zpool create`` is given a whole disk on Linux.

    ``zpool_label_disk()`` (``lib/libzfs/os/linux/libzfs_pool_os.c``): the last usable
    block is ``capacity - 1 - gpt_label_blocks`` (backup GPT at the end); partition 1
    starts at block ``NEW_START_BLOCK`` (2048), partition 9 (``EFI_MIN_RESV_SIZE``, 16384
    blocks) follows it, and partition 1's length is rounded down to
    ``PARTITION_END_ALIGNMENT`` (2048) blocks. All three constants are in the disk's
    *logical* blocks (``include/sys/vdev_disk.h``: "When the block size is larger by a
    power of 2 we will still be 1m aligned"), so a 4Kn disk gives up 8x more (8 MiB
    before, 64 MiB reserved) than a 512e disk (1 MiB, 8 MiB). Returns 0 if nothing is left.
    """
    lbs = logical_sector
    capacity = size_bytes // lbs
    last_usable_lba = capacity - 1 - gpt_label_blocks(lbs)
    slice_blocks = last_usable_lba + 1 - EFI_MIN_RESV_SIZE - NEW_START_BLOCK
    slice_blocks = rounddown(slice_blocks, PARTITION_END_ALIGNMENT)
    return max(slice_blocks, 0) * lbs


def leaf_psize(osize: int) -> int:
    """The physical size ZFS gives a leaf device of ``osize`` bytes (the partition or file it opens).

    ``vdev_open()`` (``module/zfs/vdev.c``): ``osize = P2ALIGN(osize, sizeof (vdev_label_t))``
    (256 KiB), then ``vdev_psize = osize``: what ``zpool list -v`` prints as a leaf's SIZE and
    ``zpool status -j`` as its ``phys_space`` (``vs_pspace``). A Linux whole disk's partition 1
    ends on a 1 MiB boundary, so only files and partitions of other sizes lose anything.
    """
    return rounddown(osize, VDEV_LABEL_SIZE)


def leaf_asize(osize: int) -> int:
    """Allocatable bytes of a leaf device of ``osize`` bytes.

    ``vdev_open()`` (``module/zfs/vdev.c``): the physical size (:func:`leaf_psize`), less
    ``VDEV_LABEL_START_SIZE`` (two labels + 3.5 MiB boot area = 4 MiB) and
    ``VDEV_LABEL_END_SIZE`` (two labels = 512 KiB).
    """
    return leaf_psize(osize) - VDEV_LABEL_START_SIZE - VDEV_LABEL_END_SIZE


def member_osize(design: Design, group: VdevGroup, disk: Disk) -> int:
    """Bytes of one member disk that ZFS opens: after the Linux whole-disk partitioning
    (when the design uses it) and the user's own reserved partition."""
    if design.partitioning_of(group) == Partitioning.LINUX_WHOLE_DISK:
        osize = linux_whole_disk_partition_bytes(disk.size_bytes, disk.logical_sector)
    else:
        osize = disk.size_bytes
    return osize - (group.reserved_per_disk_bytes or 0)
