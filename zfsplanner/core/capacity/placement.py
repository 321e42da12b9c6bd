"""Where a dataset's blocks land: the vdevs of a class, and what each DVA costs on them.

Step 4-5 of the dataset pipeline (:mod:`zfsplanner.core.datasets.usage`): per DVA ``asize`` on the
vdev it lands on, parity and padding included (``alloc.block_asize``), and its deflated
charge ``asize / 512 * deflate_ratio`` (``dva_get_dsize_sync``). Identical vdevs are
merged and ``asize`` is computed once per distinct (vdev geometry, psize).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..design.types import Layout
from ..geometry.alloc import block_asize, deflate, deflate_ratio, nominal_parity_fraction
from ..units import roundup


@dataclass(frozen=True)
class AllocTarget:
    """A top-level vdev (or a group of identical ones) that receives blocks of a class.

    ``share`` is the fraction of the class's allocations landing here; with several
    vdevs, weight by free space (equal vdevs: equal shares). Shares of a class should
    sum to 1; they are normalised if they do not.
    """

    layout: Layout
    width: int
    ashift: int
    draid_data: int | None = None
    deflate_ratio: int = 512
    share: float = 1.0
    original_width: int | None = None  # a RAIDZ vdev widened by zpool attach: the width it was created with

    @property
    def sector(self) -> int:
        return 1 << self.ashift

    @property
    def nominal_parity_fraction(self) -> float:
        """Parity disks over all disks: ``p/N`` for raidz, ``p/(D+p)`` for dRAID, 0 for
        mirrors and single disks (a mirror's other copies are not in its ``asize``)."""
        return nominal_parity_fraction(self.layout, self.width, self.draid_data)

    @classmethod
    def for_vdev(
        cls, layout: Layout, width: int, ashift: int, draid_data: int | None = None, share: float = 1.0
    ) -> AllocTarget:
        """A target with its deflate ratio computed from the geometry."""
        return cls(layout, width, ashift, draid_data, deflate_ratio(layout, width, ashift, draid_data), share)


@dataclass(frozen=True)
class Geometry:
    layout: Layout
    width: int
    ashift: int
    draid_data: int | None
    ratio: int

    @property
    def nominal(self) -> float:
        return AllocTarget(self.layout, self.width, self.ashift, self.draid_data).nominal_parity_fraction


def group_targets(targets: Sequence[AllocTarget], written_before: float = 0.0) -> list[tuple[Geometry, float]]:
    """Merge identical vdevs and normalise shares.

    ``written_before``: the fraction of the blocks written before a RAIDZ expansion. On a vdev
    that was widened (``original_width``) those keep the old width's ``asize`` (the DVA records
    it; ``vdev_raidz_asize()`` uses the logical width of the block's birth txg), the rest are
    allocated at the new width; both are charged through the vdev's one deflate ratio, set at
    its creation (``vdev_set_deflate_ratio()``) and never changed by the expansion.
    """
    before = min(max(written_before, 0.0), 1.0)
    acc: dict[tuple[Layout, int, int, int | None, int], float] = defaultdict(float)  # Geometry's fields
    for t in targets:
        share = max(t.share, 0.0)
        if t.original_width is not None and t.original_width != t.width and before > 0:
            acc[(t.layout, t.original_width, t.ashift, t.draid_data, t.deflate_ratio)] += share * before
            share *= 1 - before
            if share <= 0:
                continue
        acc[(t.layout, t.width, t.ashift, t.draid_data, t.deflate_ratio)] += share
    total = sum(acc.values())
    if total <= 0:
        n = len(acc)
        return [(Geometry(*g), 1.0 / n) for g in acc]
    return [(Geometry(*g), s / total) for g, s in acc.items()]


DvaCosts = dict[int, tuple[int, int, int]]
PSIZES_KEPT = 4096  # per geometry: every psize of whole sectors up to 16 MiB at ashift 12


@lru_cache(maxsize=1024)
def dva_costs(g: Geometry) -> DvaCosts:
    """The costs of DVAs on ``g`` worked out so far, by psize (:func:`dva_cost` fills it): a loop over
    many block sizes looks the geometry up once."""
    return {}


def dva_cost(g: Geometry, psize: int, known: DvaCosts | None = None) -> tuple[int, int, int]:
    """(asize, deflated charge, data-sector bytes) of one DVA of ``psize`` on ``g``; ``known`` is
    :func:`dva_costs` of ``g`` when the caller has it."""
    if known is None:
        known = dva_costs(g)
    cost = known.get(psize)
    if cost is None:
        if len(known) >= PSIZES_KEPT:
            known.clear()
        asize = block_asize(g.layout, g.width, g.ashift, psize, g.draid_data)
        cost = known[psize] = (asize, deflate(asize, g.ratio), roundup(psize, 1 << g.ashift))
    return cost


@dataclass
class Totals:
    raw: float = 0.0
    used: float = 0.0
    data_sectors: float = 0.0
    nominal_weighted: float = 0.0

    def add(self, other: Totals, scale: float = 1.0) -> None:
        self.raw += other.raw * scale
        self.used += other.used * scale
        self.data_sectors += other.data_sectors * scale
        self.nominal_weighted += other.nominal_weighted * scale


def place(demand: dict[int, float], groups: list[tuple[Geometry, float]]) -> Totals:
    """Cost of ``demand`` (psize -> number of DVAs) spread over ``groups``."""
    tot = Totals()
    spread = [(g, share, g.nominal, dva_costs(g)) for g, share in groups]
    for psize, dvas in demand.items():
        if dvas <= 0 or psize <= 0:
            continue
        for g, share, nominal, known in spread:
            asize, used, sectors = dva_cost(g, psize, known)
            w = dvas * share
            tot.raw += asize * w
            tot.used += used * w
            tot.data_sectors += sectors * w
            tot.nominal_weighted += asize * w * nominal
    return tot
