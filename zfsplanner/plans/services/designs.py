"""A design as stored: its document validated, saved as one revision, undone, duplicated.

* ``resolve_catalog(doc)``: fill ``{"catalog": MODEL}`` disk references from the catalog.
* ``validate_document(doc)``: catalog references + ``parse_design``; raises ``InvalidDesign``.
* ``save_design_document(team, doc, user, instance=None)``: a document coming in (the API, an
  import, the JSON editor) validated first (one parse), then written from that ``Design``.
* ``save_design(team, design, user, instance=None)``: a changed ``Design`` (the designer's edits, a
  risk's fix) checked as a whole (the rules spanning its parts), then written; the revision's
  document once, by the core's ``design_to_document``. Both write in one transaction.
* ``walk_revisions`` (undo/redo), ``duplicate_design`` (a variant), ``export_filename``.
* ``apply_measured_ratio(...)``: store a measured compression ratio on one dataset.

Estimates and commands are in ``estimates``; who reaches a design, in ``access``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any, TypedDict, Unpack

from django.db import transaction
from django.db.models import QuerySet

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import Compressibility, Contents, Dataset, Design, Disk, InvalidDesign, Role
from zfsplanner.core.design.types import VdevGroup as GroupSpec
from zfsplanner.core.document.checks import design_errors
from zfsplanner.core.document.export import (
    contents_to_document,
    design_to_document,
    disk_to_document,
    host_to_document,
)
from zfsplanner.core.document.limits import document_errors
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.ashift import DEFAULT_POOL_ASHIFT, written_ashift

from ..models import (
    CatalogDisk,
    DatasetPlan,
    DesignRevision,
    PoolDesign,
    RevisionKind,
    VdevGroup,
    inline_disk,
)
from .editing import put_dataset, rename_pool


class _Auto:
    """Marker: the new revision undoes to the one it replaced."""


class RevisionOptions(TypedDict, total=False):
    """What a save records about the new revision (the keywords of :func:`save_design` and
    :func:`save_design_document`): ``expected_revision``, the one the change was made on
    (``EditConflict`` if another was saved since); its ``kind`` and ``summary``; the revisions
    undo and redo go to (``undo_to`` by default the one it replaces)."""

    expected_revision: int | None
    kind: str
    summary: str
    undo_to: int | None | type[_Auto]
    redo_to: int | None


# Keys the API puts next to the document; never stored as unknown document keys.
META_KEYS = ("id", "team", "revision", "created", "updated", "url")


def _disk_refs(doc: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every disk object of the document, with its path."""
    vdevs = doc.get("vdevs")
    if not isinstance(vdevs, list):
        return
    for i, v in enumerate(vdevs):
        if not isinstance(v, dict):
            continue
        if isinstance(v.get("disk"), dict):
            yield f"vdevs[{i}].disk", v["disk"]
        if isinstance(v.get("disks"), list):
            for j, d in enumerate(v["disks"]):
                if isinstance(d, dict):
                    yield f"vdevs[{i}].disks[{j}]", d


def catalog_for(doc: Mapping[str, Any]) -> dict[str, CatalogDisk]:
    """The catalog disks the document references, by model."""
    models = {d["catalog"] for _, d in _disk_refs(doc) if isinstance(d.get("catalog"), str)}
    return {c.model: c for c in CatalogDisk.objects.filter(model__in=models)} if models else {}


def resolve_catalog(doc: Any, catalog: dict[str, CatalogDisk] | None = None) -> Any:
    """The document with every catalog reference inlined; ``InvalidDesign`` for unknown models.

    A reference only needs to be known when the disk doesn't give its own ``size_bytes``
    (an exported file carries both the link and the inlined values). ``catalog``: the
    document's ``catalog_for``, when the caller has it already.
    """
    if not isinstance(doc, dict):
        return doc
    if catalog is None:
        catalog = catalog_for(doc)
    errors = []
    for path, disk in _disk_refs(doc):
        ref = disk.get("catalog")
        if ref is None:
            continue
        if not isinstance(ref, str):
            errors.append((f"{path}.catalog", "must be the model of a catalog disk (a string)"))
        elif ref not in catalog and "size_bytes" not in disk:
            errors.append((f"{path}.catalog", f"{ref!r} is not a disk in the catalog"))
    if errors:
        raise InvalidDesign(errors)
    if not catalog or not isinstance(doc.get("vdevs"), list):
        return doc
    vdevs = []
    for v in doc["vdevs"]:
        if isinstance(v, dict):
            v = dict(v)
            if "disk" in v:
                v["disk"] = inline_disk(v["disk"], catalog)
            if isinstance(v.get("disks"), list):
                v["disks"] = [inline_disk(d, catalog) for d in v["disks"]]
        vdevs.append(v)
    return {**doc, "vdevs": vdevs}


def validate_document(doc: Any, catalog: dict[str, CatalogDisk] | None = None) -> Design:
    """The core ``Design`` of a document that may reference catalog disks (``InvalidDesign`` otherwise)."""
    if isinstance(doc, dict):
        stray = [k for k in META_KEYS if k in doc]
        if stray:
            raise InvalidDesign([(k, "belongs next to the document, not in it") for k in stray])
    return parse_design(resolve_catalog(doc, catalog))


class EditConflict(Exception):
    """Someone saved a newer revision since the editor loaded ``expected``."""

    def __init__(self, current: int, expected: int) -> None:
        super().__init__(f"revision {current} was saved since revision {expected} was loaded")
        self.current = current
        self.expected = expected


def save_design_document(
    team: Team,
    doc: Mapping[str, Any],
    user: Any,
    instance: PoolDesign | None = None,
    **revision: Unpack[RevisionOptions],
) -> PoolDesign:
    """Validate the document ``doc`` (the API's, an import's, the JSON editor's) and store it as a new
    design of ``team`` or over ``instance``: the edge where a document comes in, parsed once.

    A disk row keeps the keys the document gave (a catalog reference stays a reference, and keeps
    following its catalog entry); otherwise as :func:`save_design`.
    """
    catalog = catalog_for(doc) if isinstance(doc, dict) else {}
    spec = validate_document(doc, catalog)
    raws = zip(spec.vdevs, doc["vdevs"], strict=True)
    given = [[raw["disk"]] if group.single_disk else raw["disks"] for group, raw in raws]
    return _store(team, spec, user, instance, catalog, [[set(d) for d in disks] for disks in given], None, **revision)


def save_design(
    team: Team,
    design: Design,
    user: Any,
    *,
    instance: PoolDesign | None = None,
    **revision: Unpack[RevisionOptions],
) -> PoolDesign:
    """Store ``design`` (a changed ``Design``: the designer's edit, a risk's fix) as a new design of
    ``team`` or over ``instance``; ``InvalidDesign`` and nothing written unless all of it is valid.

    Its parts were read where they came in (the forms read theirs with the core's part readers); the
    rules that span parts (``core.document.checks.design_errors``) and the document limits run here
    on the whole design. The revision's document is written once, by the core's ``design_to_document``.
    A disk of a catalog model keeps, in its row, what differs from the catalog entry.
    """
    spec = as_stored(design)
    document = design_to_document(spec)
    errors = document_errors(document) or design_errors(spec)
    if errors:
        raise InvalidDesign(errors)
    models = {d.catalog for g in spec.vdevs for d in g.disks if d.catalog is not None}
    catalog = {c.model: c for c in CatalogDisk.objects.filter(model__in=models)} if models else {}
    given = [
        [_catalog_differences(d, catalog) for d in (g.disks[:1] if g.single_disk else g.disks)] for g in spec.vdevs
    ]
    return _store(team, spec, user, instance, catalog, given, document, **revision)


def _catalog_differences(disk: Disk, catalog: Mapping[str, CatalogDisk]) -> set[str]:
    """The keys of ``disk`` its row keeps: all of them, or for a catalog model the reference and
    what differs from the catalog entry (``models.inline_disk`` fills in the rest when read)."""
    written = disk_to_document(disk)
    entry = catalog.get(disk.catalog) if disk.catalog is not None else None
    if entry is None:
        return set(written)
    listed = entry.to_disk_document()
    return {k for k, v in written.items() if k == "catalog" or listed.get(k) != v}


@transaction.atomic
def _store(
    team: Team,
    spec: Design,
    user: Any,
    instance: PoolDesign | None,
    catalog: dict[str, CatalogDisk],
    given: list[list[set[str]]],
    document: dict[str, Any] | None,
    *,
    expected_revision: int | None = None,
    kind: str = RevisionKind.EDIT,
    summary: str = "",
    undo_to: int | None | type[_Auto] = _Auto,
    redo_to: int | None = None,
) -> PoolDesign:
    """Write the valid ``spec``: the design row, its vdev groups (each disk with the keys ``given``
    for it), datasets and the revision's ``document`` (``spec``'s, written here when None), in one
    transaction.

    An update replaces the vdev groups and datasets, increments ``revision`` and records the new
    revision's document (for undo/redo). ``expected_revision``: the revision the change was made
    on; ``EditConflict`` if another one was saved meanwhile. The returned design keeps the
    ``Design`` and its document, so ``to_spec()`` and ``document_view()`` need no parse and no query.
    """
    spec = as_stored(spec)
    user = user if getattr(user, "is_authenticated", False) else None
    design = instance or PoolDesign(team=team, created_by=user)
    previous: int | None = None
    if instance is not None:
        design = PoolDesign.objects.select_for_update().get(pk=instance.pk)
        if expected_revision is not None and expected_revision != design.revision:
            raise EditConflict(design.revision, expected_revision)
        _ensure_revision_row(design)
        previous = design.revision
        design.revision += 1
        design.vdevs.all().delete()
        design.datasets.all().delete()
    design.team = team
    design.name = spec.name
    design.description = spec.description or ""
    design.openzfs_version = spec.version
    design.disk_partitioning = spec.disk_partitioning.value if spec.disk_partitioning else ""
    design.ashift = spec.ashift
    # The document's top-level keys without a column of their own, the host among them.
    host = host_to_document(spec.host)
    design.extra = {**spec.extra, **({"host": host} if host else {})}
    design.features = None if spec.features is None else dict(spec.features)
    design.updated_by = user
    design.save()
    VdevGroup.objects.bulk_create(
        [
            _vdev_row(design, i, group, keys, catalog)
            for i, (group, keys) in enumerate(zip(spec.vdevs, given, strict=True))
        ]
    )
    DatasetPlan.objects.bulk_create([_dataset_row(design, i, ds) for i, ds in enumerate(spec.datasets)])
    document = design_to_document(spec) if document is None else document
    design.remember_saved(spec, document)
    DesignRevision.objects.create(
        design=design,
        number=design.revision,
        document=document,
        kind=RevisionKind.CREATE if instance is None else kind,
        summary=summary[:200],
        undo_to=previous if undo_to is _Auto else undo_to,
        redo_to=redo_to,
        created_by=user,
    )
    if instance is not None:
        instance.refresh_from_db(from_queryset=PoolDesign.objects.select_related("team"))  # pages show the team
        instance.remember_saved(spec, document)
        return instance
    return design


def as_stored(spec: Design) -> Design:
    """The design as a revision keeps it: its OpenZFS release written out (a later default does
    not change a saved design) and an empty description left out. Its document is what
    ``PoolDesign.document_view()`` gives back from the rows."""
    return replace(spec, openzfs_version=spec.release, description=spec.description or None)


def saved_unchanged(user: Any, doc: Mapping[str, Any], newest: int = 20) -> PoolDesign | None:
    """The design ``user`` made from ``doc`` and has not changed since (among their ``newest`` designs
    still at their first revision), else None: a plan saved once is not saved twice by following the
    same link again (the sign-up hand-off saves it before the link is followed)."""
    try:
        spec = as_stored(validate_document(doc, catalog_for(doc)))
    except InvalidDesign:
        return None
    mine = PoolDesign.objects.for_user(user).filter(created_by=user, revision=1).order_by("-pk")[:newest]
    return next((d for d in mine if d.to_spec() == spec), None)


def _ensure_revision_row(design: PoolDesign) -> None:
    """Designs saved before revisions were recorded get a row for their current revision first."""
    if not DesignRevision.objects.filter(design=design, number=design.revision).exists():
        DesignRevision.objects.create(
            design=design, number=design.revision, document=design.document_view(), kind=RevisionKind.EDIT
        )


def current_revision(design: PoolDesign) -> DesignRevision | None:
    return _current(design).first()


def _current(design: PoolDesign) -> QuerySet[DesignRevision]:
    return DesignRevision.objects.filter(design=design, number=design.revision)


def can_undo_redo(design: PoolDesign) -> tuple[bool, bool]:
    row = _current(design).values_list("undo_to", "redo_to").first()  # not the revision's document
    return (row is not None and row[0] is not None, row is not None and row[1] is not None)


class NothingToWalk(Exception):
    """Undo with nothing to undo, or redo with nothing to redo."""


def walk_revisions(design: PoolDesign, direction: str, user: Any, expected_revision: int | None = None) -> PoolDesign:
    """Undo (``direction="undo"``) or redo: a new revision with the document of the one walked to.

    Revision numbers only grow, so an editor still on the old revision sees a conflict
    rather than silently losing the state it shows.
    """
    with transaction.atomic():
        locked = PoolDesign.objects.select_for_update().get(pk=design.pk)
        if expected_revision is not None and expected_revision != locked.revision:
            raise EditConflict(locked.revision, expected_revision)
        row = current_revision(locked)
        target_number = None if row is None else (row.undo_to if direction == "undo" else row.redo_to)
        if row is None or target_number is None:
            raise NothingToWalk(f"nothing to {direction}")
        target = DesignRevision.objects.get(design=locked, number=target_number)
        if direction == "undo":
            pointers = {"undo_to": target.undo_to, "redo_to": row.number}
            summary = f"Undo: back to revision {target.number}"
        else:
            pointers = {"undo_to": target.undo_to, "redo_to": target.redo_to}
            summary = f"Redo: revision {target.number} again"
        return save_design_document(
            locked.team, target.document, user, instance=design, kind=direction, summary=summary, **pointers
        )


def duplicate_design(
    design: PoolDesign,
    user: Any,
    name: str | None = None,
    spec: Design | None = None,
    why: str = "",
) -> PoolDesign:
    """A new design in the same team with the same ``Design`` (or ``spec``, a changed copy of it):
    a variant to change and compare. ``why`` says how it differs, in its description."""
    variant_spec = rename_pool(spec if spec is not None else design.to_spec(), name or _variant_name(design))
    note = f"Variant of {design.name} (revision {design.revision}){': ' + why if why else ''}."
    description = f"{note} {design.description}".strip() if design.description else note
    variant = save_design(design.team, replace(variant_spec, description=description), user, summary=note)
    variant.variant_of = design
    variant.save(update_fields=["variant_of"])
    return variant


def _variant_name(design: PoolDesign) -> str:
    taken = set(PoolDesign.objects.filter(team=design.team).values_list("name", flat=True))
    base = design.name[:240]
    for n in range(2, 1000):
        candidate = f"{base}-v{n}"
        if candidate not in taken:
            return candidate
    return f"{base}-v{secrets.randbelow(10**6)}"


_VDEV_FIELDS = (
    "ashift",
    "draid_data",
    "draid_spares",
    "reserved_per_disk_bytes",
    "expanded_from_width",
    "logical_bytes_written_before",
    "price_per_disk",
)


def _vdev_row(
    design: PoolDesign, position: int, group: GroupSpec, given: list[set[str]], catalog: dict[str, CatalogDisk]
) -> VdevGroup:
    """A vdev group row from its parsed ``group``; ``given``: the keys each disk's row keeps (``_disk_row``)."""
    refs = [d.catalog for d in group.disks if d.catalog in catalog]
    return VdevGroup(
        design=design,
        position=position,
        role=group.role.value,
        layout=group.layout.value,
        width=group.width,
        count=group.count,
        disk_partitioning=group.disk_partitioning.value if group.disk_partitioning else "",
        catalog_disk=catalog[refs[0]] if refs else None,
        disks=[_disk_row(d, g) for d, g in zip(group.disks[: len(given)], given, strict=True)],
        single_disk=group.single_disk,
        extra=dict(group.extra),
        **{f: getattr(group, f) for f in _VDEV_FIELDS},
    )


def _disk_row(disk: Disk, given: set[str]) -> dict[str, Any]:
    """The disk as the core writes it, with the keys the document gave: a key a catalog
    reference fills in is not stored, so the disk keeps following its catalog entry
    (``models.inline_disk`` fills it in again when the document is read)."""
    return {k: v for k, v in disk_to_document(disk).items() if k in given}


def _dataset_row(design: PoolDesign, position: int, ds: Dataset) -> DatasetPlan:
    return DatasetPlan(
        design=design,
        position=position,
        name=ds.name,
        type=ds.type.value,
        recordsize=ds.recordsize,
        volblocksize=ds.volblocksize,
        volsize=ds.volsize,
        quota=ds.quota,
        special_small_blocks=ds.special_small_blocks,
        compression=ds.compression or "",
        copies=ds.copies,
        sync=ds.sync.value if ds.sync else "",
        contents=None if ds.contents is None else contents_to_document(ds.contents),
        extra=dict(ds.extra),
    )


def export_filename(design: PoolDesign) -> str:
    """``tank-r3.json``: the pool name (made file-safe) and the revision."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in design.name)
    return f"{safe}-r{design.revision}.json"


# --------------------------------------------------------------------------- measured compression


def design_ashift(design: PoolDesign) -> int:
    """The pool's ashift (its first data vdev group's, as ``zpool create -o ashift`` gets it); a new
    design's (12) if unknown."""
    try:
        spec = design.to_spec()
    except InvalidDesign:
        return DEFAULT_POOL_ASHIFT
    data = [g for g in spec.vdevs if g.role == Role.DATA]
    return written_ashift(data[0], spec.release) if data else DEFAULT_POOL_ASHIFT


def apply_measured_ratio(
    design: PoolDesign, dataset: str, ratio: float, algorithm: str, recordsize: int, user: Any
) -> PoolDesign:
    """Set ``contents.compressibility`` of one dataset to a measured ratio (a new revision).

    Only that dataset's compressibility changes, on the design as it is now, so changes
    others saved meanwhile are kept. ``LookupError`` if the design has no such dataset.
    """
    spec = design.to_spec()
    for i, ds in enumerate(spec.datasets):
        if ds.name == dataset:
            measured = Compressibility(ratio=ratio, algorithm=algorithm, recordsize=recordsize)
            changed = replace(ds, contents=replace(ds.contents or Contents(), compressibility=measured))
            return save_design(design.team, put_dataset(spec, i, changed), user, instance=design)
    raise LookupError(f"the design has no dataset named {dataset!r}")


def catalog_prices() -> dict[str, Decimal]:
    """The catalog's prices by disk model (what the summary costs a design at)."""
    return {m: p for m, p in CatalogDisk.objects.exclude(price=None).values_list("model", "price")}
