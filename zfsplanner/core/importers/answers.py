"""Sizes no output gave: the questions an import asks, and the document once they are answered."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..design.types import Partitioning
from ..document.parse import parse_design
from .members import (
    CatalogEntry,
    TopVdev,
    disk_fields,
)
from .pool_import import IMPORT_KEY, ImportProblem

# --------------------------------------------------------------------------- sizes no output gave


def size_questions(tops: list[TopVdev]) -> tuple[list[TopVdev], list[dict[str, Any]]]:
    """One question per distinct device model (or, without a model, per role) whose size is unknown.

    A partition's size is its own, not its disk's: partitions are asked per model and role.
    """
    keys: dict[tuple[str, str, bool], dict[str, Any]] = {}
    out = []
    for t in tops:
        members = []
        for m in t.members:
            if m.size_bytes is not None:
                members.append(m)
                continue
            partition = m.partitioning == Partitioning.NONE
            key = (m.model or "", m.role if partition or not m.model else "", partition)
            q = keys.get(key)
            if q is None:
                q = keys[key] = {"id": f"q{len(keys) + 1}", "model": m.model, "role": m.role, "devices": [],
                                 "vdevs": [], "partition": partition}
            q["devices"].append(m.name)
            if t.name not in q["vdevs"]:
                q["vdevs"].append(t.name)
            members.append(replace(m, question=q["id"], size_source="asked in the preview"))
        out.append(replace(t, members=tuple(members)))
    return out, list(keys.values())


def with_stand_ins(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy whose asked disks hold 1 TiB, only to check everything the outputs did give."""
    out = copy.deepcopy(doc)
    for v in out.get("vdevs") or []:
        for d in [v["disk"]] if "disk" in v else v.get("disks") or []:
            if "size_question" in d:
                d["size_bytes"] = 1 << 40
    return out


def asked(doc: dict[str, Any], path: str) -> bool:
    """Whether ``path`` (``vdevs[2].disk.size_bytes``) is the size of a disk the preview asks for."""
    m = re.fullmatch(r"vdevs\[([0-9]+)\]\.(?:disk|disks\[([0-9]+)\])\.size_bytes", path)
    if m is None:
        return False
    vdevs = doc.get("vdevs") or []
    i = int(m.group(1))
    if i >= len(vdevs):
        return False
    disks = [vdevs[i].get("disk")] if m.group(2) is None else list(vdevs[i].get("disks") or [])
    j = int(m.group(2) or 0)
    return j < len(disks) and isinstance(disks[j], dict) and "size_question" in disks[j]


def is_ashift_question(q: Mapping[str, Any]) -> bool:
    """The question of an ashift the outputs allow several values of (the others ask a size)."""
    return q.get("kind") == "ashift"


def answer_sizes(document: dict[str, Any], answers: Mapping[str, int | CatalogEntry]) -> dict[str, Any]:
    """The imported design with the sizes (and ashift) the preview asked for: ``{question id: bytes, catalog
    disk, or the ashift}``.

    A catalog disk gives its size and links the disks to it (model, sectors, media, rpm...). The ashift
    answer is one of the question's ``choices``; it goes to every vdev no output gave one.
    Raises :class:`ImportProblem` for an answer to no open question or an ashift the outputs rule out, and
    :class:`~zfsplanner.core.design.types.InvalidDesign` when the sizes make no valid design (a member
    too small for ZFS) once every question is answered.
    """
    doc = copy.deepcopy(document)
    imported = doc.setdefault(IMPORT_KEY, {})
    open_ids = {q["id"] for q in imported.get("questions") or []}
    unknown = sorted(set(answers) - open_ids)
    if unknown:
        raise ImportProblem(None, f"no open question {unknown[0]!r}")

    for q in imported.get("questions") or []:
        if is_ashift_question(q) and q["id"] in answers:
            value = answers[q["id"]]
            if isinstance(value, CatalogEntry) or value not in q["choices"]:
                shown = value.model if isinstance(value, CatalogEntry) else value
                raise ImportProblem(None, f"ashift {shown} does not give the sizes the outputs report (they allow "
                                          f"{', '.join(str(c) for c in q['choices'])})")
            for i, v in enumerate(doc.get("vdevs") or []):
                if "ashift" not in v:
                    items = list(v.items())
                    at = next((k + 1 for k, (key, _) in enumerate(items) if key == "count"), len(items))
                    doc["vdevs"][i] = dict([*items[:at], ("ashift", value), *items[at:]])
            imported.setdefault("notes", []).append(f"ashift {value}: given in the preview")

    def size_of(answer: int | CatalogEntry) -> int:
        return answer.size_bytes if isinstance(answer, CatalogEntry) else answer

    for v in doc.get("vdevs") or []:
        for d in [v["disk"]] if "disk" in v else v.get("disks") or []:
            q = d.get("size_question")
            if q in answers:
                answer = answers[q]
                del d["size_question"]
                rest = {k: d.pop(k) for k in list(d)}
                d["size_bytes"] = size_of(answer)  # size first, as the importer writes
                d.update(rest)
                if isinstance(answer, CatalogEntry):
                    d.update(disk_fields(answer))
    for dev in imported.get("devices") or []:
        q = dev.get("question")
        if q in answers:
            answer = answers[q]
            dev["size_bytes"] = size_of(answer)
            if isinstance(answer, CatalogEntry):
                dev["size_source"] = f"the catalog ({answer.model}), chosen in the preview"
                dev["catalog"] = answer.model
            else:
                dev["size_source"] = "given in the preview"
    left = [q for q in imported.get("questions") or [] if q["id"] not in answers]
    if left:
        imported["questions"] = left
    else:
        imported.pop("questions", None)
        parse_design(doc)
    return doc
