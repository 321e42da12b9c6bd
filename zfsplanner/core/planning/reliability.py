"""How likely the pool is to lose data, and how long a disk takes to rebuild.

The model (stated with every estimate):

* Disks fail independently at a constant rate ``λ = -ln(1 - AFR) / 8766 h`` (the
  annualized failure rate turned into an hourly rate).
* A top-level vdev of ``n`` disks that survives ``f`` failures (mirror: ``n - 1``;
  raidz and dRAID: the parity) is a Markov chain over the number of failed disks,
  0..f. From ``i`` failed disks the next failure comes at ``(n - i) λ``; a failed disk
  is replaced and resilvered at rate ``μ = 1 / (replacement wait + resilver time)``,
  one at a time (OpenZFS defers a second resilver until the running one ends,
  ``resilver_defer``). One failure more than ``f`` loses the vdev.
* Entering state ``f`` (no redundancy left), the rebuild reads every allocated byte of
  the surviving disks it needs; an unrecoverable read error (URE, by media class) there
  loses the blocks it hits: probability ``1 - exp(-bits × URE rate)``.
* The pool is lost when any top-level data, special or dedup vdev is lost (losing one
  loses the pool, ``zpoolconcepts.7``); vdevs fail independently, so the pool's loss
  rate is the sum of theirs. ``P(loss within t) = 1 - exp(-t / MTTDL)``, which is the
  chain's own behaviour when resilvers are much shorter than the time between failures.
* The MTTDL reported counts the hours with every disk healthy
  (:func:`mttdl_full_redundancy_hours`), the cautious side of the exact mean by about
  MTTR / MTTF.

Not modelled: correlated failures (one batch, one enclosure, one power event), silent
corruption that scrubs would find, operator error, and the read load of a resilver
raising the failure rate. Real risk is higher than this model says; use it to compare
layouts, not as a guarantee.

The mean time to data loss solves the chain exactly (it is small: f + 1 states); the
test suite checks it against the published closed forms (RAID-1 ``(3λ+μ)/(2λ²)``,
RAID-5 ``((2n-1)λ+μ)/(n(n-1)λ²)``, RAID-6 and the ``μ^f / (n(n-1)..(n-f) λ^(f+1))``
approximation for raidz2/3) and against :func:`simulate`, a seeded Monte Carlo run of
the same chain.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..design.planning import HOURS_PER_YEAR

BITS_PER_BYTE = 8


def afr_to_rate(afr: float) -> float:
    """Hourly failure rate of a disk whose annualized failure rate is ``afr`` (exponential lifetimes)."""
    return -math.log1p(-afr) / HOURS_PER_YEAR


def ure_probability(bytes_read: float, ure_per_bit: float) -> float:
    """Probability of at least one unrecoverable read error while reading ``bytes_read``."""
    return -math.expm1(-bytes_read * BITS_PER_BYTE * ure_per_bit)


def _rates(n: int, f: int, lam: float, mu: float, ure: float) -> list[tuple[float, float, float]]:
    """Per state i: (rate to i+1, rate to loss, rate back to i-1)."""
    out = []
    for i in range(f + 1):
        fail = (n - i) * lam
        if i == f:
            up, loss = 0.0, fail
        elif i + 1 == f:
            up, loss = fail * (1 - ure), fail * ure
        else:
            up, loss = fail, 0.0
        out.append((up, loss, mu if i > 0 else 0.0))
    return out


def _check(n: int, tolerance: int) -> None:
    if n < 1 or tolerance < 0 or tolerance >= n:
        raise ValueError(f"a vdev of {n} disks cannot survive {tolerance} failures")


def _eliminate(n: int, tolerance: int, lam: float, mu: float, ure: float) -> tuple[float, float]:
    """(mean time to loss from the healthy state, rate of leaving it towards a loss).

    Eliminates the states from the top down: ``h_i = alpha_i + beta_i * h_(i-1)``, with
    ``gamma_i = 1 - beta_i`` carried on its own, so every step adds, multiplies and divides
    positive numbers and the result keeps full precision even at 10^20 hours. ``gamma_i``
    is also the probability that, from ``i``, the vdev is lost before it is healthy again;
    at the healthy state ``d`` is therefore the rate of "excursions that end in a loss".
    """
    alpha = gamma = 0.0
    d = 0.0
    for up, loss, down in reversed(_rates(n, tolerance, lam, mu, ure)):
        d = up * gamma + loss + down
        alpha, gamma = (1.0 + up * alpha) / d, (up * gamma + loss) / d
    return alpha, d


def mttdl_hours(n: int, tolerance: int, lam: float, mu: float, ure: float = 0.0) -> float:
    """Mean hours until a vdev of ``n`` disks that survives ``tolerance`` failures loses data.

    ``lam``: failure rate per disk per hour; ``mu``: repair rate per hour (1 / hours from
    failure to redundancy restored); ``ure``: probability that the rebuild which runs
    with no redundancy left hits an unrecoverable read error. The exact mean of the chain.
    """
    _check(n, tolerance)
    if lam <= 0:
        return math.inf
    return _eliminate(n, tolerance, lam, mu, ure)[0]


def mttdl_full_redundancy_hours(n: int, tolerance: int, lam: float, mu: float, ure: float = 0.0) -> float:
    """Mean hours the vdev spends with every disk healthy before it loses data.

    This is the figure the estimate reports. It is :func:`mttdl_hours` without the hours
    spent degraded (resilvering), about ``MTTR / MTTF`` less, and it is the loss rate the
    usual engineering formula ``n λ × P(loss | a disk fails)`` gives. Leaving the degraded
    hours out keeps it on the cautious side and makes it behave as a risk should: a longer
    resilver never makes a vdev look safer. (The exact mean credits the time a vdev sits
    degraded as time survived, so when a rebuild is more likely than not to hit a read
    error, a slower rebuild, which means fewer rebuilds per year, would look safer.)
    """
    _check(n, tolerance)
    if lam <= 0:
        return math.inf
    return 1.0 / _eliminate(n, tolerance, lam, mu, ure)[1]


def loss_probability(mttdl: float, hours: float) -> float:
    """Probability of losing data within ``hours`` at a constant loss rate of ``1 / mttdl``."""
    if math.isinf(mttdl):
        return 0.0
    return -math.expm1(-hours / mttdl)


def simulate(
    n: int,
    tolerance: int,
    lam: float,
    mu: float,
    ure: float = 0.0,
    *,
    runs: int = 2000,
    seed: int = 1,
    horizon: float | None = None,
) -> tuple[float, float, float]:
    """Monte Carlo of the same chain: (mean time to loss, mean time spent with every disk
    healthy before the loss, share of runs lost within ``horizon``).

    Each run starts with every disk healthy and draws exponential holding times until
    the vdev is lost, or until ``horizon`` when it is set (the means then count time up
    to the horizon only).
    """
    rng = random.Random(seed)
    rates = _rates(n, tolerance, lam, mu, ure)
    total = healthy = 0.0
    lost = 0
    for _ in range(runs):
        t, i = 0.0, 0
        while True:
            up, loss, down = rates[i]
            out = up + loss + down
            dt = rng.expovariate(out)
            if horizon is not None and t + dt > horizon:
                healthy += (horizon - t) if i == 0 else 0.0
                t = horizon
                break
            t += dt
            if i == 0:
                healthy += dt
            u = rng.random() * out
            if u < loss:
                lost += 1
                break
            i = i + 1 if u < loss + up else i - 1
        total += t
    return total / runs, healthy / runs, lost / runs


# --------------------------------------------------------------------------- resilver


@dataclass(frozen=True)
class Rebuild:
    """How one failed disk of a vdev is rebuilt."""

    kind: str  # "healing" (mirror/raidz resilver, dRAID to a new disk) or "sequential" (dRAID to a distributed spare)
    allocated_per_disk_bytes: int
    seconds: float
    bytes_read_without_redundancy: float  # what the last-chance rebuild must read without error


def rebuild(
    *,
    layout_kind: str,
    width: int,
    parity: int,
    vdev_size_bytes: int,
    fill: float,
    rebuild_bytes_per_s: float,
    draid_data: int | None = None,
    draid_spares: int = 0,
) -> Rebuild:
    """Resilver or dRAID rebuild of one disk at ``fill`` of the vdev's SIZE.

    ``layout_kind``: ``stripe``, ``mirror``, ``raidz`` or ``draid``. A mirror member
    holds the whole vdev; a raidz member ``1/width`` of it (parity included, as
    ``zpool list`` SIZE is); a dRAID child ``1/(children - spares)``. A healing resilver
    writes that much to the new disk at ``rebuild_bytes_per_s``. A dRAID sequential
    rebuild to a distributed spare reads ``D`` sectors per lost sector and writes one,
    spread over every surviving child, so it takes ``(D + 1) / (children - 1)`` of that.
    """
    if layout_kind == "mirror":
        per_disk = vdev_size_bytes * fill
        needed = 1
    elif layout_kind == "raidz":
        per_disk = vdev_size_bytes * fill / width
        needed = width - parity
    elif layout_kind == "draid":
        d = draid_data or max(width - draid_spares - parity, 1)
        per_disk = vdev_size_bytes * fill / max(width - draid_spares, 1)
        needed = d
    else:
        return Rebuild("none", int(vdev_size_bytes * fill), 0.0, 0.0)
    seconds = per_disk / rebuild_bytes_per_s
    kind = "healing"
    if layout_kind == "draid" and draid_spares > 0:
        kind = "sequential"
        seconds = per_disk * (needed + 1) / ((width - 1) * rebuild_bytes_per_s)
    return Rebuild(kind, int(per_disk), seconds, per_disk * needed)


# --------------------------------------------------------------------------- one vdev, the pool


@dataclass(frozen=True)
class VdevRisk:
    disks: int
    tolerance: int
    failure_rate_per_hour: float
    repair_hours: float
    ure_probability: float
    mttdl_hours: float

    @property
    def another_failure_probability(self) -> float:
        """Chance that one more disk of this vdev fails while one is being rebuilt."""
        if self.disks <= 1:
            return 0.0
        return -math.expm1(-(self.disks - 1) * self.failure_rate_per_hour * self.repair_hours)


def vdev_risk(disks: int, tolerance: int, afr: float, repair_hours: float, ure: float) -> VdevRisk:
    """The vdev's risk figures; ``mttdl_hours`` is :func:`mttdl_full_redundancy_hours`."""
    lam = afr_to_rate(afr)
    mu = 1.0 / repair_hours if repair_hours > 0 else 1e12
    return VdevRisk(
        disks, tolerance, lam, repair_hours, ure, mttdl_full_redundancy_hours(disks, tolerance, lam, mu, ure)
    )


def pool_mttdl(vdevs: Sequence[tuple[float, int]]) -> float:
    """MTTDL of a pool of independent vdevs given as (MTTDL, how many such vdevs)."""
    rate = sum(count / m for m, count in vdevs if not math.isinf(m))
    return math.inf if rate == 0 else 1.0 / rate
