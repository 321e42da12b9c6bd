"""What every planning section reads: the design, its planning inputs, the drive figures of each disk."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..datasets.special import SMALL_BLOCKS_SHARE
from ..design.planning import (
    DriveFigures,
    PlanningInputs,
    PlanningSettings,
    media_class,
    read_planning,
    resolve_figures,
)
from ..design.types import Design, Disk, Role, VdevGroup

REBUILD_SPEED_SHARE = 0.75  # of the data-sheet maximum: the average over an HDD's tracks; flash past its cache
SPECIAL_RESERVE_PCT = round((1 - SMALL_BLOCKS_SHARE) * 100)
CLASS_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)

RELIABILITY_MODEL = (
    "Disks fail independently at a constant rate from their annualized failure rate (AFR). Each data, special "
    "and dedup vdev is a Markov chain over its failed disks: one more failure than it tolerates, or an "
    "unrecoverable read error while the last rebuild runs without redundancy, loses data. A failed disk is "
    "back in service after the replacement wait plus the resilver; resilvers run one at a time. Losing any one "
    "of these vdevs loses the pool. Not modelled: failures that come together (one batch, enclosure or power "
    "event), operator error, and the extra wear of a resilver, so the real risk is higher. Use the figures to "
    "compare layouts. A read error loses the blocks it hits (some files), not the whole pool: the pool-loss "
    "figures count disk failures only. Data-sheet read-error rates are upper bounds; most disks do better."
)
PERFORMANCE_MODEL = (
    "Random I/O scales with top-level vdevs: a mirror reads from every side and writes to all of them; a raidz "
    "vdev serves about one disk's random I/O, since each record spans its data disks; dRAID serves one random "
    "I/O per row of D+p disks. Streaming scales with data disks (all sides of a mirror for reads). Low: queue "
    "depth 1 per vdev, HDD inner tracks, flash past its write cache; high: depth 32 and the data-sheet maximum. "
    "Sync writes wait for a cache flush on the ZIL device: the SLOG if there is one, else the data vdevs. "
    "Not included: the ARC (cached reads are much faster), compression, CPU, HBA and network limits."
)



def finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else x


def groups_of(design: Design, *roles: Role) -> list[tuple[int, VdevGroup]]:
    return [(i, g) for i, g in enumerate(design.vdevs) if g.role in roles]


def unique_disks(group: VdevGroup) -> list[Disk]:
    """The group's distinct disk kinds (a group given with "disk" repeats one object)."""
    seen: dict[tuple[Any, ...], Disk] = {}
    for d in group.disks:
        seen.setdefault((d.model, d.media, d.rpm, d.plp, d.size_bytes), d)
    return list(seen.values())


def figures_key(disk: Disk) -> str:
    """How the performance assumptions name a disk: its model, else what its figures depend on."""
    if disk.model:
        return disk.model
    media = media_class(disk.media.value if disk.media else None)
    if media == "hdd":
        return f"hdd, {disk.rpm} rpm" if disk.rpm else "hdd"
    return f"{media} with power-loss protection" if disk.plp else media


def has_contents(design: Design) -> bool:
    return any(
        ds.contents is not None
        and (ds.contents.logical_bytes or ds.contents.file_count or ds.contents.file_size_histogram)
        for ds in design.datasets
    )


def _min_figures(figs: Sequence[DriveFigures]) -> DriveFigures:
    """The slowest value of each figure over the members of a vdev (a vdev waits for its slowest disk)."""
    if len(figs) == 1:
        return figs[0]
    values: dict[str, Any] = {}
    for f in fields(DriveFigures):
        if f.name == "source":
            continue
        given = [getattr(x, f.name) for x in figs if getattr(x, f.name) is not None]
        values[f.name] = min(given) if given else None
    return DriveFigures(**values, source=" + ".join(dict.fromkeys(x.source for x in figs)))


@dataclass(frozen=True)
class Context:
    design: Design
    settings: PlanningSettings
    inputs: PlanningInputs | None

    def figures(self, disk: Disk) -> DriveFigures:
        media = disk.media.value if disk.media else None
        return resolve_figures(disk.model, media, disk.rpm, disk.plp, self.settings, self.inputs)

    def group_figures(self, group: VdevGroup) -> DriveFigures:
        unique = unique_disks(group)
        return _min_figures([self.figures(d) for d in unique])


def context(design: Design, inputs: PlanningInputs | None = None) -> Context:
    """What the reliability and performance sections read: the design, its settings, outside inputs."""
    return Context(design, read_planning(design.extra, len(design.vdevs), design.host.ram_bytes), inputs)


# --------------------------------------------------------------------------- special
