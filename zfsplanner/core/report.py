"""A design and its estimate as a Markdown report and as CSV, for tickets, wikis and spreadsheets.

:func:`markdown` leads with the answer (usable space in both units, failures survived,
risks by severity), then the vdevs, the datasets, the estimate as ``zpool list`` /
``zfs list`` print it, the risks with their fixes, every further estimate section the
estimate carries (special vdev, reliability, performance, sizing and any later one,
rendered generically), "model vs the pool" for an imported design, and the commands.

:func:`csv_text` is the estimate as one row for the pool, one per top-level vdev and one
per dataset, with exact byte counts (a spreadsheet formats them).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .commands import all_commands
from .design import Design, InvalidDesign, Role, design_to_document
from .importers.compare import compare
from .units import format_iec, format_si, zfs_nicenum

SEVERITY_ORDER = ("critical", "warning", "info")
# Estimate sections rendered on their own (or deliberately left out: internal tables).
KNOWN_SECTIONS = {"format", "design", "pool", "vdevs", "datasets", "risks", "units", "efficiency", "md_raid"}
SECTION_TITLES = {
    "special": "Special vdev sizing",
    "reliability": "Reliability",
    "performance": "Performance",
    "sizing": "SLOG and RAM sizing",
    "raidz_expansion": "RAIDZ expansion",
}
CSV_COLUMNS = (
    "kind", "name", "role", "layout", "width", "count", "ashift", "fault_tolerance", "zpool_size_bytes",
    "zfs_avail_bytes", "raw_bytes", "logical_bytes", "compressratio", "data_allocated_bytes",
    "metadata_allocated_bytes", "special_allocated_bytes", "normal_allocated_bytes", "zfs_used_bytes",
    "referenced_bytes", "raidz_overhead_fraction", "removable",
)


# --------------------------------------------------------------------------- formatting


def size(n: int | float | None) -> str:
    """``14.00 TB (12.73 TiB)``: the drive-label unit first, then the binary unit."""
    if n is None:
        return "–"
    return f"{format_si(n)} ({format_iec(n)})"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def value(key: str, v: Any) -> str:
    """A figure in words, chosen by its key's unit suffix."""
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Mapping) and set(v) >= {"low", "high"}:
        return f"{value(key, v['low'])} – {value(key, v['high'])}"
    if isinstance(v, int | float):
        if key.endswith("_bytes_per_s"):
            return f"{v / 1e6:,.0f} MB/s"
        if key.endswith("_bytes"):
            return size(v)
        if key.endswith("_seconds"):
            hours, rest = divmod(int(v), 3600)
            return f"{hours} h {rest // 60:02d} min"
        if key.endswith("_hours"):
            return f"{v:,.1f} h"
        if key.endswith("_us"):
            return f"{v:,.0f} µs"
        if key.endswith(("_fraction", "_probability")) or key in ("1y", "5y", "10y"):
            return f"{v * 100:.4g} %"
        if key.endswith("iops"):
            return f"{v:,.0f}"
        return f"{v:,}" if isinstance(v, int) else f"{v:.4g}"
    if isinstance(v, list | tuple) and all(not isinstance(x, Mapping | list) for x in v):
        return ", ".join(str(x) for x in v)
    if isinstance(v, Mapping | list | tuple):
        return json.dumps(v, ensure_ascii=False)[:300]
    return str(v)


def _title(key: str) -> str:
    return key.replace("_", " ")


def _flat(v: Any) -> bool:
    """A small mapping of plain figures: shown on one row rather than as a section of its own."""
    return isinstance(v, Mapping) and len(v) <= 8 and all(
        not isinstance(x, Mapping | list) or _is_range(x) for x in v.values()
    )


def _compact(key: str, v: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}: {value(k if k.endswith(('_bytes', '_per_s', '_seconds', 'iops')) else key, x)}"
                     for k, x in v.items())


def generic(key: str, data: Any, level: int = 2) -> list[str]:
    """Any estimate section: scalars (and small mappings) as a figure/value table, lists of objects as
    tables, long text as paragraphs, nested sections under their own heading."""
    title = SECTION_TITLES.get(key, _title(key).capitalize())
    out = [f"{'#' * level} {title}", ""]
    if isinstance(data, Mapping):
        texts = [v for v in data.values() if isinstance(v, str) and len(v) > 80]
        rows = []
        for k, v in data.items():
            if isinstance(v, str) and len(v) > 80:
                continue
            if not isinstance(v, Mapping | list) or _is_range(v):
                rows.append((_title(k), value(k, v)))
            elif isinstance(v, Mapping) and _flat(v):
                rows.append((_title(k), _compact(k, v)))
            elif isinstance(v, list) and v and all(not isinstance(x, Mapping | list) for x in v):
                rows.append((_title(k), value(k, v)))
        for text in texts:
            out += [text, ""]
        if rows:
            out += table(("figure", "value"), rows) + [""]
        for k, v in data.items():
            if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
                out += [f"{'#' * (level + 1)} {_title(k).capitalize()}", ""] + _object_table(v) + [""]
            elif isinstance(v, Mapping) and not _flat(v) and not _is_range(v) and level < 4:
                out += generic(k, v, level + 1)
    elif isinstance(data, list) and data and all(isinstance(x, Mapping) for x in data):
        out += _object_table(data) + [""]
    elif isinstance(data, list):
        out += [f"- {value(key, x)}" for x in data] + [""]
    else:
        out += [value(key, data), ""]
    return out


def _is_range(v: Any) -> bool:
    return isinstance(v, Mapping) and set(v) >= {"low", "high"} and len(v) <= 3


def _object_table(items: Sequence[Mapping[str, Any]]) -> list[str]:
    keys: list[str] = []
    for item in items:
        keys += [k for k, v in item.items() if k not in keys and (not isinstance(v, Mapping | list) or _is_range(v))]
    return table([_title(k) for k in keys], ([value(k, item.get(k)) for k in keys] for item in items))


# --------------------------------------------------------------------------- Markdown


def _summary(design: Design, estimate: Mapping[str, Any]) -> list[str]:
    pool = estimate["pool"]
    risks = estimate.get("risks") or []
    counts = {s: sum(1 for r in risks if r.get("severity") == s) for s in SEVERITY_ORDER}
    tolerant = [v["fault_tolerance"] for v in estimate.get("vdevs") or []
                if v.get("role") in ("data", "special", "dedup")]
    survives = min(tolerant) if tolerant else 0
    avail = pool.get("zfs_avail_bytes")
    lines = [
        f"- **Usable space (empty pool):** {size(avail)} — `zfs list` AVAIL {zfs_nicenum(avail or 0)}",
        f"- **Pool SIZE:** {size(pool.get('zpool_size_bytes'))} — `zpool list` SIZE "
        f"{zfs_nicenum(pool.get('zpool_size_bytes') or 0)}",
        f"- **Raw disks:** {size(pool.get('raw_bytes'))}",
    ]
    if pool.get("zfs_used_bytes"):
        fraction = pool.get("used_fraction")
        share = f" ({fraction * 100:.1f} % of usable)" if isinstance(fraction, int | float) else ""
        lines.append(f"- **Planned contents:** {size(pool.get('zfs_used_bytes'))}{share}; AVAIL after them "
                     f"{size(pool.get('zfs_avail_after_bytes'))}")
    lines.append(f"- **Disk failures survived:** {survives} in every vdev that holds data"
                 if survives else "- **Disk failures survived:** none — one failed disk loses the pool")
    lines.append("- **Risks:** " + (", ".join(f"{counts[s]} {s}" for s in SEVERITY_ORDER if counts[s]) or "none"))
    lines.append(f"- **OpenZFS:** {design.version}; disks: {design.partitioning.value}")
    return lines


def _vdev_rows(design: Design, estimate: Mapping[str, Any]) -> list[list[str]]:
    vdevs = estimate.get("vdevs") or []
    rows = []
    for gi, group in enumerate(design.vdevs):
        est: Mapping[str, Any] = next((v for v in vdevs if v.get("group_index") == gi), {})
        disks = sorted({(d.model or "", d.size_bytes) for d in group.disks})
        disk_text = "; ".join(f"{m} {format_si(s)}".strip() for m, s in disks)
        shape = f"{group.count} × {group.layout.value}"
        if group.layout.value != "stripe":
            shape += f" of {group.width}"
        if group.is_draid:
            draid = est.get("draid") or {}
            shape += f" ({draid.get('data')}d, {draid.get('spares')}s)"
        per_vdev = est.get("zpool_size_bytes")
        rows.append([
            group.role.value,
            shape,
            disk_text,
            str(est.get("ashift", "–")),
            size(per_vdev * group.count) if per_vdev is not None and group.role not in (Role.CACHE, Role.SPARE)
            else "–",
            str(est.get("fault_tolerance", "–")) if group.role not in (Role.CACHE, Role.SPARE) else "–",
            "yes" if est.get("removable") else "no",
        ])
    return rows


def _dataset_rows(design: Design, estimate: Mapping[str, Any]) -> list[list[str]]:
    by_name = {d["name"]: d for d in estimate.get("datasets") or []}
    rows = []
    for ds in design.datasets:
        est: Mapping[str, Any] = by_name.get(ds.name, {})
        block = est.get("block_size_bytes")
        rows.append([
            ds.name,
            ds.type.value,
            zfs_nicenum(block) if block else "–",
            str(est.get("compression") or ds.compression or "–"),
            size(est.get("logical_bytes")),
            f"{est['compressratio']:.2f}x" if isinstance(est.get("compressratio"), int | float) else "–",
            size(est.get("zfs_used_bytes")),
            zfs_nicenum(est.get("zfs_used_bytes") or 0),
            f"{est['raidz_overhead_fraction'] * 100:.1f} %"
            if isinstance(est.get("raidz_overhead_fraction"), int | float) else "–",
        ])
    return rows


def _as_printed(design: Design, estimate: Mapping[str, Any]) -> list[str]:
    pool = estimate["pool"]
    lines = [
        "```",
        f"$ zpool list -o name,size {design.name}",
        f"NAME{' ' * max(len(design.name) - 2, 2)}  SIZE",
        f"{design.name}  {zfs_nicenum(pool['zpool_size_bytes']):>5}",
        f"$ zfs list -o name,used,avail -r {design.name}",
    ]
    width = max([len(design.name), *(len(d.name) for d in design.datasets), 4])
    lines.append(f"{'NAME':<{width}}   USED  AVAIL")
    avail = pool.get("zfs_avail_after_bytes", pool.get("zfs_avail_bytes") or 0)
    used = (pool.get("zfs_used_bytes") or 0) + (pool.get("initial_used_bytes") or 0)
    lines.append(f"{design.name:<{width}}  {zfs_nicenum(used):>5}  {zfs_nicenum(avail):>5}")
    for d in estimate.get("datasets") or []:
        if d["name"] != design.name:
            lines.append(f"{d['name']:<{width}}  {zfs_nicenum(d.get('zfs_used_bytes') or 0):>5}  "
                         f"{zfs_nicenum(avail):>5}")
    lines.append("```")
    return lines


def _units_table(estimate: Mapping[str, Any]) -> list[str]:
    pool = estimate["pool"]
    keys = (("raw disks", "raw_bytes"), ("zpool SIZE", "zpool_size_bytes"), ("zfs AVAIL (empty)", "zfs_avail_bytes"),
            ("slop space", "slop_bytes"), ("special class", "special_size_bytes"),
            ("planned USED", "zfs_used_bytes"), ("AVAIL after contents", "zfs_avail_after_bytes"))
    rows = []
    for label, key in keys:
        n = pool.get(key)
        if n is None or (key in ("special_size_bytes", "zfs_used_bytes") and not n):
            continue
        rows.append([label, format_si(n), format_iec(n), zfs_nicenum(n), f"{n:,}"])
    return table(("figure", "TB (drive label)", "TiB", "as zfs prints", "bytes"), rows)


def _risks(estimate: Mapping[str, Any]) -> list[str]:
    risks = sorted(estimate.get("risks") or [],
                   key=lambda r: SEVERITY_ORDER.index(r.get("severity")) if r.get("severity") in SEVERITY_ORDER else 9)
    if not risks:
        return ["No risks found.", ""]
    out: list[str] = []
    for r in risks:
        subject = f" ({r['subject']})" if r.get("subject") else ""
        out += [f"### {r.get('severity', '').upper()}: {r.get('title')}{subject}", "",
                f"`{r.get('code')}` — {r.get('detail')}", "", f"**Fix:** {r.get('fix')}", ""]
        if r.get("reference"):
            out += [f"Reference: {r['reference']}", ""]
    return out


def _comparison(design: Design, estimate: Mapping[str, Any]) -> list[str]:
    rows = compare({"imported": design.extra.get("imported")}, estimate)
    if not rows:
        return []
    out = ["## Model vs the pool it was imported from", "",
           "The pool's own figures (as `zpool list` / `zfs list` printed them when it was imported) against "
           "this model's; the difference is model minus pool.", ""]
    body = []
    for r in rows:
        frac = r.difference_fraction
        diff = f"{'+' if r.difference_bytes >= 0 else '−'}{size(abs(r.difference_bytes))}"
        pct = f"{frac * 100:+.2f} %" if frac is not None else "–"
        note = "fitted" if r.fitted else "within rounding" if r.within_rounding else ""
        body.append([r.label, r.what, size(r.reported_bytes), size(r.model_bytes), diff, pct, note])
    out += table(("figure", "printed by", "pool", "model", "difference", "%", "note"), body) + [""]
    notes = (design.extra.get("imported") or {}).get("notes") or []
    if notes:
        out += ["Import notes:", ""] + [f"- {n}" for n in notes] + [""]
    return out


def markdown(design: Design, estimate: Mapping[str, Any], *, meta: Mapping[str, str] | None = None) -> str:
    """The report as Markdown. ``meta`` adds lines under the title (team, revision, link)."""
    lines = [f"# ZFS pool design: {design.name}", ""]
    if design.description:
        lines += [design.description, ""]
    for k, v in (meta or {}).items():
        lines.append(f"- {k}: {v}")
    if meta:
        lines.append("")
    lines += ["## Summary", "", *_summary(design, estimate), ""]
    lines += ["## Vdevs", ""]
    lines += table(("role", "layout", "disks", "ashift", "SIZE", "failures survived", "removable"),
                   _vdev_rows(design, estimate)) + [""]
    if design.datasets:
        lines += ["## Datasets", ""]
        lines += table(("dataset", "type", "block size", "compression", "logical", "ratio", "USED", "USED (zfs)",
                        "RAIDZ overhead"), _dataset_rows(design, estimate)) + [""]
    lines += ["## Estimate", "", *_units_table(estimate), "", "As `zpool list` and `zfs list` will print it:", "",
              *_as_printed(design, estimate), ""]
    notes = estimate["pool"].get("notes") or []
    if notes:
        lines += [f"- {n}" for n in notes] + [""]
    lines += ["## Risks", "", *_risks(estimate)]
    for key, data in estimate.items():
        if key in KNOWN_SECTIONS or data in (None, [], {}):
            continue
        lines += generic(key, data)
    lines += _comparison(design, estimate)
    try:
        commands = all_commands(design)
    except (InvalidDesign, ValueError):
        commands = []
    if commands:
        lines += ["## Commands", "", "Device paths are placeholders: replace each with the by-id path of a real disk.",
                  "", "```sh", *commands, "```", ""]
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------- CSV


def csv_rows(design: Design, estimate: Mapping[str, Any]) -> list[dict[str, Any]]:
    pool = estimate["pool"]
    rows: list[dict[str, Any]] = [{
        "kind": "pool", "name": design.name, "zpool_size_bytes": pool.get("zpool_size_bytes"),
        "zfs_avail_bytes": pool.get("zfs_avail_bytes"), "raw_bytes": pool.get("raw_bytes"),
        "data_allocated_bytes": pool.get("allocated_bytes"), "zfs_used_bytes": pool.get("zfs_used_bytes"),
        "special_allocated_bytes": pool.get("special_allocated_bytes"),
    }]
    for v in estimate.get("vdevs") or []:
        rows.append({
            "kind": "vdev", "name": f"{v['role']}[{v['index']}]", "role": v["role"], "layout": v["layout"],
            "width": v["width"], "count": 1, "ashift": v.get("ashift"), "fault_tolerance": v.get("fault_tolerance"),
            "zpool_size_bytes": v.get("zpool_size_bytes"), "raw_bytes": v.get("raw_bytes"),
            "removable": v.get("removable"),
        })
    for d in estimate.get("datasets") or []:
        rows.append({"kind": "dataset", **{k: d.get(k) for k in CSV_COLUMNS if k in d}, "name": d["name"]})
    return rows


def csv_text(design: Design, estimate: Mapping[str, Any]) -> str:
    """The estimate as CSV: a pool row, one row per top-level vdev, one per dataset."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(design, estimate):
        writer.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v)
                         for k, v in row.items()})
    return buf.getvalue()


def document_of(design: Design) -> dict[str, Any]:
    """The design document (for callers that have only the parsed design)."""
    return design_to_document(design)


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
            out.append(f'<div class="overflow-auto"><table><thead><tr>{thead}</tr></thead>'
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
