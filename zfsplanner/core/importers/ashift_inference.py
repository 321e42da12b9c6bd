"""The ashift of a pool whose outputs do not state it, from the sizes they do give.

``zpool get ashift`` prints 0 for a pool created without ``-o ashift`` and neither
``zpool status`` nor ``zpool list`` prints a vdev's ashift; but the ashift moves what they
print: a raidz vdev's deflate ratio (``vdev_raidz_asize()`` in ``module/zfs/vdev_raidz.c``,
through ``spa_deflate``) sets USED + AVAIL, and the label and metaslab rounding of
``vdev_metaslab_set_size()`` (``module/zfs/vdev.c``) sets SIZE. Each candidate ashift is
given to the imported design and estimated with the planner's own rules; the candidates
that reproduce every figure the outputs give (exactly when printed with ``-p``, within
the rounding of 3 significant digits otherwise) remain: one is the answer, several are
asked, none is said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from .compare import Row

DECIDING = ("size", "usable")  # and every "vdev-N" row: the figures an ashift moves and stored data does not


@dataclass(frozen=True)
class Inference:
    """Which candidates reproduce the outputs' figures, and why, in words."""

    tried: tuple[int, ...]
    matching: tuple[int, ...]
    figures: tuple[str, ...]  # "SIZE 9,126,805,504 B", ... as the outputs give them

    @property
    def ashift(self) -> int | None:
        """The answer when exactly one candidate fits."""
        return self.matching[0] if len(self.matching) == 1 else None

    @property
    def reason(self) -> str:
        figures = " and ".join(self.figures)
        tried = _span(self.tried)
        if self.ashift is not None:
            return (f"ashift {self.ashift}: the only value (of {tried}) that gives {figures} as the outputs report; "
                    "no output states it (add `zpool get ashift POOL all-vdevs` on OpenZFS 2.2+ to read it)")
        if self.matching:
            return (f"the outputs do not tell the ashift: {_span(self.matching)} all give {figures}; the preview "
                    "asks which (`zpool get ashift POOL all-vdevs` on OpenZFS 2.2+ prints it)")
        return (f"no ashift (of {tried}) gives {figures} as the outputs report: the ashift zpool would choose "
                "is assumed; add `zpool get ashift POOL all-vdevs` (OpenZFS 2.2+) or `zdb -C POOL` to state it")


def candidates(lowest: int = ASHIFT_MIN, highest: int = ASHIFT_MAX) -> tuple[int, ...]:
    """The ashifts a vdev may have: from the disks' logical sector (``vdev_open()`` refuses less from
    2.2.7/2.3.0; a smaller one fails its first writes before) up to ``ASHIFT_MAX``."""
    return tuple(range(max(lowest, ASHIFT_MIN), ASHIFT_MAX + 1 if highest > ASHIFT_MAX else highest + 1))


def deciding(rows: Sequence[Row]) -> list[Row]:
    """The compared figures that tell ashifts apart: SIZE, USED + AVAIL and each vdev's SIZE, unless the
    disk sizes were fitted to that very figure."""
    return [r for r in rows if (r.key in DECIDING or r.key.startswith("vdev-")) and not r.fitted]


def reproduces(row: Row) -> bool:
    return row.difference_bytes == 0 or row.within_rounding


def infer(tried: Sequence[int], rows_of: Callable[[int], Sequence[Row] | None]) -> Inference | None:
    """Try each ashift; ``rows_of(a)`` compares the design with ashift ``a`` to the outputs (None: that
    ashift makes no valid design). None when no output gives a figure that decides."""
    matching = []
    figures: tuple[str, ...] = ()
    for a in tried:
        rows = rows_of(a)
        if rows is None:
            continue
        decide = deciding(rows)
        if not decide:
            return None
        figures = tuple(f"{r.label} {r.reported_bytes:,} B" for r in decide if not r.key.startswith("vdev-"))
        if any(r.key.startswith("vdev-") for r in decide):
            figures += ("each vdev's SIZE",)
        if all(reproduces(r) for r in decide):
            matching.append(a)
    if not figures:
        return None
    return Inference(tuple(tried), tuple(matching), figures)


def _span(values: Sequence[int]) -> str:
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(str(v) for v in values[:-1]) + (" or " if len(values) > 1 else "") + str(values[-1])
