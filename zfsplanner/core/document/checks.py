"""The rules that span a design's parts, over a :class:`~zfsplanner.core.design.types.Design`.

The part readers of :mod:`.parts` check what one vdev group, dataset or host says on its own;
what needs more than one part lives here, once: a pool name zpool accepts, datasets under the
pool and named once, at least one data vdev, the pool's raw size, the pool features its release
has, the planning settings (their ``vdevs[i]`` keys name a group), the vdev shapes (an ashift
zpool refuses, a member too small) and data written before an expansion given once.

:func:`~.parse.parse_design` calls each rule while it reads a document (so a document gets
all its errors at once); :func:`design_errors` runs them all on a design changed in memory (the
designer's edits, a risk's fix) before it is saved, so a design is never saved half checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..design.planning import planning_errors
from ..design.types import (
    DEFAULT_RELEASE,
    POOL_NAME_RE,
    RESERVED_POOL_NAMES,
    Dataset,
    Design,
    Role,
    VdevGroup,
)
from ..geometry.vdev_shape import shape_errors
from ..versions import Version, supports, unknown_version_message
from .limits import MAX_BYTES

# pool features that change accounting, with the release that brings each
POOL_FEATURES = {"fast_dedup": "ddt_flat_entries"}
NO_DATA_VDEV = "needs at least one data vdev"

Errors = list[tuple[str, str]]


def pool_name_problem(name: str) -> str | None:
    """Why ``zpool create`` refuses ``name`` as a pool name (None when it takes it)."""
    if not POOL_NAME_RE.match(name) or len(name) > 255:
        return f"{name!r} is not a valid pool name (start with a letter; letters, digits, _ . : -)"
    if name in RESERVED_POOL_NAMES or re.match(r"^c[0-9]", name):
        return f"{name!r} is reserved by zpool"
    return None


def dataset_pool_problem(name: str, pool: str | None) -> str | None:
    """Why the dataset ``name`` cannot be in the pool ``pool`` (None when it is under it)."""
    if pool and name.split("/")[0] != pool:
        return f"{name!r} must start with the pool name {pool!r}"
    return None


def feature_problem(key: str, on: Any, version: Version | None) -> str | None:
    """Why ``features.<key>`` cannot be ``on`` on the release ``version`` (None when it can)."""
    if key not in POOL_FEATURES:
        return f"{key!r} is not a pool feature the planner models (one of {', '.join(POOL_FEATURES)})"
    if not isinstance(on, bool):
        return f"must be true or false (got {on!r})"
    if on and not supports(version or DEFAULT_RELEASE, POOL_FEATURES[key]):
        return f"{key} needs OpenZFS 2.3 or later (the design says {version.name if version else None})"
    return None


def raw_total_problem(vdevs: Iterable[VdevGroup]) -> str | None:
    """The disks of every group together, when they hold more than one pool can address."""
    raw_total = sum(sum(disk.size_bytes for disk in v.disks) * v.count for v in vdevs)
    if raw_total > MAX_BYTES:
        return f"hold {raw_total:,} bytes in all, beyond what one pool can address (2^64 − 1 = 16 EiB)"
    return None


def repeated_name_errors(datasets: Iterable[tuple[int, Dataset]]) -> Errors:
    """A dataset name given a second time, at the place (``datasets[i]``) it comes again."""
    seen: set[str] = set()
    errors: Errors = []
    for i, ds in datasets:
        if ds.name in seen:
            errors.append((f"datasets[{i}].name", f"{ds.name!r} appears twice"))
        seen.add(ds.name)
    return errors


def written_before_errors(design: Design) -> Errors:
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


def layout_errors(design: Design) -> Errors:
    """What only a whole design tells: the vdev shapes zpool refuses and written-before given twice."""
    return shape_errors(design) + written_before_errors(design)


def _vdev_set_errors(vdevs: Sequence[VdevGroup]) -> Errors:
    errors: Errors = []
    if not any(v.role == Role.DATA for v in vdevs):
        errors.append(("vdevs", NO_DATA_VDEV))
    total = raw_total_problem(vdevs)
    if total is not None:
        errors.append(("vdevs", total))
    return errors


def design_errors(design: Design) -> Errors:
    """Every rule that spans the parts of ``design``, in the order :func:`~.parse.parse_design`
    reports them; empty when the design may be saved. The parts themselves (each group, dataset and
    the host) are read by :mod:`.parts` where they come in."""
    errors: Errors = []
    problem = pool_name_problem(design.name)
    if problem is not None:
        errors.append(("name", problem))
    if design.openzfs_version is not None:
        problem = unknown_version_message(design.openzfs_version.name)
        if problem is not None:
            errors.append(("openzfs_version", problem))
    errors += _vdev_set_errors(design.vdevs)
    for i, ds in enumerate(design.datasets):
        problem = dataset_pool_problem(ds.name, design.name)
        if problem is not None:
            errors.append((f"datasets[{i}].name", problem))
    errors += repeated_name_errors(enumerate(design.datasets))
    for key, on in (design.features or {}).items():
        problem = feature_problem(key, on, design.openzfs_version)
        if problem is not None:
            errors.append((f"features.{key}", problem))
    errors += planning_errors(design.extra, len(design.vdevs))
    return errors or layout_errors(design)
