"""The words the pages use that a newcomer to ZFS may not know, each explained once.

The glossary page lists them; the ``{% term %}`` tag links a word's first use on a page to its entry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    slug: str  # the entry's anchor on the glossary page
    name: str
    text: str


TERMS: tuple[Term, ...] = (
    Term(
        "ashift",
        "ashift",
        "The sector size ZFS writes to a vdev's disks, as a power of two: ashift=12 is 4 KiB, ashift=9 is 512 "
        "bytes. It is the smallest block a vdev can allocate and is fixed when the vdev is created "
        "(zpool create -o ashift=N); a value below the disks' physical sector size makes every write a "
        "read-modify-write.",
    ),
    Term(
        "draid",
        "dRAID and its names (draid2:5d:8c:1s)",
        "A dRAID vdev spreads fixed-width RAIDZ groups and spare space over all its disks, so a failed disk is "
        "rebuilt onto the spare space of every disk at once. zpool names one as draid<parity>:<data>d:"
        "<children>c:<spares>s: draid2:5d:8c:1s has double parity, 5 data disks in each redundancy group, 8 "
        "disks in all and 1 distributed spare. The fixed width pads small blocks to a full group, which "
        "costs space on small records.",
    ),
    Term(
        "slop",
        "slop space",
        "Space ZFS keeps back so that a full pool can still delete files and change properties: 1/32 of the "
        "pool (spa_slop_shift = 5), at least 128 MiB and at most 128 GiB. zfs list's AVAIL leaves it out; zpool "
        "list's FREE does not.",
    ),
    Term(
        "zil",
        "ZIL (ZFS intent log)",
        "Where ZFS records synchronous writes (databases, NFS, VMs asking for fsync) so that they survive a "
        "crash before the next transaction group reaches the disks, a few seconds later. Without a log vdev "
        "the ZIL lives on the pool's own disks, in a metaslab kept for it on each data vdev. It is read back "
        "only after a crash.",
    ),
    Term(
        "slog",
        "SLOG (separate log device)",
        "A log vdev: a fast device that holds the ZIL instead of the data vdevs, so synchronous writes are "
        "acknowledged at its latency. It helps synchronous writes only and needs to hold a few seconds of "
        "writes; it should have power-loss protection (PLP). Mirror it if losing the last seconds of "
        "synchronous writes after a crash and a device failure together matters.",
    ),
    Term(
        "plp",
        "PLP (power-loss protection)",
        "Capacitors on an SSD that let it finish writing its cache when the power fails. Such an SSD can "
        "acknowledge a cache flush at once, which is what a SLOG does all day; without PLP a flush waits for "
        "the flash, and some consumer SSDs lose acknowledged writes.",
    ),
    Term(
        "special",
        "special vdev",
        "An allocation class for the pool's metadata and, with special_small_blocks set, for each dataset's "
        "small blocks; usually SSDs in front of hard disks. The pool cannot live without it: give it at least "
        "the redundancy of the data vdevs. When it is full, new metadata goes to the data vdevs.",
    ),
    Term(
        "l2arc",
        "L2ARC (cache device)",
        "A cache vdev: a second level of the read cache (the ARC) on an SSD. It holds copies only, so losing it "
        "loses nothing; its index takes RAM from the ARC.",
    ),
)

BY_SLUG: dict[str, Term] = {t.slug: t for t in TERMS}

# The capacity breakdown's parts that a glossary entry explains (part key: entry).
SEGMENT_TERMS: dict[str, str] = {
    "slop": "slop",
    "embedded_log": "zil",
    "log": "slog",
    "cache": "l2arc",
    "special_used": "special",
}


def shape_term(shape: str) -> str | None:
    """The entry explaining a vdev shape's name: dRAID's (``draid2:5d:8c:1s``); others need none."""
    return "draid" if shape.startswith("draid") else None
