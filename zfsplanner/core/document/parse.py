"""Reading a design document into the dataclasses of :mod:`..design.types`, naming every bad field."""

from __future__ import annotations

from typing import Any

from ..design.planning import planning_errors
from ..design.types import (
    FORMAT,
    Dataset,
    Design,
    InvalidDesign,
    Partitioning,
    Role,
    VdevGroup,
)
from ..geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from ..versions import Version, unknown_version_message
from .checks import (
    NO_DATA_VDEV,
    feature_problem,
    layout_errors,
    pool_name_problem,
    raw_total_problem,
    repeated_name_errors,
)
from .export import design_to_document
from .limits import document_errors
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
    problem = pool_name_problem(name) if name is not None else None
    if problem is not None:
        r.err("name", problem)
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
            r.err("vdevs", NO_DATA_VDEV)
        elif not raw_vdevs:
            r.err("vdevs", NO_DATA_VDEV)
        total = raw_total_problem(vdevs)
        if total is not None:
            r.err("vdevs", total)
    datasets: list[Dataset] = []
    raw_ds = d.get("datasets", [])
    if raw_ds is None:
        raw_ds = []
    if not isinstance(raw_ds, list):
        r.err("datasets", "must be a list")
    else:
        read: list[tuple[int, Dataset]] = []
        for i, item in enumerate(raw_ds):
            ds = read_dataset(r, item, f"datasets[{i}]", name)
            if ds is not None:
                read.append((i, ds))
                datasets.append(ds)
        for path, message in repeated_name_errors(read):
            r.err(path, message)
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
    problems = layout_errors(design)
    if problems:
        raise InvalidDesign(problems)
    return design


def validate_design(design: Design) -> Design:
    """``design`` as its document reads back: a design made by changing another one (a one-click fix)
    passes the check a design gets when it is saved, or ``InvalidDesign`` names every bad field."""
    return parse_design(design_to_document(design))


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
        problem = feature_problem(key, on, version)
        if problem is not None:
            r.err(f"features.{key}", problem)
        else:
            out[key] = on
    return out
