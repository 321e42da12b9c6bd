"""Storage efficiency by block size: what one block of each size costs on a vdev layout.

For every power of two from 4 KiB to 16 MiB: the allocated size (``alloc.block_asize``,
i.e. ``vdev_raidz_psize_to_asize`` / ``vdev_draid_psize_to_asize``), how much of it is
parity and how much is padding, the USED charged for it (deflated with the vdev's
ratio, ``vdev_set_deflate_ratio``) and the efficiency against the layout's nominal data
fraction. The block is taken as incompressible (psize = block size).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..design.types import DRAID_LAYOUTS, PARITY, RAIDZ_LAYOUTS, Layout
from ..geometry.alloc import block_asize, deflate, deflate_ratio, nominal_parity_fraction
from ..units import KIB, MIB, ceil_div

BLOCK_SIZES = tuple(1 << s for s in range(12, 25))  # 4 KiB .. 16 MiB


@dataclass(frozen=True)
class EfficiencyRow:
    """One block size on one vdev layout.

    ``asize_bytes`` is what ``zpool list`` ALLOC grows by; ``raw_bytes`` what the disks
    store (the same, except that a mirror's other copies add ``(width-1) * asize``).
    ``data_bytes`` is the block's sectors, ``parity_bytes`` the parity sectors (or the
    extra mirror copies), ``padding_bytes`` the rest (RAIDZ skip sectors, dRAID row
    padding). ``used_bytes`` is what ``zfs list`` USED is charged. ``efficiency`` is
    ``block_size / raw_bytes``; ``nominal_data_fraction`` is ``1 - nominal_parity_fraction``,
    the best the layout can do.
    """

    block_size: int
    asize_bytes: int
    raw_bytes: int
    data_bytes: int
    parity_bytes: int
    padding_bytes: int
    used_bytes: int
    used_ratio: float
    efficiency: float
    nominal_parity_fraction: float
    nominal_data_fraction: float


def redundancy_fraction(layout: Layout, width: int, draid_data: int | None = None) -> float:
    """Share of the disks that hold no new data: the parity fraction
    (:func:`alloc.nominal_parity_fraction`), and ``(N-1)/N`` for an N-way mirror's copies."""
    if layout == Layout.MIRROR:
        return (width - 1) / width
    return nominal_parity_fraction(layout, width, draid_data)


def block_breakdown(
    layout: Layout, width: int, ashift: int, psize: int, draid_data: int | None = None
) -> tuple[int, int, int, int]:
    """(asize, data, parity, padding) bytes of one ``psize`` block on the vdev.

    RAIDZ: ``d = ceil(psize/S)`` data sectors, ``p * ceil(d/(N-p))`` parity sectors, the
    rest of the ``p+1``-multiple is padding. dRAID: ``rows * p`` parity sectors, the
    rest of the rows is padding. Mirror/stripe: sector rounding only.
    """
    sector = 1 << ashift
    asize = block_asize(layout, width, ashift, psize, draid_data)
    d = ceil_div(psize, sector)
    p = PARITY[layout]
    if layout in RAIDZ_LAYOUTS:
        parity = p * ceil_div(d, width - p)
    elif layout in DRAID_LAYOUTS:
        assert draid_data is not None
        parity = p * ceil_div(d, draid_data)
    else:
        parity = 0
    data = d * sector
    parity_bytes = parity * sector
    return asize, data, parity_bytes, asize - data - parity_bytes


def efficiency_table(
    layout: Layout,
    width: int,
    ashift: int,
    draid_data: int | None = None,
    block_sizes: tuple[int, ...] = BLOCK_SIZES,
) -> list[EfficiencyRow]:
    """One :class:`EfficiencyRow` per block size (4K .. 16M by default)."""
    ratio = deflate_ratio(layout, width, ashift, draid_data)
    nominal = redundancy_fraction(layout, width, draid_data)
    copies = width if layout == Layout.MIRROR else 1
    rows = []
    for bs in block_sizes:
        asize, data, parity, padding = block_breakdown(layout, width, ashift, bs, draid_data)
        raw = asize * copies
        if copies > 1:
            parity += asize * (copies - 1)
        used = deflate(asize, ratio)
        rows.append(
            EfficiencyRow(
                block_size=bs,
                asize_bytes=asize,
                raw_bytes=raw,
                data_bytes=data,
                parity_bytes=parity,
                padding_bytes=padding,
                used_bytes=used,
                used_ratio=used / bs,
                efficiency=bs / raw,
                nominal_parity_fraction=nominal,
                nominal_data_fraction=1 - nominal,
            )
        )
    return rows


def _label(n: int) -> str:
    return f"{n // MIB}M" if n >= MIB else f"{n // KIB}K"


def efficiency_series(rows: list[EfficiencyRow]) -> dict[str, Any]:
    """Chart.js-ready series: efficiency and nominal data fraction (percent), and the
    USED charged per logical byte, one point per block size."""
    return {
        "labels": [_label(r.block_size) for r in rows],
        "datasets": [
            {"label": "Storage efficiency", "data": [round(r.efficiency * 100, 2) for r in rows]},
            {"label": "Nominal data fraction", "data": [round(r.nominal_data_fraction * 100, 2) for r in rows]},
            {"label": "USED per logical byte", "data": [round(r.used_ratio * 100, 2) for r in rows]},
        ],
        "unit": "percent",
    }
