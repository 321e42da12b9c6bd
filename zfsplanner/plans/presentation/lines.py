"""The lines of a design's presentation: one per vdev group, risk, dataset and pool figure, the
Linux md RAID comparison and the RAIDZ expansion sections, every size a :class:`Size`."""

from __future__ import annotations

from dataclasses import dataclass

from zfsplanner.core.design.types import Design, Role, VdevGroup
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.estimate.figures import Expansion, VdevFigures
from zfsplanner.core.naming import describe_shape, vdev_type_word
from zfsplanner.core.risk.fixes import design_fix
from zfsplanner.core.units import format_si, zfs_nicenum

from ..choices import media_label
from .sizes import Size, as_int


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


def md_raid_groups(estimate: Estimate, unit: str) -> tuple[MdRaidGroup, ...]:
    return tuple(
        MdRaidGroup(
            title=f"Data vdev group {g.group_index + 1}: {g.disks} disks",
            lines=tuple(
                MdRaidLine(
                    level=r.level.value,
                    disks=r.disks,
                    size=Size(r.usable_bytes, unit),
                    survives=r.fault_tolerance,
                    ext4_size=Size(as_int(r.ext4_size_bytes), unit),
                    ext4_avail=Size(as_int(r.ext4_avail_bytes), unit),
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


def expansion_sections(estimate: Estimate, unit: str) -> tuple[Section, ...]:
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
                title=f"RAIDZ expansion of vdev group {r.group_index + 1}: {r.original_width} → {r.new_width} disks",
                explain="Data written before an expansion keeps its old ratio of data to parity until it is "
                "rewritten, and ZFS keeps reporting space at the old ratio. So after the expansion a dataset "
                "shows less USED than the data written to it: data written afterwards is stored at the new, "
                "better ratio but still counted at the old one. Rewriting the old data (zfs rewrite, OpenZFS 2.3.4 "
                "and later, or send and receive) stores it at the new ratio too.",
                rows=tuple(LabelledRow(label, Size(n, unit).text) for n, label in figures)
                + _expansion_datasets(e, unit),
            )
        )
    return tuple(out)


def _shape(layout: str, width: int, group: VdevGroup) -> str:
    """``8-wide raidz2``, ``3-way mirror``; a dRAID vdev by the word ``zpool create`` takes for it
    (``draid2:8d:24c:2s``, the data disks counted as zpool does)."""
    word = vdev_type_word(group) if group.is_draid else None
    return describe_shape(layout, width, 1, word)


def _disk_text(group: VdevGroup) -> str:
    """``Seagate ST16000NM001G · 16 TB · HDD``; a group of mixed disks by their number."""
    if not group.single_disk:
        return f"{len(group.disks)} different disks"
    disk = group.disks[0]
    name = " ".join(part for part in (disk.vendor, disk.model) if part) or "custom disk"
    media = media_label(disk.media.value if disk.media is not None else "")
    size_text = disk.size_text if disk.size_text is not None else format_si(disk.size_bytes)
    return " · ".join(p for p in (name, size_text, media) if p)


_ASHIFT_WHY = {"design": "set for this group", "pool": "the pool's ashift"}


def vdev_lines(estimate: Estimate, design: Design, unit: str) -> tuple[VdevLine, ...]:
    by_group: dict[int, VdevFigures] = {}
    for r in estimate.vdevs:
        by_group.setdefault(r.group_index, r)
    out = []
    for i, group in enumerate(design.vdevs):
        row = by_group.get(i)
        role = group.role.value
        top_level = row is not None and group.role in (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)
        source = row.ashift_source if row is not None else ""
        layout = row.layout if row is not None else group.layout.value
        width = row.width if row is not None else group.width
        out.append(
            VdevLine(
                index=i,
                role=role,
                shape=_shape(layout, width, group),
                count=group.count,
                disk=_disk_text(group),
                ashift=row.ashift if row is not None and top_level else None,
                ashift_why=_ASHIFT_WHY.get(source, f"auto: {source}" if source else ""),
                survives=row.fault_tolerance
                if row is not None and group.role in (Role.DATA, Role.SPECIAL, Role.DEDUP)
                else None,
                size=Size((row.zpool_size_bytes if row is not None else 0) * group.count, unit),
                removable=row.removable if row is not None and top_level else None,
            )
        )
    return tuple(out)


def risk_lines(estimate: Estimate, design: Design, with_fixes: bool) -> tuple[RiskLine, ...]:
    """A line per risk of ``estimate``, made from ``design``; with ``with_fixes``, the label of its one-click
    fix where it has one."""
    out = []
    for r in estimate.risks:
        # The label only: the changed design is validated when the fix is applied.
        fix = design_fix(r, design, validate=False) if with_fixes else None
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


def dataset_lines(estimate: Estimate, unit: str) -> tuple[DatasetLine, ...]:
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
