"""Can ``zpool remove`` take a top-level vdev out again? The one home of that rule
(``spa_vdev_remove_top_check()``, ``module/zfs/vdev_removal.c``): capacity and the risk rules ask it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..design.types import Design, Role, VdevGroup
from . import ashift as ashift_rules
from .vdev_shape import ALLOCATING_ROLES


class Blocker(StrEnum):
    """Which check of ``spa_vdev_remove_top_check()`` refuses the removal."""

    PARITY = "parity"  # a raidz or dRAID top-level vdev anywhere
    NORMAL_ASHIFTS = "normal-ashifts"  # the normal class at more than one ashift
    CLASS_ASHIFT = "class-ashift"  # a special/dedup vdev off the normal class's ashift or its peers'
    ONLY_DATA_VDEV = "only-data-vdev"  # nowhere to evacuate to


@dataclass(frozen=True)
class RemovalBlocker:
    """One reason ``zpool remove`` refuses a group's vdevs, in plain words (``str()``)."""

    kind: Blocker
    reason: str

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class RemovalContext:
    """The pool-wide facts ``spa_vdev_remove_top_check()`` looks at."""

    parity_groups: tuple[int, ...]  # the design's allocating groups of raidz or dRAID vdevs
    ashifts: tuple[int, ...]  # each group's ashift, in the design's order
    normal_ashifts: frozenset[int]
    class_ashifts: dict[Role, frozenset[int]]
    data_vdevs: int

    @property
    def has_parity(self) -> bool:
        return bool(self.parity_groups)


def removal_context(design: Design, ashifts: Sequence[int] | None = None) -> RemovalContext:
    """The pool-wide facts of removal; ``ashifts``: each group's ashift (default: as resolved for the version)."""
    if ashifts is None:
        ashifts = [ashift_rules.group_ashift(g, design.release) for g in design.vdevs]
    alloc = [(i, g, a) for i, (g, a) in enumerate(zip(design.vdevs, ashifts, strict=True))
             if g.role in ALLOCATING_ROLES]
    return RemovalContext(
        parity_groups=tuple(i for i, g, _ in alloc if g.is_raidz or g.is_draid),
        ashifts=tuple(ashifts),
        normal_ashifts=frozenset(a for _, g, a in alloc if g.role == Role.DATA),
        class_ashifts={r: frozenset(a for _, g, a in alloc if g.role == r) for r in (Role.SPECIAL, Role.DEDUP)},
        data_vdevs=sum(g.count for _, g, _ in alloc if g.role == Role.DATA),
    )


def removal_blockers(group: VdevGroup, ctx: RemovalContext) -> list[RemovalBlocker]:
    """Why ``zpool remove`` would refuse this group's vdevs.

    ``spa_vdev_remove_top_check()`` (``module/zfs/vdev_removal.c``): no raidz or dRAID
    top-level vdev anywhere, one ashift for the whole normal class, a special/dedup vdev at
    the normal class's largest (``spa_max_ashift``) and at its class peers' ashift, and
    somewhere to evacuate to. Log, cache and spare devices can
    always be removed (man ``zpool-remove.8``).
    """
    if group.role not in ALLOCATING_ROLES:
        return []
    reasons: list[RemovalBlocker] = []
    if ctx.has_parity:
        reasons.append(RemovalBlocker(Blocker.PARITY, "the pool has a raidz or dRAID top-level vdev"))
    if len(ctx.normal_ashifts) > 1:
        reasons.append(RemovalBlocker(Blocker.NORMAL_ASHIFTS, "the data vdevs do not all have the same ashift"))
    if group.role in (Role.SPECIAL, Role.DEDUP):
        peers = ctx.class_ashifts[group.role]  # the class's vdevs, this group's among them
        if len(peers) > 1 or (ctx.normal_ashifts and peers != {max(ctx.normal_ashifts)}):
            reasons.append(RemovalBlocker(
                Blocker.CLASS_ASHIFT,
                f"its ashift differs from the data vdevs' or from the other {group.role.value} vdevs'"))
    if group.role == Role.DATA and ctx.data_vdevs == 1:
        reasons.append(RemovalBlocker(
            Blocker.ONLY_DATA_VDEV, "it is the only data vdev, so there is nowhere to evacuate its data"))
    return reasons
