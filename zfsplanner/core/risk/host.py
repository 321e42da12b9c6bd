"""Risk rules about the host's module parameters (the design's ``host.tunables``) that trade the
pool's safety for speed: ``zfs_nocacheflush`` and the OpenSolaris-era ``zil_disable``; and their
one-click fixes (take the parameter out)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..design.types import Design, Role
from .common import groups_of
from .registry import POOL, Fixed, Part, Risk, RiskFigures, RiskSpec, Severity, make_risk, rule

REF_NOCACHEFLUSH = (
    "man zfs.4 (zfs_nocacheflush: 'will cause pool corruption on power loss if a volatile out-of-order write "
    "cache is enabled'); module/os/linux/zfs/vdev_disk.c, module/zfs/vdev.c"
)
REF_ZIL_DISABLE = (
    "OpenSolaris zil_disable, replaced by the sync property (PSARC 2010/108); no such parameter in OpenZFS "
    "(module/zfs/zil.c); man zfsprops.7 (sync)"
)

# The vdevs whose writes the pool's consistency and acknowledged synchronous writes rest on.
FLUSHED_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)


def remove_tunable(design: Design, name: str) -> Fixed | None:
    """The design without the module parameter ``name`` in its host's ``tunables``."""
    host = design.host
    if name not in host.tunables:
        return None
    tunables = {key: value for key, value in host.tunables.items() if key != name}
    return Fixed(
        replace(design, host=replace(host, tunables=tunables)), f"Remove {name} from the host's module parameters"
    )


def fix_nocacheflush(design: Design, part: Part) -> Fixed | None:
    return remove_tunable(design, "zfs_nocacheflush")


def fix_zil_disable(design: Design, part: Part) -> Fixed | None:
    return remove_tunable(design, "zil_disable")


def disks_without_plp(design: Design) -> int:
    """How many disks of the data, special, dedup and log vdevs the design does not mark with
    power-loss protection (``plp: true``): the disks whose volatile cache a power failure empties."""
    return sum(g.count * sum(1 for d in g.disks if d.plp is not True) for _, g in groups_of(design, *FLUSHED_ROLES))


@rule(
    "host-nocacheflush",
    Severity.CRITICAL,
    "The host sets zfs_nocacheflush=1",
    "the host's module parameters set zfs_nocacheflush (critical; info when every disk has power-loss protection)",
    REF_NOCACHEFLUSH,
    fix=fix_nocacheflush,
)
def rule_nocacheflush(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not design.host.is_set("zfs_nocacheflush"):
        return
    exposed = disks_without_plp(design)
    gain = (
        "With zfs_nocacheflush=1 ZFS stops asking the disks to empty their write caches: a transaction group "
        "no longer waits for the flush that follows its labels and uberblocks, and every fsync() or O_SYNC write "
        "no longer waits for the flush after its log block. On hard disks that saves a few to tens of "
        "milliseconds per synchronous write. "
    )
    if exposed:
        detail = gain + (
            f"The cost: {exposed} disk{'s' if exposed != 1 else ''} of the pool {'are' if exposed != 1 else 'is'} "
            "not marked with power-loss protection, and a disk with a volatile write cache may hold acknowledged "
            "writes in that cache and write them in any order. On a power failure those writes are lost: "
            "synchronous writes that applications were told were safe disappear, and an uberblock can reach the "
            "disk before the blocks it points to, so the pool may import only by rewinding to an older "
            "transaction group (zpool import -F, losing the last seconds of writes) or not at all."
        )
        severity = Severity.CRITICAL
    else:
        detail = gain + (
            "Every disk of the pool is marked with power-loss protection, whose cache survives a power "
            "failure, so the flushes are not needed for safety today; a disk added or replaced later without "
            "that protection would be exposed to pool corruption on power loss."
        )
        severity = Severity.INFO
    yield make_risk(
        spec,
        POOL,
        detail,
        "Remove zfs_nocacheflush (leave it at 0). If synchronous writes are too slow, add a mirrored log "
        "device with power-loss protection instead.",
        severity=severity,
    )


@rule(
    "host-zil-disable",
    Severity.INFO,
    "The host sets zil_disable",
    "the host's module parameters set zil_disable (an OpenSolaris-era switch)",
    REF_ZIL_DISABLE,
    fix=fix_zil_disable,
)
def rule_zil_disable(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not design.host.is_set("zil_disable"):
        return
    yield make_risk(
        spec,
        POOL,
        "zil_disable is the OpenSolaris-era switch that turned the intent log off for every dataset: "
        "fsync() and O_SYNC writes returned at once, as with sync=disabled on every dataset today, which "
        "made databases, NFS and VM guests fast and unsafe at once. On a power failure or crash the "
        "writes of the last transaction groups (about 5 to 10 seconds) are lost although applications "
        "were told they were on disk, and a database or a guest's file system can be left inconsistent; "
        "the pool itself stays consistent. OpenZFS has no such parameter: the sync property replaced it, "
        "and OpenZFS ignores zil_disable (Linux logs 'unknown parameter ignored'), so on this host it "
        "changes nothing except to suggest that synchronous writes are meant to be unsafe.",
        "Remove zil_disable and keep sync=standard. If synchronous writes are too slow, add a mirrored log "
        "device with power-loss protection.",
    )
