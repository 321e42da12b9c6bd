"""Datasets of an imported pool: ``zfs get``/``zfs list`` values -> the design's dataset objects.

A property joins the design when it is set on the dataset or inherited (``zfs get``
says so in its SOURCE column), or, without sources (``zfs list``), when it differs from
the OpenZFS default of the pool's version; the estimate then sees the value in force.
``contents.logical_bytes`` is ``logicalreferenced`` (or REFER x the compression ratio) and
the measured ratio becomes ``contents.compressibility``. Snapshots are not modelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..design.types import DatasetType
from ..properties.resolve import default
from ..units import format_zfs_size, parse_zfs_size
from ..versions import Version
from .common import parse_ratio, parse_size

ROOT_DATA_THRESHOLD = 64 * 1024**2


def root_matters(doc: Mapping[str, Any]) -> bool:
    """The pool's root dataset joins the design when it sets a property or holds data (64 MiB or more)."""
    if set(doc) - {"name", "type", "contents"}:
        return True
    logical = (doc.get("contents") or {}).get("logical_bytes") or 0
    return bool(logical >= ROOT_DATA_THRESHOLD)


def dataset_from(
    name: str,
    dtype: str,
    values: Mapping[str, str],
    sources: Mapping[str, str | None],
    notes: list[str],
    version: Version,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The design's dataset object and what the pool reported for it."""
    doc: dict[str, Any] = {"name": name, "type": dtype}

    def given(prop: str) -> str | None:
        v = values.get(prop)
        return None if v in (None, "-", "") else v

    def set_here(prop: str) -> bool:
        """Locally set or inherited (with sources), else different from the OpenZFS default."""
        v = given(prop)
        if v is None:
            return False
        src = sources.get(prop)
        if src is not None and src != "-":
            return src != "default"
        release_default = default(prop, version, DatasetType(dtype))
        if isinstance(release_default, int):
            return parse_zfs_size(v) != release_default
        return bool(v != release_default)

    if dtype == "filesystem":
        if set_here("recordsize"):
            doc["recordsize"] = _zfs_size(given("recordsize"))
    else:
        volsize = given("volsize")
        if volsize is None:
            raise ValueError("a volume without volsize")
        doc["volsize"] = _zfs_size(volsize)
        if given("volblocksize"):
            doc["volblocksize"] = _zfs_size(given("volblocksize"))
        refres = given("refreservation")
        if refres is not None and refres in ("none", "0"):
            doc["sparse"] = True
    for prop in ("compression", "sync", "dedup"):
        if set_here(prop):
            doc[prop] = given(prop)
    if set_here("copies"):
        doc["copies"] = int(given("copies") or 1)
    if set_here("special_small_blocks"):
        doc["special_small_blocks"] = _zfs_size(given("special_small_blocks"))
    quota = given("quota")
    if dtype == "filesystem" and quota not in (None, "none", "0"):
        doc["quota"] = _zfs_size(quota)
    for prop in ("dnodesize", "redundant_metadata"):
        if set_here(prop):
            doc[prop] = given(prop)

    reported: dict[str, Any] = {}
    for key, prop in (("zfs_used_bytes", "used"), ("zfs_avail_bytes", "available"),
                      ("referenced_bytes", "referenced"), ("logicalreferenced_bytes", "logicalreferenced"),
                      ("usedbysnapshots_bytes", "usedbysnapshots")):
        v = given(prop)
        if v is not None:
            s = parse_size(v)
            if s is not None:
                reported[key] = s.bytes
                if key == "zfs_avail_bytes":
                    reported["zfs_avail_exact"] = s.exact
    ratio = parse_ratio(values.get("refcompressratio") or values.get("compressratio") or "-")
    if ratio is not None:
        reported["compressratio"] = ratio
    logical = reported.get("logicalreferenced_bytes")
    if logical is None and "referenced_bytes" in reported:
        logical = int(reported["referenced_bytes"] * (ratio or 1.0))
    if logical:
        contents: dict[str, Any] = {"logical_bytes": logical}
        comp = doc.get("compression") or given("compression") or "off"
        if comp != "off" and ratio is not None:
            contents["compressibility"] = {"ratio": max(1.0, round(ratio, 2)), "algorithm": comp}
        doc["contents"] = contents
    if reported.get("usedbysnapshots_bytes"):
        notes.append(f"{name}: {reported['usedbysnapshots_bytes']} B held by snapshots are not modelled")
    return doc, reported


def _zfs_size(text: str | None) -> str | int:
    assert text is not None
    return format_zfs_size(parse_zfs_size(text))
