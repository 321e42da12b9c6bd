"""Risk rules about log, cache and dedup devices and the RAM their tables and headers need, and
their one-click fixes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..datasets.ddt import DedupTable, dedup_table, unique_blocks
from ..design.types import Dataset, Design, Layout, Media, Role
from ..naming import sentence_case
from ..properties.resolve import DEFAULT_RECORDSIZE, block_size
from ..units import format_iec, format_si, zfs_nicenum
from .common import (
    agree,
    dataset_path,
    dedup_on,
    ds_name,
    groups_of,
    host_ram,
    mirror_each_disk,
    vdev_name,
    vdev_path,
)
from .registry import Fixed, Part, Risk, RiskFigures, RiskSpec, Severity, make_risk, rule, rule_codes

L2ARC_HEADER_BYTES = 96  # HDR_L2ONLY_SIZE on LP64 (include/sys/arc_impl.h)
L2ARC_RAM_SHARE = 0.10
L2ARC_UNKNOWN_RAM_FLOOR = 1024**3  # report header memory of 1 GiB or more when RAM is unknown
DDT_RAM_SHARE = 0.25

REF_SLOG = "man zpoolconcepts.7 (Intent Log); man zfs.4 (zfs_dirty_data_max); module/zfs/zil.c"
REF_L2ARC = "include/sys/arc_impl.h (l2arc_buf_hdr_t, HDR_L2ONLY_SIZE); man zpoolconcepts.7 (Cache Devices)"
REF_DDT = (
    "include/sys/ddt.h; module/zfs/ddt.c (ddt_object_sync); module/zfs/ddt_zap.c; man zpool-status.8 (-D); "
    "openzfs/zfs#2083"
)


@rule(
    "slog-without-plp",
    Severity.WARNING,
    "{Name} {plp}",
    "a log device with plp false (warning) or not known (info)",
    REF_SLOG,
)
def rule_slog_plp(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.LOG):
        if any(d.media == Media.HDD for d in g.disks):
            continue  # slog-on-hdd says what matters for a hard disk
        plp = [d.plp for d in g.disks]
        if all(p is True for p in plp):
            continue
        known_false = any(p is False for p in plp)
        if known_false:
            detail = (
                f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'is', 'are')} marked without power-loss "
                "protection. The log only matters "
                "for synchronous writes, and each of them waits for the device to flush its volatile cache: "
                "without capacitor-backed cache, that flush makes the SLOG little faster than the pool, and a drive "
                "that acknowledges flushes it has not completed can lose acknowledged writes on power loss."
            )
        else:
            detail = (
                f"The design does not say whether {vdev_name(design, i)} {agree(design, i, 'has', 'have')} power-loss "
                "protection. A SLOG "
                "is useful only if it completes cache flushes quickly and safely, which takes capacitor-backed "
                "cache (typical of enterprise SSDs)."
            )
        yield make_risk(
            spec,
            vdev_path(i),
            detail,
            "Use a log device with power-loss protection (enterprise SSD or NVMe with PLP, or Optane), "
            "and set plp in the design.",
            severity=Severity.WARNING if known_false else Severity.INFO,
            name=vdev_name(design, i),
            plp=f"{agree(design, i, 'has', 'have')} no power-loss protection"
            if known_false
            else "may lack power-loss protection",
        )


def fix_slog_unmirrored(design: Design, part: Part) -> Fixed | None:
    return mirror_each_disk(design, part.index)


@rule(
    "slog-unmirrored",
    Severity.INFO,
    "{Name} {verb} not mirrored",
    "a log group of single devices",
    REF_SLOG,
    fix=fix_slog_unmirrored,
)
def rule_slog_unmirrored(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.LOG):
        if g.layout == Layout.MIRROR:
            continue
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'is', 'are')} not mirrored. If "
            f"{agree(design, i, 'it fails', 'one fails')} while the pool runs, ZFS falls back to the "
            "in-pool log and nothing is lost. Sync writes acknowledged in the last few seconds are lost only if "
            "the log device fails together with a crash or power loss (before the next transaction group commits); "
            "the pool itself stays importable (zpool import -m).",
            "Mirror the log (layout mirror, width 2) if losing the last seconds of synchronous writes in that "
            "double fault is not acceptable.",
            name=vdev_name(design, i),
            verb=agree(design, i, "is", "are"),
        )


@rule_codes(
    RiskSpec(
        "slog-on-hdd",
        Severity.WARNING,
        "Hard disk as log device: {name}",
        "a log device whose media is hdd",
        REF_SLOG,
    ),
    RiskSpec(
        "l2arc-on-hdd",
        Severity.WARNING,
        "Hard disk as cache device: {name}",
        "a cache device whose media is hdd",
        REF_L2ARC,
    ),
)
def rule_aux_on_hdd(specs: tuple[RiskSpec, ...], design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    slog_spec, cache_spec = specs
    data_media = {d.media for _, g in groups_of(design, Role.DATA) for d in g.disks}
    for i, g in groups_of(design, Role.LOG, Role.CACHE):
        if not any(d.media == Media.HDD for d in g.disks):
            continue
        if g.role == Role.LOG:
            yield make_risk(
                slog_spec,
                vdev_path(i),
                f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'uses', 'use')} hard disks as log. "
                "A separate log helps only when it "
                "commits synchronous writes faster than the data vdevs; a hard disk's seek latency is no better "
                f"than the pool's{' (whose data vdevs are hard disks too)' if Media.HDD in data_media else ''}.",
                "Use a low-latency SSD with power-loss protection as log, or no separate log.",
                name=vdev_name(design, i),
            )
        else:
            yield make_risk(
                cache_spec,
                vdev_path(i),
                f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'uses', 'use')} hard disks as cache. "
                "L2ARC serves reads faster than the "
                "data vdevs only if it is faster than they are, and it costs RAM for its headers.",
                "Use an SSD or NVMe device as cache, or more RAM instead.",
                name=vdev_name(design, i),
            )


def _average_block(design: Design) -> int:
    """Average block size the ARC would cache: the datasets' block sizes weighted by logical bytes."""
    weighted = [
        (ds.contents.logical_bytes, block_size(design, ds))
        for ds in design.datasets
        if ds.contents is not None and ds.contents.logical_bytes
    ]
    if weighted:
        total = sum(w for w, _ in weighted)
        blocks = sum(w / b for w, b in weighted)
        return max(int(total / blocks), 512)
    if design.datasets:
        return min(block_size(design, ds) for ds in design.datasets)
    return DEFAULT_RECORDSIZE


@rule(
    "l2arc-memory",
    Severity.WARNING,
    "L2ARC on {name} needs {headers} of RAM for headers",
    "L2ARC headers (96 B per cached block) above 10% of RAM, or at least 1 GiB when RAM is not given",
    REF_L2ARC,
)
def rule_l2arc_memory(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    caches = list(groups_of(design, Role.CACHE))
    if not caches:
        return
    total = sum(sum(d.size_bytes for d in g.disks) * g.count for _, g in caches)
    avg = _average_block(design)
    headers = L2ARC_HEADER_BYTES * total // avg
    ram = host_ram(design, figures)
    weighted = any(d.contents and d.contents.logical_bytes for d in design.datasets)
    basis = (
        f"L2ARC keeps a {L2ARC_HEADER_BYTES}-byte header in RAM for every block it holds. "
        f"{format_si(total)} of cache ({', '.join(vdev_name(design, i) for i, _ in caches)}) filled with "
        f"{zfs_nicenum(avg)} blocks (the datasets' block size"
        f"{', weighted by their contents' if weighted else ''}"
        f") needs about {format_iec(headers)} of headers, taken from the ARC they are meant to extend."
    )
    if ram is not None:
        if headers <= ram * L2ARC_RAM_SHARE:
            return
        detail = (
            f"{basis} That is {headers / ram:.0%} of the host's {format_iec(ram)} RAM; flagged above "
            f"{L2ARC_RAM_SHARE:.0%}."
        )
        severity = Severity.WARNING
    else:
        if headers < L2ARC_UNKNOWN_RAM_FLOOR:
            return
        detail = (
            f"{basis} The design does not give the host's RAM; that is more than {L2ARC_RAM_SHARE:.0%} of "
            f"RAM on any host with less than {format_iec(headers / L2ARC_RAM_SHARE)}."
        )
        severity = Severity.INFO
    yield make_risk(
        spec,
        vdev_path(caches[0][0]),
        detail,
        "Use a smaller cache device, larger records, or more RAM; check l2_hdr_size in arcstats after warm-up.",
        severity=severity,
        name=" and ".join(vdev_name(design, i) for i, _ in caches),
        headers=format_iec(headers, 1),
    )


def _dedup_table(design: Design, figures: RiskFigures | None, known: list[tuple[int, Dataset]]) -> DedupTable:
    """The estimate's table when it gave one, else the same model on blocks counted from the contents."""
    if figures is not None and figures.dedup_entries is not None:
        return DedupTable(
            figures.dedup_entries, figures.dedup_on_disk_bytes or 0, figures.dedup_in_core_bytes or 0, design.fast_dedup
        )
    entries = sum(
        unique_blocks(-(-ds.contents.logical_bytes // block_size(design, ds)), ds.contents)
        for _, ds in known
        if ds.contents is not None and ds.contents.logical_bytes
    )
    return dedup_table(entries, design.fast_dedup)


@rule(
    "dedup-memory",
    Severity.WARNING,
    "Dedup table of about {ddt} for {name}",
    "dedup enabled on a dataset: the estimated dedup table in core above 25% of RAM, or whenever RAM or the "
    "contents are not given",
    REF_DDT,
)
def rule_dedup_memory(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    dedup = [(i, ds) for i, ds in enumerate(design.datasets) if dedup_on(design, ds)]
    if not dedup:
        return
    known = [(i, ds) for i, ds in dedup if ds.contents is not None and ds.contents.logical_bytes]
    unknown = [ds.name for _, ds in dedup if not (ds.contents is not None and ds.contents.logical_bytes)]
    table = _dedup_table(design, figures, known)
    ddt = table.in_core_bytes
    kind = (
        "the fast-dedup format of OpenZFS 2.3 and later, whose 72-byte entries do not compress"
        if table.fast_dedup
        else "the traditional format"
    )
    ram = host_ram(design, figures)
    names = ", ".join(ds_name(design, i) for i, _ in dedup)
    subject = dataset_path(dedup[0][0])
    parts = [
        f"Dedup is on for {names}. The dedup table has one entry per unique block, kept in 32 KiB blocks "
        f"({kind}), and every write looks it up: when it does not fit in the ARC, writes and frees turn into "
        "random reads of the table."
    ]
    if known and table.entries:
        parts.append(
            f"{table.entries:,} unique blocks give a table of about {format_iec(ddt)} in RAM "
            f"({table.in_core_per_entry:.0f} B per block) and {format_iec(table.on_disk_bytes)} on disk"
            + (f" ({len(unknown)} dataset(s) without contents not counted)." if unknown else ".")
        )
    else:
        parts.append("The contents are not given, so the table size cannot be estimated.")
    severity = Severity.WARNING
    if ram is not None and known:
        if ddt <= ram * DDT_RAM_SHARE:
            return
        parts.append(f"That is {ddt / ram:.0%} of the host's {format_iec(ram)} RAM; flagged above {DDT_RAM_SHARE:.0%}.")
    else:
        parts.append("The design does not give the host's RAM to compare with.")
        severity = Severity.INFO
    yield make_risk(
        spec,
        subject,
        " ".join(parts),
        "Measure the real table with zdb -S POOL (simulated dedup) on sample data, keep dedup to datasets that "
        "really repeat, add RAM, or put the table on a mirrored dedup/special vdev; OpenZFS 2.3 adds "
        "dedup_table_quota to cap it.",
        severity=severity,
        name=ds_name(design, dedup[0][0]) + (f" and {len(dedup) - 1} more" if len(dedup) > 1 else ""),
        ddt=format_iec(ddt, 1) if known else "unknown size",
    )


@rule(
    "dedup-table-overflow",
    Severity.WARNING,
    "The dedup table does not fit {name}",
    "the dedup table on disk (with what else goes there) larger than the dedup vdevs, or than the special "
    "vdevs when it lives there",
    "module/zfs/spa_misc.c (spa_preferred_class, zfs_ddt_data_is_special); module/zfs/ddt.c (ddt_object_sync)",
)
def rule_dedup_table_overflow(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if figures is None or not figures.dedup_on_disk_bytes or not figures.dedup_home_groups:
        return
    if figures.dedup_home_role not in (Role.DEDUP.value, Role.SPECIAL.value):
        return
    size = figures.dedup_home_size_bytes or 0
    planned = figures.dedup_home_planned_bytes or figures.dedup_on_disk_bytes
    if planned <= size:
        return
    groups = figures.dedup_home_groups
    name = " and ".join(vdev_name(design, i) for i in groups)
    table = format_iec(figures.dedup_on_disk_bytes, 1)
    others = planned - figures.dedup_on_disk_bytes
    with_others = (
        f", and the special class also holds about {format_iec(others, 1)} of metadata and small blocks"
        if others
        else ""
    )
    spill = (
        "the special class, then the normal class"
        if figures.dedup_home_role == Role.DEDUP.value and any(True for _ in groups_of(design, Role.SPECIAL))
        else "the normal class"
    )
    yield make_risk(
        spec,
        vdev_path(groups[0]),
        f"The dedup table takes about {table} on disk ({figures.dedup_entries or 0:,} entries, three copies of each "
        f"block as the pool's own metadata is written){with_others}, but {name} "
        f"{agree(design, groups[0], 'holds', 'hold')} {format_iec(size, 1)}. Once it is full, new table blocks go "
        f"to {spill}, where every dedup lookup reads from the slower disks.",
        "Use larger disks for the dedup or special vdev, keep dedup to datasets that really repeat, or cap the "
        "table with dedup_table_quota (OpenZFS 2.3).",
        name=name,
    )


def fix_unused_dedup_vdev(design: Design, part: Part) -> Fixed | None:
    vdevs = design.vdevs[: part.index] + design.vdevs[part.index + 1 :]
    return Fixed(replace(design, vdevs=vdevs), "Remove the dedup vdev")


@rule(
    "dedup-vdev-without-dedup",
    Severity.INFO,
    "{Name} will hold nothing",
    "a dedup vdev while no dataset enables dedup",
    "module/zfs/spa_misc.c (spa_preferred_class); man zpoolconcepts.7 (dedup class)",
    fix=fix_unused_dedup_vdev,
)
def rule_dedup_vdev_unused(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if any(dedup_on(design, ds) for ds in design.datasets):
        return
    for i, _ in groups_of(design, Role.DEDUP):
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'is', 'are')} in the dedup class, which holds "
            "only dedup tables, but no dataset of the design enables dedup. It adds a top-level vdev whose loss "
            "loses the pool.",
            "Drop the dedup vdev, or enable dedup on the datasets that need it.",
            name=vdev_name(design, i),
        )
