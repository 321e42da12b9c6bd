"""The functions that touch the database around the importers and the histogram bucketing.

* ``create_pool_import(user, sources, pool)``: store pasted/uploaded outputs, then read them
  while the request waits (``read_pool_import``, the catalog from the database): the preview,
  or the reason they cannot be read, kept with them; ``read_again`` reads stored outputs again
  (after an update); the lifecycle around them is :mod:`zfsplanner.uploads`, kind ``POOL_OUTPUTS``;
* ``answer_questions(document, data)`` / ``answer_pool_import(record, data)``: the sizes the
  preview asks (the page, the API and ``manage.py import_pool --size``);
* ``save_pool_import(pool_import, team, user, name)``: store the previewed design through
  ``plans.services.save_design_document`` (validated first, never half-saved);
* ``store_histogram(...)``: keep a listing byte for byte (streamed, hashed, size-checked) and
  queue it; ``bucket_histogram`` is what the worker runs (the lifecycle around it, claim,
  progress, retry and sweep, is :mod:`zfsplanner.uploads`, kind ``FILE_LISTINGS``);
* ``apply_histogram(upload)``: put a finished histogram into its dataset's contents.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.db import OperationalError, transaction

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.answers import answer_sizes
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.core.importers.listings import bucket_stream
from zfsplanner.core.importers.pool_import import ImportProblem
from zfsplanner.core.importers.pool_import import PoolImport as ImportedPool
from zfsplanner.core.importers.size_buckets import HistogramError, HistogramResult, merge_contents
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import planning_figures_changed, save_design_document
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import UploadTooLarge, discard, spool

from .catalog import catalog_entries
from .models import (
    FILE_LISTINGS,
    POOL_OUTPUTS,
    DesignLink,
    HistogramUpload,
    PoolImport,
    PoolImportStatus,
    histogram_path,
)
from .questions import answers_from

logger = logging.getLogger(__name__)

READ_CHUNK = 1024 * 1024


# --------------------------------------------------------------------------- pool imports


def check_size(sources: Sequence[tuple[str, str]]) -> None:
    """Refuse outputs larger than one import reads (``UploadTooLarge``), before anything reads them."""
    total = sum(len(t.encode()) for _, t in sources)
    if total > POOL_OUTPUTS.max_bytes():
        raise UploadTooLarge(POOL_OUTPUTS, "The outputs together", total)


def run_import(sources: Sequence[tuple[str, str]], pool: str = "") -> ImportedPool:
    """The importer over ``(name, text)`` pairs, with the disk catalog; raises ``UnreadableOutput``."""
    check_size(sources)
    return import_pool(sources, pool=pool or None, catalog=catalog_entries())


def create_pool_import(user: Any, sources: Sequence[tuple[str, str]], pool: str = "") -> PoolImport:
    """Store the outputs, then read them now: the import comes back read (the preview) or failed (its
    ``error`` names the line); either way the outputs are kept and can be read again."""
    check_size(sources)
    record = PoolImport.objects.create(
        created_by=user, sources=[{"name": n, "text": t} for n, t in sources], pool=pool
    )
    return _read_now(record)


def read_again(record: PoolImport) -> bool:
    """Read the stored outputs again now (after an update); False while they are being read."""
    if not lifecycle.retry(POOL_OUTPUTS, record, queue=False):
        return False
    _read_now(record)
    return True


def _read_now(record: PoolImport) -> PoolImport:
    if lifecycle.claim(POOL_OUTPUTS, record.pk, f"inline-{uuid.uuid4().hex}"):
        read_pool_import(PoolImport.objects.get(pk=record.pk))
    record.refresh_from_db()
    return record


def read_pool_import(record: PoolImport) -> None:
    """Read a claimed import's stored outputs: done with the design, or failed naming the line."""
    sources = [(s["name"], s["text"]) for s in record.sources]
    try:
        result = import_pool(sources, pool=record.pool or None, catalog=catalog_entries())
    except UnreadableOutput as exc:
        lifecycle.fail(POOL_OUTPUTS, record.pk, str(exc), token=record.task_id, error_line=exc.line,
                       error_source=(exc.source or "")[:255], error_format=exc.format[:32])
        return
    except OperationalError:
        raise
    except Exception as exc:  # a bug must not lose the outputs nor leave the import being read
        logger.exception("reading pool import %s crashed", record.pk)
        lifecycle.fail(POOL_OUTPUTS, record.pk, f"reading stopped unexpectedly ({type(exc).__name__}: {exc}); the "
                       "outputs are kept: read them again after an update", token=record.task_id)
        return
    lifecycle.finish(POOL_OUTPUTS, record.pk, token=record.task_id, document=result.document)


def answer_questions(document: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """``document`` with the sizes its preview asks, given as the page's fields give them: ``size-q1``
    typed (16 TB, 14.55 TiB or bytes) or ``catalog-q1`` (a disk model of the catalog).

    ``ValueError`` in words for an answer that is no size, an unknown model or a size too small for
    ZFS (``InvalidDesign``); ``ImportProblem`` for an answer to no open question.
    """
    asked = {q["id"] for q in (document.get("imported") or {}).get("questions") or []}
    given = {key.split("-", 1)[1] for key in data if key.startswith(("size-", "catalog-"))}
    unknown = sorted(given - asked)
    if unknown:
        raise ImportProblem(None, f"no open question {unknown[0]!r}"
                                  + (f" (the preview asks {', '.join(sorted(asked))})" if asked else ""))
    return answer_sizes(document, answers_from(data, document))


def answer_pool_import(record: PoolImport, data: Mapping[str, Any]) -> PoolImport:
    """Keep the answers to the preview's size questions (see :func:`answer_questions`)."""
    document = answer_questions(record.document, data)
    PoolImport.objects.filter(pk=record.pk).update(document=document)
    record.document = document
    return record


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
    PoolImport.objects.filter(pk=record.pk).update(design=design, design_link=DesignLink.SAVED)
    record.design, record.design_link = design, DesignLink.SAVED
    return design


def attach_pool_import(record: PoolImport, design: PoolDesign) -> PoolImport:
    """Tie a preview to an existing design: the design page then sets the pool's figures against it."""
    PoolImport.objects.filter(pk=record.pk).update(design=design, design_link=DesignLink.ATTACHED)
    record.design, record.design_link = design, DesignLink.ATTACHED
    planning_figures_changed()  # the design's cached page shows the attached pool's figures
    return record


def attached_import(design: PoolDesign) -> PoolImport | None:
    """The newest read import attached to (or saved as) ``design``, or None."""
    return PoolImport.objects.filter(design=design, status=PoolImportStatus.DONE).order_by("-created", "-pk").first()


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
        fail_histogram(upload, f"the stored file {upload.file.name} is missing from the upload storage")
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
