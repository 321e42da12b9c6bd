"""The dedup table's size, on disk and in core, as ``zpool status -D`` reports it.

Derived from how OpenZFS stores the table, not from per-entry constants:

* Each unique block is one entry of a fat ZAP (``ddt_zap.c``: ``ZAP_FLAG_HASH64 |
  ZAP_FLAG_UINT64_KEY``, leaf blocks of ``1 << ddt_zap_default_bs`` = 32 KiB). Its key is the
  ``ddt_key_t`` (checksum and block properties, 5 × 8 B); its value is the entry's physical
  part (``ddt_univ_phys_t``: 4 × 64 B before fast dedup, one 72 B flat set with it), compressed
  with ZLE plus a version byte (``ddt_zap_compress()``). In a leaf each entry takes one entry
  chunk and array chunks of 21 B (``zap_leaf.h``: ``ZAP_LEAF_ARRAY_BYTES``); a 32 KiB leaf has
  ``ZAP_LEAF_NUMCHUNKS`` = 1,278 chunks and splits in two when full, so leaves run between half
  and full (``LEAF_FILL``).
* In core is what ``ddt_object_sync()`` counts: ``doi_fill_count × doi_data_block_size``, the
  table's blocks as the ARC holds them (plus, with fast dedup, the log's entries in memory,
  ``DDT_LOG_ENTRY_SIZE`` each, ``ddt_log.c``).
* On disk is ``doi_physical_blocks_512 << 9``: each leaf compressed (the MOS compresses its
  metadata with lz4), rounded to the sector, and written with three copies (the MOS's
  ``os_copies = spa_max_replication()``, ``dmu_write_policy()``). The leaf is built as ZAP lays
  it out and compressed with OpenZFS's own lz4 (:mod:`..compression.compressors`), so the
  random checksums stay incompressible and the free chunks do not.
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

from ..capacity.pool import PoolCapacity
from ..compression.compressors import zfs_compressed_size
from ..design.types import Contents, Design, Role
from ..units import ceil_div, roundup

DDT_ZAP_LEAF_SHIFT = 15  # ddt_zap_default_bs
ZAP_LEAF_CHUNKSIZE = 24
ZAP_LEAF_ARRAY_BYTES = ZAP_LEAF_CHUNKSIZE - 3
DDT_KEY_BYTES = 40  # ddt_key_t: zio_cksum_t (32 B) + ddk_prop
DDT_TRAD_PHYS_BYTES = 4 * 64  # ddt_phys_t × DDT_PHYS_MAX (ditto, single, double, triple)
DDT_FLAT_PHYS_BYTES = 72  # ddt_phys_flat_t: 3 DVAs, refcnt, phys_birth, class_start
LEAF_FILL = 0.75  # a leaf splits in two when full: between half and full, three quarters on average
MOS_COPIES = 3  # spa_max_replication(): the MOS's copies, metadata included
LOG_BLOCK = 128 * 1024  # SPA_OLD_MAXBLOCKSIZE, the log object's block size (ddt_log_create)
LOG_RECORD_BYTES = 120  # P2ALIGN(8 + 40 + 72, 8)


@dataclass(frozen=True)
class DedupTable:
    entries: int
    on_disk_bytes: int
    in_core_bytes: int
    fast_dedup: bool

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


def entries_per_leaf(fast: bool) -> int:
    return max(int(leaf_chunks() // chunks_per_entry(fast) * LEAF_FILL), 1)


@lru_cache(maxsize=16)
def leaf_psize(fast: bool) -> int:
    """A typical leaf as ZAP lays it out, compressed with lz4 (before rounding to a sector)."""
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    n = entries_per_leaf(fast)
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
    block = bytes(header + bytes(table) + chunks).ljust(bs, b"\0")[:bs]
    size = zfs_compressed_size(block, "lz4", bs)
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


def dedup_table(entries: int, fast_dedup: bool, sector: int = 4096) -> DedupTable:
    """The table for ``entries`` unique blocks, on vdevs of ``sector``-byte sectors."""
    if entries <= 0:
        return DedupTable(0, 0, 0, fast_dedup)
    leaves = ceil_div(entries, entries_per_leaf(fast_dedup))
    blocks = leaves + 1  # the ZAP's header block (its pointer table embedded)
    bs = 1 << DDT_ZAP_LEAF_SHIFT
    in_core = blocks * bs
    on_disk = (leaves * roundup(leaf_psize(fast_dedup), sector) + sector) * MOS_COPIES
    if fast_dedup:
        log_blocks = ceil_div(entries, LOG_BLOCK // LOG_RECORD_BYTES)
        on_disk += log_blocks * roundup(log_block_psize(), sector) * MOS_COPIES
    return DedupTable(entries, on_disk, in_core, fast_dedup)


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
