"""Turn the parsed outputs of an existing pool into a design document.

The vdev tree comes from ``zpool status`` (or, without it, the indented rows of
``zpool list -v``); each member's size from the first source that knows it:

1. ``lsblk -b``: the disk (for a whole disk) or the partition (for a partition member);
2. ``zpool list -v -p`` (OpenZFS 2.2+, 2.1.6+) or ``zpool status -j``: the leaf's physical size,
   i.e. the partition ZFS uses; for a Linux whole disk the disk size is the smallest one that
   ``zpool create`` would have given that partition (:func:`disk_size_for_partition`). A disk
   that is itself a top-level vdev prints its physical size as SIZE too, and the vdev's
   allocatable space as ALLOC + FREE (:func:`~.zpool_list.size_is_physical`);
3. otherwise the size that makes the model's SIZE equal the SIZE the pool reports for
   that vdev (a leaf's ALLOC + FREE, or the pool's); the comparison then says the figure was fitted.

Models, serials, sector sizes and media come from ``lsblk`` or from by-id names, and a
model found in the catalog links the disk to it. Datasets and their current usage come
from ``zfs get``/``zfs list``; the OpenZFS version from ``zfs version`` or from the
features ``zpool get all`` lists. What the pool itself reported (SIZE, ALLOC, AVAIL, per
vdev and dataset) is kept under the document's ``imported`` key for the comparison.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..design.types import InvalidDesign, Partitioning
from ..document.parse import parse_design
from ..estimate import estimate
from ..geometry.ashift import resolve
from .answers import asked, size_questions, with_stand_ins
from .ashift_inference import candidates, infer
from .builder import Builder
from .compare import Row, compare
from .members import (
    CatalogEntry,
    TopVdev,
)
from .outputs import Outputs, read_sections
from .pool_import import IMPORT_KEY, ImportProblem, PoolImport
from .savings import ReportedSavings, reported_savings, with_cloned_bytes, with_dedup_ratio
from .sections import Section

__all__ = ["build", "import_sections"]

# --------------------------------------------------------------------------- groups and the document


def _group(tops: list[TopVdev]) -> list[tuple[TopVdev, int]]:
    """Consecutive identical top-level vdevs become one group with a count."""
    groups: list[tuple[TopVdev, int]] = []
    for t in tops:
        if groups and _signature(groups[-1][0]) == _signature(t):
            groups[-1] = (groups[-1][0], groups[-1][1] + 1)
        else:
            groups.append((t, 1))
    return groups


def _signature(t: TopVdev) -> tuple[Any, ...]:
    disks = tuple(repr(sorted(m.disk_document().items())) for m in t.members)
    parts = tuple(m.partitioning for m in t.members)
    return (t.role, t.layout, len(t.members), t.draid_data, t.draid_spares, t.ashift, disks, parts)


def _vdev_document(t: TopVdev, count: int, design_partitioning: Partitioning) -> dict[str, Any]:
    width = len(t.members) if t.role not in ("cache", "spare") else 1
    doc: dict[str, Any] = {"role": t.role, "layout": t.layout.value, "width": width, "count": count}
    if t.ashift is not None:
        doc["ashift"] = t.ashift
    if t.draid_data is not None:
        doc["draid_data"] = t.draid_data
        doc["draid_spares"] = t.draid_spares or 0
    parts = {m.partitioning for m in t.members}
    if len(parts) > 1:
        raise ImportProblem(t.line, f"{t.name} mixes whole disks and partitions; the planner models one kind per vdev")
    part = parts.pop()
    if part != design_partitioning:
        doc["disk_partitioning"] = part.value
    disks = [m.disk_document() for m in t.members]
    if all(d == disks[0] for d in disks):
        doc["disk"] = disks[0]
    else:
        doc["disks"] = disks
    return doc


def import_sections(
    sections: Sequence[Section], *, pool: str | None = None, catalog: Sequence[CatalogEntry] = ()
) -> PoolImport:
    return build(read_sections(sections), pool=pool, catalog=catalog)


def build(found: Outputs, *, pool: str | None = None, catalog: Sequence[CatalogEntry] = ()) -> PoolImport:
    """The design document of the pool the parsed outputs describe."""
    if not found.status and not any(p.vdevs for p in found.lists):
        raise ImportProblem(None, "no vdev tree found: paste the output of `zpool status POOL` "
                                  "(optionally with zpool list -v -p, zpool get, zfs get/list and lsblk)")
    b = Builder(found, pool, catalog)
    tops: list[TopVdev] = []
    for t in b.top_vdevs():
        # cache and spare devices are one group each per identical device, each a stripe of width 1
        tops += [replace(t, members=(m,)) for m in t.members] if t.role in ("cache", "spare") else [t]
    datasets, reported_ds = b.datasets()
    savings = reported_savings(b.list, b.pool_props)
    with_dedup_ratio(datasets, savings.dedupratio, b.notes)
    stated = sorted({(t.ashift, t.name) for t in tops if t.ashift is not None and t.name in b.vdev_ashifts})
    if stated:
        b.notes.append("ashift from the vdev properties (zpool get ashift POOL all-vdevs): "
                       + ", ".join(f"{name} {a}" for a, name in stated))
    if b.config_stated:
        b.notes.append("ashift from the pool configuration (zdb -C): "
                       + ", ".join(f"{name} {a}" for a, name in sorted(set(b.config_stated))))

    def document(tops: list[TopVdev]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return _document(b, tops, datasets, reported_ds, found, savings)

    ashift_question = None
    try:
        if any(t.ashift is None for t in tops):
            tops, ashift_question = _infer_ashift(b, tops, document)
        doc, questions = document(tops)
    except InvalidDesign as exc:  # a member size no vdev can have (a SIZE cut off in the paste: 3 B)
        problems = "; ".join(msg for _, msg in exc.errors)
        raise ImportProblem(None, f"the sizes the outputs give make no vdev ZFS could build: {problems}") from None
    if ashift_question is not None:
        ashift_question["id"] = f"q{len(questions) + 1}"
        questions.append(ashift_question)
        doc[IMPORT_KEY]["questions"] = questions
    try:
        # sizes still to be asked are no fault of the outputs: the rest is checked with them standing at 1 TiB
        parse_design(with_stand_ins(doc) if questions else doc)
    except InvalidDesign as exc:
        errors = [(path, msg) for path, msg in exc.errors if not asked(doc, path)]
        if errors:
            raise ImportProblem(None, f"the pool does not make a valid design: {InvalidDesign(errors)}") from None
    members = tuple(m for t in tops for m in t.members)
    return PoolImport(doc, members, tuple(doc[IMPORT_KEY]["notes"]), tuple(found.sources))


def _document(b: Builder, tops: list[TopVdev], datasets: list[dict[str, Any]],
              reported_ds: dict[str, dict[str, Any]], found: Outputs,
              savings: ReportedSavings) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The design document of these top-level vdevs (member sizes fitted or asked), and its size questions."""
    tops, questions = size_questions(b.fill_unknown_sizes(tops))
    members = tuple(m for t in tops for m in t.members)
    data_parts = [m.partitioning for t in tops if t.role == "data" for m in t.members]
    design_partitioning = data_parts[0] if data_parts else Partitioning.LINUX_WHOLE_DISK
    notes = list(b.notes)  # this document's: each ashift tried makes one
    doc: dict[str, Any] = {"format": "zfsplanner.design/1", "name": b.name}
    doc["openzfs_version"] = b.release.name
    doc["disk_partitioning"] = design_partitioning.value
    doc["vdevs"] = [_vdev_document(t, n, design_partitioning) for t, n in _group(tops)]
    doc["datasets"] = copy.deepcopy(datasets)
    with_cloned_bytes(doc, savings.bclonesaved, notes, priced=with_stand_ins(doc) if questions else doc)
    doc[IMPORT_KEY] = {
        "from": list(found.sources),
        "reported": b.reported(tops, copy.deepcopy(reported_ds)),
        "notes": list(dict.fromkeys(notes)),
        "devices": [
            {"name": m.name, "role": m.role, "vdev": m.vdev, "state": m.state, "size_bytes": m.size_bytes,
             "size_source": m.size_source, "model": m.model, "serial": m.serial,
             "catalog": m.catalog.model if m.catalog else None, "question": m.question}
            for m in members
        ],
    }
    if questions:
        doc[IMPORT_KEY]["questions"] = questions
    return doc, questions


Document = Callable[[list[TopVdev]], tuple[dict[str, Any], list[dict[str, Any]]]]


def _infer_ashift(b: Builder, tops: list[TopVdev], document: Document) -> tuple[list[TopVdev], dict[str, Any] | None]:
    """Give the vdevs whose ashift no output states the one the outputs' sizes allow (see
    :mod:`.ashift_inference`); several: the question to ask; none or nothing to decide by: zpool's choice.
    ``document`` makes the design document (and its size questions) of a list of top-level vdevs."""
    members = [m for t in tops for m in t.members]
    if b.ashift_not_requested and all(m.logical_sector and m.physical_sector for m in members):
        b.notes.append(f"ashift {_automatic(tops, document)}as zpool chose it for the disks' "
                       "sector sizes (lsblk): zpool get ashift prints 0, so the pool was created without -o ashift")
        return tops, None
    logical = max((m.logical_sector for m in members if m.logical_sector), default=512)

    def with_ashift(a: int) -> list[TopVdev]:
        return [replace(t, ashift=a) if t.ashift is None else t for t in tops]

    def rows_of(a: int) -> list[Row] | None:
        doc, questions = document(with_ashift(a))
        if questions:
            return []  # sizes still unknown: nothing decides
        try:
            return compare(doc, estimate(parse_design(doc)))
        except InvalidDesign:
            return None

    result = infer(candidates(logical.bit_length() - 1), rows_of)
    if result is None:
        b.notes.append("no output states the ashift nor gives a size that decides it: the ashift zpool would "
                       "choose is assumed (add `zpool get ashift POOL all-vdevs` on OpenZFS 2.2+, or `zpool list "
                       "-v -p` and `zfs list -p POOL`)")
        return tops, None
    b.notes.append(result.reason)
    if result.ashift is not None:
        return with_ashift(result.ashift), None
    if not result.matching:
        return tops, None
    return tops, {"id": "", "kind": "ashift", "choices": list(result.matching),
                  "vdevs": [t.name for t in tops if t.ashift is None], "reason": result.reason}


def _automatic(tops: list[TopVdev], document: Document) -> str:
    """``"12: "``: the ashift(s) ``zpool create`` gives these vdevs without ``-o ashift`` (:func:`resolve`)."""
    doc, questions = document(tops)
    if questions:
        return ""
    try:
        design = parse_design(doc)
    except InvalidDesign:
        return ""
    used = sorted({resolve(g, design.release).used for g in design.vdevs})
    return ", ".join(str(a) for a in used) + ": "
