"""Risk rules about log, cache and dedup devices and the RAM their tables and headers need."""

from __future__ import annotations

from collections.abc import Iterator

from ..design.types import Design, Layout, Media, Role
from ..naming import sentence_case
from ..properties.resolve import DEFAULT_RECORDSIZE
from ..units import format_iec, format_si, zfs_nicenum
from ..versions import supports
from .common import agree, block_size, dataset_path, dedup_on, ds_name, groups_of, host_ram, vdev_name, vdev_path
from .registry import Risk, RiskFigures, RiskSpec, Severity, make_risk, rule, rule_codes

L2ARC_HEADER_BYTES = 96  # HDR_L2ONLY_SIZE on LP64 (include/sys/arc_impl.h)
L2ARC_RAM_SHARE = 0.10
L2ARC_UNKNOWN_RAM_FLOOR = 1024**3  # report header memory of 1 GiB or more when RAM is unknown
DDT_ENTRY_BYTES_TRAD = 296  # 40 B key + 4 × 64 B phys (include/sys/ddt.h), before 2.3
DDT_ENTRY_BYTES_FLAT = 112  # 40 B key + 72 B phys, fast_dedup (2.3+)
DDT_RAM_SHARE = 0.25

REF_SLOG = "man zpoolconcepts.7 (Intent Log); man zfs.4 (zfs_dirty_data_max); module/zfs/zil.c"
REF_L2ARC = "include/sys/arc_impl.h (l2arc_buf_hdr_t, HDR_L2ONLY_SIZE); man zpoolconcepts.7 (Cache Devices)"
REF_DDT = "include/sys/ddt.h; module/zfs/ddt.c; man zpool-status.8 (-D); openzfs/zfs#2083"


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


@rule(
    "slog-unmirrored",
    Severity.INFO,
    "{Name} {verb} not mirrored",
    "a log group of single devices",
    REF_SLOG,
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


@rule(
    "dedup-memory",
    Severity.WARNING,
    "Dedup table of about {ddt} for {name}",
    "dedup enabled on a dataset: the estimated dedup table above 25% of RAM, or whenever RAM or the "
    "contents are not given",
    REF_DDT,
)
def rule_dedup_memory(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    dedup = [(i, ds) for i, ds in enumerate(design.datasets) if dedup_on(design, ds)]
    if not dedup:
        return
    flat = supports(design.version, "ddt_flat_entries")
    entry = DDT_ENTRY_BYTES_FLAT if flat else DDT_ENTRY_BYTES_TRAD
    entry_text = (
        f"about {entry} B per unique block (flat entries of the fast_dedup feature, OpenZFS 2.3+)"
        if flat
        else f"about {entry} B per unique block (traditional entries, before OpenZFS 2.3)"
    )
    known = [(i, ds) for i, ds in dedup if ds.contents is not None and ds.contents.logical_bytes]
    unknown = [ds.name for _, ds in dedup if not (ds.contents is not None and ds.contents.logical_bytes)]
    blocks = sum(
        -(-ds.contents.logical_bytes // block_size(design, ds))
        for _, ds in known
        if ds.contents is not None and ds.contents.logical_bytes
    )
    ddt = blocks * entry
    ram = host_ram(design, figures)
    names = ", ".join(ds_name(design, i) for i, _ in dedup)
    subject = dataset_path(dedup[0][0])
    parts = [
        f"Dedup is on for {names}. The dedup table has one entry per unique block, {entry_text}, before ZAP "
        "overhead, and every write looks it up: when it does not fit in the ARC, writes and frees turn into "
        "random reads of the table."
    ]
    if known:
        parts.append(
            f"With no duplicates at all, {blocks:,} blocks give a table of about {format_iec(ddt)}"
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
    "dedup-vdev-without-dedup",
    Severity.INFO,
    "{Name} will hold nothing",
    "a dedup vdev while no dataset enables dedup",
    "module/zfs/spa_misc.c (spa_preferred_class); man zpoolconcepts.7 (dedup class)",
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
