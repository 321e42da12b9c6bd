"""What a vdev member's name says: whole disk, partition or file; Linux or FreeBSD; model and serial.

``zpool status`` prints a whole disk that ``zpool create`` partitioned on Linux without
its partition (``zpool_vdev_name()`` strips it when ``whole_disk`` is set, unless ``-P``),
so ``sda``, ``ata-ST14000NM001G-2KJ103_ZL2ABCDE`` and ``wwn-0x5000c500a1b2c3d4`` are whole
disks while ``sda3``, ``nvme0n1p2``, ``ata-...-part3``, ``by-partuuid`` names, FreeBSD's
``ada0p2`` and ``gptid/...`` are partitions ZFS was given as they are. An absolute path
outside ``/dev`` is a file. The ``/dev/disk/by-id`` names udev makes carry the model and
serial: ``ata-<MODEL>_<SERIAL>``, ``nvme-<MODEL>_<SERIAL>``, ``scsi-SATA_<MODEL>_<SERIAL>``
(spaces in the model become ``_``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DEV_DIRS = ("/dev/disk/by-id/", "/dev/disk/by-path/", "/dev/disk/by-vdev/", "/dev/disk/by-uuid/",
             "/dev/disk/by-partuuid/", "/dev/disk/by-partlabel/", "/dev/disk/by-label/", "/dev/mapper/", "/dev/")
_PART_DIRS = ("/dev/disk/by-partuuid/", "/dev/disk/by-partlabel/")
_BYID_RE = re.compile(
    r"^(?P<bus>ata|scsi|nvme|usb|wwn|virtio|mmc|ieee1394|dm-uuid|dm-name|md-uuid|md-name|lvm-pv-uuid|ide|cciss|"
    r"nvme-eui|nvme-nvme|scsi-SATA)-(?P<rest>.+?)(?:-part(?P<part>[0-9]+))?$"
)
_LINUX_RE = re.compile(
    r"^(?P<disk>(?:[shv]d|xvd)[a-z]+|nvme[0-9]+n[0-9]+|mmcblk[0-9]+|loop[0-9]+|nbd[0-9]+|zd[0-9]+|pmem[0-9]+|"
    r"md[0-9]+|dm-[0-9]+|rbd[0-9]+)(?:(?P<p>p)?(?P<part>[0-9]+))?$"
)
_FREEBSD_RE = re.compile(
    r"^(?P<disk>(?:ada|da|nvd|nda|vtbd|mfid|mfisyspd|mrsas|ad|cd|xbd|pmem)[0-9]+)"
    r"(?:(?:p|s)(?P<part>[0-9]+)[a-h]?)?$"
)
_FREEBSD_LABELS = ("gptid/", "gpt/", "label/", "ufsid/", "diskid/")


@dataclass(frozen=True)
class DeviceName:
    name: str  # as zpool printed it
    base: str  # without /dev/... directories
    kind: str  # "disk", "partition" or "file"
    platform: str  # "linux", "freebsd" or "any"
    disk: str | None  # the whole disk's name for a partition (same naming scheme)
    partition: int | None
    model: str | None
    serial: str | None
    nvme: bool
    full_path: bool  # printed with zpool status -P

    @property
    def is_whole_disk(self) -> bool:
        return self.kind == "disk" and self.platform != "freebsd"


def _by_id(bus: str, rest: str) -> tuple[str | None, str | None]:
    """(model, serial) of a by-id name's body, where the name carries them."""
    if bus in ("wwn", "nvme-eui", "dm-uuid", "dm-name", "md-uuid", "md-name", "lvm-pv-uuid", "usb", "nvme-nvme"):
        return None, None
    if bus == "scsi":
        if rest[:5] in ("SATA_", "SCSI_"):
            rest = rest[5:]
        elif re.match(r"^[0-9a-f]{8,}$", rest):
            return None, None
    if "_" not in rest:
        return None, None
    model, serial = rest.rsplit("_", 1)
    return model.replace("_", " ").strip() or None, serial or None


def classify(name: str) -> DeviceName:
    full = name.startswith("/")
    if full and not name.startswith("/dev/"):
        return DeviceName(name, name, "file", "any", None, None, None, None, False, True)
    base = name
    directory = ""
    for d in _DEV_DIRS:
        if name.startswith(d):
            base, directory = name[len(d) :], d
            break
    if directory in _PART_DIRS:
        return DeviceName(name, base, "partition", "linux", None, None, None, None, False, full)
    if base.startswith(_FREEBSD_LABELS):
        kind = "disk" if base.startswith("diskid/") else "partition"
        return DeviceName(name, base, kind, "freebsd", None, None, None, None, False, full)
    m = _BYID_RE.match(base)
    if m:
        model, serial = _by_id(m.group("bus"), m.group("rest"))
        part = m.group("part")
        disk = base[: -len(f"-part{part}")] if part else base
        nvme = m.group("bus").startswith("nvme")
        kind = "partition" if part else "disk"
        return DeviceName(name, base, kind, "linux", disk, int(part) if part else None, model, serial, nvme, full)
    m = _LINUX_RE.match(base)
    if m:
        part = m.group("part")
        disk = m.group("disk")
        if part and disk.startswith(("nvme", "mmcblk", "loop", "nbd", "zd", "pmem")) and not m.group("p"):
            # nvme0n1 is a disk: its trailing digits are the namespace, not a partition
            return DeviceName(name, base, "disk", "linux", base, None, None, None, disk.startswith("nvme"), full)
        kind = "partition" if part else "disk"
        return DeviceName(name, base, kind, "linux", disk, int(part) if part else None, None, None,
                          disk.startswith("nvme"), full)
    m = _FREEBSD_RE.match(base)
    if m:
        part = m.group("part")
        disk = m.group("disk")
        return DeviceName(name, base, "partition" if part else "disk", "freebsd", disk,
                          int(part) if part else None, None, None, disk.startswith(("nvd", "nda")), full)
    part_m = re.match(r"^(?P<disk>.+?)-part(?P<part>[0-9]+)$", base)
    if part_m:  # by-path, by-vdev aliases
        return DeviceName(name, base, "partition", "linux", part_m.group("disk"), int(part_m.group("part")),
                          None, None, False, full)
    return DeviceName(name, base, "disk", "any", base, None, None, None, False, full)


def partition_name(disk: str, number: int) -> list[str]:
    """Kernel names partition ``number`` of ``disk`` may have (``sda1``, ``nvme0n1p1``)."""
    return [f"{disk}{number}", f"{disk}p{number}", f"{disk}-part{number}"]
