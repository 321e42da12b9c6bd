"""How fast the pool will be: ranges for random IOPS, streaming bandwidth and sync writes.

The model follows how ZFS spreads I/O over top-level vdevs (``zpoolconcepts.7``;
``module/zfs/vdev_mirror.c``, ``vdev_raidz.c``, ``vdev_draid.c``; ``zil.c``):

* A block lives on one top-level vdev, and ZFS spreads blocks over all of them, so
  random I/O scales with the number of top-level vdevs, not disks.
* Mirror: a read is served by one side (``vdev_mirror`` picks the least busy), so reads
  scale with the sides; a write goes to every side.
* RAIDZ: a record is striped over the vdev's data disks, so one random read or write
  keeps the whole vdev busy (about one disk's random IOPS per vdev), while streaming
  scales with the data disks (``width - parity``).
* dRAID: every block is a full row of ``D + p`` disks; a vdev has ``(children -
  spares) / (D + p)`` rows side by side, which serve random I/O in parallel; streaming
  scales with the data share of all children.
* Sync writes go to the ZIL: on the SLOG when there is one (``log`` vdevs), else to the
  normal vdevs, and each commit waits for the device's cache flush.

Each figure is a range. Random I/O is 4 KiB at queue depth 1 per top-level vdev (low)
and 32 (high); streaming is 1 MiB, low with HDDs on their inner tracks (about half the
outer-track speed data sheets give) or flash past its write cache, high at the
data-sheet maximum. The range is what the disks allow; a CPU, HBA or network limit, a
cold ARC or fragmentation can make real figures lower, and the ARC can make reads
much higher.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..design.planning import DriveFigures, media_class
from ..design.types import DRAID_LAYOUTS, RAIDZ_LAYOUTS, Layout

KIB4 = 4096
MIB1 = 1 << 20
LOW_STREAM_SHARE = {"hdd": 0.5, "ssd": 0.8, "nvme": 0.8}  # reads: inner tracks / typical
LOW_STREAM_WRITE_SHARE = {"hdd": 0.5, "ssd": 0.5, "nvme": 0.5}  # writes: inner tracks / past the write cache


@dataclass(frozen=True)
class Range:
    low: float
    high: float

    def scaled(self, k: float) -> Range:
        return Range(self.low * k, self.high * k)

    def rounded(self) -> Range:
        """To a tenth, as the estimate writes its ranges."""
        return Range(round(self.low, 1), round(self.high, 1))

    def to_document(self) -> dict[str, float]:
        return {"low": round(self.low, 1), "high": round(self.high, 1)}

    @property
    def middle(self) -> float:
        """Geometric middle (the range spans factors, not differences)."""
        return math.sqrt(max(self.low, 0.0) * max(self.high, 0.0))


@dataclass(frozen=True)
class VdevPerf:
    """One group of identical top-level vdevs with the figures of its slowest member."""

    layout: Layout
    width: int
    parity: int
    count: int
    figures: DriveFigures
    media: str
    draid_data: int | None = None
    draid_spares: int = 0

    @property
    def kind(self) -> str:
        if self.layout in RAIDZ_LAYOUTS:
            return "raidz"
        if self.layout in DRAID_LAYOUTS:
            return "draid"
        return "mirror" if self.layout == Layout.MIRROR else "stripe"

    @property
    def rows(self) -> float:
        """Blocks a vdev serves side by side: dRAID rows; 1 for raidz."""
        if self.kind == "draid":
            d = self.draid_data or max(self.width - self.draid_spares - self.parity, 1)
            return max((self.width - self.draid_spares) / (d + self.parity), 1.0)
        return 1.0

    @property
    def data_disks(self) -> float:
        """Disks' worth of streaming a vdev delivers (data share only)."""
        if self.kind == "raidz":
            return float(self.width - self.parity)
        if self.kind == "draid":
            d = self.draid_data or max(self.width - self.draid_spares - self.parity, 1)
            return (self.width - self.draid_spares) * d / (d + self.parity)
        return 1.0


def _f(value: float | None) -> float:
    return float(value) if value is not None else 0.0


def random_read(v: VdevPerf) -> Range:
    fig = v.figures
    sides = v.width if v.kind == "mirror" else v.rows
    return Range(_f(fig.random_read_iops_qd1) * v.count, _f(fig.random_read_iops) * sides * v.count)


def random_write(v: VdevPerf) -> Range:
    fig = v.figures
    return Range(_f(fig.random_write_iops_qd1) * v.count, _f(fig.random_write_iops) * v.rows * v.count)


def seq_read(v: VdevPerf) -> Range:
    disks = v.width if v.kind == "mirror" else v.data_disks
    high = _f(v.figures.seq_read_bytes_per_s) * disks * v.count
    return Range(high * LOW_STREAM_SHARE[v.media], high)


def seq_write(v: VdevPerf) -> Range:
    high = _f(v.figures.seq_write_bytes_per_s) * v.data_disks * v.count
    return Range(high * LOW_STREAM_WRITE_SHARE[v.media], high)


def _sum(ranges: Sequence[Range]) -> Range:
    return Range(sum(r.low for r in ranges), sum(r.high for r in ranges))


@dataclass(frozen=True)
class PoolPerf:
    random_read_iops: Range
    random_write_iops: Range
    seq_read_bytes_per_s: Range
    seq_write_bytes_per_s: Range
    sync_write_iops_without_slog: Range
    sync_write_iops_with_slog: Range | None
    slog_write_bytes_per_s: float | None
    vdevs: int

    @property
    def sync_write_iops(self) -> Range:
        return self.sync_write_iops_with_slog or self.sync_write_iops_without_slog


def sync_without_slog(data: Sequence[VdevPerf]) -> Range:
    """ZIL blocks on the normal vdevs: one writer waits for one vdev's flush at a time;
    many writers spread their log blocks over every vdev."""
    if not data:
        return Range(0, 0)
    slowest = min(_f(v.figures.sync_write_iops) for v in data)
    return Range(slowest, sum(_f(v.figures.sync_write_iops) * v.count for v in data))


def sync_with_slog(logs: Sequence[VdevPerf]) -> Range | None:
    """ZIL on the SLOG: one writer at the device's flush rate; at depth, a device with
    power-loss protection acknowledges from its protected cache (its random write rate);
    several log vdevs share the load."""
    if not logs:
        return None
    low = min(_f(v.figures.sync_write_iops) for v in logs)
    high = 0.0
    for v in logs:
        fig = v.figures
        at_depth = _f(fig.random_write_iops) if _plp_fast(fig) else 0.0
        high += max(_f(fig.sync_write_iops), at_depth) * v.count
    return Range(low, max(high, low))


def _plp_fast(fig: DriveFigures) -> bool:
    """Flush is cheap (sync rate at least a tenth of the random write rate): the device has
    power-loss protection or writes in place."""
    return _f(fig.sync_write_iops) * 10 >= _f(fig.random_write_iops) > 0


def pool_performance(data: Sequence[VdevPerf], logs: Sequence[VdevPerf]) -> PoolPerf:
    """The pool's ranges from its data vdev groups and log vdev groups."""
    slog_bw = sum(_f(v.figures.seq_write_bytes_per_s) * v.count for v in logs) if logs else None
    return PoolPerf(
        random_read_iops=_sum([random_read(v) for v in data]),
        random_write_iops=_sum([random_write(v) for v in data]),
        seq_read_bytes_per_s=_sum([seq_read(v) for v in data]),
        seq_write_bytes_per_s=_sum([seq_write(v) for v in data]),
        sync_write_iops_without_slog=sync_without_slog(data),
        sync_write_iops_with_slog=sync_with_slog(logs),
        slog_write_bytes_per_s=slog_bw,
        vdevs=sum(v.count for v in data),
    )


# --------------------------------------------------------------------------- one test shape


@dataclass(frozen=True)
class BenchShape:
    """What a benchmark test did: ``op`` read/write/mixed, ``pattern`` random/sequential."""

    op: str
    pattern: str
    block_size_bytes: int
    queue_depth: int = 1
    threads: int = 1
    sync: bool = False
    read_share: float = 0.5  # of a mixed test


@dataclass(frozen=True)
class Prediction:
    iops: Range
    bandwidth_bytes_per_s: Range
    basis: str


def _at_depth(qd1: float, qd32: float, depth: float) -> float:
    """IOPS at ``depth`` outstanding I/Os: from the depth-1 to the depth-32 figure, log-linearly."""
    if depth <= 1:
        return qd1
    if depth >= 32:
        return qd32
    return qd1 + (qd32 - qd1) * math.log2(depth) / 5


def _sized(iops: float, bandwidth: float, block: int) -> float:
    """IOPS of ``block``-sized I/Os: the 4 KiB rate, less the transfer time of the extra bytes."""
    if iops <= 0:
        return 0.0
    if bandwidth <= 0:
        return iops
    return 1.0 / (1.0 / iops + max(block - KIB4, 0) / bandwidth)


def predict(perf: PoolPerf, shape: BenchShape) -> Prediction | None:
    """The pool's range for one benchmark test shape, or None for ops the model does not cover."""
    op = shape.op
    if op not in ("read", "write", "mixed") or shape.block_size_bytes <= 0:
        return None
    bs = shape.block_size_bytes
    depth = max(shape.queue_depth, 1) * max(shape.threads, 1)
    per_vdev = depth / max(perf.vdevs, 1)

    def one(direction: str) -> Range:
        if shape.sync and direction == "write":
            sync = perf.sync_write_iops
            lo = sync.low
            hi = _at_depth(sync.low, sync.high, depth)
            bw = perf.slog_write_bytes_per_s or perf.seq_write_bytes_per_s.high
            return Range(_sized(lo, bw, bs), _sized(hi, bw, bs))
        stream = perf.seq_read_bytes_per_s if direction == "read" else perf.seq_write_bytes_per_s
        if shape.pattern == "sequential":
            return Range(stream.low / bs, stream.high / bs)
        rnd = perf.random_read_iops if direction == "read" else perf.random_write_iops
        low_q1 = rnd.low
        high = _at_depth(rnd.low, rnd.high, per_vdev)
        return Range(_sized(min(low_q1, high), stream.low, bs), _sized(high, stream.high, bs))

    if op == "mixed":
        r, w = one("read"), one("write")
        share = min(max(shape.read_share, 0.0), 1.0)

        def blend(a: float, b: float) -> float:
            if a <= 0 or b <= 0:
                return 0.0
            return 1.0 / (share / a + (1 - share) / b)

        iops = Range(blend(r.low, w.low), blend(r.high, w.high))
        basis = f"mixed, {share:.0%} reads"
    else:
        iops = one(op)
        basis = f"{'sync ' if shape.sync and op == 'write' else ''}{shape.pattern} {op}"
    return Prediction(iops, iops.scaled(bs), basis)


def vdev_perf(
    layout: Layout,
    width: int,
    parity: int,
    count: int,
    figures: DriveFigures,
    media: str | None,
    draid_data: int | None = None,
    draid_spares: int = 0,
) -> VdevPerf:
    return VdevPerf(layout, width, parity, count, figures, media_class(media), draid_data, draid_spares)
