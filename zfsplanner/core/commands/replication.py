"""When ``zpool create`` / ``zpool add`` refuse a vdev specification unless forced, and what they print.

A port of ``get_replication()`` and ``check_replication()`` in OpenZFS
``cmd/zpool/zpool_vdev.c``, following the release the design targets:

* Top-level vdevs are compared in command-line order, each with the one before it. Log
  vdevs are skipped; special and dedup vdevs are compared like data vdevs (they are
  children of the same root); cache and spare devices are not top-level vdevs.
* A vdev is ``disk`` (one device, 1 child, parity 0), ``mirror`` (parity 0), ``raidz`` or
  ``draid`` (its parity), with as many children as it lists devices.
* raidz/dRAID next to a mirror is accepted when parity = mirror children − 1
  (openzfs/zfs commit 6ba1ce9e, 0.7.0; dRAID from b2255edc, 2.1.0).
* raidz next to dRAID, and from 2.1 also raidz next to raidz and dRAID next to dRAID,
  compare parity only (``is_raidz_draid()``, 2.1.0). Before 2.1, two raidz vdevs also had to
  have the same number of children.
* Otherwise the types must match, then the parity, then the number of children.
* Members of one mirror/raidz/dRAID whose sizes differ from the member before them by
  more than ``ZPOOL_FUZZ`` (16 MiB) make the vdev "contain devices of different sizes".
* ``zpool add`` first reads the pool's own replication (the last non-log top-level vdev);
  if the pool is already inconsistent (it was created or extended with ``-f``) nothing is
  checked. Otherwise the new vdevs must be consistent among themselves and match the
  pool; the comparison of raidz with dRAID on ``zpool add`` arrived in 2.4.0 (commit
  bf846dcb).

Every refusal is printed after "invalid vdev specification" / "use '-f' to override the
following errors:"; this module returns the error lines themselves (``vdev_error()``
format strings, without the trailing newline), joined by newlines.

Two more refusals of the same commands live here because they decide the same question
(is the command runnable as written, and with which override):

* before 2.4, a special or dedup vdev must be a mirror or a single disk ("unsupported
  'special' device: raidz"; ``construct_spec()``); no flag overrides that;
* from 2.3.0 (and 2.2.4), ``zpool add`` refuses a top-level vdev whose ashift differs from
  the pool's data vdevs when those all share one ashift ("adding devices with different
  physical sector sizes is not allowed"; ``spa_vdev_add()``, commit b1e46f86), unless
  ``--allow-ashift-mismatch`` or ``-f`` is given.

Which release has which rule is asked of :func:`zfsplanner.core.versions.supports`
(``draid``, ``zpool_add_raidz_draid``, ``zpool_add_ashift_check``, ``special_any_topology``).

Device sizes are the disks' sizes. For ``zpool add`` the pool's existing members are the
partitions ``zpool create`` made, which differ from each other as the disks do to within
the 1 MiB partition alignment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..design.types import Layout, Role, VdevGroup
from ..units import MIB
from ..versions import Version, supports

ZPOOL_FUZZ = 16 * MIB  # cmd/zpool/zpool_vdev.c

DISK = "disk"
MIRROR = "mirror"
RAIDZ = "raidz"
DRAID = "draid"


@dataclass(frozen=True)
class TopLevelVdev:
    """One top-level vdev of a vdev specification (``replication_level_t`` plus its members' sizes)."""

    type: str
    sizes: tuple[int, ...]
    parity: int = 0
    is_log: bool = False

    @property
    def children(self) -> int:
        return 1 if self.type == DISK else len(self.sizes)


@dataclass(frozen=True)
class ReplicationLevel:
    type: str
    children: int
    parity: int


def vdev_type(group: VdevGroup) -> str:
    """The ``zprl_type`` of the group's vdevs: ``disk``, ``mirror``, ``raidz`` or ``draid``."""
    if group.layout == Layout.STRIPE:
        return DISK
    if group.layout == Layout.MIRROR:
        return MIRROR
    return RAIDZ if group.is_raidz else DRAID


def top_level_vdevs(group: VdevGroup, width: int | None = None) -> list[TopLevelVdev]:
    """The group's ``count`` top-level vdevs as a command names them (``width`` members; default all)."""
    members = group.disks[: width or group.width]
    vdev = TopLevelVdev(
        type=vdev_type(group),
        sizes=tuple(d.size_bytes for d in members),
        parity=group.parity,
        is_log=group.role == Role.LOG,
    )
    return [vdev] * group.count


def _raidz_like(version: Version) -> tuple[str, ...]:
    return (RAIDZ, DRAID) if supports(version, "draid") else (RAIDZ,)


def _raidz_mirror(
    a: ReplicationLevel, b: ReplicationLevel, version: Version
) -> tuple[ReplicationLevel, ReplicationLevel] | None:
    """``is_raidz_mirror()`` in either order: (raidz-like, mirror) or None."""
    like = _raidz_like(version)
    if a.type in like and b.type == MIRROR:
        return a, b
    if b.type in like and a.type == MIRROR:
        return b, a
    return None


def _raidz_draid(a: ReplicationLevel, b: ReplicationLevel) -> bool:
    return a.type in (RAIDZ, DRAID) and b.type in (RAIDZ, DRAID)


def compare_levels(last: ReplicationLevel, rep: ReplicationLevel, version: Version) -> str | None:
    """What ``get_replication()`` prints when top-level vdev ``rep`` follows ``last`` on one command line."""
    v = version
    pair = _raidz_mirror(last, rep, v)
    if pair is not None:
        raidz, mirror = pair
        if raidz.parity == mirror.children - 1:
            return None
        return (
            f"mismatched replication level: {raidz.type} and {mirror.type} vdevs with different redundancy, "
            f"{raidz.parity} vs. {mirror.children - 1} ({mirror.children}-way) are present"
        )
    if supports(v, "draid") and _raidz_draid(last, rep):
        if last.parity == rep.parity:
            return None
        return (
            f"mismatched replication level: {last.type} and {rep.type} vdevs with different redundancy, "
            f"{last.parity} vs. {rep.parity} are present"
        )
    if last.type != rep.type:
        return f"mismatched replication level: both {last.type} and {rep.type} vdevs are present"
    if last.parity != rep.parity:
        return (
            f"mismatched replication level: both {last.parity} and {rep.parity} device parity "
            f"{rep.type} vdevs are present"
        )
    if last.children != rep.children:
        return (
            f"mismatched replication level: both {last.children}-way and {rep.children}-way "
            f"{rep.type} vdevs are present"
        )
    return None


def get_replication(vdevs: Iterable[TopLevelVdev], version: Version) -> tuple[ReplicationLevel | None, list[str]]:
    """The replication level of a vdev list (its last non-log vdev), or None if inconsistent, and the errors.

    With ``fatal`` set (a new specification) zpool prints every error line returned here;
    for an existing pool it only needs to know whether the level is None.
    """
    errors: list[str] = []
    last: ReplicationLevel | None = None
    rep: ReplicationLevel | None = None
    for vdev in vdevs:
        if vdev.is_log:
            continue
        rep = ReplicationLevel(vdev.type, vdev.children, vdev.parity if vdev.type in (RAIDZ, DRAID) else 0)
        if vdev.type != DISK:
            previous: int | None = None
            for size in vdev.sizes:
                if previous is not None and abs(size - previous) > ZPOOL_FUZZ:
                    errors.append(f"{vdev.type} contains devices of different sizes")
                    break
                previous = size
        if last is not None:
            message = compare_levels(last, rep, version)
            if message is not None:
                errors.append(message)
        last = rep
    return (None if errors else rep), errors


def create_refusal(vdevs: Sequence[TopLevelVdev], version: Version) -> str | None:
    """The error lines ``zpool create`` prints for this specification without ``-f`` (None: it is accepted)."""
    if all(v.is_log for v in vdevs):
        return None
    _, errors = get_replication(vdevs, version)
    return "\n".join(errors) or None


def add_refusal(pool: Sequence[TopLevelVdev], new: Sequence[TopLevelVdev], version: Version) -> str | None:
    """The error lines ``zpool add`` prints for adding ``new`` to a pool of ``pool`` (``check_replication()``)."""
    current, _ = get_replication(pool, version)
    if current is None or not new or all(v.is_log for v in new):
        return None
    level, errors = get_replication(new, version)
    if level is None:
        return "\n".join(errors)
    return _compare_with_pool(current, level, version)


def _compare_with_pool(current: ReplicationLevel, new: ReplicationLevel, v: Version) -> str | None:
    pair = _raidz_mirror(current, new, v)
    if pair is not None:
        raidz, mirror = pair
        if raidz.parity == mirror.children - 1:
            return None
        return (
            f"mismatched replication level: pool and new vdev with different redundancy, {raidz.type} and "
            f"{mirror.type} vdevs, {raidz.parity} vs. {mirror.children - 1} ({mirror.children}-way)"
        )
    if supports(v, "zpool_add_raidz_draid") and _raidz_draid(current, new):
        if current.parity == new.parity:
            return None
        return (
            f"mismatched replication level: pool and new vdev with different redundancy, {current.type} and "
            f"{new.type} vdevs, {current.parity} vs. {new.parity}"
        )
    if current.type != new.type:
        return f"mismatched replication level: pool uses {current.type} and new vdev is {new.type}"
    if current.parity != new.parity:
        return f"mismatched replication level: pool uses {current.parity} device parity and new vdev uses {new.parity}"
    if current.children != new.children:
        return (
            f"mismatched replication level: pool uses {current.children}-way {current.type} and new vdev uses "
            f"{new.children}-way {new.type}"
        )
    return None


def pair_refusal(first: VdevGroup, second: VdevGroup, version: Version) -> str | None:
    """What ``zpool create`` prints when a vdev of ``second`` follows one of ``first`` (layouts only)."""
    a, b = top_level_vdevs(first)[0], top_level_vdevs(second)[0]
    level_a = ReplicationLevel(a.type, a.children, a.parity if a.type in (RAIDZ, DRAID) else 0)
    level_b = ReplicationLevel(b.type, b.children, b.parity if b.type in (RAIDZ, DRAID) else 0)
    return compare_levels(level_a, level_b, version)


def class_topology_refusal(group: VdevGroup, version: Version) -> str | None:
    """Before 2.4, ``zpool`` rejects a raidz/dRAID special or dedup vdev outright (``-f`` does not help)."""
    if group.role not in (Role.SPECIAL, Role.DEDUP) or group.layout in (Layout.STRIPE, Layout.MIRROR):
        return None
    if supports(version, "special_any_topology"):
        return None
    return f"invalid vdev specification: unsupported 'special' device: {vdev_type(group)}"


def ashift_refusal(
    pool_name: str, pool_data_ashifts: Iterable[int], new_ashifts: Iterable[int], version: Version
) -> str | None:
    """From 2.3, what ``zpool add`` prints when a new top-level vdev's ashift differs from the pool's.

    The check applies only while every normal-class (data) vdev of the pool has the same
    ashift (``spa_max_ashift == spa_min_ashift``); it compares every new top-level vdev,
    log, special and dedup vdevs included (cache and spare devices are not top-level).
    """
    if not supports(version, "zpool_add_ashift_check"):
        return None
    current = set(pool_data_ashifts)
    if len(current) != 1:
        return None
    (only,) = current
    if all(a == only for a in new_ashifts):
        return None
    return f"cannot add to '{pool_name}': adding devices with different physical sector sizes is not allowed"


def vdev_error_output(errors: str) -> str:
    """The whole of what ``zpool`` prints for these error lines without ``-f`` (``vdev_error()``)."""
    return f"invalid vdev specification\nuse '-f' to override the following errors:\n{errors}"
