"""OpenZFS versions as comparable values, and the release that brought each rule.

A design names a release (``"2.4.4"``) or a series (``"2.4"``). Rules change at point
releases too (the 128 GiB slop cap arrived in 2.0.6, the special class's allocated space in
AVAIL in 2.4.1 and 2.3.7), so each series stands for one concrete release (:data:`SERIES`):
the newest release of that series the planner knows, or, for the older series, the one the
long-term-support distributions ship. :data:`RELEASES` are the releases a design may name.
Compare versions as values, never as strings::

    v = Version.parse("2.2")      # Version(2, 2, 2), named "2.2": where text comes in (a document, zfs version)
    if Version(2, 2) <= v: ...
    if supports(v, "draid"): ...

Text becomes a :class:`Version` once, where it comes in (the design document's ``openzfs_version``,
``zfs version`` output, a form or the command line); everything inside takes the ``Version``.

:data:`FEATURES` is the one table of "since which release": every module that needs
to know whether a version has a behaviour asks it, and ``docs/capacity.md`` prints it
(:mod:`.releases`). Each entry names the OpenZFS commit (and pull request) that introduced it,
read in the openzfs/zfs history. Which releases the pages offer (those whose figures differ) is
:data:`.releases.OFFERED`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache, total_ordering

_VERSION_RE = re.compile(r"^\s*(\d+)\.(\d+)(?:\.(\d+))?\s*$")


class VersionError(ValueError):
    """Text that is not an OpenZFS version."""


@total_ordering
@dataclass(frozen=True)
class Version:
    """An OpenZFS release: ``Version(2, 3, 2)``; ``Version(2, 2)`` is 2.2.0.

    ``written`` is the name the release was given, when it was given as text (``"2.2"``, the series
    that stands for 2.2.2): what is printed and written back. Not part of the release's identity:
    ``Version.parse("2.2") == Version(2, 2, 2)``."""

    major: int
    minor: int
    patch: int = 0
    written: str = field(default="", compare=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> Version:
        """``"2.3"`` -> the release that stands for the series (:data:`SERIES`), named ``"2.3"``;
        ``"2.3.6"`` as written. The one place text becomes a version."""
        return _parse(text)

    @property
    def name(self) -> str:
        """The release as it was named (``"2.3"``, ``"2.3.2"``): for what is printed and written back."""
        return self.written or str(self)

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
        return Version(major, minor, int(m.group(3)), written=text.strip())
    series = f"{major}.{minor}"
    if series in SERIES:
        return SERIES[series].named
    return Version(major, minor, 0, written=text.strip())


@dataclass(frozen=True)
class Series:
    """A release series as a design names it, and the release whose rules it gets."""

    name: str
    release: Version
    shipped_by: str
    newest: Version  # the newest release of the series the planner knows

    @property
    def named(self) -> Version:
        """The series' release as a design naming the series has it: ``2.2.2`` named ``"2.2"``."""
        return replace(self.release, written=self.name)


# The releases of each series the planner knows: every tag of the openzfs/zfs history it was
# read against (zfs-0.8.0 ... zfs-2.4.4). A design may name any of them.
_NEWEST = (Version(0, 8, 6), Version(2, 0, 7), Version(2, 1, 16), Version(2, 2, 11), Version(2, 3, 9), Version(2, 4, 4))
RELEASES: tuple[Version, ...] = tuple(
    Version(n.major, n.minor, patch) for n in _NEWEST for patch in range(n.patch + 1)
)

# Releases that long-term-support distributions ship (their zfs-linux package versions).
DISTRIBUTION_RELEASES: dict[Version, str] = {
    Version(0, 8, 3): "Ubuntu 20.04 LTS",
    Version(2, 0, 3): "Debian 11",
    Version(2, 1, 5): "Ubuntu 22.04 LTS",
    Version(2, 2, 2): "Ubuntu 24.04 LTS",
    Version(2, 3, 2): "Debian 13",
}

# A series stands for the release its long-term distribution ships where one pins a series no
# longer maintained (0.8 to 2.2: what those machines run), and for the newest release the planner
# knows otherwise (2.3, 2.4: point releases change accounting and people update within a series;
# Debian 13's 2.3.2 is named as "2.3.2").
SERIES: dict[str, Series] = {
    s.name: s
    for s in (
        Series("0.8", Version(0, 8, 3), "Ubuntu 20.04 LTS (zfs-linux 0.8.3)", _NEWEST[0]),
        Series("2.0", Version(2, 0, 3), "Debian 11 (zfs-linux 2.0.3)", _NEWEST[1]),
        Series("2.1", Version(2, 1, 5), "Ubuntu 22.04 LTS (zfs-linux 2.1.5)", _NEWEST[2]),
        Series("2.2", Version(2, 2, 2), "Ubuntu 24.04 LTS (zfs-linux 2.2.2)", _NEWEST[3]),
        Series("2.3", Version(2, 3, 9), "the newest 2.3 release (Debian 13 ships 2.3.2: name it as 2.3.2)", _NEWEST[4]),
        Series("2.4", Version(2, 4, 4), "the newest 2.4 release", _NEWEST[5]),
    )
}
SERIES_NAMES: tuple[str, ...] = tuple(SERIES)
# Every name a design may give: a series, or a release the planner knows.
KNOWN_NAMES: tuple[str, ...] = SERIES_NAMES + tuple(str(r) for r in RELEASES)


def known_ranges() -> str:
    """The releases the planner knows, series by series: ``0.8.0–0.8.6, …, 2.4.0–2.4.4``."""
    return ", ".join(f"{s.name}.0\u2013{s.newest}" for s in SERIES.values())


def unknown_version_message(text: str) -> str | None:
    """Why ``text`` is not a version a design may name (None when it is one)."""
    if text in KNOWN_NAMES:
        return None
    try:
        v = Version.parse(text)
    except VersionError:
        return f"{text!r} is not an OpenZFS version (a series such as 2.4 or a release such as 2.4.4)"
    series = SERIES.get(v.series)
    if series is not None and v > series.newest:
        return (
            f"{text!r} is not an OpenZFS release the planner knows: its newest {series.name} release is "
            f"{series.newest} (known: {known_ranges()})"
        )
    return (
        f"{text!r} is not an OpenZFS release the planner knows "
        f"(known: {known_ranges()}; or a series {', '.join(SERIES_NAMES)})"
    )


@dataclass(frozen=True)
class Feature:
    """A behaviour that starts at ``since`` (and at ``backport`` on an older series)."""

    name: str
    since: Version
    what: str
    source: str  # commit and pull request in openzfs/zfs
    backport: Version | None = None  # the same change in an earlier series' point release
    modelled: bool = True  # False: recorded for the table, no figure the planner computes depends on it
    effect: str = ""  # what it changes in SIZE / AVAIL / USED or in what zpool and zfs accept

    def in_version(self, v: Version) -> bool:
        return reached(v, self.since, self.backport)


def reached(v: Version, since: Version, backport: Version | None = None) -> bool:
    """Has ``v`` the change that arrived in ``since`` (and in ``backport`` on that older series)?

    The one comparison of releases: a backport counts only within its own series (2.2.4 has
    a change backported to 2.2.4, 2.1.9 does not)."""
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
            effect="AVAIL of pools whose normal class exceeds 4 TiB (slop stops at 128 GiB)",
        ),
        Feature(
            "slop_without_dedup",
            Version(2, 1, 1),
            "slop is taken from the pool's space without the space dedup saves (before: with it, so a pool "
            "holding deduplicated data kept more back)",
            "1325434b2d 'Tinker with slop space accounting with dedup' (PR #12271)",
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
            effect="SIZE, AVAIL and USED of vdevs of disks with physical sectors over 16 KiB",
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
            "block_cloning",
            Version(2, 2, 0),
            "block cloning (cp --reflink, copy_file_range): the space the clones save (bclonesaved) is added "
            "to the pool's space, as dedup's is (spa_update_dspace(), brt_get_dspace())",
            "67a1b03791 'Implementation of block cloning for ZFS' (PR #13392)",
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
            effect="SIZE and USED of vdevs created with -o ashift below the disks' logical sector",
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
            "slop_without_clones",
            Version(2, 3, 0),
            "slop is taken from the normal class's own space (spa_rdspace): the space block cloning saves "
            "no longer raises it (2.2 counted it)",
            "409aad3f33 'BRT: Rework structures and locks to be per-vdev' (PR #16740)",
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
            "51de2d76f8 'Explicit set ashift for non-leaf vdevs' (PR #17826); 2.3.6: 1397bf1e0e",
            backport=Version(2, 3, 6),
            effect="SIZE, AVAIL and USED of vdevs created with -o ashift below the disks' physical sector",
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
            effect="what zpool add accepts (no figure changes)",
        ),
        Feature(
            "embedded_with_dedup",
            Version(2, 4, 0),
            "a block that compresses to 112 B or less is embedded in its block pointer with dedup=on too "
            "(before: dedup turned embedding off)",
            "09f4dd06c3 'Prefer embedded blocks to dedup' (PR #17113); 2.3.3: 602fecc316",
            backport=Version(2, 3, 3),
            modelled=False,
            effect="USED and the dedup table of dedup=on datasets with tiny compressible blocks",
        ),
        Feature(
            "zero_holes_with_dedup",
            Version(2, 4, 0),
            "with dedup=on, all-zero blocks become holes even with compression=off",
            "bcd0430236 'Allow zero compression if dedup is enabled' (PR #17435); 2.3.3: 4c8d0471fa",
            backport=Version(2, 3, 3),
            modelled=False,
            effect="USED and the dedup table of dedup=on, compression=off datasets holding zeros",
        ),
        Feature(
            "meta_dnode_some_redundancy",
            Version(2, 4, 0),
            "redundant_metadata=some keeps the second copy of the meta-dnode's indirect blocks",
            "d5616ad34a 'Increase meta-dnode redundancy in \"some\" mode' (PR #17339); 2.3.4: 30fa92bff3",
            backport=Version(2, 3, 4),
            modelled=False,
            effect="USED of redundant_metadata=some datasets: one more copy of each meta-dnode indirect block",
        ),
        Feature(
            "zpool_add_replication_corner_cases",
            Version(2, 4, 0),
            "zpool add warns about a mismatched replication level also when the pool mixes files and disks "
            "or has an active hot or dRAID spare",
            "d33d0cac5a 'Fix zpool add safety check corner cases' (PR #17780); 2.3.5: e5ca94f21e",
            backport=Version(2, 3, 5),
            modelled=False,
            effect="zpool add acceptance on degraded pools with an active spare",
        ),
        Feature(
            "free_fraction_allocation",
            Version(2, 4, 0),
            "writes are spread to even out the vdevs' free/used fractions, so a newly added vdev takes most new "
            "writes until the pool is balanced (before: the faster vdevs were favoured)",
            "94a3fabcb0 'Unified allocation throttling' (PR #17020)",
            modelled=False,
            effect="where new writes go after zpool add",
        ),
        Feature(
            "zfs_rewrite",
            Version(2, 4, 0),
            "zfs rewrite rewrites a file's blocks in place, at the vdev's present width after a RAIDZ expansion",
            "49fbdd4533 'Introduce zfs rewrite subcommand' (PR #17246); 2.3.4: 809b553940",
            backport=Version(2, 3, 4),
            modelled=False,
            effect="what zfs accepts: old data after a RAIDZ expansion can be rewritten at the new ratio "
            "without send/receive",
        ),
        Feature(
            "special_dalloc_in_avail",
            Version(2, 4, 1),
            "a dataset's AVAIL counts the space allocated on the special and dedup classes (deflated), so "
            "blocks written there no longer lower AVAIL; an empty pool's AVAIL is the normal class less slop",
            "3dcd071b51 'Fix available space accounting for special/dedup' (PR #18222); 2.3.7: ba53ba5a01",
            backport=Version(2, 3, 7),
            effect="AVAIL (and USED + AVAIL) of pools with special or dedup vdevs",
        ),
        Feature(
            "alloc_class_selection_cleanup",
            Version(2, 4, 2),
            "gang children stay in their parent's class; with zfs_user_indirect_is_special=0 small indirect "
            "blocks follow special_small_blocks",
            "6f14581e1a 'Cleanup allocation class selection' (PR #18208)",
            modelled=False,
            effect="none with the default tunables (where blocks go changes only with "
            "zfs_user_indirect_is_special=0 or for gang blocks of a nearly full pool)",
        ),
        Feature(
            "special_embedded_log",
            Version(2, 4, 0),
            "special vdevs with more than 64 metaslabs also set one aside for the ZIL",
            "be1e991a1a 'Allow and prefer special vdevs as ZIL' (PR #17505)",
        ),
    )
}


@lru_cache(maxsize=1024)  # asked by every rule of every estimate; FEATURES never changes
def supports(version: Version, feature: str) -> bool:
    """Does ``version`` have ``feature`` (a key of :data:`FEATURES`)?"""
    return FEATURES[feature].in_version(version)


NEWEST_RELEASE: Version = RELEASES[-1]


def default_version() -> str:
    """The newest release the planner knows: what the pages, imports, the advisor and compression samples
    start from. A document naming none is read as ``design.types.DEFAULT_OPENZFS_VERSION`` (2.3) instead,
    so its figures never move when the planner learns a newer release."""
    return str(NEWEST_RELEASE)


def modelled_as(text: str) -> str:
    """The name a design gives a release the planner does not know (a development build, a
    release newer than it knows): its series when the planner knows the series, else the
    oldest or the newest series."""
    v = Version.parse(text)
    if v.series in SERIES:
        return v.series
    return SERIES_NAMES[0] if v < SERIES[SERIES_NAMES[0]].release else SERIES_NAMES[-1]
