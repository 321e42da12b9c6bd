"""``zfs create`` for a design's datasets, and the ``-O`` options ``zpool create`` gives the root dataset.

Pool-wide ``-O`` options come only from the design: the dataset named like the pool (the
root dataset), if the design lists it. Nothing else is invented.

Keys read from ``extra`` (all optional, documented in ``docs/risks.md``):

* dataset ``"sparse": true`` -> ``zfs create -s`` for a volume (no refreservation);
* dataset keys named like a ZFS property in :data:`PASSTHROUGH_PROPERTIES`
  (``"atime": "off"``, ``"dedup": "on"``...) -> ``-o key=value``, in the order the design
  lists them, when the value is one the design's OpenZFS release accepts for that dataset
  type (:mod:`zfsplanner.core.properties.zfsprops`). Other keys are never passed to ``zfs``. A value
  that would make ``zfs create`` fail is left out and named in a ``#`` comment line above
  the command; encryption, keyformat, keylocation and pbkdf2iters are written together,
  complete, or not at all (:func:`zfsprops.encryption_options`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ..design.types import Dataset, DatasetType, Design
from ..properties.zfsprops import (
    ENCRYPTION_PROPERTIES,
    PASSTHROUGH_PROPERTIES,
    InvalidProperty,
    encryption_options,
    property_option,
)
from ..units import format_zfs_size


def _option(prop: str, value: object) -> str:
    if isinstance(value, bool):
        value = "on" if value else "off"
    return f"{prop}={value}"


def _size(n: int) -> str:
    return str(format_zfs_size(n))


def root_dataset(design: Design) -> Dataset | None:
    return next((d for d in design.datasets if d.name == design.name), None)


@dataclass(frozen=True)
class DatasetOptions:
    """The ``prop=value`` options of one dataset, the ones left out (and why), and whether it is encrypted."""

    options: tuple[str, ...]
    left_out: tuple[str, ...]
    encrypted: bool


def _given_options(ds: Dataset) -> list[tuple[str, str]]:
    """The dataset's properties as the design gives them: the named fields, then ``extra`` keys in order."""
    given: list[tuple[str, str]] = []
    if ds.type == DatasetType.VOLUME and ds.volblocksize is not None:
        given.append(("volblocksize", _size(ds.volblocksize)))
    if ds.recordsize is not None:
        given.append(("recordsize", _size(ds.recordsize)))
    if ds.compression is not None:
        given.append(("compression", ds.compression))
    if ds.special_small_blocks is not None:
        given.append(("special_small_blocks", _size(ds.special_small_blocks) if ds.special_small_blocks else "0"))
    if ds.copies is not None:
        given.append(("copies", str(ds.copies)))
    if ds.sync is not None:
        given.append(("sync", ds.sync.value))
    if ds.quota is not None:
        given.append(("quota", _size(ds.quota)))
    for key, value in ds.extra.items():
        if key in PASSTHROUGH_PROPERTIES and key not in ENCRYPTION_PROPERTIES and value is not None and value != "":
            given.append((key, _option(key, value).split("=", 1)[1]))
    return given


def dataset_options(design: Design, ds: Dataset, parent_encrypted: bool = False) -> DatasetOptions:
    """The options ``zfs create`` (or ``zpool create -O``) accepts for ``ds`` on the design's release.

    A value the release rejects for this dataset type is left out with the reason
    (:func:`zfsprops.property_option`); the encryption properties are kept only as a
    complete set (:func:`zfsprops.encryption_options`, which needs to know whether the
    dataset is created under an encrypted parent); ``normalization`` with
    ``utf8only=off`` is refused by ``zfs`` ("'utf8only' must be set 'on' if normalization
    chosen"), so both are left out.
    """
    opts: list[str] = []
    left_out: list[str] = []
    for name, value in _given_options(ds):
        try:
            opts.append(property_option(name, value, ds.type, design.release))
        except InvalidProperty as exc:
            left_out.append(f"left out {name}={value}: {exc}")
    if "utf8only=off" in opts and any(o.startswith("normalization=") and o != "normalization=none" for o in opts):
        dropped = [o for o in opts if o == "utf8only=off" or o.startswith("normalization=")]
        opts = [o for o in opts if o not in dropped]
        left_out.append(f"left out {' '.join(dropped)}: zfs says 'utf8only' must be set 'on' if normalization chosen")
    crypt = encryption_options(ds.extra, parent_encrypted, ds.type, design.release)
    opts += crypt.options
    if crypt.problem is not None:
        left_out.append(crypt.problem)
    return DatasetOptions(tuple(opts), tuple(left_out), crypt.encrypted)


def _parent(name: str) -> str | None:
    return name.rsplit("/", 1)[0] if "/" in name else None


def zfs_creates(design: Design) -> list[tuple[str, DatasetOptions]]:
    """Each ``zfs create`` with the options it got, parents first; encryption follows the parent's."""
    datasets = sorted((d for d in design.datasets if d.name != design.name), key=lambda d: d.name.count("/"))
    known = {d.name: d for d in design.datasets}
    root = root_dataset(design)
    encrypted = {design.name: dataset_options(design, root).encrypted if root is not None else False}
    out = []
    for ds in datasets:
        words = ["zfs", "create"]
        parent = _parent(ds.name)
        if parent is not None and parent not in known and parent != design.name:
            words.append("-p")
        ancestor = parent
        while ancestor is not None and ancestor not in encrypted:
            ancestor = _parent(ancestor)
        options = dataset_options(design, ds, encrypted.get(ancestor, False) if ancestor is not None else False)
        if ds.type != DatasetType.VOLUME:
            encrypted[ds.name] = options.encrypted
        if ds.type == DatasetType.VOLUME:
            if ds.extra.get("sparse") is True:
                words.append("-s")
            assert ds.volsize is not None  # parse_design requires volsize for a volume
            words += ["-V", _size(ds.volsize)]
        for opt in options.options:
            words += ["-o", opt]
        words.append(ds.name)
        out.append((shlex.join(words), options))
    return out


def zfs_create_commands(design: Design) -> list[str]:
    """``zfs create`` for every dataset except the root one (its options go to ``zpool create -O``).

    Parents come before children. ``-p`` is added when a parent is neither the pool
    nor a dataset of the design. Volumes get ``-V volsize`` (and ``-s`` when
    ``extra["sparse"]`` is true); ``volblocksize`` can only be set at creation.
    Options the release would reject are left out (see :func:`dataset_options`).
    """
    return [command for command, _ in zfs_creates(design)]
