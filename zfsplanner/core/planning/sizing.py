"""SLOG size and RAM advice (ARC for metadata, L2ARC headers, dedup table) as figures.

Sources (``shared/reference/zfs-space-accounting.md`` §8): ``zfs_txg_timeout`` = 5 s;
``zfs_dirty_data_max`` = 10 % of RAM capped at ``zfs_dirty_data_max_max`` = min(25 % of
RAM, 4 GiB); ZIL writes are throttled once ``zfs_wrlog_data_max`` = 2 × dirty_data_max
is outstanding (man ``zfs.4``), so a SLOG never holds more than that; L2ARC keeps a
96-byte header in RAM per cached block (``HDR_L2ONLY_SIZE``); the dedup table needs its blocks
in core as ``zpool status -D`` counts them (:mod:`zfsplanner.core.datasets.ddt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..datasets.ddt import DedupTable
from ..risk.devices import L2ARC_HEADER_BYTES
from ..units import GIB

TXG_TIMEOUT_S = 5  # zfs_txg_timeout
TXGS_IN_FLIGHT = 2  # one syncing, one open: the ZIL holds about two txgs of sync writes
DIRTY_DATA_MAX_SHARE = 0.10  # zfs_dirty_data_max_percent
DIRTY_DATA_MAX_MAX = 4 * GIB  # zfs_dirty_data_max_max on 64-bit (and at most 25 % of RAM)
WRLOG_FACTOR = 2  # zfs_wrlog_data_max = 2 x zfs_dirty_data_max
SLOG_MARGIN = 0.25


@dataclass(frozen=True)
class SlogSizing:
    sync_bytes_per_s: float  # the most sync data per second the sizing assumes
    by_rate_bytes: int  # sync_bytes_per_s x 2 txg intervals
    cap_bytes: int  # 2 x dirty_data_max: the ZIL throttles beyond this
    recommended_bytes: int  # min(by_rate, cap) + margin
    dirty_data_max_bytes: int
    ram_known: bool


def dirty_data_max(ram_bytes: int | None) -> int:
    """``zfs_dirty_data_max`` for a host with ``ram_bytes`` (the 4 GiB cap when RAM is unknown)."""
    if ram_bytes is None:
        return DIRTY_DATA_MAX_MAX
    return int(min(ram_bytes * DIRTY_DATA_MAX_SHARE, DIRTY_DATA_MAX_MAX, ram_bytes / 4))


def slog_sizing(sync_bytes_per_s: float, ram_bytes: int | None) -> SlogSizing:
    """A SLOG holds about two transaction groups of sync writes, never more than the ZIL's
    throttle point; plus a quarter for margin."""
    dirty = dirty_data_max(ram_bytes)
    by_rate = int(sync_bytes_per_s * TXG_TIMEOUT_S * TXGS_IN_FLIGHT)
    cap = WRLOG_FACTOR * dirty
    recommended = int(min(by_rate, cap) * (1 + SLOG_MARGIN))
    return SlogSizing(sync_bytes_per_s, by_rate, cap, recommended, dirty, ram_bytes is not None)


@dataclass(frozen=True)
class RamAdvice:
    metadata_bytes: int  # one copy of all metadata: what the ARC needs to never re-read it
    ddt_bytes: int  # the dedup table in core (0 without dedup)
    ddt_entry_bytes: int  # in core per entry, rounded
    l2arc_header_bytes: int  # RAM the L2ARC's headers take when the cache is full
    l2arc_average_block_bytes: int
    arc_bytes: int  # the three together
    ram_bytes: int | None
    ram_share: float | None  # arc_bytes / RAM


def ram_advice(
    *,
    metadata_bytes: int,
    dedup_table: DedupTable,
    cache_bytes: int,
    average_block_bytes: int,
    ram_bytes: int | None,
) -> RamAdvice:
    """RAM the ARC should have for metadata, the dedup table and L2ARC headers."""
    ddt = dedup_table.in_core_bytes
    entry = round(dedup_table.in_core_per_entry)
    avg = max(average_block_bytes, 512)
    headers = L2ARC_HEADER_BYTES * cache_bytes // avg if cache_bytes else 0
    total = metadata_bytes + ddt + headers
    share = total / ram_bytes if ram_bytes else None
    return RamAdvice(metadata_bytes, ddt, entry, headers, avg, total, ram_bytes, share)
