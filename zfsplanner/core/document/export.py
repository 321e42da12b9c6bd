"""Writing the dataclasses of :mod:`..design.types` back as a design document."""

from __future__ import annotations

from dataclasses import fields, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from ..design.types import FORMAT, Contents, Dataset, Design, Disk, Host, VdevGroup
from ..units import format_zfs_size


def field_values(record: Any) -> dict[str, Any]:
    """The fields of the dataclass ``record`` by name, in their order: the start of a figures
    section whose keys are its field names (its ``to_document()`` writes the other values over them)."""
    return {f.name: getattr(record, f.name) for f in fields(record)}


def disk_to_document(disk: Disk) -> dict[str, Any]:
    """The disk object; its size as the document wrote it ("960GB") or in bytes."""
    out: dict[str, Any] = {"size_bytes": disk.size_bytes if disk.size_text is None else disk.size_text}
    for f in fields(Disk):
        if f.name not in ("size_bytes", "extra", "size_text"):
            put_optional(out, f.name, getattr(disk, f.name))
    out.update(disk.extra)
    return out


VDEV_OPTIONAL_KEYS = (
    "ashift",
    "draid_data",
    "draid_spares",
    "disk_partitioning",
    "reserved_per_disk_bytes",
    "expanded_from_width",
    "logical_bytes_written_before",
)


def put_optional(out: dict[str, Any], key: str, value: Any) -> None:
    """Write ``key`` only when it has a value, so an export repeats what the document said."""
    if value is not None:
        out[key] = value.value if isinstance(value, StrEnum) else value


def price_text(value: Decimal) -> str:
    """A price as the document writes it: a plain decimal string without trailing zeros ("249.99", "100")."""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def vdev_to_document(v: VdevGroup) -> dict[str, Any]:
    out: dict[str, Any] = {"role": v.role.value, "layout": v.layout.value, "width": v.width, "count": v.count}
    for key in VDEV_OPTIONAL_KEYS:
        put_optional(out, key, getattr(v, key))
    if v.price_per_disk is not None:
        out["price_per_disk"] = price_text(v.price_per_disk)
    if v.single_disk:
        out["disk"] = disk_to_document(v.disks[0])
    else:
        out["disks"] = [disk_to_document(d) for d in v.disks]
    out.update(v.extra)
    return out


def _size(n: int | None) -> str | int | None:
    return None if n is None else format_zfs_size(n)


def contents_to_document(c: Contents) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put_optional(out, "logical_bytes", c.logical_bytes)
    put_optional(out, "file_count", c.file_count)
    if c.file_size_histogram is not None:
        out["file_size_histogram"] = [[s, n] for s, n in c.file_size_histogram]
    if c.compressibility is not None:
        comp: dict[str, Any] = {}
        put_optional(comp, "profile", c.compressibility.profile)
        put_optional(comp, "ratio", c.compressibility.ratio)
        put_optional(comp, "algorithm", c.compressibility.algorithm)
        put_optional(comp, "recordsize", _size(c.compressibility.recordsize))
        comp.update(c.compressibility.extra)
        out["compressibility"] = comp
    put_optional(out, "files_per_directory", c.files_per_directory)
    put_optional(out, "logical_bytes_written_before", c.logical_bytes_written_before)
    put_optional(out, "dedup_ratio", c.dedup_ratio)
    put_optional(out, "cloned_bytes", c.cloned_bytes)
    out.update(c.extra)
    return out


def dataset_to_document(ds: Dataset) -> dict[str, Any]:
    out: dict[str, Any] = {"name": ds.name, "type": ds.type.value}
    for key in ("recordsize", "volblocksize", "volsize", "quota", "special_small_blocks"):
        put_optional(out, key, _size(getattr(ds, key)))
    put_optional(out, "compression", ds.compression)
    put_optional(out, "copies", ds.copies)
    put_optional(out, "sync", ds.sync)
    if ds.contents is not None:
        out["contents"] = contents_to_document(ds.contents)
    out.update(ds.extra)
    return out


def design_to_document(design: Design) -> dict[str, Any]:
    """The design as a ``zfsplanner.design/1`` document (sizes in bytes or ZFS spelling)."""
    out: dict[str, Any] = {"format": FORMAT, "name": design.name}
    put_optional(out, "description", design.description)
    put_optional(out, "openzfs_version", design.openzfs_version.name if design.openzfs_version else None)
    put_optional(out, "disk_partitioning", design.disk_partitioning)
    put_optional(out, "ashift", design.ashift)
    if design.features is not None:
        out["features"] = dict(design.features)
    out["vdevs"] = [vdev_to_document(v) for v in design.vdevs]
    out["datasets"] = [dataset_to_document(d) for d in design.datasets]
    host = host_to_document(design.host)
    if host:
        out["host"] = host
    out.update(design.extra)
    return out


def host_to_document(host: Host) -> dict[str, Any]:
    """``host`` as the document writes it; empty when the design says nothing of its host."""
    out: dict[str, Any] = {}
    put_optional(out, "ram_bytes", host.ram_bytes)
    if host.tunables:
        out["tunables"] = dict(host.tunables)
    out.update(host.extra)
    return out


def with_defaults_resolved(design: Design) -> Design:
    """The design with version and partitioning filled in (for display)."""
    return replace(design, openzfs_version=design.release, disk_partitioning=design.partitioning)
