"""Dedup and block cloning of an imported pool: ``zpool list`` DEDUP (or ``zpool get dedupratio``) and
``zpool get bclonesaved`` -> the design's ``contents.dedup_ratio`` and ``contents.cloned_bytes``.

Both savings are pool-wide (``spa_update_dspace()`` adds them to the pool's space; see
:mod:`..datasets.savings`). DEDUP is ``dds_ref_dsize / dds_dsize`` over the whole table, and the
planner's dedup saving with one ratio on every dataset that dedups is
``sum(referenced) × (1 − 1/ratio)``, the same as the pool's whatever each dataset's own ratio was;
only the two decimals DEDUP prints limit it. ``bclonesaved`` is exact (bytes with ``-p``): it goes
to the largest dataset without dedup as the logical bytes whose share of its data blocks saves
exactly that much.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..capacity.pool import pool_capacity
from ..datasets.savings import part_for_share
from ..document.parse import parse_design
from ..estimate.build import dataset_usages
from ..properties.resolve import dedup_on
from .common import parse_ratio, parse_size
from .pool_import import ImportProblem
from .props import Prop
from .zpool_list import PoolList


@dataclass(frozen=True)
class ReportedSavings:
    dedupratio: float | None  # DEDUP / dedupratio
    bclonesaved: int | None  # bytes


def reported_savings(listing: PoolList | None, pool_props: Mapping[str, Prop]) -> ReportedSavings:
    """DEDUP from ``zpool list`` (else ``zpool get dedupratio``) and ``bclonesaved`` from ``zpool get``."""
    ratio: float | None = None
    text = listing.dedupratio if listing is not None else None
    line = listing.line if listing is not None else None
    if text is None and "dedupratio" in pool_props:
        text, line = pool_props["dedupratio"].value, pool_props["dedupratio"].line
    if text is not None:
        try:
            ratio = parse_ratio(text)
        except ValueError:
            raise ImportProblem(line, f"DEDUP {text!r} is not a ratio (1.00x)") from None
    saved: int | None = None
    prop = pool_props.get("bclonesaved")
    if prop is not None and prop.value not in ("-", ""):
        try:
            size = parse_size(prop.value)
        except ValueError:
            raise ImportProblem(prop.line, f"bclonesaved {prop.value!r} is not a size") from None
        saved = size.bytes if size is not None else None
    return ReportedSavings(ratio, saved)


def _dedups(doc: Mapping[str, Any]) -> bool:
    value = doc.get("dedup")
    return value is not None and str(value).lower() != "off"


def with_dedup_ratio(datasets: Sequence[dict[str, Any]], ratio: float | None, notes: list[str]) -> None:
    """Give every dataset that writes with dedup the pool's DEDUP as its ``dedup_ratio``."""
    if ratio is None or ratio <= 1.0:
        return
    chosen = [d for d in datasets if _dedups(d) and (d.get("contents") or {}).get("logical_bytes")]
    if not chosen:
        notes.append(f"DEDUP {ratio:.2f}x but no dataset with data has dedup on: the saving is not modelled")
        return
    for d in chosen:
        d["contents"]["dedup_ratio"] = ratio
    notes.append(f"DEDUP {ratio:.2f}x: the dedup ratio of {', '.join(d['name'] for d in chosen)}")


def with_cloned_bytes(doc: dict[str, Any], saved: int | None, notes: list[str], *,
                      priced: Mapping[str, Any] | None = None) -> None:
    """Put the pool's ``bclonesaved`` on the largest dataset without dedup as ``cloned_bytes``;
    ``priced`` is the document whose datasets are priced (``doc`` with stand-in sizes while some
    sizes are still to be asked)."""
    if not saved:
        return
    design = parse_design(priced if priced is not None else doc)
    usages = dataset_usages(design, pool_capacity(design))
    candidates = [
        (i, u) for i, (ds, u) in enumerate(zip(design.datasets, usages, strict=True))
        if not dedup_on(design, ds) and u.logical_bytes and u.data_referenced_bytes
    ]
    if not candidates:
        notes.append(f"bclonesaved {saved:,} B but no dataset without dedup holds data: the saving is not modelled")
        return
    i, usage = max(candidates, key=lambda c: c[1].data_referenced_bytes)
    contents = doc["datasets"][i]["contents"]
    most = min(usage.logical_bytes, contents.get("logical_bytes") or usage.logical_bytes)
    cloned = min(part_for_share(usage.data_referenced_bytes, saved, usage.logical_bytes), most)
    contents["cloned_bytes"] = cloned
    notes.append(f"bclonesaved {saved:,} B: {cloned:,} B of {usage.name} taken as block clones")
