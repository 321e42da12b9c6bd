"""The few functions that touch the database and call the core.

* ``resolve_catalog(doc)``: fill ``{"catalog": MODEL}`` disk references from the catalog.
* ``validate_document(doc)``: catalog references + ``parse_design``; raises ``InvalidDesign``.
* ``save_design_document(team, doc, user, instance=None)``: validate first, then write
  the design, its vdev groups and datasets in one transaction.
* ``estimate_design(design)``: the core's estimate of a stored design.
* ``get_design_for_user(request, pk)``: the design (404 unless the user is in its team)
  and whether the user may change it.
* ``design_commands(design)``: the ``zpool create``/``zfs create`` commands of a design.
* ``create_share_link``/``revoke_share_link``/``get_shared_design(token)``: read-only links.
* ``apply_measured_ratio(...)``: store a measured compression ratio on one dataset.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from zfsplanner.accounts.models import WRITE_ROLES, Membership, Team
from zfsplanner.core.commands.create import (
    all_commands,
    zfs_create_commands,
    zpool_add_commands,
    zpool_attach_commands,
    zpool_create_command,
)
from zfsplanner.core.design.types import Design, InvalidDesign, Role
from zfsplanner.core.design.types import VdevGroup as GroupSpec
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.document.parts import DATASET_KEYS, VDEV_KEYS
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.ashift import DEFAULT_POOL_ASHIFT, written_ashift
from zfsplanner.core.units import format_zfs_size

from ..models import (
    CatalogDisk,
    DatasetPlan,
    DesignRevision,
    PoolDesign,
    RevisionKind,
    ShareLink,
    VdevGroup,
    inline_disk,
)
from .editing import error_texts, rename_pool


class _Auto:
    """Marker: the new revision undoes to the one it replaced."""


# Keys the API puts next to the document; never stored as unknown document keys.
META_KEYS = ("id", "team", "revision", "created", "updated", "url")
ESTIMATE_CACHE_SECONDS = 3600


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


def resolve_catalog(doc: Any) -> Any:
    """The document with every catalog reference inlined; ``InvalidDesign`` for unknown models.

    A reference only needs to be known when the disk doesn't give its own ``size_bytes``
    (an exported file carries both the link and the inlined values).
    """
    if not isinstance(doc, dict):
        return doc
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


def validate_document(doc: Any) -> Design:
    """The core ``Design`` of a document that may reference catalog disks (``InvalidDesign`` otherwise)."""
    if isinstance(doc, dict):
        stray = [k for k in META_KEYS if k in doc]
        if stray:
            raise InvalidDesign([(k, "belongs next to the document, not in it") for k in stray])
    return parse_design(resolve_catalog(doc))


class EditConflict(Exception):
    """Someone saved a newer revision since the editor loaded ``expected``."""

    def __init__(self, current: int, expected: int) -> None:
        super().__init__(f"revision {current} was saved since revision {expected} was loaded")
        self.current = current
        self.expected = expected


@transaction.atomic
def save_design_document(
    team: Team,
    doc: Mapping[str, Any],
    user: Any,
    instance: PoolDesign | None = None,
    *,
    expected_revision: int | None = None,
    kind: str = RevisionKind.EDIT,
    summary: str = "",
    undo_to: int | None | type[_Auto] = _Auto,
    redo_to: int | None = None,
) -> PoolDesign:
    """Validate ``doc`` and store it as a new design of ``team`` or over ``instance``.

    Nothing is written unless the whole document is valid. An update replaces the
    vdev groups and datasets, increments ``revision`` and records the new revision's
    document (for undo/redo). ``expected_revision``: the revision the change was made
    on; ``EditConflict`` if another one was saved meanwhile.
    """
    spec = validate_document(doc)
    catalog = catalog_for(doc)
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
    design.extra = dict(spec.extra)
    design.updated_by = user
    design.save()
    VdevGroup.objects.bulk_create(
        [
            _vdev_row(design, i, raw, catalog, group)
            for i, (raw, group) in enumerate(zip(doc["vdevs"], spec.vdevs, strict=True))
        ]
    )
    raw_datasets = doc.get("datasets") or []
    DatasetPlan.objects.bulk_create(
        [_dataset_row(design, i, raw, ds) for i, (raw, ds) in enumerate(zip(raw_datasets, spec.datasets, strict=True))]
    )
    design.remember_spec(spec)
    DesignRevision.objects.create(
        design=design,
        number=design.revision,
        document=_stored_document(design),
        kind=RevisionKind.CREATE if instance is None else kind,
        summary=summary[:200],
        undo_to=previous if undo_to is _Auto else undo_to,
        redo_to=redo_to,
        created_by=user,
    )
    if instance is not None:
        instance.refresh_from_db()
        instance.remember_spec(spec)
        instance._document_memo = design._document_memo  # built for the revision row just now
        return instance
    return design


def _stored_document(design: PoolDesign) -> dict[str, Any]:
    return design.document_view()


def _ensure_revision_row(design: PoolDesign) -> None:
    """Designs saved before revisions were recorded get a row for their current revision first."""
    if not DesignRevision.objects.filter(design=design, number=design.revision).exists():
        DesignRevision.objects.create(
            design=design, number=design.revision, document=_stored_document(design), kind=RevisionKind.EDIT
        )


def current_revision(design: PoolDesign) -> DesignRevision | None:
    return DesignRevision.objects.filter(design=design, number=design.revision).first()


def can_undo_redo(design: PoolDesign) -> tuple[bool, bool]:
    row = current_revision(design)
    return (row is not None and row.undo_to is not None, row is not None and row.redo_to is not None)


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


def duplicate_design(design: PoolDesign, user: Any, name: str | None = None) -> PoolDesign:
    """A new design in the same team with the same document: a variant to change and compare."""
    doc = rename_pool(design.to_document(), name or _variant_name(design))
    note = f"Variant of {design.name} (revision {design.revision})."
    doc["description"] = f"{note} {design.description}".strip() if design.description else note
    variant = save_design_document(design.team, doc, user, summary=note)
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
)


def _vdev_row(
    design: PoolDesign, position: int, raw: Mapping[str, Any], catalog: dict[str, CatalogDisk], group: GroupSpec
) -> VdevGroup:
    """A vdev group row from the document's (already validated) vdev object and its parsed ``group``."""
    single = "disks" not in raw
    disks = [raw["disk"]] if single else list(raw["disks"])
    refs = [d["catalog"] for d in disks if isinstance(d, dict) and d.get("catalog") in catalog]
    return VdevGroup(
        design=design,
        position=position,
        role=raw["role"],
        layout=raw["layout"],
        width=raw["width"],
        count=raw.get("count") if raw.get("count") is not None else 1,
        disk_partitioning=raw.get("disk_partitioning") or "",
        catalog_disk=catalog[refs[0]] if refs else None,
        disks=disks,
        single_disk=single,
        extra={k: v for k, v in raw.items() if k not in VDEV_KEYS},
        price_per_disk=group.price_per_disk,
        **{f: raw.get(f) for f in _VDEV_FIELDS},
    )


def _dataset_row(design: PoolDesign, position: int, raw: Mapping[str, Any], ds: Any) -> DatasetPlan:
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
        contents=raw.get("contents"),
        extra={k: v for k, v in raw.items() if k not in DATASET_KEYS},
    )


PLANNING_STAMP_KEY = "planning-inputs-stamp"


def planning_stamp() -> str:
    """Changes whenever a catalog disk or a benchmark run changes (``planning_figures_changed``).

    Part of every cached estimate's key: figures that come from the catalog or from the
    team's disk benchmarks (reliability, performance) follow them without the cache having
    to look them up on every request.
    """
    stamp = cache.get(PLANNING_STAMP_KEY)
    if stamp is None:
        stamp = secrets.token_hex(8)
        cache.add(PLANNING_STAMP_KEY, stamp, timeout=None)
        stamp = cache.get(PLANNING_STAMP_KEY, stamp)
    return str(stamp)


def planning_figures_changed(**_: Any) -> None:
    """Catalog, benchmark or imported-pool figures changed, so cached estimates and pages are made anew.

    Called directly, or connected as a receiver of the models' ``post_save``/``post_delete``.

    With the cache unreachable the save goes on (an upload must be stored while Redis restarts):
    a benchmark's figures arrive when its parse saves them, which bumps the stamp again."""
    import logging

    from zfsplanner.errors import CACHE_ERRORS

    try:
        cache.set(PLANNING_STAMP_KEY, secrets.token_hex(8), timeout=None)
    except CACHE_ERRORS as exc:
        logging.getLogger(__name__).warning("planning stamp not bumped, the cache is unavailable: %s", exc)


def estimate_design(design: PoolDesign) -> dict[str, Any]:
    """The ``zfsplanner.estimate/1`` document of a stored design, computed once per revision.

    Cached under the design's id, revision and last-saved time (a revision number alone
    could repeat after a design is deleted and its id reused) and the planning stamp (catalog
    and benchmark figures); a cache hit costs one lookup and no query. ``InvalidDesign`` is
    not cached.
    """
    from .planning import design_inputs  # catalog figures and disk benchmarks of its models

    key = f"estimate:{revision_key(design)}:{planning_stamp()}"
    cached = cache.get(key)
    if cached is None:
        spec = design.to_spec()
        cached = estimate(spec, design_inputs(design, spec))
        cache.set(key, cached, timeout=ESTIMATE_CACHE_SECONDS)
    return cached


def get_design_for_user(request: HttpRequest, pk: int) -> tuple[PoolDesign, bool]:
    """The design if the user is in its team (else 404), and whether they may change it.

    One query: the design, its team and the user's role in it.
    """
    if not getattr(request.user, "is_authenticated", False):
        raise Http404("No such design.")
    role = Membership.objects.filter(team=OuterRef("team_id"), user=request.user).values("role")[:1]
    designs = PoolDesign.objects.select_related("team").annotate(viewer_role=Subquery(role))
    design = get_object_or_404(designs.exclude(viewer_role=None), pk=pk)
    return design, design.viewer_role in WRITE_ROLES  # type: ignore[attr-defined]


@dataclass(frozen=True)
class DesignState:
    """What a design's cached page and estimate depend on, with the visitor's role in its team."""

    revision_key: str  # id, revision and last-saved time
    team_name: str
    role: str
    share_stamp: str  # changes when a share link is created, revoked or deleted

    @property
    def can_write(self) -> bool:
        return self.role in WRITE_ROLES


def design_state(user: Any, pk: object) -> DesignState | None:
    """The state of design ``pk`` if ``user`` is a member of its team, else None — in one small
    query, so that a cached page or estimate is served without loading the design.

    The same access rule as ``get_design_for_user`` (membership of the design's team), written
    as SQL because this runs on every view of a design page and every estimate request.
    """
    text = str(pk)
    if not getattr(user, "is_authenticated", False) or not (text.isascii() and text.isdigit()):
        return None
    design_id = int(text)
    if design_id > 2**63 - 1:
        return None
    sql = f"""
        SELECT d.revision, d.updated, t.name, m.role,
               (SELECT count(*) || ':' || coalesce(max(s.id), 0) || ':' || count(*) FILTER (WHERE s.revoked)
                  FROM {ShareLink._meta.db_table} s WHERE s.design_id = d.id)
          FROM {PoolDesign._meta.db_table} d
          JOIN {Team._meta.db_table} t ON t.id = d.team_id
          JOIN {Membership._meta.db_table} m ON m.team_id = d.team_id AND m.user_id = %s
         WHERE d.id = %s
    """  # noqa: S608 - table names from the models; values are parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, design_id])
        row = cursor.fetchone()
    if row is None:
        return None
    revision, updated, team_name, role, share_stamp = row
    return DesignState(f"{design_id}:{revision}:{str(updated).replace(' ', 'T')}", team_name, role, share_stamp)


def writable_teams(user: Any) -> Any:
    """Teams in which ``user`` is an owner or editor."""
    if not getattr(user, "is_authenticated", False):
        return Team.objects.none()
    return Team.objects.filter(memberships__user=user, memberships__role__in=WRITE_ROLES).distinct()


def export_filename(design: PoolDesign) -> str:
    """``tank-r3.json``: the pool name (made file-safe) and the revision."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in design.name)
    return f"{safe}-r{design.revision}.json"


def estimate_or_error(design: PoolDesign) -> tuple[dict[str, Any] | None, str | None]:
    """The estimate, or the reason there is none (a stored design the core now rejects)."""
    try:
        return estimate_design(design), None
    except InvalidDesign as exc:
        return None, "; ".join(error_texts(design.to_document(), exc.errors))


# --------------------------------------------------------------------------- commands


def design_commands(design: PoolDesign) -> dict[str, Any]:
    """The shell commands that build the design, in the order to run them (``InvalidDesign`` if it no longer parses).

    Cached per revision, like the estimate.
    """
    key = f"commands:{revision_key(design)}"
    cached = cache.get(key)
    if cached is None:
        spec = design.to_spec()
        cached = {
            "commands": all_commands(spec),
            "zpool_create": zpool_create_command(spec),
            "zpool_add": zpool_add_commands(spec),
            "zpool_attach": zpool_attach_commands(spec),
            "zfs_create": zfs_create_commands(spec),
        }
        cache.set(key, cached, timeout=ESTIMATE_CACHE_SECONDS)
    return cached


def revision_key(design: PoolDesign) -> str:
    """The design's id, revision and last-saved time (a revision number alone could repeat after
    a design is deleted and its id reused)."""
    return f"{design.pk}:{design.revision}:{design.updated.timestamp() if design.updated else 0}"


def commands_or_none(design: PoolDesign) -> dict[str, Any] | None:
    try:
        return design_commands(design)
    except InvalidDesign:
        return None


def commands_script(commands: dict[str, Any]) -> str:
    """The commands as a ``sh`` script; device paths are placeholders to replace first."""
    lines = [
        "#!/bin/sh",
        "# Generated by zfsplanner. The device paths are placeholders: replace each",
        "# /dev/disk/by-id/<model>-<n> with the by-id link of a real disk before running.",
        "set -e",
        *commands["commands"],
    ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- share links


def create_share_link(design: PoolDesign, user: Any, expires: datetime | None = None) -> ShareLink:
    user = user if getattr(user, "is_authenticated", False) else None
    return ShareLink.objects.create(design=design, created_by=user, expires=expires)


def revoke_share_link(link: ShareLink) -> None:
    """Revoked links stay listed (who made them, when) but no longer open the design."""
    ShareLink.objects.filter(pk=link.pk).update(revoked=True)
    link.revoked = True


def get_shared_design(token: str) -> PoolDesign:
    """The design an active link points to; 404 for unknown, revoked and expired tokens alike."""
    link = get_object_or_404(ShareLink.objects.active().select_related("design__team"), token=token)
    return link.design


# --------------------------------------------------------------------------- measured compression


def design_ashift(design: PoolDesign) -> int:
    """The pool's ashift (its first data vdev group's, as ``zpool create -o ashift`` gets it); a new
    design's (12) if unknown."""
    try:
        spec = design.to_spec()
    except InvalidDesign:
        return DEFAULT_POOL_ASHIFT
    data = [g for g in spec.vdevs if g.role == Role.DATA]
    return written_ashift(data[0], spec.version) if data else DEFAULT_POOL_ASHIFT


def apply_measured_ratio(
    design: PoolDesign, dataset: str, ratio: float, algorithm: str, recordsize: int, user: Any
) -> PoolDesign:
    """Set ``contents.compressibility`` of one dataset to a measured ratio (a new revision).

    Only that dataset's compressibility changes, on the design as it is now, so changes
    others saved meanwhile are kept. ``LookupError`` if the design has no such dataset.
    """
    doc = design.to_document()
    for ds in doc.get("datasets") or []:
        if ds.get("name") == dataset:
            contents = dict(ds.get("contents") or {})
            contents["compressibility"] = {
                "ratio": ratio,
                "algorithm": algorithm,
                "recordsize": format_zfs_size(recordsize),
            }
            ds["contents"] = contents
            return save_design_document(design.team, doc, user, instance=design)
    raise LookupError(f"the design has no dataset named {dataset!r}")


def catalog_prices() -> dict[str, Decimal]:
    """The catalog's prices by disk model (what the summary costs a design at)."""
    return {m: p for m, p in CatalogDisk.objects.exclude(price=None).values_list("model", "price")}
