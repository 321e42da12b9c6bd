"""What the import pages show, computed once per request from the imported design."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zfsplanner.core.design import InvalidDesign, parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers.compare import Row, compare
from zfsplanner.core.units import format_iec, format_si


@dataclass(frozen=True)
class VdevLine:
    role: str
    shape: str
    disk: str
    partitioning: str
    ashift: str


@dataclass(frozen=True)
class Preview:
    """The imported design, its estimate and how far the model is from the pool."""

    document: dict[str, Any]
    estimate: dict[str, Any] | None
    error: str | None
    rows: list[Row] = field(default_factory=list)
    vdevs: list[VdevLine] = field(default_factory=list)

    @property
    def imported(self) -> dict[str, Any]:
        value = self.document.get("imported")
        return value if isinstance(value, dict) else {}

    @property
    def headline(self) -> list[Row]:
        """SIZE and AVAIL: the two figures the page leads with."""
        return [r for r in self.rows if r.key in ("size", "avail")]

    @property
    def details(self) -> list[Row]:
        return [r for r in self.rows if r.key not in ("size", "avail")]

    @property
    def datasets(self) -> list[dict[str, Any]]:
        return list(self.document.get("datasets") or [])


def _disk_text(vdev: dict[str, Any]) -> str:
    disks = [vdev["disk"]] if "disk" in vdev else list(vdev.get("disks") or [])
    parts = []
    for d in disks:
        size = d.get("size_bytes")
        label = f"{format_si(size)} ({format_iec(size)})" if isinstance(size, int) else str(size)
        text = f"{d.get('model') or 'disk'} {label}"
        if d.get("catalog"):
            text += " (catalog)"
        if text not in parts:
            parts.append(text)
    return "; ".join(parts)


def preview(document: dict[str, Any]) -> Preview:
    vdevs = []
    for v in document.get("vdevs") or []:
        shape = f"{v['count']} × {v['layout']}" + (f" of {v['width']}" if v["layout"] != "stripe" else "")
        if v.get("draid_data") is not None:
            shape += f" ({v['draid_data']}d, {v.get('draid_spares', 0)}s)"
        vdevs.append(VdevLine(v["role"], shape, _disk_text(v),
                              v.get("disk_partitioning") or document.get("disk_partitioning") or "linux-whole-disk",
                              str(v.get("ashift") or "auto")))
    try:
        est = estimate(parse_design(document))
    except InvalidDesign as exc:
        return Preview(document, None, str(exc), vdevs=vdevs)
    return Preview(document, est, None, compare(document, est), vdevs)
