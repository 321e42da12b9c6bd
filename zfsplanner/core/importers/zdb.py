"""The "Block Size Histogram" of ``zdb -Lbbbs POOL`` (OpenZFS 2.0 and later), and its totals.

``dump_size_histograms()`` in ``cmd/zdb/zdb.c`` prints, after a ``Block Size Histogram``
line (and from 2.3 some ``(note: ...)`` lines), two header lines and one row per power of
two from 512 B to 16 MiB: the block size, then count / total size / cumulative size for
``psize``, ``lsize`` and ``asize``. Numbers are rounded powers of 1024 (``1.07K``) unless
``-P`` was given, which prints exact numbers separated by tabs. Unless the note says
"binned by ...", each category is binned by its own size. The ``bp logical`` /
``bp physical`` totals (``zdb -b``) give the pool's exact compression ratio.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import Lines, UnreadableOutput, parse_size

_ROW_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?[KMG]?):?\s+(.*)$")
_TOTAL_RE = re.compile(r"^\s*bp (logical|physical|allocated):\s+([0-9]+)")


class ZdbError(UnreadableOutput):
    format = "zdb"


@dataclass(frozen=True)
class BlockHistogram:
    """Per power-of-two block size: (size, count, bytes) for each of psize, lsize, asize."""

    psize: tuple[tuple[int, int, int], ...]
    lsize: tuple[tuple[int, int, int], ...]
    asize: tuple[tuple[int, int, int], ...]
    binned_by: str | None  # "psize", "lsize", "asize", or None when binned separately
    exact: bool  # printed with -P
    bp_logical: int | None = None
    bp_physical: int | None = None
    bp_allocated: int | None = None
    line: int = 0

    @property
    def compressratio(self) -> float | None:
        """lsize / psize over all blocks (``bp logical / bp physical`` when zdb printed them)."""
        if self.bp_logical and self.bp_physical:
            return self.bp_logical / self.bp_physical
        lsize = sum(b for _, _, b in self.lsize)
        psize = sum(b for _, _, b in self.psize)
        return lsize / psize if psize else None

    def ratio_by_block_size(self) -> tuple[tuple[int, float], ...]:
        """lsize/psize per row; meaningful when every category was binned by one size (``--bin``)."""
        if self.binned_by is None:
            return ()
        out = []
        for (size, _, pbytes), (_, _, lbytes) in zip(self.psize, self.lsize, strict=True):
            if pbytes and lbytes:
                out.append((size, lbytes / pbytes))
        return tuple(out)


def _number(n: int, text: str) -> int:
    try:
        size = parse_size(text)
    except ValueError:
        raise ZdbError(n, f"{text!r} is not a number") from None
    return size.bytes if size is not None else 0


def parse(lines: Lines) -> BlockHistogram:
    totals: dict[str, int] = {}
    start = None
    for i, (_n, text) in enumerate(lines):
        m = _TOTAL_RE.match(text)
        if m:
            totals[m.group(1)] = int(m.group(2))
        if text.strip() == "Block Size Histogram":
            start = i
    if start is None:
        n = lines[0][0] if lines else None
        raise ZdbError(n, "no 'Block Size Histogram' table: run zdb -Lbbbs POOL (OpenZFS 2.0 or later)")
    n_hist = lines[start][0]
    binned_by = None
    rows: list[tuple[int, list[int]]] = []
    exact = False
    header_seen = 0
    for n, text in lines[start + 1 :]:
        stripped = text.strip()
        if not stripped:
            if rows:
                break
            continue
        if stripped.startswith("(note:"):
            m = re.search(r"binned by (psize|lsize|asize)", stripped)
            binned_by = m.group(1) if m else binned_by
            continue
        words = stripped.split()
        if words[0] in ("block", "size"):
            header_seen += 1
            continue
        m = _ROW_RE.match(text)
        if not m or header_seen < 2:
            if rows:
                break
            raise ZdbError(n, f"expected a histogram row (size: count size cum. x 3), got {stripped!r}")
        exact = exact or "\t" in text
        size = _number(n, m.group(1).rstrip(":"))
        values = m.group(2).split()
        if len(values) != 9:
            raise ZdbError(n, f"expected 9 numbers after the block size, got {len(values)}")
        if size < 512 or size & (size - 1):
            raise ZdbError(n, f"{m.group(1)} is not a power-of-two block size")
        rows.append((size, [_number(n, v) for v in values]))
    if not rows:
        raise ZdbError(n_hist, "the Block Size Histogram has no rows")
    sizes = [s for s, _ in rows]
    if sizes != sorted(set(sizes)):
        raise ZdbError(n_hist, "the histogram rows are not in increasing block size")

    def column(k: int) -> tuple[tuple[int, int, int], ...]:
        return tuple((s, v[3 * k], v[3 * k + 1]) for s, v in rows)

    return BlockHistogram(
        psize=column(0),
        lsize=column(1),
        asize=column(2),
        binned_by=binned_by,
        exact=exact,
        bp_logical=totals.get("logical"),
        bp_physical=totals.get("physical"),
        bp_allocated=totals.get("allocated"),
        line=n_hist,
    )
