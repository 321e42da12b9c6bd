"""The shell commands that build a design: ``zpool create``, ``zpool add``, ``zpool attach``, ``zfs create``.

Device names are placeholders (``/dev/disk/by-id/<model>-<n>``, numbered per model in the
order of the design) for the administrator to replace with the real ``by-id`` links.
Every word is quoted with :func:`shlex.quote`, so a placeholder or dataset name with
spaces or shell metacharacters cannot change the command.

How ashift is placed (``man zpoolprops.7``, ``ashift``; ``man zpool-add.8``, ``-o ashift``):
the ``ashift`` pool property given to ``zpool create -o ashift=N`` is the value used for
every vdev in that command and the default for later ``zpool add``. ashift is really a
property of each top-level vdev, fixed when it is created, so a group whose ashift differs
from the first data group's is left out of ``zpool create`` and added afterwards with
``zpool add -o ashift=N``. When a group gives no ashift, the planner's choice (log2 of the
largest physical sector of its disks, see :func:`resolved_ashift`) is written out
explicitly rather than left to autodetection, which trusts what the drive reports.

Top-level vdev names used by ``zpool attach`` (``raidz2-0``) are ``<type>-<id>``, where the
id is the vdev's position among the pool's top-level vdevs (data, special, dedup and log,
in command-line order; cache and spare devices are not top-level vdevs).

Pool-wide ``-O`` options come only from the design: the dataset named like the pool (the
root dataset), if the design lists it. Nothing else is invented.

Keys read from ``extra`` (all optional, documented in ``docs/risks.md``):

* dataset ``"sparse": true`` -> ``zfs create -s`` for a volume (no refreservation);
* dataset keys named like a ZFS property in :data:`PASSTHROUGH_PROPERTIES`
  (``"atime": "off"``, ``"dedup": "on"``...) -> ``-o key=value``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence

from .design import Dataset, DatasetType, Design, Disk, Layout, Role, VdevGroup
from .units import format_zfs_size, ilog2

BY_ID = "/dev/disk/by-id/"

# ZFS properties that a dataset may carry in ``extra`` and that are passed to ``zfs create -o``.
PASSTHROUGH_PROPERTIES = (
    "atime",
    "relatime",
    "xattr",
    "acltype",
    "aclinherit",
    "aclmode",
    "dnodesize",
    "dedup",
    "logbias",
    "primarycache",
    "secondarycache",
    "redundant_metadata",
    "checksum",
    "mountpoint",
    "canmount",
    "exec",
    "setuid",
    "devices",
    "readonly",
    "snapdir",
    "normalization",
    "utf8only",
    "casesensitivity",
    "encryption",
    "keyformat",
    "keylocation",
    "reservation",
    "refreservation",
    "refquota",
    "volmode",
)

# Order of the classes in ``zpool create`` (data first; zpool accepts any order).
_ROLE_ORDER = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE, Role.SPARE)
_TOP_LEVEL_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)


def resolved_ashift(group: VdevGroup) -> int:
    """The group's ashift: as given, else log2 of the largest physical sector of its disks."""
    if group.ashift is not None:
        return group.ashift
    return max(ilog2(d.physical_sector) for d in group.disks)


def draid_data_disks(group: VdevGroup) -> int:
    """dRAID data disks per redundancy group: as given, else ``min(children - spares - p, 8)``.

    The default is the one ``zpool create`` applies (``cmd/zpool/zpool_vdev.c``,
    ``draid_config_by_type()``).
    """
    if group.draid_data is not None:
        return group.draid_data
    return min(group.width - (group.draid_spares or 0) - group.parity, 8)


def vdev_type_word(group: VdevGroup, width: int | None = None) -> str | None:
    """The vdev type word of ``zpool create`` (``mirror``, ``raidz2``, ``draid2:8d:24c:2s``), None for a disk."""
    if group.layout == Layout.STRIPE:
        return None
    if group.layout == Layout.MIRROR or group.is_raidz:
        return group.layout.value
    spares = group.draid_spares or 0
    word = f"{group.layout.value}:{draid_data_disks(group)}d:{width or group.width}c"
    return f"{word}:{spares}s" if spares else word


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.:+-]+", "_", text.strip()) or "disk"


class _Namer:
    """Hands out ``/dev/disk/by-id/<base>-<n>`` names, numbered per base in design order."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def name(self, disk: Disk, role: Role) -> str:
        base = _slug(disk.model) if disk.model else role.value
        self.counts[base] = self.counts.get(base, 0) + 1
        return f"{BY_ID}{base}-{self.counts[base]}"


def device_names(design: Design) -> list[list[list[str]]]:
    """Placeholder device paths: ``[group][vdev][member]``, in the design's order."""
    namer = _Namer()
    return [[[namer.name(d, g.role) for d in g.disks] for _ in range(g.count)] for g in design.vdevs]


def _pool_ashift(design: Design) -> int:
    first_data = next(g for g in design.vdevs if g.role == Role.DATA)
    return resolved_ashift(first_data)


def _in_create(design: Design, group: VdevGroup) -> bool:
    """Does the group go into ``zpool create`` (same ashift as the pool default), or a later ``zpool add``?"""
    if group.role == Role.SPARE:
        return True
    return resolved_ashift(group) == _pool_ashift(design)


def _group_words(group: VdevGroup, devices: Sequence[Sequence[str]], with_role: bool) -> list[str]:
    """``special mirror a b mirror c d`` for one group (the original width of an expanded raidz)."""
    words: list[str] = []
    if with_role and group.role != Role.DATA:
        words.append(group.role.value)
    width = group.expanded_from_width or group.width
    word = vdev_type_word(group)
    for members in devices:
        if word is not None:
            words.append(word)
        words.extend(members[:width])
    return words


def _quote(words: Iterable[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


def _option(prop: str, value: object) -> str:
    if isinstance(value, bool):
        value = "on" if value else "off"
    return f"{prop}={value}"


def _size(n: int) -> str:
    return str(format_zfs_size(n))


def root_dataset(design: Design) -> Dataset | None:
    return next((d for d in design.datasets if d.name == design.name), None)


def _dataset_options(ds: Dataset) -> list[str]:
    """``prop=value`` pairs for a dataset's explicit properties, in a fixed order."""
    opts: list[str] = []
    if ds.type == DatasetType.VOLUME and ds.volblocksize is not None:
        opts.append(_option("volblocksize", _size(ds.volblocksize)))
    if ds.recordsize is not None:
        opts.append(_option("recordsize", _size(ds.recordsize)))
    if ds.compression is not None:
        opts.append(_option("compression", ds.compression))
    if ds.special_small_blocks is not None:
        opts.append(_option("special_small_blocks", _size(ds.special_small_blocks) if ds.special_small_blocks else 0))
    if ds.copies is not None:
        opts.append(_option("copies", ds.copies))
    if ds.sync is not None:
        opts.append(_option("sync", ds.sync.value))
    if ds.quota is not None:
        opts.append(_option("quota", _size(ds.quota)))
    for key in PASSTHROUGH_PROPERTIES:
        value = ds.extra.get(key)
        if isinstance(value, str | int | bool) and value != "":
            opts.append(_option(key, value))
    return opts


def zpool_create_command(design: Design) -> str:
    """``zpool create -o ashift=N [-O prop=value ...] POOL vdevs...`` for the groups that share the pool ashift.

    An expanded RAIDZ group is created at its original width (``expanded_from_width``);
    :func:`zpool_attach_commands` widens it.
    """
    names = device_names(design)
    words = ["zpool", "create", "-o", f"ashift={_pool_ashift(design)}"]
    root = root_dataset(design)
    if root is not None:
        for opt in _dataset_options(root):
            words += ["-O", opt]
    words.append(design.name)
    for role in _ROLE_ORDER:
        groups = [(g, names[i]) for i, g in enumerate(design.vdevs) if g.role == role and _in_create(design, g)]
        if not groups:
            continue
        if role != Role.DATA:
            words.append(role.value)
        for group, devices in groups:
            words += _group_words(group, devices, with_role=False)
    return _quote(words)


def zpool_add_commands(design: Design) -> list[str]:
    """One ``zpool add -o ashift=N POOL <class> vdevs...`` per group whose ashift differs from the pool's."""
    names = device_names(design)
    out = []
    for role in _ROLE_ORDER:
        for i, group in enumerate(design.vdevs):
            if group.role == role and not _in_create(design, group):
                words = ["zpool", "add", "-o", f"ashift={resolved_ashift(group)}", design.name]
                words += _group_words(group, names[i], with_role=True)
                out.append(_quote(words))
    return out


def top_level_ids(design: Design) -> list[list[int]]:
    """Top-level vdev id of each vdev of each group (``[]`` for cache and spare groups)."""
    ids: list[list[int]] = [[] for _ in design.vdevs]
    next_id = 0
    order = [(role, True) for role in _ROLE_ORDER] + [(role, False) for role in _ROLE_ORDER]
    for role, in_create in order:
        for i, group in enumerate(design.vdevs):
            if group.role == role and role in _TOP_LEVEL_ROLES and _in_create(design, group) == in_create:
                ids[i] = list(range(next_id, next_id + group.count))
                next_id += group.count
    return ids


def zpool_attach_commands(design: Design) -> list[str]:
    """``zpool attach -w POOL raidzP-ID NEWDISK`` for each disk a RAIDZ expansion adds.

    RAIDZ expansion (OpenZFS 2.3+, ``man zpool-attach.8``) adds one disk at a time and a
    pool runs one expansion at a time, so each command waits (``-w``) for its reflow to
    finish before the next one starts.
    """
    names = device_names(design)
    ids = top_level_ids(design)
    out = []
    for i, group in enumerate(design.vdevs):
        if group.expanded_from_width is None:
            continue
        for vdev_id, members in zip(ids[i], names[i], strict=True):
            target = f"{group.layout.value}-{vdev_id}"
            for new in members[group.expanded_from_width :]:
                out.append(_quote(["zpool", "attach", "-w", design.name, target, new]))
    return out


def _parent(name: str) -> str | None:
    return name.rsplit("/", 1)[0] if "/" in name else None


def zfs_create_commands(design: Design) -> list[str]:
    """``zfs create`` for every dataset except the root one (its options go to ``zpool create -O``).

    Parents come before children. ``-p`` is added when a parent is neither the pool
    nor a dataset of the design. Volumes get ``-V volsize`` (and ``-s`` when
    ``extra["sparse"]`` is true); ``volblocksize`` can only be set at creation.
    """
    datasets = sorted((d for d in design.datasets if d.name != design.name), key=lambda d: d.name.count("/"))
    known = {design.name} | {d.name for d in design.datasets}
    out = []
    for ds in datasets:
        words = ["zfs", "create"]
        parent = _parent(ds.name)
        if parent is not None and parent not in known:
            words.append("-p")
        if ds.type == DatasetType.VOLUME:
            if ds.extra.get("sparse") is True:
                words.append("-s")
            assert ds.volsize is not None  # parse_design requires volsize for a volume
            words += ["-V", _size(ds.volsize)]
        for opt in _dataset_options(ds):
            words += ["-o", opt]
        words.append(ds.name)
        out.append(_quote(words))
    return out


def all_commands(design: Design) -> list[str]:
    """Every command, in the order to run them: create, add, attach, then datasets."""
    return [
        zpool_create_command(design),
        *zpool_add_commands(design),
        *zpool_attach_commands(design),
        *zfs_create_commands(design),
    ]
