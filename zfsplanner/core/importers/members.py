"""Vdev members as found, the catalog disks they may match, and the sizes behind them.

Sizes are inverted from what the pool shows: a Linux whole disk from its partition 1
(:func:`disk_size_for_partition`), or, as a last resort, a member size fitted so that the
model's SIZE equals the SIZE the pool reports (:func:`fit_member_size`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..capacity.pool import pool_capacity
from ..design.types import Design, Disk, Layout, Partitioning, Role, VdevGroup
from ..geometry.partitioning import (
    EFI_MIN_RESV_SIZE,
    NEW_START_BLOCK,
    SPA_MINDEVSIZE,
    gpt_label_blocks,
    linux_whole_disk_partition_bytes,
)
from ..versions import Version
from .common import Size


@dataclass(frozen=True)
class CatalogEntry:
    """A catalog disk as the importer sees it (the Django side passes these in)."""

    model: str
    size_bytes: int
    logical_sector_bytes: int | None = None
    physical_sector_bytes: int | None = None
    media: str | None = None
    vendor: str | None = None
    rpm: int | None = None
    plp: bool | None = None


def disk_fields(
    catalog: CatalogEntry | None,
    model: str | None = None,
    logical_sector: int | None = None,
    physical_sector: int | None = None,
    media: str | None = None,
) -> dict[str, Any]:
    """A design disk's fields beyond its size, in the document's order: what the outputs showed of
    the disk, completed (and its model named) by the catalog disk it matches.

    A physical sector smaller than the logical one is left out (the document refuses it).
    """
    out: dict[str, Any] = {}
    model = catalog.model if catalog else model
    if model:
        out["model"] = model
    if catalog and catalog.vendor:
        out["vendor"] = catalog.vendor
    ls = logical_sector or (catalog.logical_sector_bytes if catalog else None)
    ps = physical_sector or (catalog.physical_sector_bytes if catalog else None)
    if ls:
        out["logical_sector_bytes"] = ls
    if ps and (ls is None or ps >= ls):
        out["physical_sector_bytes"] = ps
    media = media or (catalog.media if catalog else None)
    if media:
        out["media"] = media
    if catalog is not None:
        if catalog.rpm is not None:
            out["rpm"] = catalog.rpm
        if catalog.plp is not None:
            out["plp"] = catalog.plp
        out["catalog"] = catalog.model
    return out


@dataclass(frozen=True)
class Member:
    """One vdev member as found: where each figure came from is kept for the preview."""

    name: str
    state: str | None
    role: str
    vdev: str
    partitioning: Partitioning
    size_bytes: int | None
    size_source: str
    model: str | None = None
    serial: str | None = None
    logical_sector: int | None = None
    physical_sector: int | None = None
    media: str | None = None
    catalog: CatalogEntry | None = None
    line: int = 0
    question: str | None = None  # the preview's question for a size no output gave

    def disk_document(self) -> dict[str, Any]:
        out: dict[str, Any] = (
            {"size_bytes": self.size_bytes} if self.size_bytes is not None else {"size_question": self.question}
        )
        out.update(disk_fields(self.catalog, self.model, self.logical_sector, self.physical_sector, self.media))
        return out


@dataclass(frozen=True)
class TopVdev:
    role: str
    name: str
    layout: Layout
    members: tuple[Member, ...]
    draid_data: int | None = None
    draid_spares: int | None = None
    ashift: int | None = None
    # the vdev's allocatable space from zpool list -v: a mirror's, raidz's or dRAID's SIZE, a leaf's ALLOC + FREE
    reported_size: Size | None = None
    line: int = 0


def disk_size_for_partition(partition_bytes: int, logical_sector: int = 512) -> int:
    """The smallest disk whose whole-disk ``zpool create`` partition 1 has ``partition_bytes``.

    The inverse of :func:`~zfsplanner.core.geometry.partitioning.linux_whole_disk_partition_bytes`: the
    partition's blocks plus the 1 MiB start (2048 blocks), the reserved partition 9
    (16384 blocks) and the backup GPT. Every disk up to one alignment unit (2048 blocks)
    larger gets the same partition, so the model gives them all the same figures.
    """
    lbs = logical_sector
    blocks = -(-partition_bytes // lbs)
    capacity = blocks + NEW_START_BLOCK + EFI_MIN_RESV_SIZE + gpt_label_blocks(lbs)
    size = capacity * lbs
    while linux_whole_disk_partition_bytes(size, lbs) < partition_bytes:  # pragma: no cover - defensive
        size += lbs
    return size


def _vdev_size(member_bytes: int, top: TopVdev, partitioning: Partitioning, version: Version) -> int:
    """The model's SIZE of one top-level vdev whose members all have ``member_bytes``."""
    disk = Disk(size_bytes=member_bytes)
    group = VdevGroup(
        role=Role(top.role),
        layout=top.layout,
        width=len(top.members),
        disks=(disk,) * len(top.members),
        ashift=top.ashift,
        draid_data=top.draid_data,
        draid_spares=top.draid_spares,
    )
    design = Design(name="fit", vdevs=(group,), openzfs_version=version, disk_partitioning=partitioning)
    if top.role != "data":
        design = replace(design, vdevs=(VdevGroup(Role.DATA, Layout.STRIPE, 1, (Disk(size_bytes=10**12),)), group))
        return pool_capacity(design).vdevs[1].zpool_size_bytes
    return pool_capacity(design).vdevs[0].zpool_size_bytes


def vdev_size_of(top: TopVdev, partitioning: Partitioning, version: Version) -> Callable[[int], int]:
    def size_of(member: int) -> int:
        return _vdev_size(member, top, partitioning, version)

    return size_of


def fit_member_size(target: int, size_of: Callable[[int], int]) -> int:
    """The smallest member size whose modelled SIZE reaches ``target`` (the nearest one when none equals it)."""
    lo, hi = SPA_MINDEVSIZE * 2, SPA_MINDEVSIZE * 2
    while size_of(hi) < target:
        hi *= 2
        if hi > 1 << 62:
            raise ValueError("no disk size gives this SIZE")
    while lo < hi:
        mid = (lo + hi) // 2
        mid -= mid % 512
        if mid <= lo:
            break
        if size_of(mid) >= target:
            hi = mid
        else:
            lo = mid
    below = size_of(lo)
    return lo if abs(below - target) < abs(size_of(hi) - target) else hi
