"""Normalized benchmark result (spec: shared/spec/benchmark-result-format.md).

Every parser turns one benchmark log into a :class:`BenchResult`. All figures are
already converted to the unit in their field name: bytes per second, IOPS,
microseconds. A figure the tool did not measure is ``None``, never 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

FORMAT_ID = "zfsplanner.benchmark/1"

Op = str  # "read" | "write" | "mixed" | "trim" | a tool's own test name in snake case
Pattern = Literal["sequential", "random"] | None
Metric = Literal["bandwidth", "iops", "latency"]
SeriesUnit = Literal["bytes_per_s", "iops", "us"]

JSONValue = Any


@dataclass(frozen=True, slots=True)
class Source:
    """Which tool wrote the log and how its bytes were decoded."""

    tool: str
    tool_version: str | None
    encoding: str
    sha256: str

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "tool": self.tool,
            "tool_version": self.tool_version,
            "encoding": self.encoding,
            "sha256": self.sha256,
        }


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test of one run: a fio job direction, a CrystalDiskMark row, a bonnie++ column, a dd copy."""

    __test__ = False  # not a pytest test class

    name: str
    op: Op
    pattern: Pattern
    block_size_bytes: int | None
    queue_depth: int | None
    threads: int | None
    bandwidth_bytes_per_s: float | None
    iops: float | None
    latency_mean_us: float | None
    latency_max_us: float | None
    latency_percentiles_us: dict[str, float] = field(default_factory=dict)
    ops_per_s: float | None = None

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "name": self.name,
            "op": self.op,
            "pattern": self.pattern,
            "block_size_bytes": self.block_size_bytes,
            "queue_depth": self.queue_depth,
            "threads": self.threads,
            "bandwidth_bytes_per_s": self.bandwidth_bytes_per_s,
            "iops": self.iops,
            "latency_mean_us": self.latency_mean_us,
            "latency_max_us": self.latency_max_us,
            "latency_percentiles_us": dict(self.latency_percentiles_us),
            "ops_per_s": self.ops_per_s,
        }


@dataclass(frozen=True, slots=True)
class Series:
    """A time series from a fio log file; points are (seconds since start, value in ``unit``)."""

    name: str
    metric: Metric
    unit: SeriesUnit
    direction: str
    block_size_bytes: int | None
    points: tuple[tuple[float, float], ...]

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "name": self.name,
            "metric": self.metric,
            "unit": self.unit,
            "direction": self.direction,
            "block_size_bytes": self.block_size_bytes,
            "points": [[t, v] for t, v in self.points],
        }


@dataclass(frozen=True, slots=True)
class BenchResult:
    """The whole normalized document for one uploaded log.

    ``warnings`` lists, in words, what the log was missing when it could be read only in
    part (a truncated CrystalDiskMark or dd log, a fio job that ended with an error); the
    document then has a ``"warnings"`` key and the upload is stored as partial.
    """

    source: Source
    meta: dict[str, JSONValue]
    results: tuple[TestResult, ...]
    series: tuple[Series, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def partial(self) -> bool:
        """True when the log was read only in part: ``warnings`` say what is missing."""
        return bool(self.warnings)

    def to_dict(self) -> dict[str, JSONValue]:
        doc: dict[str, JSONValue] = {
            "format": FORMAT_ID,
            "source": self.source.to_dict(),
            "meta": dict(self.meta),
            "results": [r.to_dict() for r in self.results],
            "series": [s.to_dict() for s in self.series],
        }
        if self.warnings:
            doc["warnings"] = list(self.warnings)
        return doc


class ParseError(ValueError):
    """The log could not be read: ``format`` is what we took it for, ``where`` a line or JSON path."""

    def __init__(self, format: str, where: str, message: str) -> None:
        self.format = format
        self.where = where
        self.message = message
        super().__init__(format, where, message)

    def __str__(self) -> str:
        if self.where:
            return f"{self.format}: at {self.where}: {self.message}"
        return f"{self.format}: {self.message}"

    def describe(self) -> str:
        """The sentence users see: which format the file was taken for and where reading stopped."""
        return f"read as {self.format}, stopped at {self.where or 'the start'}: {self.message}"


class UnknownFormat(ParseError):
    """No parser recognised the content."""

    def __init__(self, message: str = "not a recognised benchmark log", where: str = "") -> None:
        super().__init__("unknown", where, message)

    def describe(self) -> str:
        return f"recognised no benchmark format: {self.message} (at {self.where or 'line 1'})"
