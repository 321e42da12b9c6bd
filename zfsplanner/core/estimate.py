"""Assemble the ``zfsplanner.estimate/1`` document from the calculation modules.

Every figure the core cannot compute is ``None`` (JSON ``null``), never a guess.
"""

from __future__ import annotations

from typing import Any

from .design import Design, Role, parse_design

FORMAT = "zfsplanner.estimate/1"

FAULT_TOLERANCE_NONE = 0


def estimate_document(doc: Any) -> dict[str, Any]:
    """Validate a design document and estimate it (raises ``InvalidDesign``)."""
    return estimate(parse_design(doc))


def estimate(design: Design) -> dict[str, Any]:
    vdevs = []
    index = 0
    for group in design.vdevs:
        for _ in range(group.count):
            vdevs.append(
                {
                    "role": group.role.value,
                    "index": index,
                    "layout": group.layout.value,
                    "width": group.width,
                    "ashift": group.ashift,
                    "zpool_size_bytes": None,
                    "fault_tolerance": None,
                    "removable": None,
                }
            )
            index += 1
    datasets = [
        {
            "name": ds.name,
            "logical_bytes": ds.contents.logical_bytes if ds.contents else None,
            "compressratio": None,
            "data_allocated_bytes": None,
            "metadata_allocated_bytes": None,
            "special_allocated_bytes": None,
            "normal_allocated_bytes": None,
            "zfs_used_bytes": None,
            "raidz_overhead_fraction": None,
        }
        for ds in design.datasets
    ]
    return {
        "format": FORMAT,
        "design": {"name": design.name, "openzfs_version": design.version},
        "pool": {
            "raw_bytes": sum(d.size_bytes * g.count for g in design.vdevs if g.role != Role.SPARE for d in g.disks),
            "zpool_size_bytes": None,
            "zfs_avail_bytes": None,
            "slop_bytes": None,
            "special_size_bytes": None,
            "allocated_bytes": None,
            "used_fraction": None,
        },
        "vdevs": vdevs,
        "datasets": datasets,
        "risks": [],
    }
