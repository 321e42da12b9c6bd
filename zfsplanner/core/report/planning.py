"""The report's planning sections in words: special vdev size, reliability, performance, SLOG and RAM.

They say what the design page's planning cards say, in the same words (``words``), as
headings, sentences and labelled tables, from the estimate's typed sections.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..estimate import Estimate
from ..estimate.figures import NEEDS_DATA
from ..planning.figures import (
    PerformanceFigures,
    ReliabilityAssumptions,
    ReliabilityFigures,
    SizingFigures,
    SpecialFigures,
)
from ..planning.performance import Range
from ..units import format_si, format_size
from .words import (
    duration_text,
    iops_text,
    percent_text,
    probability_text,
    rate_text,
    scientific,
    small_blocks_text,
    years_text,
)

Size = Callable[[float | None], str]


def _table(head: tuple[str, ...], rows: list[list[Any]]) -> list[str]:
    def cell(c: Any) -> str:
        return str(c).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows] + [""]


def _sizes(unit: str) -> Size:
    """Sizes in the reader's unit; "does not apply" where there is none."""

    def size(v: float | None) -> str:
        return format_size(v, unit) if v is not None else "does not apply"

    return size


NO_DATA_WHY = (
    "no dataset says how much data it will hold, so only the empty pool's metadata counts; give each "
    "dataset its data to store (the designer's \"Data to store\")"
)


def _special(s: SpecialFigures, unit: str, has_data: bool = True) -> list[str]:
    size = _sizes(unit)
    shape = f"{s.layout.count} × {s.layout.layout} of {s.layout.width}"
    stop = f"{100 * s.small_blocks_stop_fraction:.0f} %"
    out = ["## Special vdev size", ""]
    target = (
        f"{size(s.recommended_bytes)} — disks of at least {format_si(s.recommended_disk_bytes)} as {shape}."
        if has_data
        else f"{NEEDS_DATA} — {NO_DATA_WHY}."
    )
    lines = [
        f"- **Special class size to aim for:** {target}",
        f"- **What the datasets put there:** {size(s.demand_bytes)} — metadata "
        f"{size(s.metadata_bytes)} and small blocks {size(s.small_blocks_bytes)}.",
    ]
    if s.class_size_bytes:
        full = percent_text(s.fill_fraction, 2)
        too_small = ": too small" if s.fits is False else ""
        lines.append(
            f"- **Special class in this design:** {size(s.class_size_bytes)}, {full} full with the "
            f"planned contents{too_small}."
        )
        lines.append(
            f"- **Small blocks stop going there at:** {size(s.small_blocks_stop_bytes)} ({stop} full); "
            "metadata continues to 100 %."
        )
    else:
        lines.append(
            f"- **Special class in this design:** does not apply — the design has no special vdev; the sizes "
            f"are for a {shape} to add."
        )
    out += lines + [""]
    rows = [
        [
            d.name,
            small_blocks_text(d.special_small_blocks),
            size(d.demand_bytes),
            size(d.metadata_bytes),
        ]
        for d in s.datasets
    ]
    if rows:
        out += ["What each dataset puts on the special class at its `special_small_blocks` setting:", ""]
        out += _table(("Dataset", "Small blocks up to", "On the special class", "of which metadata"), rows)
    notes = [
        *s.notes,
        f"The recommendation keeps what the datasets put there below the {stop} point, with "
        f"{100 * s.headroom_fraction:.0f} % headroom on top.",
    ]
    return out + [f"- {n}" for n in notes] + [""]


def _reliability(r: ReliabilityFigures) -> list[str]:
    loss, pool = r.data_loss_probability, r.pool_loss_probability
    longest = max((g.resilver_seconds or 0 for g in r.groups), default=0)
    out = [
        "## How likely is losing data",
        "",
        f"- **Chance of losing some data within 5 years:** {probability_text(loss.five_years)} "
        f"(within 1 year: {probability_text(loss.one_year)}).",
        f"- **Chance of losing the whole pool within 5 years:** {probability_text(pool.five_years)} — disk "
        f"failures only (within 1 year: {probability_text(pool.one_year)}).",
        f"- **Longest rebuild of one disk:** {duration_text(longest) if longest else 'does not apply'}, at the "
        "planned fill.",
        f"- **Mean time to data loss:** {years_text(r.mttdl_hours)} — a rate for comparing layouts, not a lifetime.",
        "",
    ]
    rows = [
        [
            f"{g.role} {g.count} × {g.layout} of {g.width}",
            g.fault_tolerance,
            duration_text(g.resilver_seconds),
            duration_text(g.exposure_hours * 3600) if g.exposure_hours is not None else "does not apply",
            probability_text(g.another_failure_probability),
            probability_text(g.ure_during_rebuild_probability),
            probability_text(g.data_loss_probability.five_years),
        ]
        for g in r.groups
    ]
    if rows:
        out += [
            "Per vdev group: the rebuild of one failed disk, the time with less redundancy (waiting for a new "
            "disk, then the rebuild), the chance that another disk fails meanwhile, and the chance of an "
            "unrecoverable read error while the last rebuild runs with no redundancy left (a bad sector "
            "then loses the blocks it holds).",
            "",
        ]
        out += _table(
            (
                "Vdevs",
                "Disk failures survived",
                "Rebuild of one disk",
                "With less redundancy",
                "Another disk fails meanwhile",
                "Read error with no redundancy left",
                "Lose some data in 5 years",
            ),
            rows,
        )
    out += ["### Assumptions", "", *_table(("Assumption", "Value", "Source"), _assumptions(r.assumptions))]
    return out + [r.model, ""]


def _assumptions(a: ReliabilityAssumptions) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for d in a.afr:
        rows.append([f"Annualized failure rate, {d.drive}", f"{percent_text(d.afr, 2)} per year", d.source])
    for u in a.ure:
        rows.append(
            [
                f"Unrecoverable read errors, {u.media}",
                f"1 per {scientific(1 / u.per_bit)} bits read" if u.per_bit else "none",
                u.source,
            ]
        )
    for g in a.groups:
        rows.append([f"Fill of {_group(g.group_index)} at rebuild time", percent_text(g.fill_fraction), a.fill_source])
    for g in a.groups:
        rows.append([f"Rebuild speed of {_group(g.group_index)}", rate_text(g.rebuild_bytes_per_s), g.rebuild_source])
    spares = a.hot_spares
    rows.append(
        [
            "Wait before a rebuild starts",
            f"{a.replacement_hours:g} h without a hot spare; none with one",
            f"hot spares for: {', '.join(spares)}" if spares else "the design has no hot spare",
        ]
    )
    return rows


def _group(index: int) -> str:
    """Vdev group 2 -> ``vdev group 3`` (groups are numbered from 1, as the designer lists them)."""
    return f"vdev group {index + 1}"


def _range(r: Range | None, fmt: Callable[[float | None], str], unit: str = "") -> str:
    if r is None:
        return "does not apply"
    lo, hi = fmt(r.low), fmt(r.high)
    return f"{lo if lo == hi else f'{lo} – {hi}'}{unit}"


def _latency(n: float | None) -> str:
    if n is None:
        return "does not apply"
    return f"{n / 1000:.1f} ms" if n >= 1000 else f"{n:.0f} µs"


def _performance(p: PerformanceFigures) -> list[str]:
    latency, with_slog = p.sync_write_latency_us, p.sync_write_iops_with_slog
    if with_slog is not None:
        sync = (
            f"{_range(with_slog, iops_text, ' IOPS')} with the SLOG, {_latency(latency.with_slog)} each; "
            f"without it {_range(p.sync_write_iops_without_slog, iops_text, ' IOPS')}"
        )
    else:
        sync = (
            f"{_range(p.sync_write_iops_without_slog, iops_text, ' IOPS')} — no SLOG: the data vdevs take "
            f"the ZIL, {_latency(latency.without_slog)} each"
        )
    out = [
        "## How fast it will be",
        "",
        "Each figure is a range: one request at a time per vdev, to 32 queued.",
        "",
        f"- **Random reads (4 KiB):** {_range(p.random_read_iops, iops_text, ' IOPS')}.",
        f"- **Random writes (4 KiB):** {_range(p.random_write_iops, iops_text, ' IOPS')}.",
        f"- **Streaming reads (1 MiB):** {_range(p.seq_read_bytes_per_s, rate_text)}; streaming writes: "
        f"{_range(p.seq_write_bytes_per_s, rate_text)}.",
        f"- **Sync writes (fsync, NFS, databases):** {sync}.",
        "",
    ]
    out += [*p.notes] + ([""] if p.notes else [])
    rows = []
    for d in p.disks:
        f = d.figures
        rows.append(
            [
                d.name,
                f"{iops_text(f.random_read_iops_qd1)} – {iops_text(f.random_read_iops)}",
                f"{iops_text(f.random_write_iops_qd1)} – {iops_text(f.random_write_iops)}",
                rate_text(f.seq_read_bytes_per_s),
                rate_text(f.seq_write_bytes_per_s),
                iops_text(f.sync_write_iops),
                f.source,
            ]
        )
    if rows:
        out += ["### The per-disk figures it used", ""]
        out += _table(
            (
                "Disk",
                "Random read IOPS (depth 1 – 32)",
                "Random write IOPS",
                "Streaming read",
                "Streaming write",
                "Sync write IOPS",
                "From",
            ),
            rows,
        )
    return out + [p.model, ""]


def _sizing(s: SizingFigures, unit: str, has_data: bool = True) -> list[str]:
    slog, ram, size = s.slog, s.ram, _sizes(unit)
    if slog.applies:
        too_small = ", too small" if slog.fits is False else ""
        mine = f"this design's log: {size(slog.log_size_bytes)}{too_small}"
    else:
        mine = "the design has no log vdev: this is for one to add"
    share = (
        f"{percent_text(ram.ram_share)} of the host's {size(ram.ram_bytes)}"
        if ram.ram_bytes
        else "the design does not give the host's RAM"
    )
    cap_note = "" if slog.ram_known else " (the 4 GiB cap: the host's RAM is not given)"
    rows = [
        [
            "Sync writes a SLOG must absorb",
            rate_text(slog.sync_bytes_per_s),
            f"{slog.sync_rate_source}, for two 5-second transaction groups (zfs_txg_timeout), plus a quarter",
        ],
        [
            "Most a SLOG ever holds",
            size(slog.cap_bytes),
            f"2 × zfs_dirty_data_max{cap_note}; ZIL writes are throttled beyond it",
        ],
        ["Metadata (one copy, as the ARC holds it)", size(ram.metadata_bytes), ""],
        _dedup_row(s, size),
        [
            "L2ARC headers",
            size(ram.l2arc_header_bytes) if ram.cache_size_bytes else "does not apply: no cache device",
            "96 B per cached block" if ram.cache_size_bytes else "",
        ],
    ]
    return [
        "## SLOG and RAM",
        "",
        f"- **SLOG size to aim for:** {size(slog.recommended_bytes)} — {mine}.",
        f"- **RAM to keep metadata cached:** {size(ram.arc_bytes)} — {share}."
        if has_data
        else f"- **RAM to keep metadata cached:** {NEEDS_DATA} — {NO_DATA_WHY}.",
        "",
        *_table(("Figure", "Value", "How it is worked out"), rows),
    ]


def _dedup_row(s: SizingFigures, size: Size) -> list[str]:
    """The dedup table in RAM, with its size on disk and where it lives."""
    table, home = s.dedup_table, s.dedup_table_home
    if table is None:
        return ["Dedup table in RAM", "does not apply: no dataset uses dedup", ""]
    fits = "" if home is None or home.fits else ", which does not hold it"
    kind = "fast dedup" if table.fast_dedup else "traditional entries, without fast dedup"
    where = home.where if home is not None else "the pool"
    how = (
        f"{table.entries:,} unique blocks ({kind}); {size(table.on_disk_bytes)} on disk "
        f"in {where}{fits}; as zpool status -D counts it"
    )
    return ["Dedup table in RAM", size(table.in_core_bytes), how]


def planning_sections(estimate: Estimate, unit: str) -> list[str]:
    """The Markdown of the estimate's planning sections: special class, reliability, performance, SLOG and RAM."""
    has_data = estimate.planned_logical_bytes > 0
    return (
        _special(estimate.special, unit, has_data)
        + _reliability(estimate.reliability)
        + _performance(estimate.performance)
        + _sizing(estimate.sizing, unit, has_data)
    )
