"""One typed presentation of a design's estimate, built once per request.

Templates and chart builders read these attributes; they never dig in the estimate
dict by key or format numbers themselves. :func:`summarize` takes the estimate the
core produced (cached per revision by ``services.estimate_design``), the design's
document and the catalog prices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from zfsplanner.core.design.types import Design, InvalidDesign, VdevGroup
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.figures import Expansion, VdevFigures
from zfsplanner.core.naming import describe_shape, vdev_type_word
from zfsplanner.core.report import Headline, headline, pool_figures
from zfsplanner.core.risk.fixes import design_fix
from zfsplanner.core.risk.registry import risk_to_document
from zfsplanner.core.units import DEFAULT_SIZE_UNIT, SIZE_UNITS, format_iec, format_si, format_size, zfs_nicenum

UNIT_EXPLAIN = {
    "TiB": "Sizes in TiB (2^40 bytes), what zpool and zfs count in: their T means TiB.",
    "TB": "Sizes in TB (10^12 bytes), as on drive labels; zpool and zfs print TiB (their T).",
}


@dataclass(frozen=True)
class Size:
    """A byte count as the pages show it: ``text`` in the reader's unit, ``zfs`` as zpool/zfs print it.

    The unit is chosen once, for the whole presentation (:func:`summarize`); a template reads
    ``size.text`` and never picks a unit itself. ``iec``/``si`` remain for figures that are
    about one family by nature (a disk's label size, a binary ZFS limit).
    """

    bytes: int
    unit: str = DEFAULT_SIZE_UNIT

    @property
    def text(self) -> str:
        return format_size(self.bytes, self.unit)

    @property
    def exact(self) -> str:
        """The byte count with separators, for a title attribute."""
        return f"{self.bytes:,} bytes"

    @property
    def iec(self) -> str:
        return format_iec(self.bytes)

    @property
    def si(self) -> str:
        return format_si(self.bytes)

    @property
    def zfs(self) -> str:
        return zfs_nicenum(self.bytes)


@dataclass(frozen=True)
class VdevLine:
    index: int
    role: str
    shape: str
    count: int
    disk: str
    ashift: int | None
    ashift_why: str
    survives: int | None
    size: Size
    removable: bool | None


@dataclass(frozen=True)
class RiskLine:
    code: str
    severity: str
    title: str
    detail: str
    fix: str
    reference: str
    subject: str
    fix_label: str | None = None

    @property
    def reference_is_url(self) -> bool:
        return self.reference.startswith("http")


@dataclass(frozen=True)
class Segment:
    key: str
    label: str
    size: Size
    explain: str


@dataclass(frozen=True)
class DatasetLine:
    name: str
    kind: str
    block: str
    compression: str
    logical: Size | None
    used: Size | None
    special: Size | None
    ratio: float | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class PoolRow:
    key: str
    label: str
    explain: str
    size: Size




@dataclass(frozen=True)
class MdRaidLine:
    level: str
    disks: int
    size: Size
    survives: int
    ext4_size: Size
    ext4_avail: Size


@dataclass(frozen=True)
class MdRaidGroup:
    """The data disks of one vdev group as Linux md RAID arrays with ext4, for comparison."""

    title: str
    lines: tuple[MdRaidLine, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class LabelledRow:
    label: str
    value: str


@dataclass(frozen=True)
class Section:
    """An estimate section in words: a title, an explanation and labelled rows."""

    key: str
    title: str
    explain: str
    rows: tuple[LabelledRow, ...]


def _md_raid(estimate: Estimate, unit: str) -> tuple[MdRaidGroup, ...]:
    return tuple(
        MdRaidGroup(
            title=f"Data vdev group {g.group_index + 1}: {g.disks} disks",
            lines=tuple(
                MdRaidLine(
                    level=r.level.value,
                    disks=r.disks,
                    size=Size(r.usable_bytes, unit),
                    survives=r.fault_tolerance,
                    ext4_size=Size(_int(r.ext4_size_bytes), unit),
                    ext4_avail=Size(_int(r.ext4_avail_bytes), unit),
                )
                for r in g.rows
            ),
            notes=tuple(dict.fromkeys(n for r in g.rows for n in r.notes)),
        )
        for g in estimate.md_raid
    )


def _expansion_datasets(e: Expansion, unit: str) -> tuple[LabelledRow, ...]:
    """Per dataset: USED of the data written before and after the expansion, and what a rewrite frees."""
    rows: list[LabelledRow] = []
    for d in e.datasets:
        name = f"Dataset {d.name}"

        def size(n: int) -> str:
            return Size(n, unit).text

        rows += [
            LabelledRow(
                f"{name}: data written before",
                f"{size(d.logical_bytes_written_before)}, USED {size(d.used_written_before_bytes)}",
            ),
            LabelledRow(
                f"{name}: data written after",
                f"{size(d.logical_bytes_written_after)}, USED {size(d.used_written_after_bytes)}",
            ),
            LabelledRow(f"{name}: USED in all", size(d.zfs_used_bytes)),
            LabelledRow(
                f"{name}: a rewrite of the old data frees",
                size(d.rewrite_frees_bytes),
            ),
        ]
    return tuple(rows)


def _expansions(estimate: Estimate, unit: str) -> tuple[Section, ...]:
    out = []
    for e in estimate.raidz_expansion:
        r = e.report
        figures = (
            (r.avail_before_bytes, "Usable space before the expansion"),
            (r.avail_after_bytes, "Usable space after it, as ZFS reports it"),
            (r.fresh_avail_bytes, f"Usable space of a pool built {r.new_width} wide from the start"),
            (r.old_logical_bytes, "Data written before the expansion"),
            (r.lost_to_old_ratio_bytes, "Extra raw space that data keeps using at the old parity ratio"),
            (r.avail_shortfall_bytes, "Usable space short of a pool built wide from the start"),
        )
        out.append(
            Section(
                key="raidz_expansion",
                title=f"RAIDZ expansion of vdev group {r.group_index + 1}: "
                f"{r.original_width} → {r.new_width} disks",
                explain="Data written before an expansion keeps its old ratio of data to parity until it is "
                "rewritten, and ZFS keeps reporting space at the old ratio. So after the expansion a dataset "
                "shows less USED than the data written to it: data written afterwards is stored at the new, "
                "better ratio but still counted at the old one. Rewriting the old data (zfs rewrite in OpenZFS 2.4, or "
                "send and receive) stores it at the new ratio too.",
                rows=tuple(LabelledRow(label, Size(n, unit).text) for n, label in figures)
                + _expansion_datasets(e, unit),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class Cost:
    total: Decimal | None
    per_usable_tb: Decimal | None
    priced_disks: int
    disks: int

    @property
    def known(self) -> bool:
        return self.total is not None


@dataclass(frozen=True)
class DesignSummary:
    """The design page's presentation. Its headline figures are :class:`Headline` (the report reads the
    same object); every :class:`Size` in it is in ``unit``."""

    name: str
    version: str
    usable: Size
    raw: Size
    zpool_size: Size
    efficiency: float
    pool_survives: int | None
    vdevs: tuple[VdevLine, ...]
    risks: tuple[RiskLine, ...]
    risk_counts: Mapping[str, int]
    segments: tuple[Segment, ...]
    datasets: tuple[DatasetLine, ...]
    cost: Cost
    planned_fill: float | None
    pool_rows: tuple[PoolRow, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)
    unit: str = DEFAULT_SIZE_UNIT
    headline: Headline | None = None
    planned: Size | None = None  # zfs list USED of the planned contents; None without contents
    avail_after: Size | None = None
    md_raid: tuple[MdRaidGroup, ...] = ()
    expansions: tuple[Section, ...] = ()

    @property
    def risk_total(self) -> int:
        return sum(self.risk_counts.values())

    @property
    def efficiency_percent(self) -> str:
        return f"{100 * self.efficiency:.1f} %"

    @property
    def survives_text(self) -> str:
        if self.headline is not None:
            return self.headline.survives_text
        return "does not apply"

    @property
    def extra_sections(self) -> tuple[Section, ...]:
        """The RAIDZ expansion sections, as labelled rows."""
        return self.expansions

    @property
    def unit_explain(self) -> str:
        return UNIT_EXPLAIN.get(self.unit, UNIT_EXPLAIN[DEFAULT_SIZE_UNIT])

    @property
    def other_unit(self) -> str:
        """The unit the reader can switch to."""
        return next(u for u in SIZE_UNITS if u != self.unit)


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 0


def _shape(layout: str, width: int, group: VdevGroup | None) -> str:
    """``8-wide raidz2``, ``3-way mirror``; a dRAID vdev by the word ``zpool create`` takes for it
    (``draid2:8d:24c:2s``, the data disks counted as zpool does), when the parsed ``group`` is known."""
    word = vdev_type_word(group) if group is not None and group.is_draid else None
    return describe_shape(layout, width, 1, word)


def _disk_text(group: Mapping[str, Any]) -> str:
    disk = group.get("disk") if isinstance(group.get("disk"), Mapping) else None
    if disk is None:
        disks = group.get("disks") or []
        return f"{len(disks)} different disks"
    name = " ".join(str(disk[k]) for k in ("vendor", "model") if disk.get(k)) or "custom disk"
    size = disk.get("size_bytes")
    media = str(disk.get("media") or "").upper()
    size_text = format_si(size) if isinstance(size, int) else str(size or "")
    return " · ".join(p for p in (name, size_text, media) if p)


_ASHIFT_WHY = {"design": "set for this group", "pool": "the pool's ashift"}


def _vdev_lines(
    estimate: Estimate, document: Mapping[str, Any], unit: str, spec: Design | None
) -> tuple[VdevLine, ...]:
    groups = document.get("vdevs") or []
    parsed = spec.vdevs if spec is not None and len(spec.vdevs) == len(groups) else None
    by_group: dict[int, VdevFigures] = {}
    for r in estimate.vdevs:
        by_group.setdefault(r.group_index, r)
    out = []
    for i, group in enumerate(groups):
        row = by_group.get(i)
        role = str(group.get("role"))
        top_level = row is not None and role in ("data", "special", "dedup", "log")
        source = row.ashift_source if row is not None else ""
        layout = row.layout if row is not None else str(group.get("layout"))
        width = row.width if row is not None else _int(group.get("width"))
        out.append(
            VdevLine(
                index=i,
                role=role,
                shape=_shape(layout, width, parsed[i] if parsed is not None else None),
                count=_int(group.get("count") or 1),
                disk=_disk_text(group),
                ashift=row.ashift if row is not None and top_level else None,
                ashift_why=_ASHIFT_WHY.get(source, f"auto: {source}" if source else ""),
                survives=row.fault_tolerance if row is not None and role in ("data", "special", "dedup") else None,
                size=Size((row.zpool_size_bytes if row is not None else 0) * _int(group.get("count") or 1), unit),
                removable=row.removable if row is not None and top_level else None,
            )
        )
    return tuple(out)


def _risk_lines(
    estimate: Estimate, document: Mapping[str, Any], with_fixes: bool, spec: Design | None
) -> tuple[RiskLine, ...]:
    out = []
    for r in estimate.risks:
        # The label only: the changed document is validated when the fix is applied.
        fix = design_fix(risk_to_document(r), document, spec, validate=False) if with_fixes else None
        out.append(
            RiskLine(
                code=r.code,
                severity=r.severity.value,
                title=r.title,
                detail=r.detail,
                fix=r.fix,
                reference=r.reference,
                subject=r.subject,
                fix_label=fix.label if fix else None,
            )
        )
    return tuple(out)


def breakdown(estimate: Estimate, unit: str = DEFAULT_SIZE_UNIT) -> tuple[Segment, ...]:
    """Where the raw capacity goes, in parts that add up to the sum of the disks.

    normal class: parity and padding (SIZE − the deflated space), slop, the pool's own
    metadata, planned data (``zfs list`` USED of the datasets, reservations shown
    apart), and what stays free; then the special class, log and cache devices, and the
    part of the disks no class gets (partitions, labels, metaslab rounding).
    """
    pool = estimate.pool
    raw = pool.raw_bytes
    normal = pool.normal_size_bytes
    dspace = pool.normal_dspace_bytes
    slop = pool.slop_bytes
    initial = pool.initial_used_bytes
    used = pool.zfs_used_bytes
    free = pool.zfs_avail_after_bytes
    reservations = 0
    for ds in estimate.datasets:
        refres = ds.refreservation_bytes
        if refres is not None:
            reservations += max(0, min(refres, ds.zfs_used_bytes) - ds.referenced_bytes)
    special = pool.special_size_bytes
    special_used = min(pool.special_allocated_bytes, special)
    log = pool.log_size_bytes
    cache = pool.cache_size_bytes
    overhead = max(0, raw - pool.zpool_size_bytes - log - cache)
    parts = [
        (
            "parity",
            "Parity and padding",
            max(0, normal - dspace),
            "Redundancy: what RAIDZ/mirror parity and RAIDZ padding take.",
        ),
        (
            "slop",
            "Slop space",
            slop,
            "Kept back by ZFS so a full pool can still delete files (1/32 of the pool, capped).",
        ),
        ("metadata", "Pool metadata", initial, "What a new, empty pool already uses."),
        (
            "data",
            "Planned data",
            max(0, used - reservations),
            "What the datasets you planned will use (zfs list USED).",
        ),
        ("reservations", "Reservations", reservations, "Space zvols reserve beyond what is written (refreservation)."),
        ("free", "Free", free, "Left for more data after the planned contents (zfs list AVAIL)."),
        ("special_used", "Special class, used", special_used, "Metadata and small blocks placed on the special vdevs."),
        ("special_free", "Special class, free", special - special_used, "Special vdev space still free."),
        ("log", "SLOG", log, "Separate log devices: hold sync writes briefly, never usable space."),
        ("cache", "L2ARC", cache, "Cache devices: read cache, never usable space."),
        (
            "overhead",
            "Partitions, labels, rounding",
            overhead,
            "Disk space no allocation class gets: partitions, labels, metaslab rounding.",
        ),
    ]
    return tuple(Segment(k, label, Size(v, unit), why) for k, label, v, why in parts if v > 0)


def _datasets(estimate: Estimate, unit: str) -> tuple[DatasetLine, ...]:
    return tuple(
        DatasetLine(
            name=ds.name,
            kind="volume" if ds.refreservation_bytes is not None else "filesystem",
            block=zfs_nicenum(ds.block_size_bytes) if ds.block_size_bytes is not None else "",
            compression=ds.compression or "",
            logical=Size(ds.logical_bytes, unit),
            used=Size(ds.zfs_used_bytes, unit),
            special=Size(ds.special_allocated_bytes, unit),
            ratio=ds.compressratio,
            notes=ds.notes,
        )
        for ds in estimate.datasets
    )


def _price(value: Any) -> Decimal | None:
    """A group's ``price_per_disk`` (a decimal string or a number), None when absent or unreadable."""
    if value is None or isinstance(value, bool):
        return None
    try:
        price = Decimal(str(value))
    except ArithmeticError:
        return None
    return price if price.is_finite() and price >= 0 else None


def _cost(document: Mapping[str, Any], prices: Mapping[str, Decimal], usable_bytes: int) -> Cost:
    total = Decimal(0)
    disks = priced = 0
    for group in document.get("vdevs") or []:
        count = _int(group.get("count") or 1)
        members = (
            group.get("disks")
            if isinstance(group.get("disks"), list)
            else [group.get("disk")] * _int(group.get("width"))
        )
        group_price = _price(group.get("price_per_disk"))  # the group's own price comes before the catalog's
        for disk in members:
            disks += count
            model = disk.get("catalog") or disk.get("model") if isinstance(disk, Mapping) else None
            price = group_price if group_price is not None else prices.get(str(model)) if model else None
            if price is not None:
                priced += count
                total += price * count
    if disks == 0 or priced < disks:
        return Cost(total=None, per_usable_tb=None, priced_disks=priced, disks=disks)
    per_tb = total / (Decimal(usable_bytes) / Decimal(10**12)) if usable_bytes else None
    return Cost(total=total, per_usable_tb=per_tb, priced_disks=priced, disks=disks)


def _parsed(document: Mapping[str, Any]) -> Design | None:
    """The design the estimate was made from; None for a document that does not parse."""
    try:
        return parse_design(document)
    except InvalidDesign:
        return None


def summarize(
    estimate: Estimate,
    document: Mapping[str, Any],
    prices: Mapping[str, Decimal] | None = None,
    with_fixes: bool = True,
    spec: Design | None = None,
    unit: str = DEFAULT_SIZE_UNIT,
) -> DesignSummary:
    """The page's presentation of ``estimate``, every size in ``unit`` (``TiB`` or ``TB``)."""
    pool = estimate.pool
    top = headline(estimate)
    if spec is None:
        spec = _parsed(document)
    vdevs = _vdev_lines(estimate, document, unit, spec)
    risks = _risk_lines(estimate, document, with_fixes, spec)
    return DesignSummary(
        name=str(document.get("name")),
        version=str(document.get("openzfs_version") or ""),
        usable=Size(top.usable_bytes, unit),
        raw=Size(top.raw_bytes, unit),
        zpool_size=Size(top.zpool_size_bytes, unit),
        efficiency=top.efficiency,
        pool_survives=top.survives,
        vdevs=vdevs,
        risks=risks,
        risk_counts=top.risk_counts,
        segments=breakdown(estimate, unit),
        datasets=_datasets(estimate, unit),
        cost=_cost(document, prices or {}, top.usable_bytes),
        planned_fill=top.planned_fill,
        pool_rows=tuple(PoolRow(key, label, why, Size(n, unit)) for key, label, why, n in pool_figures(pool)),
        notes=pool.notes,
        unit=unit,
        headline=top,
        planned=Size(top.planned_used_bytes, unit) if top.planned_used_bytes is not None else None,
        avail_after=Size(top.avail_after_bytes, unit) if top.avail_after_bytes is not None else None,
        md_raid=_md_raid(estimate, unit),
        expansions=_expansions(estimate, unit),
    )


def breakdown_chart(summaries: Sequence[tuple[str, DesignSummary]]) -> dict[str, Any]:
    """Chart.js JSON: one horizontal stacked bar per design, segments on one scale."""
    keys: dict[str, str] = {}
    for _, s in summaries:
        for seg in s.segments:
            keys.setdefault(seg.key, seg.label)
    datasets = []
    for key, label in keys.items():
        data = []
        for _, s in summaries:
            seg = next((g for g in s.segments if g.key == key), None)
            data.append(seg.size.bytes if seg else 0)
        datasets.append({"label": label, "data": data, "stack": "raw", "key": key})
    return {
        "type": "bar",
        "indexAxis": "y",
        "stacked": True,
        "title": "Where the raw capacity goes",
        "labels": [name for name, _ in summaries],
        "datasets": datasets,
        # The axis in the page's unit: binary (TiB) or decimal (TB, "bytes_si").
        "unit": "bytes_si" if summaries and summaries[0][1].unit == "TB" else "bytes",
    }
