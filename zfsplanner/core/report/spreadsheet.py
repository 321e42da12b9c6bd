"""The estimate as CSV: a row for the pool, one per top-level vdev and one per dataset, exact
bytes and a label in words."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..design.types import Design
from ..estimate import Estimate
from .headline import CSV_COLUMNS

# --------------------------------------------------------------------------- CSV


def csv_rows(design: Design, estimate: Estimate) -> list[dict[str, Any]]:
    pool = estimate.pool
    rows: list[dict[str, Any]] = [{
        "kind": "pool", "name": design.name, "zpool_size_bytes": pool.zpool_size_bytes,
        "zfs_avail_bytes": pool.zfs_avail_bytes, "raw_bytes": pool.raw_bytes,
        "data_allocated_bytes": pool.allocated_bytes, "zfs_used_bytes": pool.zfs_used_bytes,
        "special_allocated_bytes": pool.special_allocated_bytes, "label": f"pool {design.name}",
    }]
    for v in estimate.vdevs:
        shape = "single disk" if v.layout == "stripe" else f"{v.width}-disk {v.layout}"
        rows.append({
            "kind": "vdev", "name": f"{v.role}[{v.index}]", "role": v.role, "layout": v.layout,
            "width": v.width, "count": 1, "ashift": v.ashift, "fault_tolerance": v.fault_tolerance,
            "zpool_size_bytes": v.zpool_size_bytes, "raw_bytes": v.raw_bytes,
            "removable": v.removable, "label": f"{v.role} vdev {v.index + 1}: {shape}",
        })
    for d in estimate.datasets:
        kind = "volume" if d.refreservation_bytes is not None else "dataset"
        rows.append({
            "kind": "dataset", "name": d.name, "logical_bytes": d.logical_bytes, "compressratio": d.compressratio,
            "data_allocated_bytes": d.data_allocated_bytes, "metadata_allocated_bytes": d.metadata_allocated_bytes,
            "special_allocated_bytes": d.special_allocated_bytes, "normal_allocated_bytes": d.normal_allocated_bytes,
            "zfs_used_bytes": d.zfs_used_bytes, "referenced_bytes": d.referenced_bytes,
            "raidz_overhead_fraction": d.raidz_overhead_fraction, "label": f"{kind} {d.name}",
        })
    return rows


def csv_text(design: Design, estimate: Estimate) -> str:
    """The estimate as CSV: a pool row, one row per top-level vdev, one per dataset; ``label`` names each in words."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(design, estimate):
        writer.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v)
                         for k, v in row.items()})
    return buf.getvalue()
