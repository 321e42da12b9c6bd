"""Can ``zpool remove`` take a top-level vdev out again? The one home of that rule
(``spa_vdev_remove_top_check()``, ``module/zfs/vdev_removal.c``): capacity and the risk rules ask it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..design.types import Design, Role, VdevGroup
from . import ashift as ashift_rules
from .vdev_shape import ALLOCATING_ROLES


@dataclass(frozen=True)
class RemovalContext:
    """The pool-wide facts ``spa_vdev_remove_top_check()`` looks at."""

    has_parity: bool
    normal_ashifts: frozenset[int]
    class_ashifts: dict[Role, frozenset[int]]
    data_vdevs: int


def removal_context(design: Design, ashifts: Sequence[int] | None = None) -> RemovalContext:
    """The pool-wide facts of removal; ``ashifts``: each group's ashift (default: as resolved for the version)."""
    if ashifts is None:
        ashifts = [ashift_rules.group_ashift(g, design.version) for g in design.vdevs]
    alloc = [(g, a) for g, a in zip(design.vdevs, ashifts, strict=True) if g.role in ALLOCATING_ROLES]
    return RemovalContext(
        has_parity=any(g.is_raidz or g.is_draid for g, _ in alloc),
        normal_ashifts=frozenset(a for g, a in alloc if g.role == Role.DATA),
        class_ashifts={r: frozenset(a for g, a in alloc if g.role == r) for r in (Role.SPECIAL, Role.DEDUP)},
        data_vdevs=sum(g.count for g, _ in alloc if g.role == Role.DATA),
    )


def removal_blockers(group: VdevGroup, ctx: RemovalContext) -> list[str]:
    """Why ``zpool remove`` would refuse this group's vdevs.

    ``spa_vdev_remove_top_check()`` (``module/zfs/vdev_removal.c``): no raidz or dRAID
    top-level vdev anywhere, one ashift for the whole normal class, special/dedup vdevs at
    that ashift too, and somewhere to evacuate to. Log, cache and spare devices can
    always be removed (man ``zpool-remove.8``).
    """
    if group.role not in ALLOCATING_ROLES:
        return []
    reasons: list[str] = []
    if ctx.has_parity:
        reasons.append("the pool has a raidz or dRAID top-level vdev")
    if len(ctx.normal_ashifts) > 1:
        reasons.append("the data vdevs do not all have the same ashift")
    if group.role in (Role.SPECIAL, Role.DEDUP):
        peers = ctx.class_ashifts[group.role]
        if len(peers) > 1 or not peers <= ctx.normal_ashifts:
            reasons.append(f"its ashift differs from the data vdevs' or from the other {group.role.value} vdevs'")
    if group.role == Role.DATA and ctx.data_vdevs == 1:
        reasons.append("it is the only data vdev, so there is nowhere to evacuate its data")
    return reasons
