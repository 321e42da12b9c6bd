"""The design document's types: enums, constants, the frozen dataclasses and ``InvalidDesign``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from ..versions import KNOWN_NAMES, SERIES, Version, supports

FORMAT = "zfsplanner.design/1"


class Role(StrEnum):
    DATA = "data"
    SPECIAL = "special"
    DEDUP = "dedup"
    LOG = "log"
    CACHE = "cache"
    SPARE = "spare"


class Layout(StrEnum):
    STRIPE = "stripe"
    MIRROR = "mirror"
    RAIDZ1 = "raidz1"
    RAIDZ2 = "raidz2"
    RAIDZ3 = "raidz3"
    DRAID1 = "draid1"
    DRAID2 = "draid2"
    DRAID3 = "draid3"


class Partitioning(StrEnum):
    LINUX_WHOLE_DISK = "linux-whole-disk"
    NONE = "none"


class DatasetType(StrEnum):
    FILESYSTEM = "filesystem"
    VOLUME = "volume"


class Media(StrEnum):
    HDD = "hdd"
    SSD = "ssd"
    NVME = "nvme"


class Sync(StrEnum):
    STANDARD = "standard"
    ALWAYS = "always"
    DISABLED = "disabled"


OPENZFS_VERSIONS = KNOWN_NAMES  # a series ("2.4", modelled as one release: versions.SERIES) or a known release
# What a document that names no release is read as (the design format's default, a contract):
# not versions.default_version(), which new plans start from, so that a document written without
# a version keeps its figures when the planner learns a newer release.
DEFAULT_OPENZFS_VERSION = "2.3"
DEFAULT_RELEASE = SERIES[DEFAULT_OPENZFS_VERSION].named
COMPRESSION_VALUES = (
    ("on", "off", "lz4", "lzjb", "zle", "gzip", "zstd", "zstd-fast")
    + tuple(f"gzip-{i}" for i in range(1, 10))
    + tuple(f"zstd-{i}" for i in range(1, 20))
    + tuple(f"zstd-fast-{i}" for i in (*range(1, 11), 20, 30, 40, 50, 60, 70, 80, 90, 100, 500, 1000))
)
COMPRESSIBILITY_PROFILES = (
    "incompressible",
    "already-compressed",
    "mixed",
    "text",
    "logs",
    "database",
    "vm-images",
    "zeros",
)
PARITY = {
    Layout.STRIPE: 0,
    Layout.MIRROR: 0,
    Layout.RAIDZ1: 1,
    Layout.RAIDZ2: 2,
    Layout.RAIDZ3: 3,
    Layout.DRAID1: 1,
    Layout.DRAID2: 2,
    Layout.DRAID3: 3,
}
RAIDZ_LAYOUTS = (Layout.RAIDZ1, Layout.RAIDZ2, Layout.RAIDZ3)
DRAID_LAYOUTS = (Layout.DRAID1, Layout.DRAID2, Layout.DRAID3)
POOL_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.:\-]*$")
DATASET_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\- ]*(/[A-Za-z0-9_.:\- ]+)*$")
PRICE_MAX_DIGITS = 12  # before the decimal point
PRICE_MAX_PLACES = 4  # after it
RESERVED_POOL_NAMES = ("mirror", "raidz", "draid", "spare", "log", "cache", "special", "dedup")


@dataclass(frozen=True)
class Disk:
    size_bytes: int
    model: str | None = None
    vendor: str | None = None
    logical_sector_bytes: int | None = None
    physical_sector_bytes: int | None = None
    media: Media | None = None
    rpm: int | None = None
    plp: bool | None = None
    catalog: str | None = None
    watts: float | None = None  # the power it draws in use (data sheet), when known
    extra: Mapping[str, Any] = field(default_factory=dict)
    # the size as the document spelled it ("960GB", as on the drive label), written back as given;
    # None when it was a byte count. Not part of the disk's identity: "16TB" is 16_000_000_000_000.
    size_text: str | None = field(default=None, compare=False)

    @property
    def physical_sector(self) -> int:
        """Physical sector size, assuming 4 KiB when unknown (every modern HDD and SSD)."""
        return self.physical_sector_bytes or max(self.logical_sector_bytes or 512, 4096)

    @property
    def logical_sector(self) -> int:
        return self.logical_sector_bytes or 512


@dataclass(frozen=True)
class VdevGroup:
    role: Role
    layout: Layout
    width: int
    disks: tuple[Disk, ...]  # one per member; all equal when the document gave "disk"
    count: int = 1
    ashift: int | None = None
    draid_data: int | None = None
    draid_spares: int | None = None
    disk_partitioning: Partitioning | None = None
    reserved_per_disk_bytes: int | None = None
    expanded_from_width: int | None = None
    logical_bytes_written_before: int | None = None
    price_per_disk: Decimal | None = None  # one disk of the group, in the user's currency
    single_disk: bool = True  # the document used "disk" rather than "disks"
    extra: Mapping[str, Any] = field(default_factory=dict)
    # The design's top-level ashift, copied in by :class:`Design`; never written with the group.
    pool_ashift: int | None = None

    @property
    def requested_ashift(self) -> int | None:
        """The ashift ``zpool`` is asked for: the group's own, else the pool's (None: zpool chooses)."""
        return self.ashift if self.ashift is not None else self.pool_ashift

    @property
    def parity(self) -> int:
        return PARITY[self.layout]

    @property
    def is_raidz(self) -> bool:
        return self.layout in RAIDZ_LAYOUTS

    @property
    def is_draid(self) -> bool:
        return self.layout in DRAID_LAYOUTS


@dataclass(frozen=True)
class Compressibility:
    profile: str | None = None
    ratio: float | None = None
    algorithm: str | None = None
    recordsize: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Contents:
    logical_bytes: int | None = None
    file_count: int | None = None
    file_size_histogram: tuple[tuple[int, int], ...] | None = None
    compressibility: Compressibility | None = None
    files_per_directory: int | None = None
    # how much of the data was written before the RAIDZ expansion of its vdev (the rest after)
    logical_bytes_written_before: int | None = None
    # logical blocks over unique blocks of a dataset with dedup (1.0: nothing repeats)
    dedup_ratio: float | None = None
    # of logical_bytes, the bytes that are block clones (cp --reflink, copy_file_range) of data
    # already in the pool: USED counts them, the pool's space grows by them (bclonesaved)
    cloned_bytes: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dataset:
    name: str
    type: DatasetType = DatasetType.FILESYSTEM
    recordsize: int | None = None
    volblocksize: int | None = None
    volsize: int | None = None
    quota: int | None = None
    compression: str | None = None
    special_small_blocks: int | None = None
    copies: int | None = None
    sync: Sync | None = None
    contents: Contents | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


TunableValue = int | str | bool
"""A module parameter's value as the design writes it (``1``, ``"1"``, ``true``)."""


@dataclass(frozen=True)
class Host:
    """The machine the pool runs on (the document's ``host``): its RAM and the module parameters
    set on it (``{"zfs_nocacheflush": 1}``; ``zil_disable`` for OpenSolaris-era systems)."""

    ram_bytes: int | None = None
    tunables: Mapping[str, TunableValue] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def tunable(self, name: str) -> int | None:
        """The parameter as the kernel reads an integer parameter (``"1"``, ``1``, ``true`` -> 1;
        ``Y``/``N`` as booleans are read); None when it is not set or is not a number."""
        value = self.tunables.get(name)
        if value is None:
            return None
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        text = value.strip()
        if text.upper() in ("Y", "N"):
            return int(text.upper() == "Y")
        try:
            return int(text, 0)
        except ValueError:
            return None

    def is_set(self, name: str) -> bool:
        """Is the parameter set to a non-zero value (an integer switch turned on)?"""
        return bool(self.tunable(name))


@dataclass(frozen=True)
class Design:
    name: str
    vdevs: tuple[VdevGroup, ...]
    datasets: tuple[Dataset, ...] = ()
    # the release the document names (None: it names none); Version.written keeps its spelling ("2.3")
    openzfs_version: Version | None = None
    disk_partitioning: Partitioning | None = None
    description: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    ashift: int | None = None  # the pool's, as zpool create -o ashift=N applies it to every vdev
    # pool features that change accounting ({"fast_dedup": True}); absent: what zpool create enables
    features: Mapping[str, bool] | None = None
    host: Host = field(default_factory=Host)

    def __post_init__(self) -> None:
        # Every group knows the pool's ashift, so whatever asks a group for its ashift
        # (ashift.resolve) applies the rule "the group's own, else the pool's" in one place.
        if any(g.pool_ashift != self.ashift for g in self.vdevs):
            object.__setattr__(self, "vdevs", tuple(replace(g, pool_ashift=self.ashift) for g in self.vdevs))

    @property
    def release(self) -> Version:
        """The release the design is modelled as (a series stands for one release): what every
        rule compares."""
        return self.openzfs_version or DEFAULT_RELEASE

    @property
    def version(self) -> str:
        """The release as the document names it (``"2.3"``, ``"2.3.2"``): for what is printed."""
        return self.release.name

    @property
    def fast_dedup(self) -> bool:
        """Is the pool's ``fast_dedup`` feature enabled (new dedup tables in the flat format with a
        log)? ``zpool create`` enables every feature of its release, so 2.3 and later by default."""
        chosen = (self.features or {}).get("fast_dedup")
        if chosen is not None:
            return bool(chosen)
        return supports(self.release, "ddt_flat_entries")

    @property
    def partitioning(self) -> Partitioning:
        return self.disk_partitioning or Partitioning.LINUX_WHOLE_DISK

    def partitioning_of(self, group: VdevGroup) -> Partitioning:
        return group.disk_partitioning or self.partitioning


class InvalidDesign(ValueError):
    """A design document that cannot be used. ``errors`` is a list of (path, message)."""

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{p}: {m}" if p else m for p, m in self.errors))
