"""Dataset properties as ZFS resolves them: set locally, else inherited, else the version's default.

The one home of that rule. ``zfs get`` reports a property as ``local``, ``inherited from
<parent>`` or ``default`` (``module/zcommon/zfs_prop.c`` registers which properties are
inheritable, ``PROP_INHERIT``, and their defaults). A design lists datasets by full name;
a parent the design does not list is created by ``zfs create -p`` with every property at
its default, so inheritance walks up the listed ancestors only. Volumes inherit from the
filesystems above them but are never parents themselves; ``volblocksize`` is set once
(``PROP_ONETIME``) and never inherited.

Defaults that changed between releases come from :mod:`zfsplanner.core.versions`:
``compression`` is ``off`` before 2.2 and ``on`` from 2.2 (PR #13078), ``volblocksize``
8K before 2.2 and 16K from 2.2 (PR #12406), ``xattr`` ``on`` (directory xattrs) before 2.3
and ``sa`` from 2.3 (PR #15147).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..design.types import Dataset, DatasetType, Design
from ..geometry.alloc import SPA_OLD_MAXBLOCKSIZE
from ..units import KIB
from ..versions import Version, supports

DEFAULT_RECORDSIZE = SPA_OLD_MAXBLOCKSIZE
"""The ``recordsize`` default: ``zfs_prop.c`` registers the property with ``SPA_OLD_MAXBLOCKSIZE``."""

# Properties a child takes from its parent (PROP_INHERIT in zfs_prop.c). The first group
# are fields of :class:`Dataset`; the rest live in ``Dataset.extra`` under their ZFS name.
FIELD_PROPERTIES = ("recordsize", "compression", "special_small_blocks", "copies", "sync")
EXTRA_PROPERTIES = (
    "dedup",
    "redundant_metadata",
    "dnodesize",
    "xattr",
    "atime",
    "relatime",
    "checksum",
    "logbias",
    "primarycache",
    "secondarycache",
    "acltype",
    "encryption",
)
INHERITABLE = FIELD_PROPERTIES + EXTRA_PROPERTIES
FILESYSTEM_ONLY = ("recordsize", "dnodesize", "xattr", "atime", "relatime", "acltype")


@dataclass(frozen=True)
class Resolved:
    """A property's value and where it came from, as ``zfs get`` would print SOURCE."""

    value: Any
    source: str  # "local", "inherited from <name>", "default"


def default(prop: str, version: Version, dataset_type: DatasetType = DatasetType.FILESYSTEM) -> Any:
    """The value a dataset has when neither it nor an ancestor sets ``prop``."""
    if prop == "recordsize":
        return DEFAULT_RECORDSIZE
    if prop == "volblocksize":
        return 16 * KIB if supports(version, "volblocksize_16k") else 8 * KIB
    if prop == "compression":
        return "on" if supports(version, "compression_on_default") else "off"
    if prop == "xattr":
        return "sa" if supports(version, "xattr_sa_default") else "on"
    return {
        "special_small_blocks": 0,
        "quota": 0,
        "copies": 1,
        "sync": "standard",
        "dedup": "off",
        "redundant_metadata": "all",
        "dnodesize": "legacy",
        "atime": "on",
        "relatime": "on",
        "checksum": "on",
        "logbias": "latency",
        "primarycache": "all",
        "secondarycache": "all",
        "acltype": "off",
        "encryption": "off",
    }.get(prop)


def _local(ds: Dataset, prop: str) -> Any:
    if prop in Dataset.__dataclass_fields__:
        return getattr(ds, prop)
    return ds.extra.get(prop)


def ancestors(design: Design, ds: Dataset) -> Iterator[Dataset]:
    """The dataset's parents that the design lists, nearest first (volumes are never parents)."""
    names = {d.name: d for d in design.datasets}
    name = ds.name
    while "/" in name:
        name = name.rsplit("/", 1)[0]
        parent = names.get(name)
        if parent is not None and parent.type != DatasetType.VOLUME:
            yield parent


def _refreservation(ds: Dataset) -> Resolved:
    """``zfs create`` sets a volume's ``refreservation`` itself unless it is sparse (``-s``):
    ``zfs_do_create()`` (``cmd/zfs/zfs_main.c``) adds ``zvol_volsize_to_reservation()`` to the
    properties it creates with, so SOURCE is ``local`` and the size is the estimate's
    (:mod:`zfsplanner.core.capacity.zvol`; None here). Otherwise it stays at its default, none,
    which ``zfs get -p`` prints as ``0`` (``zfs_prop_get()``, ``lib/libzfs/libzfs_dataset.c``)."""
    if ds.type == DatasetType.VOLUME and not ds.extra.get("sparse"):
        return Resolved(None, "local")
    return Resolved(0, "default")


def resolve(design: Design, ds: Dataset, prop: str) -> Resolved:
    """``zfs get prop ds`` for the design's version: value and source."""
    if prop in FILESYSTEM_ONLY and ds.type == DatasetType.VOLUME:
        return Resolved(None, "-")
    if prop == "volblocksize" and ds.type == DatasetType.VOLUME:
        return _volblocksize(design, ds)
    if prop == "refreservation":
        return _refreservation(ds)
    local = _local(ds, prop)
    if local is not None:
        return Resolved(local, "local")
    if prop in INHERITABLE:
        for parent in ancestors(design, ds):
            value = _local(parent, prop)
            if value is not None:
                return Resolved(value, f"inherited from {parent.name}")
    if prop == "volblocksize" and ds.type != DatasetType.VOLUME:
        return Resolved(None, "-")
    return Resolved(default(prop, design.release, ds.type), "default")


def _volblocksize(design: Design, ds: Dataset) -> Resolved:
    """``volblocksize`` is not a stored property: the zvol's block size is read back
    (``zvol_get_stats()``, ``module/zfs/zvol.c``) and ``dsl_prop_nvlist_add_uint64()``
    (``module/zfs/dsl_prop.c``) gives it the source ``default`` only when it equals the
    default, else none (``-``), whether or not ``zfs create -b`` named it."""
    release_default = default("volblocksize", design.release, ds.type)
    if ds.volblocksize is None or ds.volblocksize == release_default:
        return Resolved(release_default, "default")
    return Resolved(ds.volblocksize, "-")


def inherited(design: Design, ds: Dataset, prop: str) -> Any:
    """The value set locally or by the nearest listed ancestor; None when it is at its default."""
    r = resolve(design, ds, prop)
    return r.value if r.source != "default" and r.source != "-" else None


def value(design: Design, ds: Dataset, prop: str) -> Any:
    """The value in force, the version's default included."""
    return resolve(design, ds, prop).value


def dedup_on(design: Design, ds: Dataset) -> bool:
    """Does ``ds`` write with dedup (``dedup`` set here or inherited, anything but ``off``)?"""
    setting = inherited(design, ds, "dedup")
    if setting is None or setting is False:
        return False
    return not (isinstance(setting, str) and setting.lower() == "off")


def block_size_of(ds: Dataset, version: Version) -> int:
    """The block size in force of a dataset that carries what it inherits (:func:`with_inherited`):
    ``volblocksize`` for a volume, ``recordsize`` for a filesystem, else the release's default of
    that property (``zfs_prop.c``; ``ZVOL_DEFAULT_BLOCKSIZE`` in ``include/sys/zvol.h``)."""
    prop = "volblocksize" if ds.type == DatasetType.VOLUME else "recordsize"
    own = _local(ds, prop)
    return int(own if own is not None else default(prop, version, ds.type))


def block_size(design: Design, ds: Dataset) -> int:
    """:func:`block_size_of` ``ds`` in ``design``: a filesystem's ``recordsize`` set by the nearest
    listed parent when it sets none itself (``volblocksize`` is never inherited)."""
    if ds.type != DatasetType.VOLUME and ds.recordsize is None:
        ds = replace(ds, recordsize=inherited(design, ds, "recordsize"))
    return block_size_of(ds, design.release)


def with_inherited(design: Design, ds: Dataset) -> Dataset:
    """``ds`` with every inheritable property its ancestors set filled in, as the kernel sees it.

    Properties left at their default stay unset (``None``), so the engines apply the
    version's default themselves.
    """
    if next(ancestors(design, ds), None) is None:
        return ds  # no listed parent: nothing to inherit
    changes: dict[str, Any] = {}
    extra = dict(ds.extra)
    for prop in INHERITABLE:
        if ds.type == DatasetType.VOLUME and prop in FILESYSTEM_ONLY:
            continue
        if _local(ds, prop) is not None:
            continue
        got = inherited(design, ds, prop)
        if got is None:
            continue
        if prop in FIELD_PROPERTIES:
            changes[prop] = got
        else:
            extra[prop] = got
    if not changes and extra == dict(ds.extra):
        return ds
    return replace(ds, extra=extra, **changes)
