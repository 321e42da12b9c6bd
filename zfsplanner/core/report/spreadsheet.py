"""The estimate as CSV: a row for the pool, one per top-level vdev and one per dataset, exact
bytes and a label in words."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from ..design.types import Design
from ..estimate import Estimate
from .headline import CSV_COLUMNS

# --------------------------------------------------------------------------- CSV


def csv_rows(design: Design, estimate: Mapping[str, Any]) -> list[dict[str, Any]]:
    pool = estimate["pool"]
    rows: list[dict[str, Any]] = [{
        "kind": "pool", "name": design.name, "zpool_size_bytes": pool.get("zpool_size_bytes"),
        "zfs_avail_bytes": pool.get("zfs_avail_bytes"), "raw_bytes": pool.get("raw_bytes"),
        "data_allocated_bytes": pool.get("allocated_bytes"), "zfs_used_bytes": pool.get("zfs_used_bytes"),
        "special_allocated_bytes": pool.get("special_allocated_bytes"), "label": f"pool {design.name}",
    }]
    for v in estimate.get("vdevs") or []:
        shape = "single disk" if v["layout"] == "stripe" else f"{v['width']}-disk {v['layout']}"
        rows.append({
            "kind": "vdev", "name": f"{v['role']}[{v['index']}]", "role": v["role"], "layout": v["layout"],
            "width": v["width"], "count": 1, "ashift": v.get("ashift"), "fault_tolerance": v.get("fault_tolerance"),
            "zpool_size_bytes": v.get("zpool_size_bytes"), "raw_bytes": v.get("raw_bytes"),
            "removable": v.get("removable"), "label": f"{v['role']} vdev {v['index'] + 1}: {shape}",
        })
    for d in estimate.get("datasets") or []:
        kind = "volume" if d.get("volsize_bytes") or d.get("refreservation_bytes") is not None else "dataset"
        rows.append({"kind": "dataset", **{k: d.get(k) for k in CSV_COLUMNS if k in d}, "name": d["name"],
                     "label": f"{kind} {d['name']}"})
    return rows


def csv_text(design: Design, estimate: Estimate) -> str:
    """The estimate as CSV: a pool row, one row per top-level vdev, one per dataset; ``label`` names each in words."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(design, estimate.to_document()):
        writer.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v)
                         for k, v in row.items()})
    return buf.getvalue()
