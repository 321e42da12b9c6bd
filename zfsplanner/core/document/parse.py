"""Reading a design document into the dataclasses of :mod:`..design.types`, naming every bad field."""

from __future__ import annotations

import re
from typing import Any

from ..design.planning import planning_errors
from ..design.types import (
    DEFAULT_RELEASE,
    FORMAT,
    POOL_NAME_RE,
    RESERVED_POOL_NAMES,
    Dataset,
    Design,
    InvalidDesign,
    Partitioning,
    Role,
    VdevGroup,
)
from ..geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from ..geometry.vdev_shape import shape_errors
from ..versions import Version, supports, unknown_version_message
from .limits import MAX_BYTES, document_errors
from .parts import read_dataset, read_host, read_vdev
from .reader import Reader, extra

DESIGN_KEYS = (
    "format",
    "name",
    "openzfs_version",
    "disk_partitioning",
    "ashift",
    "features",
    "description",
    "vdevs",
    "datasets",
    "host",
)
# pool features that change accounting, with the release that brings each
POOL_FEATURES = {"fast_dedup": "ddt_flat_entries"}


def parse_design(doc: Any) -> Design:
    """Read and validate a design document; raise :class:`InvalidDesign` naming every bad field."""
    r = Reader()
    d = r.obj(doc, "")
    if d is None:
        raise InvalidDesign([("", "the design must be a JSON object")])
    limit_errors = document_errors(d)  # before anything proportional to the values (core/document/limits.py)
    if limit_errors:
        raise InvalidDesign(limit_errors)
    fmt = d.get("format", FORMAT)
    if fmt != FORMAT:
        r.err("format", f"{fmt!r} is not supported (expected {FORMAT!r})")
    name = r.string(d, "name", "", required=True)
    if name is not None:
        if not POOL_NAME_RE.match(name) or len(name) > 255:
            r.err("name", f"{name!r} is not a valid pool name (start with a letter; letters, digits, _ . : -)")
        elif name in RESERVED_POOL_NAMES or re.match(r"^c[0-9]", name):
            r.err("name", f"{name!r} is reserved by zpool")
    version = r.string(d, "openzfs_version", "")
    problem = unknown_version_message(version) if version is not None else None
    if problem is not None:
        r.err("openzfs_version", problem)
    # where the document's text becomes a Version (it keeps the spelling: "2.3" is written back as "2.3")
    release = Version.parse(version) if version is not None and problem is None else None
    partitioning = r.choice(d, "disk_partitioning", "", Partitioning)
    pool_ashift = r.integer(d, "ashift", "", lo=ASHIFT_MIN, hi=ASHIFT_MAX)
    vdevs: list[VdevGroup] = []
    raw_vdevs = d.get("vdevs")
    if not isinstance(raw_vdevs, list):
        r.err("vdevs", "is required: a list of vdev groups" if raw_vdevs is None else "must be a list")
    else:
        for i, item in enumerate(raw_vdevs):
            v = read_vdev(r, item, f"vdevs[{i}]")
            if v is not None:
                vdevs.append(v)
        if raw_vdevs and not any(v.role == Role.DATA for v in vdevs) and len(vdevs) == len(raw_vdevs):
            r.err("vdevs", "needs at least one data vdev")
        elif not raw_vdevs:
            r.err("vdevs", "needs at least one data vdev")
        raw_total = sum(sum(disk.size_bytes for disk in v.disks) * v.count for v in vdevs)
        if raw_total > MAX_BYTES:
            r.err("vdevs", f"hold {raw_total:,} bytes in all, beyond what one pool can address (2^64 − 1 = 16 EiB)")
    datasets: list[Dataset] = []
    raw_ds = d.get("datasets", [])
    if raw_ds is None:
        raw_ds = []
    if not isinstance(raw_ds, list):
        r.err("datasets", "must be a list")
    else:
        seen: set[str] = set()
        for i, item in enumerate(raw_ds):
            ds = read_dataset(r, item, f"datasets[{i}]", name)
            if ds is not None:
                if ds.name in seen:
                    r.err(f"datasets[{i}].name", f"{ds.name!r} appears twice")
                seen.add(ds.name)
                datasets.append(ds)
    description = r.string(d, "description", "")
    features = _read_features(r, d.get("features"), release)
    host = read_host(r, d.get("host"))
    for path, message in planning_errors(d, len(raw_vdevs) if isinstance(raw_vdevs, list) else 0):
        r.err(path, message)
    if r.errors:
        raise InvalidDesign(r.errors)
    assert name is not None
    design = Design(
        name=name,
        vdevs=tuple(vdevs),
        datasets=tuple(datasets),
        openzfs_version=release,
        disk_partitioning=partitioning,
        description=description,
        extra=extra(d, DESIGN_KEYS),
        ashift=pool_ashift,
        features=features,
        host=host,
    )
    problems = shape_errors(design) + _written_before_errors(design)
    if problems:
        raise InvalidDesign(problems)
    return design


def _written_before_errors(design: Design) -> list[tuple[str, str]]:
    """The data written before a RAIDZ expansion is given once: per dataset (its share sets the
    dataset's USED and the expansion report adds the shares up) or, in a design whose datasets do
    not give it, as the widened vdev's total (the report's alone). Both at once is refused."""
    if not any(ds.contents is not None and ds.contents.logical_bytes_written_before is not None
               for ds in design.datasets):
        return []
    return [
        (f"vdevs[{i}].logical_bytes_written_before",
         "is given per dataset too: give it once, on the datasets (each dataset's share sets its USED, "
         "and the expansion report adds the shares up)")
        for i, g in enumerate(design.vdevs)
        if g.logical_bytes_written_before is not None
    ]


def _read_features(r: Reader, value: Any, version: Version | None) -> dict[str, bool] | None:
    """``features``: ``{"fast_dedup": true}``; each a known feature, true or false, on a release
    that has it when true."""
    if value is None:
        return None
    d = r.obj(value, "features")
    if d is None:
        return None
    out: dict[str, bool] = {}
    for key, on in d.items():
        path = f"features.{key}"
        if key not in POOL_FEATURES:
            r.err(path, f"{key!r} is not a pool feature the planner models (one of {', '.join(POOL_FEATURES)})")
        elif not isinstance(on, bool):
            r.err(path, f"must be true or false (got {on!r})")
        elif on and not supports(version or DEFAULT_RELEASE, POOL_FEATURES[key]):
            r.err(path, f"{key} needs OpenZFS 2.3 or later (the design says {version.name if version else None})")
        else:
            out[key] = on
    return out
