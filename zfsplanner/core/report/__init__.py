"""A design and its estimate for a reader: the headline figures, the Markdown report, CSV and HTML.

:class:`Headline` is the answer a reader came for (usable space, raw, failures survived,
risks by severity), built once from the estimate by :func:`headline`; the design page's
summary (``plans.presentation``) and this report read the same object, so a headline figure
cannot differ between them.

:func:`markdown` is written for a person: it leads with the headline, then the vdevs, the
datasets, the space figure by figure (with what ``zpool list`` / ``zfs list`` will print),
the risks with their fixes, special vdev sizing, reliability, performance, SLOG and RAM
(``report.planning``), "model vs the pool" for an imported design, and the commands. Sizes
are in one family of units at a time, the reader's choice (``TiB`` or ``TB``). Every table has
labels in words; no field name of the estimate document is shown.

:func:`csv_text` is the estimate as one row for the pool, one per top-level vdev and one per
dataset, with exact byte counts (a spreadsheet formats them), machine column names and a
``label`` column in words.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..commands.create import all_commands
from ..design.types import Design, InvalidDesign, Role
from ..importers.compare import compare
from ..units import DEFAULT_SIZE_UNIT, format_size, zfs_nicenum
from .planning import planning_sections
from .words import duration_text, figure_label, share_text

SEVERITY_ORDER = ("critical", "warning", "info")
# Estimate sections this module writes by name (or leaves out: internal tables); any other
# section a later estimate carries is written generically, with its figures labelled in words.
KNOWN_SECTIONS = {
    "format", "design", "pool", "vdevs", "datasets", "risks", "units", "efficiency", "md_raid",
    "special", "reliability", "performance", "sizing", "raidz_expansion",
}
CSV_COLUMNS = (
    "kind", "name", "role", "layout", "width", "count", "ashift", "fault_tolerance", "zpool_size_bytes",
    "zfs_avail_bytes", "raw_bytes", "logical_bytes", "compressratio", "data_allocated_bytes",
    "metadata_allocated_bytes", "special_allocated_bytes", "normal_allocated_bytes", "zfs_used_bytes",
    "referenced_bytes", "raidz_overhead_fraction", "removable", "label",
)
PARTITIONING_WORDS = {
    "linux-whole-disk": "whole disks, partitioned as zpool does on Linux (1 MiB offset, 8 MiB reserved)",
    "none": "used as they are (partitions or files)",
}
UNIT_WORDS = {
    "TiB": "binary units (TiB = 2^40 bytes), what `zpool` and `zfs` count in: their T means TiB",
    "TB": "decimal units (TB = 10^12 bytes), as on drive labels; `zpool` and `zfs` print binary units (T = TiB)",
}

# The pool's space, figure by figure: estimate key, label, what it means. The design page's
# "Details" and the report's "Space" table both read this list.
POOL_FIGURES = (
    ("zpool_size_bytes", "Pool size (SIZE)", "What zpool list prints: data and special classes, parity included."),
    ("zfs_avail_bytes", "Usable space, empty pool (AVAIL)",
     "What zfs list prints for the new pool: after parity, padding and slop."),
    ("zfs_used_bytes", "Used by the planned contents (USED)",
     "zfs list USED of the pool once the datasets hold what you planned."),
    ("zfs_avail_after_bytes", "Free after the planned contents (AVAIL)", "What stays free for more data."),
    ("raw_bytes", "Raw disks", "Sum of the disk sizes (spares apart)."),
    ("slop_bytes", "Slop space", "Held back by ZFS so a full pool can still free space."),
    ("special_size_bytes", "Special and dedup class", "In SIZE, never in AVAIL: metadata and small blocks."),
    ("special_allocated_bytes", "Special class used", "Metadata and small blocks the planned contents put there."),
    ("log_size_bytes", "Log devices (SLOG)", "In neither SIZE nor AVAIL."),
    ("cache_size_bytes", "Cache devices (L2ARC)", "In neither SIZE nor AVAIL."),
    ("spare_raw_bytes", "Hot spares", "Idle until a disk fails."),
)
_ONLY_WHEN_SET = {"zfs_used_bytes", "zfs_avail_after_bytes", "special_size_bytes", "special_allocated_bytes",
                  "log_size_bytes", "cache_size_bytes", "spare_raw_bytes"}


def pool_figures(pool: Mapping[str, Any]) -> list[tuple[str, str, str, int]]:
    """The pool's figures that apply to this design: (key, label, what it means, bytes); a log, cache,
    spare, special class or planned contents the design does not have is left out, not shown as 0."""
    out = []
    planned = bool(pool.get("zfs_used_bytes"))
    for key, label, explain in POOL_FIGURES:
        n = pool.get(key)
        if key == "zfs_avail_after_bytes" and not planned:
            continue  # the same as AVAIL of the empty pool
        if isinstance(n, int) and not isinstance(n, bool) and (n or key not in _ONLY_WHEN_SET):
            out.append((key, label, explain, n))
    return out


# --------------------------------------------------------------------------- the headline


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Headline:
    """The figures a reader came for, as the design page's summary and the report show them."""

    usable_bytes: int
    raw_bytes: int
    zpool_size_bytes: int
    survives: int | None  # fewest disk failures any data/special/dedup vdev survives; None: none holds data
    risk_counts: Mapping[str, int]  # by severity, in SEVERITY_ORDER
    planned_used_bytes: int | None  # None: no contents planned
    planned_fill: float | None  # planned USED ÷ usable
    avail_after_bytes: int | None

    @property
    def efficiency(self) -> float:
        return self.usable_bytes / self.raw_bytes if self.raw_bytes else 0.0

    @property
    def efficiency_percent(self) -> str:
        return f"{100 * self.efficiency:.1f} %"

    @property
    def survives_text(self) -> str:
        if self.survives is None:
            return "does not apply"
        if self.survives == 0:
            return "No disk failure: one failed disk loses the pool"
        n = self.survives
        return f"Any {n} disk failure{'s' if n > 1 else ''} per vdev"

    @property
    def risk_total(self) -> int:
        return sum(self.risk_counts.values())

    @property
    def risks_text(self) -> str:
        return ", ".join(f"{n} {s}" for s, n in self.risk_counts.items() if n) or "none found"


def headline(estimate: Mapping[str, Any]) -> Headline:
    """The headline figures of an estimate document."""
    pool = estimate.get("pool") or {}
    risks = [r for r in estimate.get("risks") or [] if isinstance(r, Mapping)]
    tolerant = [
        _int(v.get("fault_tolerance"))
        for v in estimate.get("vdevs") or []
        if isinstance(v, Mapping) and v.get("role") in ("data", "special", "dedup")
    ]
    used = pool.get("zfs_used_bytes")
    planned = _int(used) if used else None
    fill = pool.get("used_fraction")
    after = pool.get("zfs_avail_after_bytes")
    return Headline(
        usable_bytes=_int(pool.get("zfs_avail_bytes")),
        raw_bytes=_int(pool.get("raw_bytes")),
        zpool_size_bytes=_int(pool.get("zpool_size_bytes")),
        survives=min(tolerant) if tolerant else None,
        risk_counts={s: sum(1 for r in risks if r.get("severity") == s) for s in SEVERITY_ORDER},
        planned_used_bytes=planned,
        planned_fill=float(fill) if planned is not None and isinstance(fill, int | float) else None,
        avail_after_bytes=_int(after) if planned is not None and after is not None else None,
    )


# --------------------------------------------------------------------------- Markdown helpers


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def value(key: str, v: Any, unit: str = DEFAULT_SIZE_UNIT) -> str:
    """A figure of a section this module does not know by name, in words, chosen by its key's unit suffix."""
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Mapping) and set(v) >= {"low", "high"}:
        return f"{value(key, v['low'], unit)} – {value(key, v['high'], unit)}"
    if isinstance(v, int | float):
        if key.endswith("_bytes_per_s"):
            return f"{v / 1e6:,.0f} MB/s"
        if key.endswith("_bytes"):
            return format_size(v, unit)
        if key.endswith("_seconds"):
            return duration_text(float(v))
        if key.endswith("_hours"):
            return f"{v:,.1f} h"
        if key.endswith("_us"):
            return f"{v:,.0f} µs"
        if key.endswith(("_fraction", "_probability")) or key in ("1y", "5y", "10y"):
            return f"{v * 100:.4g} %"
        if key.endswith("_pct"):
            return f"{v:g} %"
        if key.endswith("iops"):
            return f"{v:,.0f}"
        return f"{v:,}" if isinstance(v, int) else f"{v:.4g}"
    if isinstance(v, list | tuple) and all(not isinstance(x, Mapping | list) for x in v):
        return ", ".join(str(x) for x in v)
    if isinstance(v, Mapping | list | tuple):
        return json.dumps(v, ensure_ascii=False)[:300]
    return str(v)


def _is_range(v: Any) -> bool:
    return isinstance(v, Mapping) and set(v) >= {"low", "high"} and len(v) <= 3


def generic(key: str, data: Any, level: int = 2, unit: str = DEFAULT_SIZE_UNIT) -> list[str]:
    """A section added to the estimate after this report was written: figures as a labelled table,
    lists of objects as tables, long text as paragraphs, nested sections under their own heading."""
    out = [f"{'#' * level} {figure_label(key)}", ""]
    if isinstance(data, Mapping):
        rows = []
        for k, v in data.items():
            if isinstance(v, str) and len(v) > 80:
                out += [v, ""]
            elif not isinstance(v, Mapping | list) or _is_range(v):
                rows.append((figure_label(k), value(k, v, unit)))
            elif isinstance(v, list) and v and all(not isinstance(x, Mapping | list) for x in v):
                rows.append((figure_label(k), value(k, v, unit)))
        if rows:
            out += table(("Figure", "Value"), rows) + [""]
        for k, v in data.items():
            if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
                out += [f"{'#' * (level + 1)} {figure_label(k)}", ""] + _object_table(v, unit) + [""]
            elif isinstance(v, Mapping) and not _is_range(v) and level < 4:
                out += generic(k, v, level + 1, unit)
    elif isinstance(data, list) and data and all(isinstance(x, Mapping) for x in data):
        out += _object_table(data, unit) + [""]
    elif isinstance(data, list):
        out += [f"- {value(key, x, unit)}" for x in data] + [""]
    else:
        out += [value(key, data, unit), ""]
    return out


def _object_table(items: Sequence[Mapping[str, Any]], unit: str) -> list[str]:
    keys: list[str] = []
    for item in items:
        keys += [k for k, v in item.items() if k not in keys and (not isinstance(v, Mapping | list) or _is_range(v))]
    return table([figure_label(k) for k in keys], ([value(k, item.get(k), unit) for k in keys] for item in items))


# --------------------------------------------------------------------------- Markdown sections


class _Writer:
    """One report: the design, its estimate and the reader's unit."""

    def __init__(self, design: Design, estimate: Mapping[str, Any], unit: str, top: Headline) -> None:
        self.design, self.estimate, self.unit, self.top = design, estimate, unit, top
        self.pool: Mapping[str, Any] = estimate.get("pool") or {}

    def size(self, n: Any) -> str:
        return format_size(n, self.unit) if isinstance(n, int | float) and not isinstance(n, bool) else "–"

    def summary(self) -> list[str]:
        top = self.top
        lines = [
            f"- **Usable space:** {self.size(top.usable_bytes)} — what `zfs list` shows as AVAIL for the empty pool "
            f"(it prints {zfs_nicenum(top.usable_bytes)}): after parity, padding and the space ZFS keeps back.",
            f"- **Pool size:** {self.size(top.zpool_size_bytes)} — what `zpool list` shows as SIZE "
            f"(it prints {zfs_nicenum(top.zpool_size_bytes)}): every data and special disk, parity included.",
            f"- **Raw disks:** {self.size(top.raw_bytes)} — the sum of the disk sizes, spares apart.",
            f"- **Efficiency:** {top.efficiency_percent} — usable space as a share of the raw disks.",
        ]
        if top.planned_used_bytes is not None:
            share = f" ({share_text(top.planned_fill)} of the usable space)" if top.planned_fill is not None else ""
            lines.append(f"- **Planned contents:** {self.size(top.planned_used_bytes)}{share}; free after them: "
                         f"{self.size(top.avail_after_bytes)}.")
        lines.append(f"- **Disk failures survived:** {top.survives_text} — the fewest any vdev that holds data "
                     "can lose without losing the pool.")
        lines.append(f"- **Risks:** {top.risks_text}.")
        partitioning = PARTITIONING_WORDS.get(self.design.partitioning.value, self.design.partitioning.value)
        lines.append(f"- **OpenZFS:** {self.design.version}; disks: {partitioning}.")
        return lines

    def vdevs(self) -> list[str]:
        rows = []
        for gi, group in enumerate(self.design.vdevs):
            est: Mapping[str, Any] = next((v for v in self.estimate.get("vdevs") or [] if v.get("group_index") == gi),
                                          {})
            disks = sorted({(d.model or "", d.size_bytes) for d in group.disks})
            disk_text = "; ".join(f"{m} {format_size(s, 'TB')}".strip() for m, s in disks)
            shape = f"{group.count} × {group.layout.value}"
            if group.layout.value != "stripe":
                shape += f" of {group.width}"
            if group.is_draid:
                draid = est.get("draid") or {}
                shape += f" ({draid.get('data')} data disks per row, {draid.get('spares')} distributed spares)"
            counted = group.role not in (Role.CACHE, Role.SPARE)
            per_vdev = est.get("zpool_size_bytes")
            rows.append([
                group.role.value,
                shape,
                disk_text,
                str(est.get("ashift", "–")),
                self.size(per_vdev * group.count) if per_vdev is not None and counted else "–",
                str(est.get("fault_tolerance", "–")) if counted else "–",
                "yes" if est.get("removable") else "no",
            ])
        return [
            "## Vdevs", "",
            "Data vdevs hold the data; a special vdev holds metadata and small blocks; log is the SLOG; cache is "
            "L2ARC; spares wait for a failed disk. Disk sizes are as on their labels.", "",
            *table(("Role", "Layout", "Disks", "ashift", "Size in the pool", "Disk failures survived",
                    "Can be removed later"), rows), "",
        ]

    def datasets(self) -> list[str]:
        if not self.design.datasets:
            return []
        by_name = {d["name"]: d for d in self.estimate.get("datasets") or []}
        rows = []
        for ds in self.design.datasets:
            est: Mapping[str, Any] = by_name.get(ds.name, {})
            block = est.get("block_size_bytes")
            ratio, overhead = est.get("compressratio"), est.get("raidz_overhead_fraction")
            rows.append([
                ds.name,
                ds.type.value,
                zfs_nicenum(block) if block else "–",
                str(est.get("compression") or ds.compression or "–"),
                self.size(est.get("logical_bytes")),
                f"{ratio:.2f}x" if isinstance(ratio, int | float) else "–",
                self.size(est.get("zfs_used_bytes")),
                zfs_nicenum(est.get("zfs_used_bytes") or 0),
                f"{overhead * 100:.1f} %" if isinstance(overhead, int | float) else "–",
            ])
        return [
            "## Datasets", "",
            "What each dataset will use once it holds the data planned for it. \"Uses\" is `zfs list` USED; parity "
            "and padding is the share of the allocation RAIDZ adds for that dataset's block size.", "",
            *table(("Dataset", "Type", "Block size", "Compression", "Data written", "Compression ratio", "Uses",
                    "zfs list prints", "Parity and padding"), rows), "",
        ]

    def space(self) -> list[str]:
        rows = [[label, self.size(n), zfs_nicenum(n), f"{n:,}", explain]
                for _, label, explain, n in pool_figures(self.pool)]
        lines = ["## Space, figure by figure", "",
                 *table(("Figure", "Size", "zpool/zfs print", "Bytes", "What it means"), rows), "",
                 "As `zpool list` and `zfs list` will print it:", "", *self.as_printed(), ""]
        notes = self.pool.get("notes") or []
        return lines + ([f"- {n}" for n in notes] + [""] if notes else [])

    def as_printed(self) -> list[str]:
        name, pool = self.design.name, self.pool
        lines = [
            "```",
            f"$ zpool list -o name,size {name}",
            f"NAME{' ' * max(len(name) - 2, 2)}  SIZE",
            f"{name}  {zfs_nicenum(pool['zpool_size_bytes']):>5}",
            f"$ zfs list -o name,used,avail -r {name}",
        ]
        width = max([len(name), *(len(d.name) for d in self.design.datasets), 4])
        lines.append(f"{'NAME':<{width}}   USED  AVAIL")
        avail = pool.get("zfs_avail_after_bytes", pool.get("zfs_avail_bytes") or 0)
        used = (pool.get("zfs_used_bytes") or 0) + (pool.get("initial_used_bytes") or 0)
        lines.append(f"{name:<{width}}  {zfs_nicenum(used):>5}  {zfs_nicenum(avail):>5}")
        for d in self.estimate.get("datasets") or []:
            if d["name"] != name:
                lines.append(f"{d['name']:<{width}}  {zfs_nicenum(d.get('zfs_used_bytes') or 0):>5}  "
                             f"{zfs_nicenum(avail):>5}")
        lines.append("```")
        return lines

    def risks(self) -> list[str]:
        risks = sorted(self.estimate.get("risks") or [],
                       key=lambda r: SEVERITY_ORDER.index(r.get("severity")) if r.get("severity") in SEVERITY_ORDER
                       else 9)
        out = ["## Risks", ""]
        if not risks:
            return out + ["No risks found.", ""]
        for r in risks:  # the title names what it is about in words; ``subject`` is the API's JSON path
            out += [f"### {str(r.get('severity', '')).capitalize()}: {r.get('title')}", "",
                    f"{r.get('detail')} (rule `{r.get('code')}`)", "", f"**Fix:** {r.get('fix')}", ""]
            if r.get("reference"):
                out += [f"Reference: {r['reference']}", ""]
        return out

    def md_raid(self) -> list[str]:
        groups = [g for g in self.estimate.get("md_raid") or [] if isinstance(g, Mapping)]
        if not groups:
            return []
        out = ["## Compared with Linux md RAID", "",
               "The same data disks as an md RAID array with ext4 on top, for comparison: the array's size, the "
               "failures it survives, and what `df` would show for ext4.", ""]
        for g in groups:
            if len(groups) > 1:
                out += [f"### Data vdev group {_int(g.get('group_index')) + 1} ({g.get('disks')} disks)", ""]
            rows = [[r.get("level"), r.get("disks"), self.size(r.get("usable_bytes")), r.get("fault_tolerance"),
                     self.size(r.get("ext4_size_bytes")), self.size(r.get("ext4_avail_bytes"))]
                    for r in g.get("rows") or []]
            out += table(("md RAID level", "Disks", "Array size", "Disk failures survived", "ext4 size (df)",
                          "ext4 available (df)"), rows) + [""]
            notes = dict.fromkeys(n for r in g.get("rows") or [] for n in r.get("notes") or [])
            out += [f"- {n}" for n in notes] + ([""] if notes else [])
        return out

    def expansion(self) -> list[str]:
        items = [e for e in self.estimate.get("raidz_expansion") or [] if isinstance(e, Mapping)]
        out: list[str] = []
        for e in items:
            title = (f"## RAIDZ expansion of vdev group {_int(e.get('group_index')) + 1}: "
                     f"{e.get('original_width')} → {e.get('new_width')} disks")
            rows = [
                ("Usable space before the expansion", self.size(e.get("avail_before_bytes"))),
                ("Usable space after it (as ZFS reports it)", self.size(e.get("avail_after_bytes"))),
                (f"Usable space of a pool built {e.get('new_width')} wide from the start",
                 self.size(e.get("fresh_avail_bytes"))),
                ("Data written before the expansion", self.size(e.get("old_logical_bytes"))),
                ("Extra raw space that data keeps using at the old parity ratio",
                 self.size(e.get("lost_to_old_ratio_bytes"))),
                ("Usable space short of a pool built wide from the start", self.size(e.get("avail_shortfall_bytes"))),
            ]
            out += [title, "",
                    "RAIDZ expansion keeps the data written before it at its old ratio of data to parity until it "
                    "is rewritten, and ZFS keeps reporting space at the old ratio.", "",
                    *table(("Figure", "Size"), rows), ""]
        return out


def markdown(
    design: Design,
    estimate: Mapping[str, Any],
    *,
    meta: Mapping[str, str] | None = None,
    unit: str = DEFAULT_SIZE_UNIT,
    top: Headline | None = None,
) -> str:
    """The report as Markdown. ``meta`` adds lines under the title (team, revision, link); ``unit`` is the
    reader's family of units (``TiB`` or ``TB``); ``top`` the headline the page shows (built here if not given)."""
    w = _Writer(design, estimate, unit, top if top is not None else headline(estimate))
    lines = [f"# ZFS pool design: {design.name}", ""]
    if design.description:
        lines += [design.description, ""]
    for k, v in (meta or {}).items():
        lines.append(f"- {k.capitalize()}: {v}")
    lines += ["" if meta else "", f"Sizes are in {UNIT_WORDS.get(unit, UNIT_WORDS[DEFAULT_SIZE_UNIT])}.", ""]
    lines += ["## Summary", "", *w.summary(), ""]
    lines += w.vdevs() + w.datasets() + w.space() + w.risks()
    lines += planning_sections(estimate, unit)
    lines += w.md_raid() + w.expansion()
    for key, data in estimate.items():
        if key in KNOWN_SECTIONS or data in (None, [], {}):
            continue
        lines += generic(key, data, unit=unit)
    lines += _comparison(design, estimate, w)
    try:
        commands = all_commands(design)
    except (InvalidDesign, ValueError):
        commands = []
    if commands:
        lines += ["## Commands", "", "Device paths are placeholders: replace each with the by-id path of a real disk.",
                  "", "```sh", *commands, "```", ""]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def _comparison(design: Design, estimate: Mapping[str, Any], w: _Writer) -> list[str]:
    rows = compare({"imported": design.extra.get("imported")}, estimate)
    if not rows:
        return []
    out = ["## Model vs the pool it was imported from", "",
           "The pool's own figures (as `zpool list` / `zfs list` printed them when it was imported) against "
           "this model's; the difference is model minus pool.", ""]
    body = []
    for r in rows:
        frac = r.difference_fraction
        diff = f"{'+' if r.difference_bytes >= 0 else '−'}{w.size(abs(r.difference_bytes))}"
        pct = f"{frac * 100:+.2f} %" if frac is not None else "–"
        note = "fitted" if r.fitted else "within rounding" if r.within_rounding else ""
        body.append([r.label, r.what, w.size(r.reported_bytes), w.size(r.model_bytes), diff, pct, note])
    out += table(("Figure", "Printed by", "Pool", "Model", "Difference", "%", "Note"), body) + [""]
    notes = (design.extra.get("imported") or {}).get("notes") or []
    if notes:
        out += ["Import notes:", ""] + [f"- {n}" for n in notes] + [""]
    return out


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


def csv_text(design: Design, estimate: Mapping[str, Any]) -> str:
    """The estimate as CSV: a pool row, one row per top-level vdev, one per dataset; ``label`` names each in words."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(design, estimate):
        writer.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v)
                         for k, v in row.items()})
    return buf.getvalue()


# --------------------------------------------------------------------------- HTML


def _inline(text: str) -> str:
    """Escape, then ``code`` and **bold** (the only inline Markdown the report writes)."""
    out = []
    for i, part in enumerate(text.split("`")):
        escaped = html.escape(part, quote=False).replace("\\|", "|")
        if i % 2:
            out.append(f"<code>{escaped}</code>")
        else:
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def markdown_to_html(md: str) -> str:
    """The report's Markdown as HTML: headings, paragraphs, lists, tables (in a scrolling box) and code.

    Only the subset :func:`markdown` writes; every text is escaped first, so names and
    descriptions from the design cannot inject markup.
    """
    out: list[str] = []
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(html.escape(lines[i], quote=False))
                i += 1
            out.append("<pre><code>" + "\n".join(body) + "</code></pre>")
        elif m := re.match(r"^(#{1,4}) (.*)$", line):
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            head = _cells(line)
            i += 2
            rows = []
            while i < len(lines) and lines[i].startswith("| "):
                rows.append(_cells(lines[i]))
                i += 1
            i -= 1
            thead = "".join(f'<th scope="col">{_inline(c)}</th>' for c in head)
            tbody = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows)
            # tabindex: a table wider than a phone scrolls in its box, and keyboards must reach it
            out.append(f'<div class="overflow-auto" tabindex="0"><table><thead><tr>{thead}</tr></thead>'
                       f"<tbody>{tbody}</tbody></table></div>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            i -= 1
            out.append("<ul>" + "".join(items) + "</ul>")
        elif line.strip():
            para = [line]
            while i + 1 < len(lines) and lines[i + 1].strip() and not re.match(r"^(#|- |\| |```)", lines[i + 1]):
                i += 1
                para.append(lines[i])
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
        i += 1
    return "\n".join(out)
