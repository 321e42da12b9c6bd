"""Validity checks of a benchmark run: did it measure the disks, or the compressor, the cache or nothing?

A figure read right from a log can still be a wrong measurement. Each check here is a rule
registered with :func:`rule` under a stable code (the codes are a contract: the API gives them
as the run's ``validity``), a title in words, the way to measure properly and the source the
rule comes from. A rule reads a :class:`RunFacts` (what the log and the run's records say, in
plain values; the benchmarks app builds it) and a :class:`Setting` (the dataset's properties
and the host, from the run's settings and the design it is tied to) and returns what this run
did and what it means, or None. :func:`check` runs every rule in the order of :data:`RULES`.

ZFS facts come from their one home: whether a version has Direct I/O from
:mod:`zfsplanner.core.versions`, the compression a dataset has from
:mod:`zfsplanner.core.properties.resolve` and :mod:`zfsplanner.core.compression.rules`, whether
a module parameter is switched on from :class:`~zfsplanner.core.design.types.Host`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..compression.rules import CompressionError, default_compression, resolve_algorithm
from ..design.types import Design, Host
from ..properties.resolve import value as property_value
from ..units import format_zfs_size
from ..versions import NEWEST_RELEASE, Version, supports

# A test shorter than two transaction groups can end before ZFS wrote one: zfs_txg_timeout
# is 5 s by default (man zfs(4)), so 10 s is the least that measures a txg being written.
MIN_TEST_SECONDS = 10.0
# Fewer I/Os than this leave an average and its percentiles resting on a few hundred samples.
MIN_IOS = 1000


@dataclass(frozen=True)
class RunFacts:
    """What one run's log says, in plain values. None: the log does not say."""

    tool: str = ""
    reads: bool = False
    writes: bool = False
    zero_data: str | None = None  # how the log wrote all-zero data ("dd if=/dev/zero", …)
    compressible: tuple[str, ...] = ()  # options that make the data compress or deduplicate
    test_file_bytes: int | None = None
    direct: bool | None = None  # O_DIRECT asked for (fio direct=1, dd oflag=direct)
    flushed: bool | None = None  # writes flushed or synchronous (end_fsync, fsync, sync, conv=fdatasync)
    shortest_test_s: float | None = None
    fewest_ios: int | None = None
    repeats: int = 1  # runs of the same job set on the same target, this one included
    repeats_in_log: bool = False  # the log itself holds repeats of a test (dd run 3 times)
    raw_device: bool = False  # the target is a disk, not a ZFS dataset or zvol


@dataclass(frozen=True)
class Setting:
    """Where the run was measured: the run's own settings, the design it is tied to, the dataset."""

    compression: str | None = None  # the run's recorded compression
    sync: str | None = None  # the run's recorded sync
    zil: str | None = None  # "pool", "slog" or "disabled"
    tunables: Mapping[str, str] = field(default_factory=dict)  # the run's module parameters
    design: Design | None = None
    dataset: str | None = None  # the target, when it names a dataset of the design


@dataclass(frozen=True)
class Finding:
    code: str
    title: str
    detail: str  # what this run did and what it means
    advice: str  # how to measure properly
    source: str


@dataclass(frozen=True)
class Rule:
    code: str
    title: str
    advice: str
    source: str
    test: Callable[[RunFacts, Setting], str | None]


RULES: list[Rule] = []


def rule(code: str, title: str, advice: str, source: str) -> Callable[[Callable[..., str | None]], Rule]:
    """Register a check under ``code`` (in the order the module defines them)."""

    def register(fn: Callable[[RunFacts, Setting], str | None]) -> Rule:
        r = Rule(code, title, advice, source, fn)
        RULES.append(r)
        return r

    return register


def check(facts: RunFacts, setting: Setting) -> tuple[Finding, ...]:
    """Every rule that fires for this run, in registry order."""
    out = []
    for r in RULES:
        detail = r.test(facts, setting)
        if detail is not None:
            out.append(Finding(r.code, r.title, detail, r.advice, r.source))
    return tuple(out)


# --------------------------------------------------------------------------- what the setting says


def release(setting: Setting) -> Version | None:
    """The design's OpenZFS release, or None without a design."""
    return setting.design.release if setting.design is not None else None


def _dataset_property(setting: Setting, prop: str) -> object | None:
    """A property of the target dataset as ZFS resolves it (local, inherited, default), when the
    target names a dataset of the design."""
    design = setting.design
    if design is None or not setting.dataset:
        return None
    for ds in design.datasets:
        if ds.name == setting.dataset:
            found: object = property_value(design, ds, prop)
            return found
    return None


def compression(setting: Setting) -> tuple[bool | None, str]:
    """(is compression on, in words why): the run's recorded compression, else the target dataset's,
    else the design version's default; (None, …) when nothing says."""
    v = release(setting)
    recorded = setting.compression or _dataset_property(setting, "compression")
    try:
        if recorded:
            algorithm = resolve_algorithm(str(recorded), v or NEWEST_RELEASE)  # a value given: no default
            return algorithm != "off", f"the dataset's compression is {recorded}"
        if v is not None:
            default = default_compression(v)
            on = resolve_algorithm(default, v) != "off"
            return on, f"compression is {default} by default on OpenZFS {v.name} and nothing recorded sets it"
    except CompressionError:
        return None, "the dataset's compression is not recorded"
    return None, "the dataset's compression is not recorded (on by default since OpenZFS 2.2)"


def direct_io_honoured(setting: Setting) -> bool | None:
    """Does the design's OpenZFS bypass the ARC for O_DIRECT (``direct_io``, 2.3 and later)?"""
    v = release(setting)
    return None if v is None else supports(v, "direct_io")


# --------------------------------------------------------------------------- the rules


@rule(
    "zero-data-compressed",
    "Zeros written to a compressing dataset",
    "Write incompressible data: fio's default random buffers (with refill_buffers=1), dd from a file of "
    "random data made beforehand (dd from /dev/urandom measures the random generator), CrystalDiskMark "
    'with its default random test data, not "All 0x00"; or measure on a dataset with compression=off.',
    "OpenZFS module/zfs/zio.c zio_write_compress(): a record of zeros gets psize 0 and is stored as a hole "
    "(abd_cmp_zero in 2.3; zio_compress_data() with zio_compress_zeroed_cb in 2.2); man zfsprops(7), "
    'compression: "When a zero-filled block is detected, it is stored as a hole"',
)
def _zero_data(facts: RunFacts, setting: Setting) -> str | None:
    if facts.zero_data is None or facts.raw_device:
        return None
    on, why = compression(setting)
    if on is False:
        return None
    return (
        f"{facts.zero_data}: the data is all zeros and {why}. ZFS stores no data block at all for a "
        "record of zeros when compression is on, so the writes measured the zero check, not the disks, "
        "and reading that file back reads no data blocks either."
    )


@rule(
    "compressible-data",
    "Data made to compress or deduplicate",
    "Leave buffer_compress_percentage and dedupe_percentage unset unless the point is how your own data "
    "compresses; then set them to the ratios measured on that data (the compression page measures a "
    "sample), and say so in the run's notes.",
    "fio HOWTO: buffer_compress_percentage, dedupe_percentage, zero_buffers, refill_buffers; "
    "man zfsprops(7), compression and dedup",
)
def _compressible(facts: RunFacts, setting: Setting) -> str | None:
    if not facts.compressible or facts.raw_device:
        return None
    on, why = compression(setting)
    dedupe = any(o.startswith("dedupe_percentage") for o in facts.compressible)
    if on is False and not dedupe:
        return None
    return (
        f"fio wrote data made to shrink ({', '.join(facts.compressible)}) and {why}: part of every block "
        "was compressed or deduplicated away instead of written, so the figures are higher than the "
        "disks give for data that does not shrink."
    )


@rule(
    "file-fits-in-cache",
    "Test file fits in memory",
    "Use a test file at least twice the host's RAM, or limit the ARC for the test (zfs_arc_max), or set "
    "primarycache=metadata on the test dataset; on OpenZFS 2.3 and later direct=1 reads bypass the ARC.",
    "OpenZFS ARC, module/zfs/arc.c (zfs_arc_max defaults to most of RAM, man zfs(4)); man zfsprops(7), primarycache",
)
def _fits_in_cache(facts: RunFacts, setting: Setting) -> str | None:
    ram = setting.design.host.ram_bytes if setting.design is not None else None
    if not facts.reads or not facts.test_file_bytes or not ram or facts.test_file_bytes >= ram:
        return None
    if facts.direct and direct_io_honoured(setting):
        return None
    return (
        f"The test file ({format_zfs_size(facts.test_file_bytes)}) is smaller than the host's RAM "
        f"({format_zfs_size(ram)}): the ARC holds all of it once it has been read or written, so the "
        "reads came from memory, not from the disks."
    )


@rule(
    "buffered-writes",
    "Writes measured in memory",
    "Add end_fsync=1 (fio) or conv=fdatasync (dd) so the time includes writing to the disks, and run "
    "longer than the dirty-data buffer takes to fill; or use direct=1 on OpenZFS 2.3 and later.",
    "fio HOWTO: direct, end_fsync, fsync, fdatasync, sync; GNU dd: conv=fdatasync, oflag=dsync; "
    "OpenZFS man zfs(4): zfs_dirty_data_max (10 % of RAM), zfs_txg_timeout (5 s)",
)
def _buffered(facts: RunFacts, setting: Setting) -> str | None:
    if not facts.writes or facts.direct is not False or facts.flushed is not False:
        return None
    if setting.sync == "always" or _dataset_property(setting, "sync") == "always":
        return None
    return (
        "The writes were neither direct nor flushed (no direct=1 and no end_fsync, fsync, fdatasync or "
        "sync; for dd no oflag=direct/dsync/sync and no conv=fdatasync/fsync): ZFS acknowledged them "
        "from RAM and wrote them to the disks later, in transaction groups, so a test that fits in the "
        "dirty-data buffer measured memory."
    )


@rule(
    "direct-io-ignored",
    "direct=1 ignored before OpenZFS 2.3",
    "On OpenZFS before 2.3, measure writes with end_fsync=1 (fio) or conv=fdatasync (dd), and reads "
    "with a file larger than RAM or primarycache=metadata; or measure on 2.3 or later, where direct=1 "
    "bypasses the ARC.",
    'openzfs/zfs a10e552b99 "Adding Direct IO Support" (PR #10018), first released in zfs-2.3.0',
)
def _direct_ignored(facts: RunFacts, setting: Setting) -> str | None:
    v = release(setting)
    if not facts.direct or facts.raw_device or v is None or direct_io_honoured(setting):
        return None
    return (
        f"The run asked for direct I/O, but the design's OpenZFS {v.name} accepts O_DIRECT and "
        "ignores it: Direct I/O arrived in OpenZFS 2.3. Reads and writes went through the ARC as "
        "buffered I/O does."
    )


SAFETY_TUNABLES = ("zil_disable", "zfs_nocacheflush")


@rule(
    "safety-off",
    "Measured with data safety turned off",
    "Measure with the settings the pool will run with (sync=standard, no zil_disable, no "
    "zfs_nocacheflush), or keep this run only as a what-if beside a run with them.",
    'man zfsprops(7), sync ("disabled": synchronous requests are not honoured); man zfs(4), '
    "zfs_nocacheflush; zil_disable (OpenSolaris, replaced by sync=disabled)",
)
def _safety_off(facts: RunFacts, setting: Setting) -> str | None:
    off = []
    if setting.sync == "disabled" or _dataset_property(setting, "sync") == "disabled":
        off.append("sync=disabled: synchronous writes were acknowledged before reaching stable storage")
    elif setting.zil == "disabled":
        off.append("the ZIL was disabled: synchronous writes were acknowledged before reaching stable storage")
    host = Host(tunables=dict(setting.tunables))
    if host.is_set("zil_disable"):
        off.append("zil_disable: no intent log, fsync returns at once")
    if host.is_set("zfs_nocacheflush"):
        off.append("zfs_nocacheflush=1: the disks' write caches are never flushed")
    if not off:
        return None
    return "; ".join(off) + ". The figures are higher than the pool gives with its data kept safe."


@rule(
    "too-short",
    "Too short to measure",
    f"Run each test for at least {MIN_TEST_SECONDS:g} s (fio: time_based=1 with runtime=60, ramp_time "
    f"to skip the start) and at least {MIN_IOS:,} I/Os; for dd write more than the host's RAM.",
    "OpenZFS man zfs(4): zfs_txg_timeout (5 s), zfs_dirty_data_max; fio HOWTO: runtime, time_based, ramp_time",
)
def _too_short(facts: RunFacts, setting: Setting) -> str | None:
    parts = []
    if facts.shortest_test_s is not None and facts.shortest_test_s < MIN_TEST_SECONDS:
        parts.append(f"the shortest test ran {facts.shortest_test_s:.3g} s")
    if facts.fewest_ios is not None and facts.fewest_ios < MIN_IOS:
        parts.append(f"the smallest did {facts.fewest_ios:,} I/Os")
    if not parts:
        return None
    return (
        " and ".join(parts).capitalize() + f" (less than {MIN_TEST_SECONDS:g} s or {MIN_IOS:,} I/Os): "
        "ZFS gathers writes for up to 5 s before a transaction group goes to the disks, so a short "
        "test can end before the disks did any of the work, and a few hundred I/Os give an average "
        "that the next run will not repeat."
    )


@rule(
    "single-run",
    "One run, no spread",
    "Upload at least three runs of the same job set on the same target, so that the spread between "
    "them tells a real difference from noise.",
    "Phoronix Test Suite repeats a test until its standard deviation is small (dynamic run count); "
    "a difference smaller than the spread of repeats is not a difference",
)
def _single_run(facts: RunFacts, setting: Setting) -> str | None:
    if facts.repeats > 1 or facts.repeats_in_log:
        return None
    return (
        "This is the only run of this job set on this target: with nothing to compare it with, there is "
        "no spread, and no way to tell a real change from run-to-run noise."
    )


CODES = tuple(r.code for r in RULES)
