"""Linux md RAID (mdadm) capacity of the same disks, for comparison with a ZFS layout.

Model of ``mdadm --create`` with its defaults: metadata 1.2 (superblock 4 KiB from the start),
an internal write-intent bitmap, 512 KiB chunks and RAID 10 in the ``near=2`` layout. The data
offset follows ``validate_geometry1()`` and ``choose_bm_space()`` in mdadm's ``super1.c``: 12 KiB
of metadata, the bitmap reserve, and "headroom" for later reshapes of up to 128 MiB (about 0.1 %
of the device), rounded up to 1 MiB. mdadm computes it from the first member and uses it for all.
Each member's usable part is then rounded down to the chunk; the md personalities combine them
(``raid0_size``/``raid1_size``/``raid5_size``/``raid10_size`` in the kernel's ``drivers/md``).

Assumptions, stated so they can be checked against ``mdadm --detail``:

* members are whole disks or partitions given as they are (no partition table is modelled;
  pass ``reserved_per_disk_bytes`` to subtract one);
* RAID 1 has no chunk; its member size is rounded down to 64 KiB;
* no LVM sits between the array and the file system.

Beside the array size, each row says what ``df`` shows after ``mkfs.ext4`` with its defaults
(``ext4_df_size``): the comparison a user makes against ZFS's AVAIL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..units import KIB, MIB, ceil_div, rounddown, roundup

SECTOR = 512
DEFAULT_CHUNK = 512 * KIB
RAID1_ROUNDING = 64 * KIB
MD_SUPERBLOCK_AREA = 12 * KIB  # 4 KiB offset + 4 KiB superblock + 4 KiB bad-block log
MAX_HEADROOM = 128 * MIB
DATA_OFFSET_ALIGN = 1 * MIB


class MdLevel(StrEnum):
    RAID0 = "raid0"
    RAID1 = "raid1"
    RAID5 = "raid5"
    RAID6 = "raid6"
    RAID10 = "raid10"


MIN_DISKS = {MdLevel.RAID0: 2, MdLevel.RAID1: 2, MdLevel.RAID5: 3, MdLevel.RAID6: 4, MdLevel.RAID10: 2}


@dataclass(frozen=True)
class MdRaidRow:
    level: MdLevel
    disks: int
    usable_bytes: int
    fault_tolerance: int  # disks that can fail in the worst case
    data_offset_bytes: int
    component_bytes: int  # usable part of the smallest member
    chunk_bytes: int | None
    notes: tuple[str, ...]
    ext4_size_bytes: int | None = None  # df "Size" after mkfs.ext4 with its defaults
    ext4_avail_bytes: int | None = None  # df "Avail": less the 5 % reserved for root


EXT4_BLOCK = 4096
EXT4_BLOCKS_PER_GROUP = 32768
EXT4_INODE_SIZE = 256
EXT4_DESC_SIZE = 64  # 64bit feature
EXT4_ADDR_PER_BLOCK = EXT4_BLOCK // 4
EXT4_RESERVED_RATIO = 0.05
EXT4_MIN_DEFAULT_BYTES = 512 * MIB  # below this mke2fs uses the "small" type (1 KiB blocks)


def ext4_journal_blocks(blocks: int) -> int:
    """Default journal size in blocks (``ext2fs_default_journal_size()``, e2fsprogs ``mkjournal.c``)."""
    for limit, size in (
        (32768, 1024),
        (256 * 1024, 4096),
        (512 * 1024, 8192),
        (4096 * 1024, 16384),
        (8192 * 1024, 32768),
        (16384 * 1024, 65536),
        (32768 * 1024, 131072),
    ):
        if blocks < limit:
            return size
    return 262144


def ext4_inode_ratio(size_bytes: int) -> int:
    """Bytes per inode from ``/etc/mke2fs.conf``: default 16384, "big" (>= 4 TiB) 32768, "huge" (>= 16 TiB) 65536."""
    if size_bytes >= 16 * 1024**4:
        return 65536
    if size_bytes >= 4 * 1024**4:
        return 32768
    return 16384


def _sparse_super_groups(groups: int) -> int:
    """Groups holding a superblock backup with ``sparse_super``: 0, 1 and powers of 3, 5 and 7."""
    found = {g for g in (0, 1) if g < groups}
    for base in (3, 5, 7):
        g = base
        while g < groups:
            found.add(g)
            g *= base
    return len(found)


def ext4_overhead_blocks(blocks: int, size_bytes: int) -> int:
    """Blocks mkfs.ext4 (e2fsprogs 1.47 defaults) uses for metadata, as ``df`` leaves them out of Size.

    Inode tables, block and inode bitmaps, superblock and group-descriptor copies (with the
    ``resize_inode`` reserve, ``calc_reserved_gdt_blocks()`` in ``misc/mke2fs.c``) in the
    ``sparse_super`` groups, and the journal — the kernel's ``ext4_calculate_overhead()``.
    Checked against ``dumpe2fs -h`` "Overhead clusters" for 1 GiB to 5 TiB.
    """
    groups = ceil_div(blocks, EXT4_BLOCKS_PER_GROUP)
    inodes_per_block = EXT4_BLOCK // EXT4_INODE_SIZE
    inodes = blocks * EXT4_BLOCK // ext4_inode_ratio(size_bytes)
    per_group = min(roundup(ceil_div(inodes, groups), inodes_per_block), EXT4_BLOCKS_PER_GROUP)
    inode_tables = groups * per_group // inodes_per_block
    desc_per_block = EXT4_BLOCK // EXT4_DESC_SIZE
    desc_blocks = ceil_div(groups, desc_per_block)
    max_blocks = min(blocks * 1024, 0xFFFFFFFF)
    reserved_gdt = max(
        0, min(ceil_div(ceil_div(max_blocks, EXT4_BLOCKS_PER_GROUP), desc_per_block) - desc_blocks, EXT4_ADDR_PER_BLOCK)
    )
    copies = _sparse_super_groups(groups) * (1 + desc_blocks + reserved_gdt)
    return inode_tables + 2 * groups + copies + ext4_journal_blocks(blocks)


def ext4_df_size(device_bytes: int) -> tuple[int, int] | None:
    """(df Size, df Avail) in bytes of ext4 made with defaults on ``device_bytes``; None below 512 MiB.

    Avail leaves out the 5 % reserved for root and ignores the few KiB of the root directory
    and lost+found.
    """
    if device_bytes < EXT4_MIN_DEFAULT_BYTES:
        return None
    blocks = device_bytes // EXT4_BLOCK
    size = (blocks - ext4_overhead_blocks(blocks, device_bytes)) * EXT4_BLOCK
    reserved = int(blocks * EXT4_RESERVED_RATIO) * EXT4_BLOCK
    return size, max(size - reserved, 0)


def md_bitmap_space(device_bytes: int) -> int:
    """Bytes mdadm keeps for the internal bitmap (``choose_bm_space()``, mdadm ``super1.c``).

    4 KiB, or 64 KiB above 8 GiB, or 128 KiB from 200 GiB; none under 64 KiB.
    """
    sectors = device_bytes // SECTOR
    if sectors < 64 * 2:
        return 0
    if sectors - 64 * 2 >= 200 * 1024 * 1024 * 2:
        return 128 * KIB
    if sectors - 4 * 2 > 8 * 1024 * 1024 * 2:
        return 64 * KIB
    return 4 * KIB


def md_data_offset(device_bytes: int, chunk_bytes: int | None) -> int:
    """Where data starts on a metadata-1.2 member (end of ``validate_geometry1()``, mdadm ``super1.c``).

    Headroom starts at 128 MiB and halves while it is more than 1/1024 of the device, but not
    below two chunks; superblock area + bitmap + headroom is rounded up to 1 MiB.
    """
    headroom = MAX_HEADROOM
    while (headroom << 10) > device_bytes and (not chunk_bytes or headroom // 2 >= 2 * chunk_bytes):
        headroom >>= 1
    return roundup(MD_SUPERBLOCK_AREA + md_bitmap_space(device_bytes) + headroom, DATA_OFFSET_ALIGN)


def _fault_tolerance(level: MdLevel, n: int) -> int:
    return {MdLevel.RAID0: 0, MdLevel.RAID1: n - 1, MdLevel.RAID5: 1, MdLevel.RAID6: 2, MdLevel.RAID10: 1}[level]


def md_raid_comparison(
    disks: Sequence[int],
    chunk_bytes: int = DEFAULT_CHUNK,
    reserved_per_disk_bytes: int = 0,
) -> list[MdRaidRow]:
    """Usable bytes of every md level the number of ``disks`` (sizes in bytes) allows."""
    if not disks:
        raise ValueError("md RAID needs at least one disk")
    if any(d <= 0 for d in disks):
        raise ValueError("disk sizes must be positive numbers of bytes")
    if chunk_bytes < 4 * KIB or chunk_bytes & (chunk_bytes - 1):
        raise ValueError(f"the chunk must be a power of two of at least 4 KiB, not {chunk_bytes}")
    devices = [d - reserved_per_disk_bytes for d in disks]
    if min(devices) <= 0:
        raise ValueError("reserved_per_disk_bytes leaves nothing of the smallest disk")
    n = len(devices)
    sizes = Counter(devices)  # large pools repeat a few disk sizes many times
    rows: list[MdRaidRow] = []
    for level in MdLevel:
        if n < MIN_DISKS[level]:
            continue
        chunk = None if level == MdLevel.RAID1 else chunk_bytes
        offset = md_data_offset(devices[0], chunk)
        rounding = chunk if chunk else RAID1_ROUNDING
        components = {d: rounddown(max(d - offset, 0), rounding) for d in sizes}
        smallest = min(components.values())
        notes: list[str] = []
        if level == MdLevel.RAID0:
            usable = sum(c * sizes[d] for d, c in components.items())
        elif level == MdLevel.RAID1:
            usable = smallest
        elif level == MdLevel.RAID5:
            usable = smallest * (n - 1)
        elif level == MdLevel.RAID6:
            usable = smallest * (n - 2)
        else:
            assert chunk is not None
            usable = (smallest // chunk * n // 2) * chunk
            notes.append("near=2 layout: survives one failure for sure, more only if they hit different pairs")
        if level != MdLevel.RAID0 and len(set(components.values())) > 1:
            notes.append("members differ in size: each is used up to the smallest")
        if usable == 0:
            notes.append("the disks are too small for this level's metadata")
        notes.append(f"data offset {offset // MIB} MiB per member (metadata 1.2, bitmap, reshape headroom)")
        ext4 = ext4_df_size(usable)
        rows.append(
            MdRaidRow(
                level=level,
                disks=n,
                usable_bytes=usable,
                fault_tolerance=_fault_tolerance(level, n),
                data_offset_bytes=offset,
                component_bytes=smallest,
                chunk_bytes=chunk,
                notes=tuple(notes),
                ext4_size_bytes=ext4[0] if ext4 else None,
                ext4_avail_bytes=ext4[1] if ext4 else None,
            )
        )
    return rows
