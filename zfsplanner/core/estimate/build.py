"""Assemble the estimate (:class:`.figures.Estimate`) from the calculation modules.

The spec's fields come first (``spec/design-format.md``, "Estimate"); every figure carries
its unit in its name (``*_bytes`` are bytes). Extra keys explain where figures come from:
per-vdev metaslab geometry, the md RAID comparison, the efficiency-by-block-size tables
and, for a widened RAIDZ vdev, the expansion report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..capacity.efficiency import EfficiencyRow, efficiency_table
from ..capacity.expansion import expansion_report
from ..capacity.placement import AllocTarget
from ..capacity.pool import PoolCapacity, VdevCapacity, avail_charge, pool_capacity
from ..datasets.inputs import DatasetError
from ..datasets.savings import SpaceSavings, space_savings
from ..datasets.special import CurvePoint
from ..datasets.usage import DatasetUsage, dataset_usage
from ..design.planning import PlanningInputs, read_planning
from ..design.types import Dataset, Design, InvalidDesign, Layout, Role
from ..document.parse import parse_design
from ..memo import copy_with
from ..planning.mdraid import MdRaidRow, md_raid_comparison
from ..planning.sections import planning_sections
from ..properties.resolve import with_inherited
from ..risk.registry import DatasetFigure, RiskFigures, assess
from ..units import format_iec, format_si, zfs_nicenum
from .figures import (
    DatasetFigures,
    DesignFigures,
    Display,
    DraidFigures,
    EfficiencyGroup,
    Estimate,
    Expansion,
    ExpansionDataset,
    MdRaidGroup,
    PoolFigures,
    SavingsFigures,
    VdevFigures,
)
from .timeline import timeline


def estimate_document(doc: Any, inputs: PlanningInputs | None = None) -> dict[str, Any]:
    """Validate a design document and estimate it (raises ``InvalidDesign``): the estimate document."""
    return estimate(parse_design(doc), inputs).to_document()


def display(n: int) -> Display:
    """One size three ways: the drive-label unit, the binary unit, and as zpool/zfs print it."""
    return Display(si=format_si(n), iec=format_iec(n), zfs=zfs_nicenum(n))


def _targets(vdevs: Sequence[VdevCapacity], role: Role) -> list[AllocTarget]:
    chosen = [v for v in vdevs if v.role == role]
    total = sum(v.dspace_bytes for v in chosen) or 1
    targets: list[AllocTarget] = []
    for i, v in enumerate(chosen):
        if i and v.group_index == chosen[i - 1].group_index:  # the vdevs of a group are alike (pool_capacity)
            targets.append(targets[-1])
            continue
        targets.append(
            AllocTarget(
                v.layout, v.width, v.ashift, v.draid_data, v.deflate_ratio, v.dspace_bytes / total, v.original_width
            )
        )
    return targets


def _vdevs(vdevs: Sequence[VdevCapacity]) -> tuple[VdevFigures, ...]:
    out: list[VdevFigures] = []
    for v in vdevs:
        if out and v.group_index == out[-1].group_index:  # alike but for the index (pool_capacity)
            out.append(copy_with(out[-1], index=v.index))
        else:
            out.append(_vdev(v))
    return tuple(out)


def dataset_usages(design: Design, pool: PoolCapacity) -> list[DatasetUsage]:
    return _usages(design, pool, design.datasets, _targets(pool.vdevs, Role.DATA), _targets(pool.vdevs, Role.SPECIAL))


def _usages(
    design: Design,
    pool: PoolCapacity,
    datasets: Sequence[Dataset],
    normal: Sequence[AllocTarget],
    special: Sequence[AllocTarget],
) -> list[DatasetUsage]:
    usages: list[DatasetUsage] = []
    on_special = 0
    for i, ds in enumerate(datasets):
        try:
            usage = dataset_usage(
                with_inherited(design, ds),  # recordsize, compression... as the parents set them
                version=design.release,
                normal=normal,
                special=special,
                spa_min_alloc=pool.spa_min_alloc,
                spa_gcd_alloc=pool.spa_gcd_alloc,
                special_usable_bytes=pool.special_size_bytes if special else None,
                special_allocated_before=on_special,
            )
        except DatasetError as exc:
            raise InvalidDesign([(f"datasets[{i}]", str(exc))]) from exc
        on_special += usage.special_allocated_bytes
        usages.append(usage)
    return usages


def _written_before_all(ds: Dataset, everything: bool) -> Dataset:
    if ds.contents is None:
        return ds
    before = (ds.contents.logical_bytes or 0) if everything else 0
    return replace(ds, contents=replace(ds.contents, logical_bytes_written_before=before))


def expansion_datasets(design: Design, pool: PoolCapacity, usages: Sequence[DatasetUsage]) -> list[ExpansionDataset]:
    """USED after a RAIDZ expansion, per dataset that says how much it wrote before it.

    The charge is linear in the share written before (``placement.group_targets``), so the
    dataset is priced twice, all of it at the old width and all at the new one: USED of the old
    data is its share of the first, USED of the new data its share of the second, and a rewrite
    of the old data (``zfs rewrite``, 2.3.4 and 2.4, or send/receive) frees the difference.
    """
    if not any(v.original_width for v in pool.vdevs):
        return []
    chosen = [
        (ds, u)
        for ds, u in zip(design.datasets, usages, strict=True)
        if ds.contents is not None and ds.contents.logical_bytes_written_before is not None
    ]
    if not chosen:
        return []
    normal, special = _targets(pool.vdevs, Role.DATA), _targets(pool.vdevs, Role.SPECIAL)
    old = _usages(design, pool, [_written_before_all(ds, True) for ds, _ in chosen], normal, special)
    new = _usages(design, pool, [_written_before_all(ds, False) for ds, _ in chosen], normal, special)
    out = []
    for (ds, u), o, n in zip(chosen, old, new, strict=True):
        before = min(ds.contents.logical_bytes_written_before or 0, u.logical_bytes) if ds.contents else 0
        f = before / u.logical_bytes if u.logical_bytes else 0.0
        used_before = int(round(f * o.referenced_bytes))
        out.append(
            ExpansionDataset(
                name=ds.name,
                logical_bytes=u.logical_bytes,
                logical_bytes_written_before=before,
                logical_bytes_written_after=u.logical_bytes - before,
                used_written_before_bytes=used_before,
                used_written_after_bytes=u.referenced_bytes - used_before,
                zfs_used_bytes=u.zfs_used_bytes,
                used_if_rewritten_bytes=n.referenced_bytes,
                rewrite_frees_bytes=max(u.referenced_bytes - n.referenced_bytes, 0),
            )
        )
    return out


def _vdev(v: VdevCapacity) -> VdevFigures:
    return VdevFigures(
        role=v.role.value,
        index=v.index,
        layout=v.layout.value,
        width=v.width,
        ashift=v.ashift,
        zpool_size_bytes=v.zpool_size_bytes,
        fault_tolerance=v.fault_tolerance,
        removable=v.removable,
        group_index=v.group_index,
        ashift_source=v.ashift_source,
        raw_bytes=v.raw_bytes,
        leaf_asize_bytes=v.leaf_asize,
        asize_bytes=v.asize,
        metaslab_shift=v.ms_shift,
        metaslab_count=v.ms_count,
        deflate_ratio=v.deflate_ratio,
        dspace_bytes=v.dspace_bytes,
        embedded_log=v.embedded_log,
        draid=(
            DraidFigures(data=v.draid_data, spares=v.draid_spares, groups=v.draid_groups)
            if v.draid_data is not None
            else None
        ),
        original_width=v.original_width,
        notes=tuple(v.notes),
    )


def _dataset(u: DatasetUsage, curve: tuple[CurvePoint, ...]) -> DatasetFigures:
    return DatasetFigures(
        name=u.name,
        logical_bytes=u.logical_bytes,
        compressratio=u.compressratio,
        data_allocated_bytes=u.data_allocated_bytes,
        metadata_allocated_bytes=u.metadata_allocated_bytes,
        special_allocated_bytes=u.special_allocated_bytes,
        normal_allocated_bytes=u.normal_allocated_bytes,
        zfs_used_bytes=u.zfs_used_bytes,
        raidz_overhead_fraction=u.raidz_overhead_fraction,
        nominal_parity_fraction=u.nominal_parity_fraction,
        block_size_bytes=u.block_size_bytes,
        compression=u.compression,
        copies=u.copies,
        logicalused_bytes=u.logicalused_bytes,
        referenced_bytes=u.referenced_bytes,
        refreservation_bytes=u.refreservation_bytes,
        notes=tuple(u.notes),
        special_small_blocks_curve=curve,
    )


def _efficiency(pool: PoolCapacity) -> list[EfficiencyGroup]:
    seen: set[tuple[Any, ...]] = set()
    out = []
    for v in pool.vdevs:
        if v.role not in (Role.DATA, Role.SPECIAL, Role.DEDUP):
            continue
        key = (v.layout, v.width, v.ashift, v.draid_data)
        if key in seen:
            continue
        seen.add(key)
        rows = _efficiency_rows(v.layout, v.width, v.ashift, v.draid_data)
        out.append(
            EfficiencyGroup(
                group_index=v.group_index,
                role=v.role.value,
                layout=v.layout.value,
                width=v.width,
                ashift=v.ashift,
                draid_data=v.draid_data,
                rows=rows,
            )
        )
    return out


@lru_cache(maxsize=256)
def _efficiency_rows(layout: Layout, width: int, ashift: int, draid_data: int | None) -> tuple[EfficiencyRow, ...]:
    return tuple(efficiency_table(layout, width, ashift, draid_data))


@lru_cache(maxsize=256)
def _md_raid_rows(disks: tuple[int, ...], reserved_per_disk_bytes: int) -> tuple[MdRaidRow, ...]:
    return tuple(md_raid_comparison(disks, reserved_per_disk_bytes=reserved_per_disk_bytes))


def _md_raid(design: Design) -> list[MdRaidGroup]:
    out = []
    for gi, group in enumerate(design.vdevs):
        if group.role != Role.DATA:
            continue
        disks = tuple(d.size_bytes for d in group.disks) * group.count
        rows = _md_raid_rows(disks, group.reserved_per_disk_bytes or 0)
        out.append(MdRaidGroup(group_index=gi, disks=len(disks), rows=rows))
    return out


def _savings(s: SpaceSavings) -> SavingsFigures | None:
    if not (s.dedup_saved_bytes or s.clone_saved_bytes or s.dedup_referenced_bytes or s.notes):
        return None
    return SavingsFigures(
        dedup_referenced_bytes=s.dedup_referenced_bytes,
        dedup_saved_bytes=s.dedup_saved_bytes,
        dedupratio_percent=s.dedupratio_percent,
        bclone_used_bytes=s.clone_used_bytes,
        bclone_saved_bytes=s.clone_saved_bytes,
        bcloneratio_percent=s.bcloneratio_percent,
        allocated_saved_bytes=s.allocated_saved_bytes,
        slop_bytes=s.slop_bytes,
        usable_bytes=s.usable_bytes,
        notes=s.notes,
    )


def estimate(design: Design, inputs: PlanningInputs | None = None) -> Estimate:
    """The estimate of a design. ``inputs``: per-disk-model figures from outside the design (the
    catalog, imported benchmarks) for the reliability and performance sections. A design with a
    ``growth`` block gains its timeline, whose options are estimates of the designs they lead to."""
    est = _estimate(design, inputs)
    settings = read_planning(design.extra, len(design.vdevs), design.host.ram_bytes)
    if settings.growth is None:
        return est
    line = timeline(design, est, settings, pool_capacity(design), lambda d: _estimate(d, inputs), inputs)
    return replace(est, timeline=line)


def _estimate(design: Design, inputs: PlanningInputs | None) -> Estimate:
    pool = pool_capacity(design)
    normal, special = _targets(pool.vdevs, Role.DATA), _targets(pool.vdevs, Role.SPECIAL)
    usages = _usages(design, pool, design.datasets, normal, special)
    planning = planning_sections(design, pool, usages, normal, special, inputs)
    planned_used = sum(u.zfs_used_bytes for u in usages)
    saved = space_savings(design, pool, usages)
    # what the contents take from AVAIL: from 2.4.1/2.3.7 not what they keep on the special class
    planned_charge = avail_charge(planned_used, sum(u.special_used_bytes for u in usages), design.release)
    allocated = sum(u.data_allocated_bytes + u.metadata_allocated_bytes for u in usages) - saved.allocated_saved_bytes
    special_planned = sum(u.special_allocated_bytes for u in usages)
    usable = saved.usable_bytes
    table, home = planning.sizing.dedup_table, planning.sizing.dedup_table_home
    on_fast_class = table is not None and home is not None and home.role in (Role.SPECIAL, Role.DEDUP)
    table_on_special = table.on_disk_bytes if table is not None and on_fast_class else 0
    figures = RiskFigures(
        zfs_avail_bytes=usable - pool.initial_used_bytes,  # the savings count as room (USED counts in full)
        planned_used_bytes=planned_charge,
        zpool_size_bytes=pool.zpool_size_bytes,
        planned_allocated_bytes=allocated,
        special_usable_bytes=pool.special_size_bytes or None,
        special_planned_bytes=special_planned + table_on_special,
        dedup_entries=table.entries if table is not None else None,
        dedup_in_core_bytes=table.in_core_bytes if table is not None else None,
        dedup_on_disk_bytes=table.on_disk_bytes if table is not None else None,
        dedup_home_role=home.role if home is not None else None,
        dedup_home_groups=home.group_indexes if home is not None else (),
        dedup_home_size_bytes=home.class_size_bytes if home is not None else None,
        dedup_home_planned_bytes=home.class_planned_bytes if home is not None else None,
        datasets=tuple(
            DatasetFigure(
                name=u.name,
                index=i,
                block_size_bytes=u.block_size_bytes,
                raidz_overhead_fraction=u.raidz_overhead_fraction,
                nominal_parity_fraction=u.nominal_parity_fraction,
            )
            for i, u in enumerate(usages)
        ),
    )
    expanded = tuple(expansion_datasets(design, pool, usages))
    expansions = tuple(
        Expansion(report=expansion_report(design, gi), datasets=expanded)
        for gi, g in enumerate(design.vdevs)
        if g.expanded_from_width is not None
    )
    return Estimate(
        design=DesignFigures(name=design.name, openzfs_version=design.version, disk_partitioning=design.partitioning),
        pool=PoolFigures(
            raw_bytes=pool.raw_bytes,
            zpool_size_bytes=pool.zpool_size_bytes,
            zfs_avail_bytes=pool.zfs_avail_bytes,
            slop_bytes=pool.slop_bytes,
            special_size_bytes=pool.special_size_bytes,
            allocated_bytes=allocated,
            used_fraction=planned_used / usable if usable else None,
            zfs_used_bytes=planned_used,
            zfs_avail_after_bytes=max(usable - pool.initial_used_bytes - planned_charge, 0),
            normal_size_bytes=pool.normal_size_bytes,
            log_size_bytes=pool.log_size_bytes,
            cache_size_bytes=pool.cache_size_bytes,
            spare_raw_bytes=pool.spare_raw_bytes,
            normal_dspace_bytes=pool.normal_dspace_bytes,
            embedded_log_dspace_bytes=pool.elog_dspace_bytes,
            initial_used_bytes=pool.initial_used_bytes,
            special_allocated_bytes=special_planned,
            spa_min_alloc_bytes=pool.spa_min_alloc,
            special_recommended_bytes=planning.special.recommended_bytes,
            raw_display=display(pool.raw_bytes),
            zpool_size_display=display(pool.zpool_size_bytes),
            zfs_avail_display=display(pool.zfs_avail_bytes),
            slop_display=display(pool.slop_bytes),
            notes=tuple(pool.notes),
            savings=_savings(saved),
        ),
        vdevs=_vdevs(pool.vdevs),
        datasets=tuple(_dataset(u, curve) for u, curve in zip(usages, planning.curves, strict=True)),
        risks=tuple(assess(design, figures)),
        efficiency=tuple(_efficiency(pool)),
        md_raid=tuple(_md_raid(design)),
        raidz_expansion=expansions,
        special=planning.special,
        reliability=planning.reliability,
        performance=planning.performance,
        sizing=planning.sizing,
    )
