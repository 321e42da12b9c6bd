"""The dedup table's size, on disk and in core, as ``zpool status -D`` reports it.

Derived from how OpenZFS stores the table, not from per-entry constants:

* Each unique block is one entry of a fat ZAP (``ddt_zap.c``: ``ZAP_FLAG_HASH64 |
  ZAP_FLAG_UINT64_KEY``, leaf blocks of ``1 << ddt_zap_default_bs`` = 32 KiB). Its key is the
  ``ddt_key_t`` (checksum and block properties, 5 × 8 B); its value is the entry's physical
  part (``ddt_univ_phys_t``: 4 × 64 B before fast dedup, one 72 B flat set with it), compressed
  with ZLE plus a version byte (``ddt_zap_compress()``). In a leaf each entry takes one entry
  chunk and array chunks of 21 B (``zap_leaf.h``: ``ZAP_LEAF_ARRAY_BYTES``); a 32 KiB leaf has
  ``ZAP_LEAF_NUMCHUNKS`` = 1,278 chunks and splits in two on one more hash bit when an entry no
  longer fits (``zap_expand_leaf()``). Keys are uniform hashes, so the leaves fill and split
  alike: how full they are swings with the table's size between a power of two of leaves and the
  next (:func:`leaf_census`), which is why the bytes per entry are not a constant (140.9 B in core
  at 10,000 traditional entries, 168.1 B at 100,000, measured). The pointer table sits in the
  header block's second half up to 2,048 entries and then takes blocks of its own.
* In core is what ``ddt_object_sync()`` counts: ``doi_fill_count × doi_data_block_size``, the
  table's level-0 blocks as the ARC holds them (plus, with fast dedup, the log's entries in
  memory, ``DDT_LOG_ENTRY_SIZE`` each, ``ddt_log.c``; none once they are flushed).
* On disk is ``doi_physical_blocks_512 << 9``: each leaf compressed (the MOS compresses its
  metadata with lz4), rounded to the sector, with the header and the 32 KiB indirect blocks
  above them (``ddt_zap_default_ibs``), all written with three copies (the MOS's
  ``os_copies = spa_max_replication()``, ``dmu_write_policy()``). Leaves are built as ZAP lays
  them out, with as many entries as the census gives them, and compressed with OpenZFS's own lz4
  (:mod:`..compression.compressors`), so the random checksums stay incompressible and the free
  chunks do not.
* Fast dedup (2.3, ``fast_dedup`` feature) changes two things. The flat entry's 72 B do not
  compress (ZLE needs room for a 64-byte literal run in a 72-byte buffer), so an entry takes 7
  chunks instead of 4. And every new entry is first appended to the log (``ddt_log.c``) as a
  record of ``P2ALIGN(sizeof (ddt_log_record_t) + sizeof (ddt_log_record_entry_t) + 72, 8)`` =
  120 B in 128 KiB blocks, then flushed into the ZAP in key order over the following txgs; the
  log's blocks stay on disk until the flushed log is truncated (``ddt_log_truncate()``), so a
  table just written counts every record on disk once more; in memory the flushed entries are
  gone.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from math import exp, lgamma, log

from ..capacity.pool import PoolCapacity
from ..compression.compressors import zfs_compressed_size
from ..design.types import Contents, Design, Role
from ..geometry.alloc import SPA_OLD_MAXBLOCKSIZE
from ..units import ceil_div, roundup

DDT_ZAP_LEAF_SHIFT = 15  # ddt_zap_default_bs
ZAP_LEAF_CHUNKSIZE = 24
ZAP_LEAF_ARRAY_BYTES = ZAP_LEAF_CHUNKSIZE - 3
DDT_KEY_BYTES = 40  # ddt_key_t: zio_cksum_t (32 B) + ddk_prop
DDT_TRAD_PHYS_BYTES = 4 * 64  # ddt_phys_t × DDT_PHYS_MAX (ditto, single, double, triple)
DDT_FLAT_PHYS_BYTES = 72  # ddt_phys_flat_t: 3 DVAs, refcnt, phys_birth, class_start
DDT_ZAP_INDIRECT_SHIFT = 15  # ddt_zap_default_ibs
BLKPTR_SHIFT = 7  # 128-byte block pointers
DNODE_BLKPTRS = 3  # dn_nblkptr of an object with no bonus buffer
LEAF_SIZE_STEP = 16  # entries between the leaf sizes the on-disk estimate compresses
MOS_COPIES = 3  # spa_max_replication(): the MOS's copies, metadata included
LOG_BLOCK = SPA_OLD_MAXBLOCKSIZE  # the log object's block size (ddt_log_create)
LOG_RECORD_BYTES = 120  # P2ALIGN(8 + 40 + 72, 8)


@dataclass(frozen=True)
class DedupTable:
    entries: int
    on_disk_bytes: int
    in_core_bytes: int
    fast_dedup: bool
    log_on_disk_bytes: int = 0  # of on_disk_bytes: the fast-dedup log's blocks

    @property
    def tables_on_disk_bytes(self) -> int:
        """On disk without the log (what ``zdb -DD`` sums over the table objects)."""
        return self.on_disk_bytes - self.log_on_disk_bytes

    @property
    def on_disk_per_entry(self) -> float:
        return self.on_disk_bytes / self.entries if self.entries else 0.0

    @property
    def in_core_per_entry(self) -> float:
        return self.in_core_bytes / self.entries if self.entries else 0.0


def _random(seed: int, n: int) -> bytes:
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(struct.pack("<QQ", seed, i)).digest()
        i += 1
    return out[:n]


def _phys(fast: bool, seed: int) -> bytes:
    """One unique block's physical part: a single DVA (vdev 0, its asize, an offset), refcnt 1,
    and the birth txg; the other DVAs and variants zero."""
    # dva_word[0]: asize in sectors (low 24 bits), vdev 0; dva_word[1]: offset in sectors
    dva = struct.pack("<QQ", 0x1000 >> 9, (seed * 0x9E3779B1) & 0x3FFFFFF)
    variant = dva + bytes(32) + struct.pack("<QQ", 1, 4096 + seed % 512)
    if fast:
        return variant + bytes(8)  # ddp_class_start
    return bytes(64) + variant + bytes(128)  # the single-copy variant of four


@lru_cache(maxsize=4)
def value_bytes(fast: bool) -> int:
    """The ZAP value of an entry: ZLE of its physical part plus the version byte."""
    phys = _phys(fast, 12345)
    # ddt_zap_compress(): ZLE into psize bytes (cbuf of psize + 1 with the version byte). ZLE stops
    # when fewer than 64 bytes are left for a literal run, so the 72 B flat part never fits and is
    # stored as it is; the 256 B traditional one compresses to a few dozen bytes.
    size = zfs_compressed_size(phys, "zle", len(phys))
    return (len(phys) if size is None or size >= len(phys) else size) + 1


def chunks_per_entry(fast: bool) -> int:
    key = ceil_div(DDT_KEY_BYTES, ZAP_LEAF_ARRAY_BYTES)
    return 1 + key + ceil_div(value_bytes(fast), ZAP_LEAF_ARRAY_BYTES)


def leaf_chunks(shift: int = DDT_ZAP_LEAF_SHIFT) -> int:
    """``ZAP_LEAF_NUMCHUNKS_BS``: the block less the hash table and two header chunks."""
    return ((1 << shift) - 2 * (1 << (shift - 5))) // ZAP_LEAF_CHUNKSIZE - 2


def leaf_capacity(fast: bool) -> int:
    """Entries a leaf holds before the next one makes it split (``zap_entry_create()`` finds no
    free chunks, ``zap_expand_leaf()``): 319 traditional, 182 flat."""
    return leaf_chunks() // chunks_per_entry(fast)


def _poisson_pmf(lam: float, upto: int) -> list[float]:
    return [exp(k * log(lam) - lam - lgamma(k + 1)) if lam > 0 else float(k == 0) for k in range(upto + 1)]


@dataclass(frozen=True)
class LeafCensus:
    """The leaves a table of ``entries`` random keys ends with, as expected counts: ``by_count`` is
    (entries in a leaf, expected number of such leaves); ``depth`` the longest hash prefix a leaf has."""

    by_count: tuple[tuple[int, float], ...]
    depth: int

    @property
    def leaves(self) -> float:
        return sum(n for _, n in self.by_count)


@lru_cache(maxsize=64)
def leaf_census(entries: int, capacity: int) -> LeafCensus:
    """How the fat ZAP's leaves come out for ``entries`` uniformly hashed keys (``zap.c``).

    A leaf covers the keys whose hash starts with its prefix; when an insert finds it full it splits
    in two on one more bit (``zap_expand_leaf()``). So every node of the binary prefix tree that
    holds more than ``capacity`` keys has split, and the leaves are the nodes that hold at most
    ``capacity`` while their parent held more. The keys under a node at depth ``d`` are close to
    Poisson with mean ``entries / 2**d``, and a node's count and its sibling's are independent
    (Poisson splitting), so a leaf at depth ``d`` holds ``k`` keys with probability
    ``pmf(k) × P(sibling > capacity − k)``. Uniform keys split alike: a table of 100,000
    traditional entries has 512 leaves of about 195 (61 % full), one of 10,000 about 42 of 240.
    """
    if entries <= capacity:
        return LeafCensus(((entries, 1.0),), 0)
    counts = [0.0] * (capacity + 1)
    depth = 0
    d = 1
    while True:
        lam = entries / (1 << d)
        pmf = _poisson_pmf(lam, capacity)
        cdf = list(accumulate(pmf))
        level = 0.0
        for k in range(capacity + 1):
            sibling_over = max(1.0 - cdf[capacity - k], 0.0)
            n = (1 << d) * pmf[k] * sibling_over
            counts[k] += n
            level += n
        if level >= 0.5:
            depth = d
        if lam < capacity / 4 or d >= 60:
            break
        d += 1
    return LeafCensus(tuple((k, n) for k, n in enumerate(counts) if n > 1e-9), depth)


def pointer_table_blocks(depth: int) -> int:
    """Blocks of the ZAP's pointer table outside its header: none while it fits the header's
    second half (``ZAP_EMBEDDED_PTRTBL_SHIFT`` = 11 for 32 KiB blocks, ``zap_impl.h``), then
    ``2**depth`` entries of 8 B in blocks of their own (``zap_grow_ptrtbl()``; the old copy is freed)."""
    embedded = DDT_ZAP_LEAF_SHIFT - 3 - 1
    return 0 if depth <= embedded else 1 << (depth - embedded - 1)


def indirect_block_counts(blocks: int) -> tuple[int, ...]:
    """Indirect blocks per level above ``blocks`` level-0 blocks: ``1 << ddt_zap_default_ibs`` =
    32 KiB each, 256 block pointers, up to the dnode's three (``dn_nblkptr`` with no bonus)."""
    out = []
    n = blocks
    while n > DNODE_BLKPTRS:
        n = ceil_div(n, 1 << (DDT_ZAP_INDIRECT_SHIFT - BLKPTR_SHIFT))
        out.append(n)
    return tuple(out)


def _leaf_block(fast: bool, n: int) -> bytes:
    """A 32 KiB leaf holding ``n`` entries as ZAP lays it out (``zap_leaf.c``)."""
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    cpe = chunks_per_entry(fast)
    nchunks = leaf_chunks()
    hash_entries = 1 << (DDT_ZAP_LEAF_SHIFT - 5)
    header = struct.pack("<QQQHHHHH", 0, 0, 0, 0, n, nchunks - n * cpe, n * cpe, 0).ljust(2 * ZAP_LEAF_CHUNKSIZE, b"\0")
    table = bytearray(b"\xff\xff" * hash_entries)
    chunks = bytearray()
    vb = value_bytes(fast)
    for e in range(n):
        first = e * cpe
        key = _random(e, DDT_KEY_BYTES)
        phys = _phys(fast, e)
        value = (phys[: vb - 1].ljust(vb, b"\1"))[:vb]
        hashv = _random(e + 1_000_000, 8)
        slot = int.from_bytes(hashv[:2], "little") % hash_entries
        table[2 * slot : 2 * slot + 2] = struct.pack("<H", first)
        chunks += struct.pack("<BBHHHHHI", 252, 8, 0xFFFF, first + 1, 5, first + 3, vb, 0) + hashv[:6]
        for part in (key, value):
            pieces = [part[i : i + ZAP_LEAF_ARRAY_BYTES] for i in range(0, len(part), ZAP_LEAF_ARRAY_BYTES)]
            for j, piece in enumerate(pieces):
                nxt = 0xFFFF if j == len(pieces) - 1 else len(chunks) // ZAP_LEAF_CHUNKSIZE + 1
                chunks += struct.pack("<B", 251) + piece.ljust(ZAP_LEAF_ARRAY_BYTES, b"\0") + struct.pack("<H", nxt)
    used = len(chunks) // ZAP_LEAF_CHUNKSIZE
    for c in range(used, nchunks):
        chunks += struct.pack("<BH", 253, c + 1 if c + 1 < nchunks else 0xFFFF).ljust(ZAP_LEAF_CHUNKSIZE, b"\0")
    return bytes(header + bytes(table) + chunks).ljust(bs, b"\0")[:bs]


@lru_cache(maxsize=1024)
def leaf_psize(fast: bool, n: int | None = None) -> int:
    """A leaf of ``n`` entries (none given: a full one) compressed with lz4, before rounding to a sector."""
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    size = zfs_compressed_size(_leaf_block(fast, leaf_capacity(fast) if n is None else n), "lz4", bs)
    return bs if size is None else size


@lru_cache(maxsize=64)
def header_psize(depth: int) -> int:
    """The ZAP's header block (``zap_phys_t``) with its embedded pointer table, compressed with lz4:
    ``2**11`` leaf block numbers, each leaf's repeated over the prefixes it covers."""
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    embedded = 1 << (DDT_ZAP_LEAF_SHIFT - 3 - 1)
    per_leaf = max(embedded >> min(depth, DDT_ZAP_LEAF_SHIFT - 4), 1)
    table = b"".join(struct.pack("<Q", 1 + i // per_leaf) for i in range(embedded))
    head = struct.pack("<QQQQQQQQQ", (1 << 63) + 3, 0x2F52AB2AB, 0, 0, 0, 0, 0, 0, 0)  # ZBT_HEADER, ZAP_MAGIC
    block = head.ljust(bs // 2, b"\0") + table
    size = zfs_compressed_size(block, "lz4", bs)
    return bs if size is None else size


@lru_cache(maxsize=64)
def indirect_psize(pointers: int) -> int:
    """An indirect block of ``pointers`` block pointers (three DVAs, birth, fill, checksum), lz4."""
    bs = 1 << DDT_ZAP_INDIRECT_SHIFT
    out = bytearray()
    for i in range(pointers):
        dvas = b"".join(struct.pack("<QQ", 8, int.from_bytes(_random(i * 3 + c, 5), "little")) for c in range(3))
        out += dvas + struct.pack("<Q", 0x800B070F000F003F) + bytes(16) + struct.pack("<QQQ", 0, 4096, 1)
        out += _random(i + 2_000_000, 32)
    size = zfs_compressed_size(bytes(out).ljust(bs, b"\0"), "lz4", bs)
    return bs if size is None else size


@lru_cache(maxsize=16)
def log_block_psize() -> int:
    """A full log block (records of random keys and one DVA each), compressed with lz4."""
    per = LOG_BLOCK // LOG_RECORD_BYTES
    out = bytearray()
    for e in range(per):
        rec = struct.pack("<Q", 1 | LOG_RECORD_BYTES << 8) + _random(e, DDT_KEY_BYTES) + _phys(True, e)
        out += rec.ljust(LOG_RECORD_BYTES, b"\0")
    block = bytes(out).ljust(LOG_BLOCK, b"\0")
    size = zfs_compressed_size(block, "lz4", LOG_BLOCK)
    return LOG_BLOCK if size is None else size


def _leaves_on_disk(census: LeafCensus, fast: bool, sector: int) -> float:
    """Sum over the census of each leaf compressed and rounded to the sector (sizes every
    ``LEAF_SIZE_STEP`` entries, interpolated between: lz4 of a leaf grows steadily with its entries)."""
    total = 0.0
    cap = leaf_capacity(fast)
    for k, n in census.by_count:
        lo = min(k // LEAF_SIZE_STEP * LEAF_SIZE_STEP, cap)
        hi = min(lo + LEAF_SIZE_STEP, cap)
        a, b = leaf_psize(fast, lo), leaf_psize(fast, hi)
        psize = a + (b - a) * (k - lo) // (hi - lo) if hi > lo else a
        total += n * roundup(psize, sector)
    return total


def dedup_table(entries: int, fast_dedup: bool, sector: int = 4096) -> DedupTable:
    """The table for ``entries`` unique blocks, on vdevs of ``sector``-byte sectors.

    In core: the ZAP's level-0 blocks (leaves, header, pointer table outside it) × 32 KiB
    (``doi_fill_count × doi_data_block_size``). On disk: each block compressed, rounded to the
    sector, with the indirect blocks above them, three copies each (``doi_physical_blocks_512``);
    with fast dedup, the log's blocks besides."""
    if entries <= 0:
        return DedupTable(0, 0, 0, fast_dedup)
    census = leaf_census(entries, leaf_capacity(fast_dedup))
    ptrtbl = pointer_table_blocks(census.depth)
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    blocks = round(census.leaves) + 1 + ptrtbl
    in_core = blocks * bs
    one_copy = _leaves_on_disk(census, fast_dedup, sector) + roundup(header_psize(census.depth), sector)
    one_copy += ptrtbl * roundup(bs, sector)  # block numbers in 8 B words: little for lz4 to take
    below = blocks
    for count in indirect_block_counts(blocks):
        full, rest = divmod(below, 1 << (DDT_ZAP_INDIRECT_SHIFT - BLKPTR_SHIFT))
        one_copy += full * roundup(indirect_psize(1 << (DDT_ZAP_INDIRECT_SHIFT - BLKPTR_SHIFT)), sector)
        one_copy += roundup(indirect_psize(rest), sector) if rest else 0
        below = count
    on_disk = round(one_copy) * MOS_COPIES
    log = 0
    if fast_dedup:
        log_blocks = ceil_div(entries, LOG_BLOCK // LOG_RECORD_BYTES)
        log = log_blocks * roundup(log_block_psize(), sector) * MOS_COPIES
    return DedupTable(entries, on_disk + log, in_core, fast_dedup, log)


@dataclass(frozen=True)
class TableHome:
    """Where the dedup table's blocks go (``spa_preferred_class()``): the dedup class when the
    pool has dedup vdevs, else the special class when it has special vdevs and
    ``zfs_ddt_data_is_special`` is 1 (its default), else the normal class."""

    role: Role
    groups: tuple[int, ...]  # the vdev groups of that class (indexes into design.vdevs)
    size_bytes: int  # the class's SIZE (zpool list), raw
    sector: int


def table_home(design: Design, pool: PoolCapacity) -> TableHome:
    ddt_special = design.host.tunable("zfs_ddt_data_is_special") != 0
    roles = [Role.DEDUP, Role.SPECIAL] if ddt_special else [Role.DEDUP]
    for role in [*roles, Role.DATA]:
        vdevs = [v for v in pool.vdevs if v.role == role]
        if vdevs:
            return TableHome(
                role,
                tuple(sorted({v.group_index for v in vdevs})),
                sum(v.zpool_size_bytes for v in vdevs),
                1 << max(v.ashift for v in vdevs),
            )
    return TableHome(Role.DATA, (), 0, 1 << 12)


def unique_blocks(data_blocks: int, contents: Contents | None) -> int:
    """Unique blocks of a dataset: its data blocks over the contents' ``dedup_ratio`` (none
    given: every block unique, the table's largest size)."""
    ratio = contents.dedup_ratio if contents is not None and contents.dedup_ratio else 1.0
    return ceil_div(data_blocks * 1000, round(ratio * 1000)) if data_blocks else 0
