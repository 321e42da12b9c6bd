"""The report's planning sections in words: special vdev size, reliability, performance, SLOG and RAM.

They say what the design page's planning cards say, in the same words (``words``), as
headings, sentences and labelled tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..units import format_si, format_size, zfs_nicenum
from .words import duration_text, iops_text, percent_text, probability_text, rate_text, scientific, years_text


def _table(head: tuple[str, ...], rows: list[list[Any]]) -> list[str]:
    def cell(c: Any) -> str:
        return str(c).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows] + [""]


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _special(s: Mapping[str, Any], unit: str) -> list[str]:
    def size(v: Any) -> str:
        n = _num(v)
        return format_size(n, unit) if n is not None else "does not apply"

    layout = s.get("layout") or {}
    shape = f"{layout.get('count', 1)} × {layout.get('layout', 'mirror')} of {layout.get('width', 2)}"
    stop = f"{100 * float(s.get('small_blocks_stop_fraction') or 0.75):.0f} %"
    out = ["## Special vdev size", ""]
    lines = [
        f"- **Special class size to aim for:** {size(s.get('recommended_bytes'))} — disks of at least "
        f"{format_si(s.get('recommended_disk_bytes') or 0)} as {shape}.",
        f"- **What the datasets put there:** {size(s.get('demand_bytes'))} — metadata "
        f"{size(s.get('metadata_bytes'))} and small blocks {size(s.get('small_blocks_bytes'))}.",
    ]
    if s.get("class_size_bytes"):
        full = percent_text(s.get("fill_fraction"), 2)
        too_small = ": too small" if s.get("fits") is False else ""
        lines.append(f"- **Special class in this design:** {size(s.get('class_size_bytes'))}, {full} full with the "
                     f"planned contents{too_small}.")
        lines.append(f"- **Small blocks stop going there at:** {size(s.get('small_blocks_stop_bytes'))} ({stop} full); "
                     "metadata continues to 100 %.")
    else:
        lines.append(f"- **Special class in this design:** does not apply — the design has no special vdev; the sizes "
                     f"are for a {shape} to add.")
    out += lines + [""]
    rows = [[d.get("name"), "off (metadata only)" if not d.get("special_small_blocks")
             else zfs_nicenum(d.get("special_small_blocks") or 0), size(d.get("demand_bytes")),
             size(d.get("metadata_bytes"))] for d in s.get("datasets") or [] if isinstance(d, Mapping)]
    if rows:
        out += ["What each dataset puts on the special class at its `special_small_blocks` setting:", ""]
        out += _table(("Dataset", "Small blocks up to", "On the special class", "of which metadata"), rows)
    headroom = f"{100 * float(s.get('headroom_fraction') or 0):.0f} %"
    notes = [str(n) for n in s.get("notes") or []]
    notes.append(f"The recommendation keeps what the datasets put there below the {stop} point, with {headroom} "
                 "headroom on top.")
    return out + [f"- {n}" for n in notes] + [""]


def _reliability(r: Mapping[str, Any]) -> list[str]:
    loss, pool = r.get("data_loss_probability") or {}, r.get("pool_loss_probability") or {}
    groups = [g for g in r.get("groups") or [] if isinstance(g, Mapping)]
    longest = max((_num(g.get("resilver_seconds")) or 0 for g in groups), default=0)
    out = [
        "## How likely is losing data", "",
        f"- **Chance of losing some data within 5 years:** {probability_text(_num(loss.get('5y')))} "
        f"(within 1 year: {probability_text(_num(loss.get('1y')))}).",
        f"- **Chance of losing the whole pool within 5 years:** {probability_text(_num(pool.get('5y')))} — disk "
        f"failures only (within 1 year: {probability_text(_num(pool.get('1y')))}).",
        f"- **Longest rebuild of one disk:** {duration_text(longest) if longest else 'does not apply'}, at the "
        "planned fill.",
        f"- **Mean time to data loss:** {years_text(_num(r.get('mttdl_hours')))} — a rate for comparing layouts, "
        "not a lifetime.", "",
    ]
    rows = []
    for g in groups:
        exposure = _num(g.get("exposure_hours"))
        rows.append([
            f"{g.get('role')} {g.get('count')} × {g.get('layout')} of {g.get('width')}",
            g.get("fault_tolerance"),
            duration_text(_num(g.get("resilver_seconds"))),
            duration_text(exposure * 3600) if exposure is not None else "does not apply",
            probability_text(_num(g.get("another_failure_probability"))),
            probability_text(_num(g.get("ure_during_rebuild_probability"))),
            probability_text(_num((g.get("data_loss_probability") or {}).get("5y"))),
        ])
    if rows:
        out += ["Per vdev group: the rebuild of one failed disk, the time with less redundancy (waiting for a new "
                "disk, then the rebuild), the chance that another disk fails meanwhile, and the chance of an "
                "unrecoverable read error while the last rebuild runs with no redundancy left (a bad sector "
                "then loses the blocks it holds).", ""]
        out += _table(("Vdevs", "Disk failures survived", "Rebuild of one disk", "With less redundancy",
                       "Another disk fails meanwhile", "Read error with no redundancy left",
                       "Lose some data in 5 years"), rows)
    out += ["### Assumptions", "", *_table(("Assumption", "Value", "Source"), _assumptions(r))]
    return out + [str(r.get("model") or ""), ""]


def _assumptions(r: Mapping[str, Any]) -> list[list[Any]]:
    a = r.get("assumptions") or {}
    rows: list[list[Any]] = []
    for disk, v in (a.get("afr") or {}).items():
        rows.append([f"Annualized failure rate, {disk}", f"{percent_text(v, 2)} per year",
                     (a.get("afr_source") or {}).get(disk, "")])
    for media, v in (a.get("ure_per_bit") or {}).items():
        rows.append([f"Unrecoverable read errors, {media}", f"1 per {scientific(1 / v)} bits read" if v else "none",
                     (a.get("ure_source") or {}).get(media, "")])
    for key, fill in (a.get("fill_fraction_by_vdev") or {}).items():
        rows.append([f"Fill of {_group(key)} at rebuild time", percent_text(fill), a.get("fill_source", "")])
    for key, speed in (a.get("rebuild_bytes_per_s") or {}).items():
        source = (a.get("rebuild_source") or {}).get(key, "")
        rows.append([f"Rebuild speed of {_group(key)}", rate_text(_num(speed)), source])
    spares = a.get("hot_spares") or []
    rows.append(["Wait before a rebuild starts", f"{_num(a.get('replacement_hours')) or 24:g} h without a hot spare; "
                 "none with one", f"hot spares for: {', '.join(spares)}" if spares else "the design has no hot spare"])
    return rows


def _group(key: str) -> str:
    """``vdevs[2]`` -> ``vdev group 3`` (groups are numbered from 1, as the designer lists them)."""
    if key.startswith("vdevs[") and key.endswith("]") and key[6:-1].isdigit():
        return f"vdev group {int(key[6:-1]) + 1}"
    return key


def _range(r: Any, fmt: Any, unit: str = "") -> str:
    if not isinstance(r, Mapping) or r.get("low") is None:
        return "does not apply"
    lo, hi = fmt(r["low"]), fmt(r["high"])
    return f"{lo if lo == hi else f'{lo} – {hi}'}{unit}"


def _latency(v: Any) -> str:
    n = _num(v)
    if n is None:
        return "does not apply"
    return f"{n / 1000:.1f} ms" if n >= 1000 else f"{n:.0f} µs"


def _performance(p: Mapping[str, Any]) -> list[str]:
    latency = p.get("sync_write_latency_us") or {}
    with_slog = p.get("sync_write_iops_with_slog")
    if with_slog is not None:
        sync = (f"{_range(with_slog, iops_text, ' IOPS')} with the SLOG, {_latency(latency.get('with_slog'))} each; "
                f"without it {_range(p.get('sync_write_iops_without_slog'), iops_text, ' IOPS')}")
    else:
        sync = (f"{_range(p.get('sync_write_iops_without_slog'), iops_text, ' IOPS')} — no SLOG: the data vdevs take "
                f"the ZIL, {_latency(latency.get('without_slog'))} each")
    out = [
        "## How fast it will be", "",
        "Each figure is a range: one request at a time per vdev, to 32 queued.", "",
        f"- **Random reads (4 KiB):** {_range(p.get('random_read_iops'), iops_text, ' IOPS')}.",
        f"- **Random writes (4 KiB):** {_range(p.get('random_write_iops'), iops_text, ' IOPS')}.",
        f"- **Streaming reads (1 MiB):** {_range(p.get('seq_read_bytes_per_s'), rate_text)}; streaming writes: "
        f"{_range(p.get('seq_write_bytes_per_s'), rate_text)}.",
        f"- **Sync writes (fsync, NFS, databases):** {sync}.", "",
    ]
    out += [f"{n}" for n in p.get("notes") or []] + ([""] if p.get("notes") else [])
    rows = []
    for name, f in ((p.get("assumptions") or {}).get("disk") or {}).items():
        rows.append([
            name,
            f"{iops_text(_num(f.get('random_read_iops_qd1')))} – {iops_text(_num(f.get('random_read_iops')))}",
            f"{iops_text(_num(f.get('random_write_iops_qd1')))} – {iops_text(_num(f.get('random_write_iops')))}",
            rate_text(_num(f.get("seq_read_bytes_per_s"))),
            rate_text(_num(f.get("seq_write_bytes_per_s"))),
            iops_text(_num(f.get("sync_write_iops"))),
            f.get("source") or "",
        ])
    if rows:
        out += ["### The per-disk figures it used", ""]
        out += _table(("Disk", "Random read IOPS (depth 1 – 32)", "Random write IOPS", "Streaming read",
                       "Streaming write", "Sync write IOPS", "From"), rows)
    return out + [str(p.get("model") or ""), ""]


def _sizing(s: Mapping[str, Any], unit: str) -> list[str]:
    slog, ram = s.get("slog") or {}, s.get("ram") or {}

    def size(v: Any) -> str:
        n = _num(v)
        return format_size(n, unit) if n is not None else "does not apply"

    if slog.get("applies"):
        too_small = ", too small" if slog.get("fits") is False else ""
        mine = f"this design's log: {size(slog.get('log_size_bytes'))}{too_small}"
    else:
        mine = "the design has no log vdev: this is for one to add"
    host_ram = _num(ram.get("ram_bytes"))
    share = (f"{percent_text(ram.get('ram_share'))} of the host's {size(host_ram)}" if host_ram
             else "the design does not give the host's RAM")
    cap_note = "" if slog.get("ram_known") else " (the 4 GiB cap: the host's RAM is not given)"
    rows = [
        ["Sync writes a SLOG must absorb", rate_text(_num(slog.get("sync_bytes_per_s"))),
         f"{slog.get('sync_rate_source') or ''}, for two 5-second transaction groups (zfs_txg_timeout), "
         "plus a quarter"],
        ["Most a SLOG ever holds", size(slog.get("cap_bytes")),
         f"2 × zfs_dirty_data_max{cap_note}; ZIL writes are throttled beyond it"],
        ["Metadata (one copy, as the ARC holds it)", size(ram.get("metadata_bytes")), ""],
        _dedup_row(s, size),
        ["L2ARC headers", size(ram.get("l2arc_header_bytes")) if ram.get("cache_size_bytes") else
         "does not apply: no cache device", "96 B per cached block" if ram.get("cache_size_bytes") else ""],
    ]
    return [
        "## SLOG and RAM", "",
        f"- **SLOG size to aim for:** {size(slog.get('recommended_bytes'))} — {mine}.",
        f"- **RAM to keep metadata cached:** {size(ram.get('arc_bytes'))} — {share}.", "",
        *_table(("Figure", "Value", "How it is worked out"), rows),
    ]


def _dedup_row(s: Mapping[str, Any], size: Any) -> list[str]:
    """The dedup table in RAM, with its size on disk and where it lives."""
    table, home = s.get("dedup_table"), s.get("dedup_table_home") or {}
    if not isinstance(table, Mapping):
        return ["Dedup table in RAM", "does not apply: no dataset uses dedup", ""]
    fits = "" if home.get("fits") is not False else ", which does not hold it"
    kind = "fast dedup" if table.get("fast_dedup") else "traditional entries, without fast dedup"
    entries = int(_num(table.get("entries")) or 0)
    how = (f"{entries:,} unique blocks ({kind}); {size(table.get('on_disk_bytes'))} on disk "
           f"in {home.get('where') or 'the pool'}{fits}; as zpool status -D counts it")
    return ["Dedup table in RAM", size(table.get("in_core_bytes")), how]


def planning_sections(estimate: Mapping[str, Any], unit: str) -> list[str]:
    """The Markdown of the estimate's planning sections that are there (an older estimate may lack some)."""
    out: list[str] = []
    special, reliability = estimate.get("special"), estimate.get("reliability")
    performance, sizing = estimate.get("performance"), estimate.get("sizing")
    if isinstance(special, Mapping):
        out += _special(special, unit)
    if isinstance(reliability, Mapping):
        out += _reliability(reliability)
    if isinstance(performance, Mapping):
        out += _performance(performance)
    if isinstance(sizing, Mapping):
        out += _sizing(sizing, unit)
    return out
