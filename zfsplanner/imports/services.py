"""The functions that touch the database around the importers and the histogram bucketing.

* ``create_pool_import(user, sources, pool)``: run the importer on pasted/uploaded outputs
  (the catalog from the database), keep the preview, errors and all;
* ``save_pool_import(pool_import, team, user, name)``: store the previewed design through
  ``plans.services.save_design_document`` (validated first, never half-saved);
* ``store_histogram(...)``: keep a listing byte for byte (streamed, hashed, size-checked) and
  queue it; ``bucket_histogram`` is what the worker runs (the lifecycle around it, claim,
  progress, retry and sweep, is :mod:`zfsplanner.uploads`, kind ``FILE_LISTINGS``);
* ``apply_histogram(upload)``: put a finished histogram into its dataset's contents.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import OperationalError, transaction

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.core.importers.listings import bucket_stream
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.importers.pool_import import PoolImport as ImportedPool
from zfsplanner.core.importers.size_buckets import HistogramError, HistogramResult, merge_contents
from zfsplanner.plans.models import CatalogDisk, PoolDesign
from zfsplanner.plans.services import planning_figures_changed, save_design_document
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import discard, spool

from .models import FILE_LISTINGS, HistogramUpload, PoolImport, histogram_path

logger = logging.getLogger(__name__)

POOL_IMPORT_MAX_CHARS = 4 * 1024 * 1024
READ_CHUNK = 1024 * 1024


# --------------------------------------------------------------------------- pool imports


def catalog_entries() -> list[CatalogEntry]:
    return [
        CatalogEntry(
            model=c.model,
            size_bytes=c.capacity_bytes,
            logical_sector_bytes=c.logical_sector_bytes,
            physical_sector_bytes=c.physical_sector_bytes,
            media=c.media,
            vendor=c.vendor,
            rpm=c.rpm,
            plp=c.plp,
        )
        for c in CatalogDisk.objects.all()
    ]


def run_import(sources: Sequence[tuple[str, str]], pool: str = "") -> ImportedPool:
    """The importer over ``(name, text)`` pairs, with the disk catalog; raises ``UnreadableOutput``."""
    total = sum(len(t) for _, t in sources)
    if total > POOL_IMPORT_MAX_CHARS:
        raise UnreadableOutput(None, f"{total:,} characters is more than the {POOL_IMPORT_MAX_CHARS:,} the import "
                                     "reads; paste the outputs of one pool")
    return import_pool(sources, pool=pool or None, catalog=catalog_entries())


def create_pool_import(user: Any, sources: Sequence[tuple[str, str]], pool: str = "") -> PoolImport:
    """Import and keep the preview; ``UnreadableOutput`` (naming the line) if the outputs cannot be read."""
    result = run_import(sources, pool)
    return PoolImport.objects.create(
        created_by=user, sources=[{"name": n, "text": t} for n, t in sources], pool=pool, document=result.document
    )


def save_pool_import(record: PoolImport, team: Team, user: Any, name: str | None = None) -> PoolDesign:
    """Store the imported design for ``team`` (``InvalidDesign`` if it does not validate)."""
    doc = dict(record.document)
    if name and name != doc["name"]:
        old = doc["name"]
        doc["name"] = name
        doc["datasets"] = [
            {**d, "name": name + d["name"][len(old) :]} if d["name"] == old or d["name"].startswith(old + "/") else d
            for d in doc.get("datasets") or []
        ]
    design = save_design_document(team, doc, user, summary="imported from the pool's own outputs")
    PoolImport.objects.filter(pk=record.pk).update(design=design)
    record.design = design
    return design


def attach_pool_import(record: PoolImport, design: PoolDesign) -> PoolImport:
    """Tie a preview to an existing design: the design page then sets the pool's figures against it."""
    PoolImport.objects.filter(pk=record.pk).update(design=design)
    record.design = design
    planning_figures_changed()  # the design's cached page shows the attached pool's figures
    return record


def attached_import(design: PoolDesign) -> PoolImport | None:
    """The newest import attached to (or saved as) ``design``, or None."""
    return PoolImport.objects.filter(design=design).order_by("-created", "-pk").first()


# --------------------------------------------------------------------------- histogram uploads


def store_histogram(
    *, design: PoolDesign, dataset: str, user: Any, file: Any, name: str, fmt: str = "auto"
) -> HistogramUpload:
    """Keep the listing and queue it for bucketing (``LookupError`` for a dataset the design lacks)."""
    if not design.datasets.filter(name=dataset).exists():
        discard_upload(file)
        raise LookupError(f"the design has no dataset named {dataset!r}")
    spooled = spool(file, FILE_LISTINGS)
    upload = HistogramUpload(
        team=design.team,
        design=design,
        dataset=dataset,
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
        original_name=(name or "listing").rsplit("/", 1)[-1][:255],
        size=spooled.size,
        sha256=spooled.sha256,
        format=fmt,
    )
    lifecycle.keep(FILE_LISTINGS, upload, spooled, histogram_path(upload, upload.original_name))
    return upload


def discard_upload(f: Any) -> None:
    path = getattr(f, "path", None)
    if isinstance(path, str):
        discard(path)


def _chunks(upload: HistogramUpload) -> Iterator[bytes]:
    with upload.file.open("rb") as fh:
        while chunk := fh.read(READ_CHUNK):
            yield chunk


def fail_histogram(upload: HistogramUpload, message: str, line: int | None = None) -> None:
    lifecycle.fail(FILE_LISTINGS, upload.pk, message, error_line=line)


def bucket_histogram(upload: HistogramUpload) -> None:
    """Bucket a claimed upload's stored bytes, then apply the result; ends done or failed (message kept)."""
    progress = lifecycle.Progress(FILE_LISTINGS, upload.pk)
    try:
        result = bucket_stream(
            _chunks(upload), upload.format, progress=lambda consumed: progress.part(consumed, upload.size)
        )
    except FileNotFoundError:
        fail_histogram(upload, f"the stored file {upload.file.name} is missing from MEDIA_ROOT")
        return
    except HistogramError as exc:
        fail_histogram(upload, str(exc), exc.line)
        return
    except OperationalError:
        raise
    except Exception as exc:  # a bug must not leave the upload stuck in "parsing"
        logger.exception("bucketing upload %s crashed", upload.pk)
        fail_histogram(upload, f"bucketing stopped unexpectedly ({type(exc).__name__}: {exc}); retry after an update")
        return
    HistogramUpload.objects.filter(pk=upload.pk).update(result=result.to_document(), detected_format=result.format)
    try:
        revision = apply_histogram(upload, result)
    except (LookupError, InvalidDesign) as exc:
        fail_histogram(upload, f"bucketed, but not applied: {exc}")
        return
    lifecycle.finish(FILE_LISTINGS, upload.pk, applied_revision=revision)


def apply_histogram(upload: HistogramUpload, result: HistogramResult) -> int:
    """Put the histogram into the dataset's contents on the design as it is now; the new revision."""
    with transaction.atomic():
        design = PoolDesign.objects.select_for_update().get(pk=upload.design_id)
        doc = design.to_document()
        for ds in doc.get("datasets") or []:
            if ds.get("name") == upload.dataset:
                ds["contents"] = merge_contents(ds.get("contents"), result)
                summary = f"file-size histogram of {upload.dataset} from {upload.original_name}"
                saved = save_design_document(design.team, doc, upload.uploaded_by, instance=design, summary=summary)
                return saved.revision
    raise LookupError(f"the design no longer has a dataset named {upload.dataset!r}")
