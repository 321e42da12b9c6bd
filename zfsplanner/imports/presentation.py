"""What the import pages show, computed once per request from the imported design."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import Estimate, estimate
from zfsplanner.core.importers.compare import Row, compare
from zfsplanner.core.units import format_iec, format_si

from .catalog import catalog_entries
from .questions import SizeQuestion, open_questions, size_question


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
    estimate: Estimate | None
    error: str | None
    rows: list[Row] = field(default_factory=list)
    vdevs: list[VdevLine] = field(default_factory=list)
    questions: list[SizeQuestion] = field(default_factory=list)

    @property
    def imported(self) -> dict[str, Any]:
        value = self.document.get("imported")
        return value if isinstance(value, dict) else {}

    @property
    def size_questions(self) -> list[SizeQuestion]:
        """The questions of a size (the others ask an ashift the outputs leave open)."""
        return [q for q in self.questions if not q.choices]

    @cached_property
    def catalog_choices(self) -> list[tuple[str, str]]:
        """``(model, label)`` of the catalog's disks, smallest first, for the size questions."""
        if not any(not q.partition for q in self.questions):
            return []
        return [(c.model, f"{c.vendor or ''} {c.model}: {format_si(c.size_bytes)} ({format_iec(c.size_bytes)})".strip())
                for c in sorted(catalog_entries(), key=lambda c: (c.size_bytes, c.model))]

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
        if "size_question" in d:
            label = "size not known yet"
        else:
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
    imported = document.get("imported") if isinstance(document.get("imported"), dict) else {}
    questions = [size_question(q) for q in (imported or {}).get("questions") or []]
    if questions:
        # nothing that depends on the sizes can be estimated yet: the page asks for them
        return Preview(document, None, None, vdevs=vdevs, questions=questions)
    try:
        est = estimate(parse_design(document))
    except InvalidDesign as exc:
        return Preview(document, None, str(exc), vdevs=vdevs)
    return Preview(document, est, None, compare(document, est), vdevs)


def with_answers(document: dict[str, Any], data: Mapping[str, Any]) -> list[SizeQuestion]:
    """The open questions with what the user typed or chose (to show them again next to the error)."""
    return [replace(q, typed=str(data.get(q.field) or ""), chosen=str(data.get(q.catalog_field) or ""))
            for q in open_questions(document)]


def answer_error(exc: Exception, document: dict[str, Any]) -> str:
    """A refused answer in the words of the page: the question it answers, not a path in the document."""
    if not isinstance(exc, InvalidDesign):
        return str(exc)
    labels = {q.id: q.label for q in open_questions(document)}
    vdevs = document.get("vdevs") or []
    out = []
    for path, message in exc.errors:
        label = None
        if path.startswith("vdevs["):
            index = int(path[len("vdevs["):path.index("]")])
            v = vdevs[index] if index < len(vdevs) else {}
            disks = [v["disk"]] if "disk" in v else list(v.get("disks") or [])
            label = next((labels[d["size_question"]] for d in disks if d.get("size_question") in labels), None)
        out.append(f"{label}: {message}" if label else message)
    return "; ".join(out)
