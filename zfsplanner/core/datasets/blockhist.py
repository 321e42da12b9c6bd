"""A measured per-block size histogram, allocated block by block (``contents.block_size_histogram``).

``[[psize_bytes, count], ...]`` gives the stored (compressed) size of a dataset's data
blocks as measured on a sample (``manage.py measure_compression``) or read from
``zdb -Lbbbs``; psize 0 stands for holes and blocks embedded in their block pointer. When
a design gives it, the estimate allocates each measured size as it is instead of one
average ratio: a dataset whose blocks are half 20 KiB and half 120 KiB costs more on
raidz than the same average at one size, because each block is padded on its own.

The measured sizes are re-rounded to the pool's allocation unit
(``compression.roundup_alloc_size``), so a histogram taken at ashift 9 is correct on a
4 KiB-sector pool; a size at or above the dataset's block size is stored uncompressed.
The counts are scaled to the number of data blocks the dataset's contents make.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..compression.rules import roundup_alloc_size
from ..document.parts import BLOCK_HISTOGRAM_KEY as KEY
from ..document.parts import read_block_histogram
from ..document.reader import Reader
from ..naming import element_label
from ..versions import Version


class BlockHistogramError(ValueError):
    """A histogram that cannot be used: the message in words, the entry's JSON path in ``path``."""

    def __init__(self, path: str, message: str) -> None:
        field, _, entry = path.partition("[")
        words = f"the {element_label(None, field)}"
        super().__init__(f"entry {int(entry.rstrip(']')) + 1} of {words} {message}" if entry else f"{words} {message}")
        self.path = path
        self.message = message


def read(extra: Mapping[str, Any]) -> tuple[tuple[int, int], ...] | None:
    """The histogram a dataset's ``contents`` carries (under :data:`KEY`), checked by the rule a design
    document is read with (``document.parts.read_block_histogram``); None if absent."""
    raw = extra.get(KEY)
    if raw is None:
        return None
    r = Reader()
    pairs = read_block_histogram(r, raw, f"contents.{KEY}")
    if pairs is None:
        raise BlockHistogramError(*r.errors[0])
    return pairs


@dataclass(frozen=True)
class Allocation:
    """The data blocks of a dataset as the histogram gives them."""

    demand: dict[int, float]  # allocated psize -> DVAs
    stored: dict[int, float]  # allocated psize -> blocks (0: hole or embedded)
    blocks: float  # data blocks the histogram stands for
    physical_bytes: float  # block pointer psize summed (what compressratio divides by)
    scale: float


def allocate(
    histogram: tuple[tuple[int, int], ...],
    blocks: float,
    block_size: int,
    copies: int,
    version: Version,
    min_alloc: int,
    gcd_alloc: int,
) -> Allocation:
    """Spread ``blocks`` data blocks of ``block_size`` over the histogram's sizes."""
    total = sum(n for _, n in histogram)
    scale = blocks / total if blocks > 0 else 1.0
    demand: dict[int, float] = defaultdict(float)
    stored: dict[int, float] = defaultdict(float)
    physical = 0.0
    for psize, n in histogram:
        if n == 0:
            continue
        c = n * scale
        if psize == 0:
            stored[0] += c
            continue
        p = roundup_alloc_size(psize, version, min_alloc, gcd_alloc)
        if p >= block_size:
            p = block_size
        stored[p] += c
        demand[p] += c * copies
        physical += p * c
    return Allocation(dict(demand), dict(stored), blocks if blocks > 0 else float(total), physical, scale)
