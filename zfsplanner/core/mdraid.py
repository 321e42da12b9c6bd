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
* nothing else (no LVM, no file system) sits on top.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .units import KIB, MIB, rounddown, roundup

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
            )
        )
    return rows
