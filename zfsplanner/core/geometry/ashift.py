"""Which ashift a vdev really gets: the one home of that rule.

``zpool create`` (and ``zpool add``) hands the ``-o ashift=N`` value to the kernel on
every *leaf* disk (``cmd/zpool/zpool_vdev.c``, ``make_leaf_vdev()``); from OpenZFS
2.3.6/2.4.0 also on the mirror, raidz or dRAID vdev above them (commit 51de2d76f8,
PR #17826). The kernel then fixes each vdev's ashift on its first open
(``module/zfs/vdev.c``, ``vdev_open()`` and ``vdev_ashift_optimize()``):

* 0.8: a disk's ashift is its *physical* sector (``vdev_disk_open()`` reads
  ``bdev_physical_block_size``) unless one was requested; a mirror/raidz takes the
  largest of its children's.
* 2.0 - 2.2.6: a leaf with no request starts at its *logical* sector; a top-level vdev
  with no ashift of its own takes the largest child ashift and is then raised towards
  the largest physical sector (``vdev_ashift_optimize()``). Because the request only
  reaches the leaves, ``-o ashift=9`` on a mirror or raidz of 512e disks is silently
  raised to 12 (openzfs/zfs#13557, #15844) while a single disk keeps 9.
* 2.1.6 / 2.2.0 and later: the raise stops at ``zfs_vdev_max_auto_ashift`` = 14; a
  physical sector above 16 KiB is ignored and the logical sector used (commit
  37f6845c6f, PR #13798; openzfs/zfs#18045 shows a 512/32768 disk getting ashift 9).
* 2.2.7 / 2.3.0 and later: a request below a disk's logical sector is raised to it
  (commit 6187b19434, PR #16690); before, such a vdev was created and its first
  writes failed.

The ``ashift`` pool property that ``zpool get ashift`` prints is the value given to
``zpool create -o ashift=N``, whatever the vdevs really got.

What is asked for is the group's own ``ashift``, else the design's top-level one
(``zpool create -o ashift=N`` for the whole pool; :attr:`VdevGroup.requested_ashift`), else
nothing: then ``zpool`` chooses, and a physical sector above ``zfs_vdev_max_auto_ashift`` (a
64 KiB sector on 2.2 and later) is ignored (:attr:`AshiftChoice.physical_ignored`), which the
``ashift-below-physical-sector`` risk reports with the explicit ashift to set.

Every module asks :func:`resolve` (or :func:`group_ashift`): the capacity engine uses
``used``, the generated commands write ``written``, the risk rules compare them. The bounds
(``ASHIFT_MIN``, ``ASHIFT_MAX``, ``ASHIFT_RANGE``) and the ashift of a new design
(``DEFAULT_POOL_ASHIFT``) are written here only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..design.types import Design, Disk, Layout, Role, VdevGroup
from ..memo import by_identity
from ..units import ilog2
from ..versions import Version, supports

ASHIFT_MIN = 9  # the smallest ashift a vdev can have (ASHIFT_MIN, include/sys/fs/zfs.h; zfs_vdev_min_auto_ashift)
ASHIFT_MAX = 16  # the largest (ASHIFT_MAX, include/sys/fs/zfs.h): vdev_open() refuses more
ASHIFT_RANGE = range(ASHIFT_MIN, ASHIFT_MAX + 1)
DEFAULT_POOL_ASHIFT = 12  # what new designs get: 4 KiB, every current HDD's and SSD's sector, fine on 512-byte ones
MAX_AUTO_ASHIFT_OLD = ASHIFT_MAX  # zfs_vdev_max_auto_ashift before 2.1.6 / 2.2.0
MAX_AUTO_ASHIFT = 14  # zfs_vdev_max_auto_ashift from 2.1.6 / 2.2.0


@dataclass(frozen=True)
class AshiftChoice:
    """The ashift of one vdev group, from the request to what the pool really uses.

    * ``requested``: the group's ``ashift``, else the design's top-level one (None: let zpool choose);
    * ``written``: the value the generated ``zpool create``/``zpool add`` passes with
      ``-o ashift=`` (the request, or the automatic choice written out);
    * ``used``: the vdev's real ashift (``zdb -C``), which sizes every allocation;
    * ``automatic``: what ``zpool`` picks with no ``-o ashift`` at all;
    * ``source``: ``"design"`` (the group's own ashift), ``"pool"`` (the design's top-level
      ashift) or where the automatic choice comes from;
    * ``physical``: log2 of the largest physical sector of the group's disks (4 KiB when unknown);
    * ``fails``: why ``zpool create`` would not produce a working vdev (None: it does).
    """

    requested: int | None
    written: int
    used: int
    automatic: int
    source: str
    notes: tuple[str, ...]
    fails: str | None = None
    physical: int = ASHIFT_MIN

    @property
    def physical_ignored(self) -> bool:
        """``zpool`` alone would pick less than the physical sector: it is above
        ``zfs_vdev_max_auto_ashift`` (64 KiB sectors on 2.2/2.3), so only an explicit ashift reaches it."""
        return self.automatic < self.physical

    @property
    def raised(self) -> bool:
        """The vdev ends up with a larger ashift than the command asked for."""
        return self.used > self.written


def logical_ashift(disk: Disk) -> int:
    return max(ilog2(disk.logical_sector), ASHIFT_MIN)


def _physical(disk: Disk, *, assume: bool = True) -> int:
    """log2 of the disk's physical sector. When the design does not give it, ``assume``
    takes 4 KiB (what modern disks have, :attr:`Disk.physical_sector`); without ``assume``
    the logical sector is taken, so an ashift the design requests is not raised on a guess."""
    if disk.physical_sector_bytes is None and not assume:
        return logical_ashift(disk)
    return max(ilog2(disk.physical_sector), ASHIFT_MIN)


def max_auto_ashift(version: Version) -> int:
    """``zfs_vdev_max_auto_ashift``: 16 before 2.1.6 / 2.2.0, then 14 (man ``zfs.4``)."""
    return MAX_AUTO_ASHIFT if supports(version, "max_auto_ashift_14") else MAX_AUTO_ASHIFT_OLD


def _best_ashift(logical: int, a: int, b: int, max_auto: int) -> int:
    """``vdev_best_ashift()``: prefer a physical ashift above ``logical`` and within ``max_auto``."""
    if logical < a <= max_auto:
        if b <= logical or b > max_auto:
            return a
        return max(a, b)
    if b <= logical or b > max_auto:
        return max(a, b)
    return b


def _optimize(ashift: int, physical: int, version: Version) -> int:
    """``vdev_ashift_optimize()`` for a new top-level vdev."""
    max_auto = max_auto_ashift(version)
    bounded = physical <= max_auto if supports(version, "max_auto_ashift_14") else True
    if ashift < physical and bounded:
        return min(max(max_auto, ashift), max(ASHIFT_MIN, physical))
    return max(ASHIFT_MIN, ashift)


def _first_open(ashift: int, logical: int, physical: int, is_top: bool, version: Version) -> int:
    """The ``vdev_asize == 0`` branch of ``vdev_open()``: fix a new vdev's ashift."""
    if supports(version, "impossible_ashift_ignored"):
        take_logical = ashift < logical
    else:
        take_logical = ashift == 0
    if take_logical:
        ashift = logical
        if is_top:
            ashift = _optimize(ashift, physical, version)
    return ashift


def vdev_ashift(requested: int, disks: Sequence[Disk], *, top_is_leaf: bool, version: Version) -> int:
    """The ashift the kernel gives a new vdev over ``disks`` when ``requested`` (0: none) is passed.

    ``top_is_leaf``: the vdev is a single disk (a stripe member, or a cache device);
    otherwise it is a mirror, raidz or dRAID over the disks. A disk whose physical sector
    the design leaves out counts as 4 KiB for the automatic choice and as its logical
    sector when an ashift is requested.
    """
    v = version
    assume = requested == 0

    def physical_ashift(d: Disk) -> int:
        return _physical(d, assume=assume)

    if not supports(v, "logical_physical_ashift"):
        # 0.8: vdev_disk_open() reports the physical sector; parents take the largest child.
        return max(requested or physical_ashift(d) for d in disks)
    if top_is_leaf:
        d = disks[0]
        return _first_open(requested, logical_ashift(d), physical_ashift(d), True, v)
    children = [_first_open(requested, logical_ashift(d), physical_ashift(d), False, v) for d in disks]
    logical = max(children)
    if supports(v, "max_auto_ashift_14"):
        physical = 0
        for d in disks:
            physical = _best_ashift(logical, physical, physical_ashift(d), max_auto_ashift(v))
    else:
        physical = max(physical_ashift(d) for d in disks)
    own = requested if supports(v, "parent_ashift_kept") else 0
    return _first_open(own, logical, physical, True, v)


def physical_ashift(disk: Disk) -> int:
    """log2 of the disk's physical sector (4 KiB when the design does not give it)."""
    return _physical(disk)


def group_physical_ashift(group: VdevGroup) -> int:
    """The ashift that matches the largest physical sector among the group's disks."""
    return max(physical_ashift(d) for d in group.disks)


def _is_leaf_vdev(group: VdevGroup) -> bool:
    return group.layout == Layout.STRIPE or group.role in (Role.CACHE, Role.SPARE)


def _label(disk: Disk) -> str:
    return disk.model or f"{disk.physical_sector} B-sector disk"


def automatic(group: VdevGroup, version: Version) -> tuple[int, str]:
    """The ashift ``zpool create`` picks without ``-o ashift``, and where it comes from."""
    v = version
    used = vdev_ashift(0, group.disks, top_is_leaf=_is_leaf_vdev(group), version=v)
    best = max(group.disks, key=lambda d: d.physical_sector)
    label = _label(best)
    if used == _physical(best):
        source = f"physical sector of {label}"
        if best.physical_sector_bytes is None:
            source += f" (assumed {best.physical_sector} B)"
        return used, source
    widest = max(group.disks, key=lambda d: d.logical_sector)
    return used, (
        f"logical sector of {_label(widest)} ({best.physical_sector} B physical sectors are above "
        f"zfs_vdev_max_auto_ashift={max_auto_ashift(v)} on OpenZFS {v.series}, so zpool ignores them)"
    )


def resolve(group: VdevGroup, version: Version) -> AshiftChoice:
    """Everything about one group's ashift on ``version``."""
    return _resolve(group, version)


@by_identity(kept=1024)  # asked for by the capacity, the removal rules and the risk rules of one estimate
def _resolve(group: VdevGroup, v: Version) -> AshiftChoice:
    leaf = _is_leaf_vdev(group)
    auto, auto_source = automatic(group, v)
    notes: list[str] = []
    requested = group.requested_ashift
    if requested is None:
        written, source = auto, auto_source
        notes.append(f"ashift {auto} chosen from the {auto_source}, as zpool create would")
    elif group.ashift is None:
        written, source = requested, "pool"
        notes.append(
            f"ashift {requested} from the pool's ashift (zpool create -o ashift={requested}); "
            f"without it zpool would choose {auto} from the {auto_source}"
        )
    else:
        written, source = requested, "design"
    used = vdev_ashift(written, group.disks, top_is_leaf=leaf, version=v)
    logical = max(logical_ashift(d) for d in group.disks)
    fails = None
    if used < logical:
        fails = (
            f"ashift {used} ({1 << used} B) is smaller than the disks' logical sector ({1 << logical} B): "
            f"OpenZFS {v.series} builds the vdev anyway and its first writes fail as misaligned I/O "
            "(releases from 2.2.7 and 2.3.0 raise such an ashift to the logical sector, openzfs/zfs PR #16690)"
        )
    elif used > written:
        kind = "disk" if leaf else group.layout.value
        why = (
            f"the disks' logical sector is {1 << logical} B"
            if written < logical
            else f"zpool passes -o ashift only to the member disks, and the {kind} vdev above them is raised "
            f"towards the largest physical sector ({max(d.physical_sector for d in group.disks)} B)"
        )
        notes.append(
            f"zpool create -o ashift={written} gives this vdev ashift {used}: {why}; zpool get ashift still "
            f"prints {written}"
        )
    return AshiftChoice(
        requested=requested,
        written=written,
        used=used,
        automatic=auto,
        source=source,
        notes=tuple(notes),
        fails=fails,
        physical=group_physical_ashift(group),
    )


def group_ashift(group: VdevGroup, version: Version) -> int:
    """The ashift the group's vdevs really get (:attr:`AshiftChoice.used`)."""
    return resolve(group, version).used


def written_ashift(group: VdevGroup, version: Version) -> int:
    """The ``-o ashift=`` value the generated commands pass for the group."""
    return resolve(group, version).written


def uniform_ashift(design: Design) -> int:
    """The one ashift for every data, special and dedup vdev (what the pool's ``ashift`` should be
    when they differ): the largest any of them gets now, so no vdev drops below its sectors."""
    top = [g for g in design.vdevs if g.role in (Role.DATA, Role.SPECIAL, Role.DEDUP)]
    return max((group_ashift(g, design.release) for g in top), default=DEFAULT_POOL_ASHIFT)
