"""Steps 1 and 2 of a dataset's pipeline (:mod:`.usage`): the logical blocks of its contents, what
compression makes of each (:func:`..compression.rules.stored_block`), and their indirect blocks,
added up by allocated size.

The tally of a file-size histogram depends on the histogram and on how blocks are stored
(:class:`BlockRules`), not on the vdevs they land on, so it is made once per pair and kept
(:func:`file_tally`): a design estimated again (each designer update, each of the advisor's layouts,
the growth timeline's options) does not walk its histogram again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..compression.rules import (
    SPA_MINBLOCKSIZE,
    BlockKind,
    StoredBlock,
    estimated_compressed_size,
    stored_block,
)
from ..memo import by_identity
from ..units import roundup
from ..versions import Version
from .metadata import SA_NBLKPTR, MetaBlock, RedundantMetadata, object_indirects

__all__ = ["BlockRules", "Tally", "file_tally", "indirects"]

# Distinct (histogram, rules) tallies kept: a tally holds a few hundred sizes, its key the histogram.
FILE_TALLIES_KEPT = 64


@dataclass(frozen=True)
class BlockRules:
    """How one dataset's blocks are stored: its block size, copies, ``redundant_metadata``, the
    algorithm and the fraction its data compresses to (``all_zero``: the contents are zeros), on the
    pool's allocation units (``spa_min_alloc``, ``spa_gcd_alloc``) under ``release``."""

    block_size: int
    copies: int
    redundant: RedundantMetadata
    algorithm: str
    fraction: float
    all_zero: bool
    release: Version
    min_alloc: int
    gcd_alloc: int

    def store(self, lsize: int, content: int) -> StoredBlock:
        """One logical block of ``lsize`` bytes holding ``content`` bytes of data (the rest zeros)."""
        release, min_alloc, gcd_alloc = self.release, self.min_alloc, self.gcd_alloc
        if self.algorithm == "off":
            return stored_block(lsize, None, algorithm="off", version=release, min_alloc=min_alloc, gcd_alloc=gcd_alloc)
        if self.all_zero or content == 0:
            return stored_block(
                lsize,
                None,
                algorithm=self.algorithm,
                version=release,
                min_alloc=min_alloc,
                gcd_alloc=gcd_alloc,
                all_zero=True,
            )
        comp = estimated_compressed_size(content, lsize - content, self.fraction, self.algorithm)
        return stored_block(
            lsize, comp, algorithm=self.algorithm, version=release, min_alloc=min_alloc, gcd_alloc=gcd_alloc
        )


# :func:`.metadata.object_indirects` of one object, kept per distinct object.
indirects = lru_cache(maxsize=8192)(object_indirects)


class Tally:
    """The data and metadata blocks of one dataset so far: data DVAs by allocated psize
    (``data_demand``), data blocks by allocated psize (``hist``), metadata DVAs by psize
    (``meta_demand``), and the sums the figures need."""

    def __init__(self, rules: BlockRules) -> None:
        self.rules = rules
        self.blocks_total = 0.0
        self.logical_data = 0.0  # lsize of non-hole blocks
        self.physical_data = 0.0  # psize of non-hole blocks
        self.content_bytes = 0
        self.nfiles = 0.0
        self.data_demand: defaultdict[int, float] = defaultdict(float)  # alloc psize -> DVAs
        self.hist: defaultdict[int, float] = defaultdict(float)
        self.meta_demand: defaultdict[int, float] = defaultdict(float)  # metadata psize -> DVAs
        self.meta_psize = 0.0
        self._stored: dict[tuple[int, int], StoredBlock] = {}

    def copy(self) -> Tally:
        other = Tally(self.rules)
        other.blocks_total, other.logical_data, other.physical_data = (
            self.blocks_total,
            self.logical_data,
            self.physical_data,
        )
        other.content_bytes, other.nfiles, other.meta_psize = self.content_bytes, self.nfiles, self.meta_psize
        other.data_demand = defaultdict(float, self.data_demand)
        other.hist = defaultdict(float, self.hist)
        other.meta_demand = defaultdict(float, self.meta_demand)
        other._stored = self._stored  # the same rules store a block the same way
        return other

    def stored(self, lsize: int, content: int) -> StoredBlock:
        key = (lsize, content)
        sb = self._stored.get(key)
        if sb is None:
            sb = self._stored[key] = self.rules.store(lsize, content)
        return sb

    def add_blocks(self, sb: StoredBlock, count: float) -> None:
        if sb.kind == BlockKind.HOLE:
            return
        self.blocks_total += count
        self.logical_data += sb.lsize * count
        self.physical_data += sb.psize * count
        self.hist[sb.alloc_psize] += count
        if sb.alloc_psize:
            self.data_demand[sb.alloc_psize] += count * self.rules.copies

    def add_meta(self, blocks: Sequence[MetaBlock], scale: float) -> None:
        for mb in blocks:
            self.meta_demand[mb.psize] += mb.count * mb.dvas * scale
            self.meta_psize += mb.psize * mb.count * scale


def file_tally(buckets: tuple[tuple[int, float], ...], rules: BlockRules) -> Tally:
    """The blocks of files in (size, count) ``buckets``: a file no larger than the block size is
    one block of ``roundup(size, 512)``; a larger one is whole blocks, the last one full-size too,
    plus its indirect blocks. A new tally each call (the caller adds to it); the work is done once
    per ``buckets`` tuple (:func:`.inputs.file_buckets` gives the same tuple for the same files)."""
    return _file_tally(buckets, rules).copy()


@by_identity(kept=FILE_TALLIES_KEPT)
def _file_tally(buckets: tuple[tuple[int, float], ...], rules: BlockRules) -> Tally:
    t = Tally(rules)
    bs, copies = rules.block_size, rules.copies
    for size, count in buckets:
        if count <= 0:
            continue
        t.nfiles += count
        t.content_bytes += int(size * count)
        if size == 0:
            continue
        if size <= bs:
            t.add_blocks(t.stored(roundup(size, SPA_MINBLOCKSIZE), size), count)
            continue
        full, tail = divmod(size, bs)
        nblocks = full + (1 if tail else 0)
        t.add_blocks(t.stored(bs, bs), full * count)
        if tail:
            t.add_blocks(t.stored(bs, tail), count)
        t.add_meta(
            indirects(
                nblocks, SA_NBLKPTR, copies, copies, rules.redundant, rules.release, rules.min_alloc, rules.gcd_alloc
            ),
            count,
        )
    return t
