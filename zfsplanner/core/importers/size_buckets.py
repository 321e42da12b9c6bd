"""File sizes in buckets 1/16 of a power of two wide, counted in constant memory, and the histogram they make."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

SUB_BITS = 4  # 16 buckets per power of two
SUB = 1 << SUB_BITS
EXACT_BELOW = 2 * SUB  # sizes below 32 bytes are their own bucket
NBUCKETS = EXACT_BELOW + (63 - SUB_BITS - 1) * SUB + SUB
EXACT_DIRECTORIES = 65536
IntArray = npt.NDArray[np.int64]


class HistogramError(ValueError):
    """Input that cannot be bucketed; ``line`` is the 1-based line it stopped at."""

    def __init__(self, fmt: str, line: int | None, message: str) -> None:
        self.format = fmt
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.format}: {self.message}"

# --------------------------------------------------------------------------- buckets


def bucket_index(values: IntArray) -> IntArray:
    """Bucket of each size: exact below 32, else octave and 1/16th of it."""
    v = values
    small = v < EXACT_BELOW
    safe = np.where(small, EXACT_BELOW, v)
    _, exp = np.frexp(safe.astype(np.float64))
    k = exp.astype(np.int64) - 1
    # float64 rounds sizes above 2**53; put any of them back in their true octave
    k -= (np.right_shift(safe, k) == 0).astype(np.int64)
    k += (np.right_shift(safe, k + 1) != 0).astype(np.int64)
    sub = np.right_shift(safe, k - SUB_BITS) & (SUB - 1)
    idx = EXACT_BELOW + (k - SUB_BITS - 1) * SUB + sub
    return np.where(small, v, idx)


@dataclass
class SizeBuckets:
    """Counts and exact byte sums per bucket; memory does not grow with the input."""

    counts: IntArray = field(default_factory=lambda: np.zeros(NBUCKETS, dtype=np.int64))
    # sums split in three 21-bit parts so every partial sum stays exact in int64 and float64
    parts: list[IntArray] = field(default_factory=lambda: [np.zeros(NBUCKETS, dtype=np.int64) for _ in range(3)])

    def add_array(self, values: IntArray) -> None:
        if values.size == 0:
            return
        idx = bucket_index(values)
        self.counts += np.bincount(idx, minlength=NBUCKETS)
        mask = (1 << 21) - 1
        for i, part in enumerate(self.parts):
            weights = (np.right_shift(values, 21 * i) & mask).astype(np.float64)
            part += np.bincount(idx, weights=weights, minlength=NBUCKETS).astype(np.int64)

    def add(self, size: int, count: int = 1) -> None:
        """``count`` files of ``size`` bytes (callers keep ``size × count`` within 2^64).

        The product is split into the 21-bit parts itself, not each part of ``size`` multiplied
        by ``count``: a part times a count of 2^48 files would not fit in int64."""
        if count <= 0:
            return
        idx = int(bucket_index(np.array([size], dtype=np.int64))[0])
        self.counts[idx] += count
        total = size * count
        mask = (1 << 21) - 1
        for i, part in enumerate(self.parts):
            digit = total >> (21 * i)
            part[idx] += digit if i == len(self.parts) - 1 else digit & mask

    def _sum(self, i: int) -> int:
        return sum(int(p[i]) << (21 * k) for k, p in enumerate(self.parts))

    @property
    def file_count(self) -> int:
        return int(self.counts.sum())

    @property
    def logical_bytes(self) -> int:
        return sum(self._sum(int(i)) for i in np.flatnonzero(self.counts))

    def pairs(self) -> list[tuple[int, int]]:
        """``[mean size, count]`` of each non-empty bucket, smallest first."""
        out = []
        for i in np.flatnonzero(self.counts):
            n = int(self.counts[i])
            out.append(((self._sum(int(i)) + n // 2) // n, n))
        return out


class DirectoryCounter:
    """Distinct directories: exact up to ``EXACT_DIRECTORIES``, then a HyperLogLog estimate (about 1 %)."""

    P = 14

    def __init__(self) -> None:
        self.exact: set[int] | None = set()
        self.registers = bytearray(1 << self.P)

    def add(self, name: bytes) -> None:
        h = hash(name) & 0xFFFFFFFFFFFFFFFF
        if self.exact is not None:
            self.exact.add(h)
            if len(self.exact) > EXACT_DIRECTORIES:
                self.exact = None
        j = h >> (64 - self.P)
        rest = (h << self.P) & 0xFFFFFFFFFFFFFFFF
        rank = 64 - self.P + 1 if rest == 0 else 65 - rest.bit_length()
        if rank > self.registers[j]:
            self.registers[j] = rank

    @property
    def estimated(self) -> bool:
        return self.exact is None

    def count(self) -> int:
        if self.exact is not None:
            return len(self.exact)
        m = 1 << self.P
        alpha = 0.7213 / (1 + 1.079 / m)
        z = sum(2.0 ** -r for r in self.registers)
        estimate = alpha * m * m / z
        zeros = self.registers.count(0)
        if estimate <= 2.5 * m and zeros:
            estimate = m * np.log(m / zeros)
        return int(round(estimate))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class HistogramResult:
    format: str
    file_count: int | None
    logical_bytes: int
    file_size_histogram: tuple[tuple[int, int], ...] | None
    files_per_directory: int | None
    block_size_histogram: tuple[tuple[int, int], ...] | None = None
    directories: int | None = None
    directories_estimated: bool = False
    compressratio: float | None = None
    compressratio_by_block_size: tuple[tuple[int, float], ...] = ()
    lines: int = 0

    def to_document(self) -> dict[str, Any]:
        """The JSON ``manage.py histogram`` prints (spec keys first, then where they came from)."""
        out: dict[str, Any] = {
            "file_count": self.file_count,
            "logical_bytes": self.logical_bytes,
            "file_size_histogram": None if self.file_size_histogram is None else [list(p) for p in
                                                                                 self.file_size_histogram],
            "files_per_directory": self.files_per_directory,
            "block_size_histogram": None if self.block_size_histogram is None else [list(p) for p in
                                                                                   self.block_size_histogram],
            "format": self.format,
            "lines": self.lines,
        }
        if self.directories is not None:
            out["directories"] = self.directories
            out["directories_estimated"] = self.directories_estimated
        if self.compressratio is not None:
            out["compressibility"] = {"ratio": round(self.compressratio, 4), "source": "zdb"}
        if self.compressratio_by_block_size:
            out["compressratio_by_block_size"] = [[s, round(r, 4)] for s, r in self.compressratio_by_block_size]
        return out

    def contents(self) -> dict[str, Any]:
        """The keys this result sets in a dataset's ``contents``."""
        out: dict[str, Any] = {}
        if self.file_size_histogram is not None:
            out["file_count"] = self.file_count
            out["logical_bytes"] = self.logical_bytes
            out["file_size_histogram"] = [list(p) for p in self.file_size_histogram]
        if self.files_per_directory is not None:
            out["files_per_directory"] = self.files_per_directory
        if self.block_size_histogram is not None:
            out["block_size_histogram"] = [list(p) for p in self.block_size_histogram]
        if self.compressratio is not None:
            comp: dict[str, Any] = {"ratio": max(1.0, round(self.compressratio, 2)), "measured_by": "zdb"}
            if self.compressratio_by_block_size:
                comp["by_block_size"] = [[s, round(r, 4)] for s, r in self.compressratio_by_block_size]
            out["compressibility"] = comp
        return out


def merge_contents(contents: dict[str, Any] | None, result: HistogramResult) -> dict[str, Any]:
    """A dataset's contents with what the histogram measured put in (other keys kept)."""
    merged = dict(contents or {})
    merged.update(result.contents())
    return merged


# --------------------------------------------------------------------------- readers
