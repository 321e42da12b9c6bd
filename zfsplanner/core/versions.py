"""OpenZFS versions as comparable values, and the release that brought each rule.

A design names a release series (``"2.3"``). Rules change at point releases too (the
128 GiB slop cap arrived in 2.0.6, the 16 KiB automatic-ashift cap in 2.1.6), so each
series stands for one concrete release, the one the long-term-support distributions
ship (:data:`SERIES`). Compare versions as values, never as strings::

    v = Version.parse(design.version)      # "2.2" -> Version(2, 2, 2)
    if Version(2, 2) <= v: ...
    if supports(v, "draid"): ...

:data:`FEATURES` is the one table of "since which release": every module that needs
to know whether a version has a behaviour asks it, and ``docs/capacity.md`` prints it
(:func:`feature_table_markdown`). Each entry names the OpenZFS commit (and pull
request) that introduced it, read in the openzfs/zfs history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, total_ordering

_VERSION_RE = re.compile(r"^\s*(\d+)\.(\d+)(?:\.(\d+))?\s*$")


class VersionError(ValueError):
    """Text that is not an OpenZFS version."""


@total_ordering
@dataclass(frozen=True)
class Version:
    """An OpenZFS release: ``Version(2, 3, 2)``; ``Version(2, 2)`` is 2.2.0."""

    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str | Version) -> Version:
        """``"2.3"`` -> the release that stands for the series (:data:`SERIES`); ``"2.3.6"`` as written."""
        if isinstance(text, Version):
            return text
        return _parse(text)

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    @property
    def series(self) -> str:
        """``"2.3"``: the series a design names."""
        return f"{self.major}.{self.minor}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.key < other.key

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


@lru_cache(maxsize=64)
def _parse(text: str) -> Version:
    m = _VERSION_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise VersionError(f"{text!r} is not an OpenZFS version (e.g. 2.3 or 2.3.2)")
    major, minor = int(m.group(1)), int(m.group(2))
    if m.group(3) is not None:
        return Version(major, minor, int(m.group(3)))
    series = f"{major}.{minor}"
    if series in SERIES:
        return SERIES[series].release
    return Version(major, minor, 0)


@dataclass(frozen=True)
class Series:
    """A release series as a design names it, and the release whose rules it gets."""

    name: str
    release: Version
    shipped_by: str


# Each series is modelled as the release the long-term-support distributions ship
# (their package versions), so "2.1" means what an Ubuntu 22.04 machine runs.
SERIES: dict[str, Series] = {
    s.name: s
    for s in (
        Series("0.8", Version(0, 8, 3), "Ubuntu 20.04 LTS (zfs-linux 0.8.3)"),
        Series("2.0", Version(2, 0, 3), "Debian 11 (zfs-linux 2.0.3)"),
        Series("2.1", Version(2, 1, 5), "Ubuntu 22.04 LTS (zfs-linux 2.1.5)"),
        Series("2.2", Version(2, 2, 2), "Ubuntu 24.04 LTS (zfs-linux 2.2.2)"),
        Series("2.3", Version(2, 3, 2), "Debian 13 (zfs-linux 2.3.2); the release the calibration pools ran"),
        Series("2.4", Version(2, 4, 0), "OpenZFS 2.4.0"),
    )
}
SERIES_NAMES: tuple[str, ...] = tuple(SERIES)


@dataclass(frozen=True)
class Feature:
    """A behaviour that starts at ``since`` (and at ``backport`` on an older series)."""

    name: str
    since: Version
    what: str
    source: str  # commit and pull request in openzfs/zfs
    backport: Version | None = None  # the same change in an earlier series' point release

    def in_version(self, v: Version) -> bool:
        return reached(v, self.since, self.backport)


def reached(version: str | Version, since: Version, backport: Version | None = None) -> bool:
    """Has ``version`` the change that arrived in ``since`` (and in ``backport`` on that older series)?

    The one comparison of releases: a backport counts only within its own series (2.2.4 has
    a change backported to 2.2.4, 2.1.9 does not)."""
    v = Version.parse(version)
    if since <= v:
        return True
    return backport is not None and backport <= v and v.series == backport.series


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature(
            "zstd",
            Version(2, 0, 0),
            "compression=zstd, zstd-N and zstd-fast-N (zstd 1.4.5 inside the module)",
            "10b3c7f5e4 'Add zstd support to zfs' (PR #10278)",
        ),
        Feature(
            "logical_physical_ashift",
            Version(2, 0, 0),
            "a new vdev's ashift starts at the logical sector and is raised towards the physical one "
            "(vdev_ashift_optimize); 0.8 used the physical sector as it was",
            "6fe3498ca3 'Import vdev ashift optimization from FreeBSD' (PR #10619)",
        ),
        Feature(
            "slop_cap",
            Version(2, 1, 0),
            "slop space capped at 128 GiB (before: 1/32 of the pool without an upper bound)",
            "f01eaed455 'Add upper bound for slop space calculation' (PR #11023)",
            backport=Version(2, 0, 6),
        ),
        Feature(
            "draid",
            Version(2, 1, 0),
            "dRAID vdevs (draid1-3)",
            "b2255edcc0 'Distributed Spare (dRAID) Feature' (PR #10102)",
        ),
        Feature(
            "embedded_log",
            Version(2, 1, 0),
            "one metaslab of every data vdev with more than 64 goes to the ZIL; slop shrinks by it",
            "aa755b3549 'Set aside a metaslab for ZIL blocks' (PR #11389)",
        ),
        Feature(
            "max_auto_ashift_14",
            Version(2, 2, 0),
            "automatic ashift stops at 14 (16 KiB); a larger physical sector is ignored and the logical one used",
            "37f6845c6f 'Improve too large physical ashift handling' (PR #13798)",
            backport=Version(2, 1, 6),
        ),
        Feature(
            "compression_on_default",
            Version(2, 2, 0),
            "compression defaults to on (lz4); off before",
            "56fa4aa96e 'Default to ON for compression' (PR #13078)",
        ),
        Feature(
            "volblocksize_16k",
            Version(2, 2, 0),
            "volblocksize defaults to 16K; 8K before",
            "72f0521aba 'Increase default volblocksize from 8KB to 16KB' (PR #12406)",
        ),
        Feature(
            "zstd_early_abort",
            Version(2, 2, 0),
            "zstd-3 and above try lz4, then zstd-1, on records of 128K or more; a record both refuse is "
            "stored uncompressed",
            "f375b23c02 'Tiered early abort, zstd edition' (PR #13244)",
        ),
        Feature(
            "impossible_ashift_ignored",
            Version(2, 3, 0),
            "an ashift below a disk's logical sector is raised to the logical sector instead of building a "
            "vdev whose writes fail",
            "6187b19434 'On the first vdev open ignore impossible ashift hints' (PR #16690)",
            backport=Version(2, 2, 7),
        ),
        Feature(
            "compression_budget_sectors",
            Version(2, 3, 0),
            "a compressed block must save a whole sector as well as 12.5 %",
            "522f2629c8 'zio_compress: introduce max size threshold' (PR #9416)",
        ),
        Feature(
            "direct_io",
            Version(2, 3, 0),
            "O_DIRECT reads and writes bypass the ARC (the dataset property direct=standard|always|disabled); "
            "before, O_DIRECT was accepted and the I/O went through the ARC as usual",
            "a10e552b99 'Adding Direct IO Support' (PR #10018)",
        ),
        Feature(
            "ddt_flat_entries",
            Version(2, 3, 0),
            "new dedup tables hold one set of DVAs per entry (the fast_dedup feature's flat format) and log "
            "new entries before the table",
            "PR #15893 'Fast Dedup: \u201cflat\u201d DDT entry format', part of Fast Dedup",
        ),
        Feature(
            "raidz_expansion",
            Version(2, 3, 0),
            "zpool attach widens a raidz vdev",
            "5caeef02fa 'RAID-Z expansion feature' (PR #15022)",
        ),
        Feature(
            "xattr_sa_default",
            Version(2, 3, 0),
            "xattr=on means sa (system-attribute xattrs) by default",
            "e419a63bf4 'xattr dataset prop: change defaults to sa' (PR #15147)",
        ),
        Feature(
            "parent_ashift_kept",
            Version(2, 4, 0),
            "zpool create/add -o ashift=N also sets the ashift of mirror, raidz and dRAID vdevs, so a "
            "larger physical sector no longer raises it",
            "51de2d76f8 'Explicit set ashift for non-leaf vdevs' (PR #17826)",
            backport=Version(2, 3, 6),
        ),
        Feature(
            "special_any_topology",
            Version(2, 4, 0),
            "special and dedup vdevs may be raidz or dRAID (before: mirror or single disk only)",
            "bf846dcb7d 'Release topology restrictions on special/dedup vdevs' (PR #17496)",
        ),
        Feature(
            "zpool_add_raidz_draid",
            Version(2, 4, 0),
            "zpool add compares a new raidz/dRAID vdev with a raidz/dRAID pool by parity only (before: type, "
            "parity and width must match)",
            "bf846dcb7d 'Release topology restrictions on special/dedup vdevs' (PR #17496)",
        ),
        Feature(
            "zpool_add_ashift_check",
            Version(2, 3, 0),
            "zpool add refuses a vdev whose ashift differs from the pool's data vdevs unless -f or "
            "--allow-ashift-mismatch (--allow-replication-mismatch arrives with it)",
            "b1e46f869e 'Add ashift validation when adding devices to a pool' (PR #15509)",
            backport=Version(2, 2, 4),
        ),
        Feature(
            "special_embedded_log",
            Version(2, 4, 0),
            "special vdevs with more than 64 metaslabs also set one aside for the ZIL",
            "be1e991a1a 'Allow and prefer special vdevs as ZIL' (PR #17505)",
        ),
    )
}


def supports(version: str | Version, feature: str) -> bool:
    """Does ``version`` have ``feature`` (a key of :data:`FEATURES`)?"""
    return FEATURES[feature].in_version(Version.parse(version))


def feature_table_markdown() -> str:
    """The per-version table of ``docs/capacity.md``: series by series, what each rule is."""
    names = list(SERIES)
    head = "| rule | " + " | ".join(names) + " | since (commit, pull request) |"
    sep = "|---|" + "---|" * len(names) + "---|"
    rows = [head, sep]
    for f in FEATURES.values():
        marks = ["yes" if f.in_version(SERIES[s].release) else "no" for s in names]
        since = str(f.since) if f.backport is None else f"{f.since} (and {f.backport})"
        rows.append(f"| {f.what} | " + " | ".join(marks) + f" | {since}: {f.source} |")
    return "\n".join(rows)
