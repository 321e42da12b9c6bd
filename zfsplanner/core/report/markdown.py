"""The Markdown report: the headline first, then vdevs, datasets, space, risks, planning, the
comparison with an imported pool and the commands."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..commands.create import all_commands
from ..datasets.usage import USED_BELOW_WRITTEN
from ..design.types import Design, InvalidDesign, Role
from ..estimate import Estimate
from ..estimate.figures import DatasetFigures, Expansion, VdevFigures
from ..importers.compare import compare
from ..units import DEFAULT_SIZE_UNIT, format_size, zfs_nicenum
from .breakdown import capacity_breakdown
from .growth import growth_lines
from .headline import (
    PARTITIONING_WORDS,
    SEVERITY_ORDER,
    UNIT_WORDS,
    Headline,
    headline,
    pool_figures,
)
from .planning import planning_sections
from .tables import table
from .words import share_text

# --------------------------------------------------------------------------- Markdown sections


class _Writer:
    """One report: the design, its estimate and the reader's unit."""

    def __init__(self, design: Design, typed: Estimate, unit: str, top: Headline) -> None:
        self.design, self.typed, self.unit, self.top = design, typed, unit, top
        self.pool = typed.pool

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
            est: VdevFigures | None = next((v for v in self.typed.vdevs if v.group_index == gi), None)
            disks = sorted({(d.model or "", d.size_bytes) for d in group.disks})
            disk_text = "; ".join(f"{m} {format_size(s, 'TB')}".strip() for m, s in disks)
            shape = f"{group.count} × {group.layout.value}"
            if group.layout.value != "stripe":
                shape += f" of {group.width}"
            if group.is_draid:
                draid = est.draid if est is not None else None
                data, spares = (draid.data, draid.spares) if draid is not None else (None, None)
                shape += f" ({data} data disks per row, {spares} distributed spares)"
            counted = group.role not in (Role.CACHE, Role.SPARE)
            rows.append([
                group.role.value,
                shape,
                disk_text,
                str(est.ashift) if est is not None else "–",
                self.size(est.zpool_size_bytes * group.count) if est is not None and counted else "–",
                str(est.fault_tolerance) if est is not None and counted else "–",
                "yes" if est is not None and est.removable else "no",
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
        by_name = {d.name: d for d in self.typed.datasets}
        rows = []
        for ds in self.design.datasets:
            est: DatasetFigures | None = by_name.get(ds.name)
            if est is None:
                rows.append([ds.name, ds.type.value, "–", str(ds.compression or "–"), "–", "–", "–",
                             zfs_nicenum(0), "–"])
                continue
            block, ratio, overhead = est.block_size_bytes, est.compressratio, est.raidz_overhead_fraction
            rows.append([
                ds.name,
                ds.type.value,
                zfs_nicenum(block) if block else "–",
                str(est.compression or ds.compression or "–"),
                self.size(est.logical_bytes),
                f"{ratio:.2f}x" if isinstance(ratio, int | float) else "–",
                self.size(est.zfs_used_bytes),
                zfs_nicenum(est.zfs_used_bytes or 0),
                f"{overhead * 100:.1f} %" if isinstance(overhead, int | float) else "–",
            ])
        below = [d.name for d in self.typed.datasets if USED_BELOW_WRITTEN in d.notes]
        return [
            "## Datasets", "",
            "What each dataset will use once it holds the data planned for it. \"Uses\" is `zfs list` USED; parity "
            "and padding is the share of the allocation RAIDZ adds for that dataset's block size.", "",
            *table(("Dataset", "Type", "Block size", "Compression", "Data written", "Compression ratio", "Uses",
                    "zfs list prints", "Parity and padding"), rows), "",
            *[f"- {name}: {USED_BELOW_WRITTEN}." for name in below],
            *([""] if below else []),
        ]

    def space(self) -> list[str]:
        rows = [[label, self.size(n), zfs_nicenum(n), f"{n:,}", explain]
                for _, label, explain, n in pool_figures(self.typed.pool)]
        lines = ["## Space, figure by figure", "",
                 *table(("Figure", "Size", "zpool/zfs print", "Bytes", "What it means"), rows), "",
                 "As `zpool list` and `zfs list` will print it:", "", *self.as_printed(), ""]
        notes = self.pool.notes
        return lines + ([f"- {n}" for n in notes] + [""] if notes else [])

    def breakdown(self) -> list[str]:
        parts = capacity_breakdown(self.typed)
        raw = parts.raw_bytes or 1
        rows = [[p.category_label, p.label, self.size(p.bytes), share_text(p.bytes / raw)] for p in parts.parts]
        return ["## Where the raw capacity goes", "",
                "Every byte of the disks (hot spares apart), by what ZFS does with it: the data, the redundancy "
                "of each vdev group (a mirror's extra copies, RAIDZ and dRAID parity and padding), the slop ZFS "
                "keeps back, the pool's own metadata and layout (labels, boot region, rounding), log and cache "
                "devices, and what stays free.", "",
                *table(("Category", "Part", "Size", "Share of the raw disks"), rows), ""]

    def as_printed(self) -> list[str]:
        name, pool = self.design.name, self.pool
        lines = [
            "```",
            f"$ zpool list -o name,size {name}",
            f"NAME{' ' * max(len(name) - 2, 2)}  SIZE",
            f"{name}  {zfs_nicenum(pool.zpool_size_bytes):>5}",
            f"$ zfs list -o name,used,avail -r {name}",
        ]
        width = max([len(name), *(len(d.name) for d in self.design.datasets), 4])
        lines.append(f"{'NAME':<{width}}   USED  AVAIL")
        avail = pool.zfs_avail_after_bytes
        used = (pool.zfs_used_bytes or 0) + (pool.initial_used_bytes or 0)
        lines.append(f"{name:<{width}}  {zfs_nicenum(used):>5}  {zfs_nicenum(avail):>5}")
        for d in self.typed.datasets:
            if d.name != name:
                lines.append(f"{d.name:<{width}}  {zfs_nicenum(d.zfs_used_bytes or 0):>5}  "
                             f"{zfs_nicenum(avail):>5}")
        lines.append("```")
        return lines

    def risks(self) -> list[str]:
        risks = sorted(self.typed.risks, key=lambda r: SEVERITY_ORDER.index(r.severity.value))
        out = ["## Risks", ""]
        if not risks:
            return out + ["No risks found.", ""]
        for r in risks:  # the title names what it is about in words; ``subject`` is the API's JSON path
            out += [f"### {r.severity.value.capitalize()}: {r.title}", "",
                    f"{r.detail} (rule `{r.code}`)", "", f"**Fix:** {r.fix}", ""]
            if r.reference:
                out += [f"Reference: {r.reference}", ""]
        return out

    def md_raid(self) -> list[str]:
        groups = self.typed.md_raid
        if not groups:
            return []
        out = ["## Compared with Linux md RAID", "",
               "The same data disks as an md RAID array with ext4 on top, for comparison: the array's size, the "
               "failures it survives, and what `df` would show for ext4.", ""]
        for g in groups:
            if len(groups) > 1:
                out += [f"### Data vdev group {g.group_index + 1} ({g.disks} disks)", ""]
            rows = [[r.level.value, r.disks, self.size(r.usable_bytes), r.fault_tolerance,
                     self.size(r.ext4_size_bytes), self.size(r.ext4_avail_bytes)]
                    for r in g.rows]
            out += table(("md RAID level", "Disks", "Array size", "Disk failures survived", "ext4 size (df)",
                          "ext4 available (df)"), rows) + [""]
            notes = dict.fromkeys(n for r in g.rows for n in r.notes)
            out += [f"- {n}" for n in notes] + ([""] if notes else [])
        return out

    def expansion(self) -> list[str]:
        out: list[str] = []
        for e in self.typed.raidz_expansion:
            r = e.report
            title = (f"## RAIDZ expansion of vdev group {r.group_index + 1}: "
                     f"{r.original_width} → {r.new_width} disks")
            rows = [
                ("Usable space before the expansion", self.size(r.avail_before_bytes)),
                ("Usable space after it (as ZFS reports it)", self.size(r.avail_after_bytes)),
                (f"Usable space of a pool built {r.new_width} wide from the start",
                 self.size(r.fresh_avail_bytes)),
                ("Data written before the expansion", self.size(r.old_logical_bytes)),
                ("Extra raw space that data keeps using at the old parity ratio",
                 self.size(r.lost_to_old_ratio_bytes)),
                ("Usable space short of a pool built wide from the start", self.size(r.avail_shortfall_bytes)),
            ]
            out += [title, "",
                    "RAIDZ expansion keeps the data written before it at its old ratio of data to parity until it "
                    "is rewritten, and ZFS keeps reporting space at the old ratio.", "",
                    *table(("Figure", "Size"), rows), ""]
            out += self.expansion_datasets(e)
        return out

    def expansion_datasets(self, e: Expansion) -> list[str]:
        if not e.datasets:
            return []
        rows = [[d.name, self.size(d.logical_bytes_written_before),
                 self.size(d.used_written_before_bytes), self.size(d.logical_bytes_written_after),
                 self.size(d.used_written_after_bytes), self.size(d.zfs_used_bytes),
                 self.size(d.rewrite_frees_bytes)] for d in e.datasets]
        return ["### USED of each dataset, by when its data was written", "",
                "After the expansion, `zfs list` shows less USED than the data written: ZFS still converts every "
                "block's raw size to USED with the ratio of the original width, so data written before keeps "
                "its old cost, and data written after, stored at the new, better ratio, counts for less than "
                "its own size. Rewriting the old data (`zfs rewrite`, OpenZFS 2.3.4 and later, or send and "
                "receive) stores it at the new ratio too.", "",
                *table(("Dataset", "Written before", "Its USED", "Written after", "Its USED", "USED in all",
                        "A rewrite of the old data frees"), rows), ""]


def markdown(
    design: Design,
    estimate: Estimate,
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
    lines += w.vdevs() + w.datasets() + w.space() + w.breakdown() + w.risks()
    lines += planning_sections(estimate, unit) + growth_lines(estimate, unit)
    lines += w.md_raid() + w.expansion()
    lines += _comparison(design, estimate, w)
    try:
        commands = all_commands(design, wrapped=True)
    except (InvalidDesign, ValueError):
        commands = []
    if commands:
        lines += ["## Commands", "", "Device paths are placeholders: replace each with the by-id path of a real disk.",
                  "", "```sh", *commands, "```", ""]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def _comparison(design: Design, estimate: Estimate, w: _Writer) -> list[str]:
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
