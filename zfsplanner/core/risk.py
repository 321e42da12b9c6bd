"""Risk rules with stable codes (``spec/design-format.md``, "Risk codes").

``assess(design, figures)`` returns every risk the design raises, each with a stable
``code``, a severity, a title, a detail that names the vdev group or dataset and the
numbers behind the verdict, a fix, a reference (OpenZFS source file, man page or issue)
and the ``subject`` (the design field it is about: ``vdevs[1]``, ``datasets[0]`` or
``pool``). The order is deterministic: critical first, then warning, then info; within a
severity by code, then by subject.

Rules read the design itself. The few that need computed figures (pool fill, special
class use, and optionally the per-dataset RAIDZ overhead) take them from
:class:`RiskFigures`, which other modules fill in; a rule whose figure is ``None`` is
skipped. RAM comes from ``figures.ram_bytes`` or, failing that, from the design key
``extra["host"]["ram_bytes"]``.

Every threshold is a named constant below and is explained in the detail text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from . import properties
from .alloc import block_asize, deflate, deflate_ratio
from .ashift import group_ashift
from .ashift import resolve as resolve_ashift
from .commands import draid_data_disks, vdev_type_word
from .design import Dataset, DatasetType, Design, Layout, Media, Role, Sync, VdevGroup
from .pool import leaf_asize as pool_leaf_asize
from .pool import member_osize, metaslab_shift
from .refusals import refusals
from .replication import pair_refusal
from .units import KIB, MIB, format_iec, format_si, is_power_of_two, rounddown, zfs_nicenum
from .versions import Version


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


SEVERITY_RANK = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.INFO: 2}

# --------------------------------------------------------------------------- thresholds

LARGE_DISK_BYTES = 8 * 10**12  # single parity on disks this large (vendor TB): see single-parity-large-disks
WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE = 4  # raidz wider than 4 × (parity + 1): 8, 12, 16 disks
PADDING_OVERHEAD_FACTOR = 1.20  # a block costing >= 1.2× the layout's nominal raw space per data byte
SPECIAL_SMALL_BLOCK_SHARE = 0.75  # 100 − zfs_special_class_metadata_reserve_pct (25)
POOL_FILL_WARN = 0.80
L2ARC_HEADER_BYTES = 96  # HDR_L2ONLY_SIZE on LP64 (include/sys/arc_impl.h)
L2ARC_RAM_SHARE = 0.10
L2ARC_UNKNOWN_RAM_FLOOR = 1024**3  # report header memory of 1 GiB or more when RAM is unknown
DDT_ENTRY_BYTES_TRAD = 296  # 40 B key + 4 × 64 B phys (include/sys/ddt.h), before 2.3
DDT_ENTRY_BYTES_FLAT = 112  # 40 B key + 72 B phys, fast_dedup (2.3+)
DDT_RAM_SHARE = 0.25
MIXED_SIZE_LOSS_SHARE = 0.01  # ignore differences below 1% of a group's raw capacity
BOOT_MAX_RECORDSIZE = 128 * KIB
DEFAULT_RECORDSIZE = 128 * KIB

BOOT_POOL_NAMES = ("bpool", "boot")


# --------------------------------------------------------------------------- catalog


@dataclass(frozen=True)
class RiskSpec:
    """What a code means: its usual severity, a title template, when it fires, and its source."""

    code: str
    severity: Severity
    title: str  # str.format template; fields are given by the rule
    when: str
    reference: str


def _spec(code: str, severity: Severity, title: str, when: str, reference: str) -> tuple[str, RiskSpec]:
    return code, RiskSpec(code, severity, title, when, reference)


REF_REMOVAL = (
    "module/zfs/vdev_removal.c (spa_vdev_remove_top_check); man zpool-remove.8: "
    "'all top-level vdevs must have the same sector size and not be raidz'"
)
REF_SPECIAL = "man zpoolconcepts.7 (Special Allocation Class); openzfs/zfs PR #5182 (Metadata Allocation Classes)"
REF_SPECIAL_CLASS = (
    "module/zfs/spa_misc.c (spa_preferred_class); man zfs.4 (zfs_special_class_metadata_reserve_pct); openzfs/zfs#11421"
)
REF_SSB = "man zfsprops.7 (special_small_blocks); module/zcommon/zfs_prop.c; lib/libzfs/libzfs_dataset.c"
REF_ASHIFT = "module/zfs/vdev.c (vdev_open, vdev_ashift_optimize); man zpoolprops.7 (ashift)"
REF_RAIDZ = "module/zfs/vdev_raidz.c (vdev_raidz_psize_to_asize); module/zfs/vdev_draid.c; openzfs/zfs#14420"
REF_ZPOOL_ADD = "cmd/zpool/zpool_vdev.c (get_replication: 'mismatched replication level'); man zpool-add.8"
REF_ZPOOLCONCEPTS = "man zpoolconcepts.7 (Virtual Devices); module/zfs/vdev_raidz.c"
REF_SLOG = "man zpoolconcepts.7 (Intent Log); man zfs.4 (zfs_dirty_data_max); module/zfs/zil.c"
REF_L2ARC = "include/sys/arc_impl.h (l2arc_buf_hdr_t, HDR_L2ONLY_SIZE); man zpoolconcepts.7 (Cache Devices)"
REF_DDT = "include/sys/ddt.h; module/zfs/ddt.c; man zpool-status.8 (-D); openzfs/zfs#2083"
REF_SYNC = "man zfsprops.7 (sync)"
REF_FILL = "module/zfs/metaslab.c (metaslab_df_free_pct, metaslab_df_alloc_threshold); module/zfs/spa_misc.c (slop)"
REF_BOOT = "cmd/zpool/compatibility.d/grub2; openzfs/zfs PR #6007 (large block boot pools, GRUB 2.02 note)"
REF_VM = "module/zfs/vdev.c (vdev_open: ashift is at least the logical sector); QEMU logical_block_size"

RISK_CATALOG: Mapping[str, RiskSpec] = dict(
    [
        _spec(
            "special-vdev-irremovable",
            Severity.WARNING,
            "{role} vdev {subject} can never be removed",
            "a special or dedup vdev in a pool that has a raidz/draid top-level vdev, or whose top-level vdevs "
            "differ in ashift",
            REF_REMOVAL,
        ),
        _spec(
            "special-redundancy-below-data",
            Severity.WARNING,
            "{role} vdev {subject} tolerates fewer failures than the data vdevs",
            "the special or dedup class tolerates fewer disk failures than the least redundant data vdev",
            REF_SPECIAL,
        ),
        _spec(
            "special-vdev-undersized",
            Severity.WARNING,
            "Special class {subject} is too small for what is planned on it",
            "estimated special-class allocation above 75% of its size when small blocks go there "
            "(zfs_special_class_metadata_reserve_pct = 25), or above 100% otherwise",
            REF_SPECIAL_CLASS,
        ),
        _spec(
            "special-small-blocks-captures-all",
            Severity.WARNING,
            "All data of {dataset} goes to the special class",
            "special_small_blocks >= recordsize (or volblocksize on 2.4+) with a special class present",
            REF_SSB,
        ),
        _spec(
            "special-small-blocks-volume",
            Severity.WARNING,
            "special_small_blocks on volume {dataset} needs OpenZFS 2.4",
            "special_small_blocks set on a volume when the design targets OpenZFS before 2.4",
            REF_SSB,
        ),
        _spec(
            "special-small-blocks-value",
            Severity.WARNING,
            "special_small_blocks={value} on {dataset} is not accepted before OpenZFS 2.4",
            "special_small_blocks that is not a power of two, or above 1M, when the design targets OpenZFS before 2.4",
            REF_SSB,
        ),
        _spec(
            "special-small-blocks-without-special",
            Severity.INFO,
            "special_small_blocks on {dataset} has no effect without a special vdev",
            "special_small_blocks > 0 in a design with no special vdev",
            REF_SSB,
        ),
        _spec(
            "ashift-below-physical-sector",
            Severity.WARNING,
            "ashift={ashift} on {subject} is below the disks' {sector}-byte physical sector",
            "an explicit ashift smaller than log2 of the largest physical sector among the group's disks",
            REF_ASHIFT,
        ),
        _spec(
            "mixed-ashift",
            Severity.WARNING,
            "{subject} has ashift {ashift}, the first data vdev {other}",
            "top-level data, special or dedup vdevs with different ashift (given or chosen from physical sectors)",
            REF_REMOVAL,
        ),
        _spec(
            "raidz-padding-overhead",
            Severity.WARNING,
            "{block} blocks of {dataset} cost {cost:.2f}× their size on {vdev}",
            "a dataset's block size costs at least 1.2× the raw space per data byte that the raidz/dRAID layout "
            "nominally costs (parity plus padding to (p+1) sectors, or to whole dRAID rows)",
            REF_RAIDZ,
        ),
        _spec(
            "draid-compression-loss",
            Severity.INFO,
            "Compression on {dataset} saves little on dRAID {vdev}",
            "compression enabled on a dataset whose block size is more than one and at most two dRAID allocation "
            "units (data disks × sector); smaller blocks are reported by raidz-padding-overhead",
            "man zpoolconcepts.7 (dRAID: 'can reduce the effective compression ratio'); module/zfs/vdev_draid.c "
            "(vdev_draid_min_alloc); module/zfs/vdev.c (vdev_spa_set_alloc)",
        ),
        _spec(
            "single-parity-large-disks",
            Severity.WARNING,
            "Single parity on {size} disks in {subject}",
            "a raidz1, draid1 or 2-way mirror data vdev of hard disks (or disks of unknown media) of 8 TB or more",
            "man zpoolconcepts.7 (Virtual Devices, resilver); man zpool-resilver.8",
        ),
        _spec(
            "wide-raidz",
            Severity.WARNING,
            "{subject} is a {width}-wide {layout}",
            "a raidz vdev wider than 4 × (parity + 1) disks: more than 8 (raidz1), 12 (raidz2) or 16 (raidz3)",
            REF_ZPOOLCONCEPTS,
        ),
        _spec(
            "mixed-vdev-redundancy",
            Severity.WARNING,
            "Data vdevs mix {layouts}",
            "top-level data vdevs of different layout families (mirror, raidz, dRAID, single disk) or fault tolerance",
            REF_ZPOOL_ADD,
        ),
        _spec(
            "non-redundant-vdev",
            Severity.CRITICAL,
            "{role} vdev {subject} has no redundancy",
            "a data, special or dedup vdev that is a single disk",
            "man zpoolconcepts.7 (Virtual Devices; 'if a top-level vdev fails the pool fails')",
        ),
        _spec(
            "mixed-disk-sizes",
            Severity.INFO,
            "Disks of different sizes in {subject}",
            "members of one vdev differ in size and the capacity above the smallest is at least 1% of the group",
            "module/zfs/vdev_mirror.c, module/zfs/vdev_raidz.c (vdev asize from the smallest child); "
            "man zpoolprops.7 (autoexpand)",
        ),
        _spec(
            "spare-too-small",
            Severity.WARNING,
            "Hot spare {subject} is smaller than the disks it should replace",
            "a hot spare smaller than the smallest member of a data, special or dedup vdev",
            "module/zfs/spa.c (spa_vdev_attach: EOVERFLOW 'device is too small'); module/zfs/vdev.c "
            "(vdev_get_min_asize)",
        ),
        _spec(
            "slog-without-plp",
            Severity.WARNING,
            "Log device {subject} {plp}",
            "a log device with plp false (warning) or not known (info)",
            REF_SLOG,
        ),
        _spec(
            "slog-unmirrored",
            Severity.INFO,
            "Log device {subject} is not mirrored",
            "a log group of single devices",
            REF_SLOG,
        ),
        _spec(
            "slog-on-hdd",
            Severity.WARNING,
            "Log device {subject} is a hard disk",
            "a log device whose media is hdd",
            REF_SLOG,
        ),
        _spec(
            "l2arc-on-hdd",
            Severity.WARNING,
            "Cache device {subject} is a hard disk",
            "a cache device whose media is hdd",
            REF_L2ARC,
        ),
        _spec(
            "l2arc-memory",
            Severity.WARNING,
            "L2ARC {subject} needs {headers} of RAM for headers",
            "L2ARC headers (96 B per cached block) above 10% of RAM, or at least 1 GiB when RAM is not given",
            REF_L2ARC,
        ),
        _spec(
            "dedup-memory",
            Severity.WARNING,
            "Dedup table of about {ddt} for {subject}",
            "dedup enabled on a dataset: the estimated dedup table above 25% of RAM, or whenever RAM or the "
            "contents are not given",
            REF_DDT,
        ),
        _spec(
            "dedup-vdev-without-dedup",
            Severity.INFO,
            "Dedup vdev {subject} will hold nothing",
            "a dedup vdev while no dataset enables dedup",
            "module/zfs/spa_misc.c (spa_preferred_class); man zpoolconcepts.7 (dedup class)",
        ),
        _spec(
            "sync-disabled",
            Severity.WARNING,
            "sync=disabled on {dataset}",
            "a dataset that sets sync=disabled",
            REF_SYNC,
        ),
        _spec(
            "pool-fill-high",
            Severity.WARNING,
            "Planned contents fill {fill:.0%} of the pool",
            "planned USED above 80% of the empty pool's AVAIL (critical above 100%)",
            REF_FILL,
        ),
        _spec(
            "boot-recordsize",
            Severity.WARNING,
            "recordsize={recordsize} on boot dataset {dataset}",
            "a boot pool (named bpool or boot, or extra.boot = true) dataset that sets recordsize above 128K",
            REF_BOOT,
        ),
        _spec(
            "zpool-refuses",
            Severity.CRITICAL,
            "{command} on OpenZFS {version} refuses {subject}",
            "a vdev or dataset the design's release cannot create: dRAID before 2.1, a raidz/dRAID special or "
            "dedup vdev before 2.4, compression=zstd before 2.0 (the risk quotes the tool's message)",
            "cmd/zpool/zpool_vdev.c (make_leaf_vdev, construct_spec); openzfs/zfs PR #17496; "
            "module/zcommon/zfs_prop.c (compression values)",
        ),
        _spec(
            "vm-sector-size",
            Severity.WARNING,
            "{what} will see 512-byte sectors",
            "disks passed through to a VM (extra.vm_passthrough = true) that are 4Kn, or 512e with no explicit "
            "ashift (warning); volumes on a pool of 4Kn disks (info)",
            REF_VM,
        ),
    ]
)


# --------------------------------------------------------------------------- results and inputs


@dataclass(frozen=True)
class Risk:
    code: str
    severity: Severity
    title: str
    detail: str
    fix: str
    reference: str
    subject: str


@dataclass(frozen=True)
class DatasetFigure:
    """Per-dataset numbers from the dataset estimate.

    ``raidz_overhead_fraction``: share of the dataset's allocated bytes on the normal class
    that is parity and padding (``1 − data / allocated``). ``nominal_parity_fraction``: the
    layout's parity share (``p / width`` for raidz, ``p / (D + p)`` for dRAID).
    ``block_size_bytes``: the block size the overhead was computed for.
    """

    name: str
    index: int
    block_size_bytes: int | None = None
    raidz_overhead_fraction: float | None = None
    nominal_parity_fraction: float | None = None


@dataclass(frozen=True)
class RiskFigures:
    """Numbers computed elsewhere; every field is optional and a rule that needs a missing one is skipped.

    ``zfs_avail_bytes`` and ``planned_used_bytes``: the empty pool's AVAIL and the sum of the
    datasets' USED after writing the contents (``zfs list`` terms). ``zpool_size_bytes`` and
    ``planned_allocated_bytes``: the same in ``zpool list`` terms (SIZE and ALLOC), used when
    the first pair is missing. ``special_usable_bytes``: SIZE of the special class;
    ``special_planned_bytes``: bytes the estimate allocates there (both raw, as
    ``zpool list -v`` shows them). ``ram_bytes``: the host's RAM.
    """

    zfs_avail_bytes: int | None = None
    planned_used_bytes: int | None = None
    zpool_size_bytes: int | None = None
    planned_allocated_bytes: int | None = None
    special_usable_bytes: int | None = None
    special_planned_bytes: int | None = None
    datasets: tuple[DatasetFigure, ...] = ()
    ram_bytes: int | None = None


# --------------------------------------------------------------------------- helpers


def _risk(code: str, subject: str, detail: str, fix: str, severity: Severity | None = None, **title: Any) -> Risk:
    spec = RISK_CATALOG[code]
    return Risk(
        code=code,
        severity=severity or spec.severity,
        title=spec.title.format(subject=subject, **title),
        detail=detail,
        fix=fix,
        reference=spec.reference,
        subject=subject,
    )


def fault_tolerance(group: VdevGroup) -> int:
    """Disks each vdev of the group can lose: mirror width − 1, raidz/dRAID parity, single disk 0."""
    if group.layout == Layout.MIRROR:
        return group.width - 1
    return group.parity


def describe_group(group: VdevGroup) -> str:
    """``3-way mirror``, ``2 × 6-wide raidz2``, ``draid2:8d:24c:2s``, ``single disk``."""
    if group.layout == Layout.STRIPE:
        shape = "single disk"
        return f"{group.count} single disks" if group.count > 1 else shape
    if group.layout == Layout.MIRROR:
        shape = f"{group.width}-way mirror"
    elif group.is_raidz:
        shape = f"{group.width}-wide {group.layout.value}"
    else:
        shape = vdev_type_word(group) or group.layout.value
    return f"{group.count} × {shape}" if group.count > 1 else shape


def _vdev(i: int) -> str:
    return f"vdevs[{i}]"


def _ds(i: int) -> str:
    return f"datasets[{i}]"


def _family(group: VdevGroup) -> str:
    if group.is_raidz:
        return "raidz"
    if group.is_draid:
        return "dRAID"
    return "mirror" if group.layout == Layout.MIRROR else "single disk"


def _groups(design: Design, *roles: Role) -> Iterator[tuple[int, VdevGroup]]:
    return ((i, g) for i, g in enumerate(design.vdevs) if g.role in roles)


def _by_name(design: Design) -> dict[str, Dataset]:
    return {d.name: d for d in design.datasets}


def _inherited(design: Design, ds: Dataset, attr: str) -> Any:
    """An inheritable property as ZFS resolves it: set locally, else from the nearest listed ancestor
    (:func:`properties.inherited`)."""
    return properties.inherited(design, ds, attr)


def block_size(design: Design, ds: Dataset) -> int:
    """recordsize (inherited, default 128K) or volblocksize (default 16K from OpenZFS 2.2, 8K before)."""
    return properties.block_size(design, ds)


def _dedup_on(design: Design, ds: Dataset) -> bool:
    value = _inherited(design, ds, "dedup")
    if value is None or value is False:
        return False
    return not (isinstance(value, str) and value.lower() == "off")


def host_ram(design: Design, figures: RiskFigures | None) -> int | None:
    """RAM of the host: ``figures.ram_bytes``, else the design's ``extra["host"]["ram_bytes"]``."""
    if figures is not None and figures.ram_bytes is not None:
        return figures.ram_bytes
    host = design.extra.get("host")
    if isinstance(host, Mapping):
        ram = host.get("ram_bytes")
        if isinstance(ram, int) and not isinstance(ram, bool) and ram > 0:
            return ram
    return None


def _min_size(group: VdevGroup) -> int:
    return min(d.size_bytes for d in group.disks)


def _is_hdd_or_unknown(group: VdevGroup) -> bool:
    return all(d.media in (None, Media.HDD) for d in group.disks)


def _natural_key(text: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


# --------------------------------------------------------------------------- rules: special class


def _special_groups(design: Design) -> list[tuple[int, VdevGroup]]:
    return list(_groups(design, Role.SPECIAL, Role.DEDUP))


def rule_special_irremovable(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    parity = [(i, g) for i, g in _groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP) if g.parity > 0]
    normal = [group_ashift(g, design.version) for _, g in _groups(design, Role.DATA)]
    for i, g in _special_groups(design):
        reasons = []
        if parity:
            names = ", ".join(f"{_vdev(j)} ({describe_group(p)})" for j, p in parity)
            reasons.append(f"the pool has top-level vdevs with parity: {names}")
        if len(set(normal)) > 1:
            reasons.append(f"the data vdevs differ in ashift ({', '.join(map(str, sorted(set(normal))))})")
        own = group_ashift(g, design.version)
        if normal and own != max(normal):
            reasons.append(f"its ashift {own} differs from the data vdevs' {max(normal)}")
        peers = {group_ashift(p, design.version) for _, p in _groups(design, g.role)}
        if len(peers) > 1:
            reasons.append(f"the {g.role.value} vdevs differ in ashift ({', '.join(map(str, sorted(peers)))})")
        if not reasons:
            continue
        yield _risk(
            "special-vdev-irremovable",
            _vdev(i),
            f"{_vdev(i)} is a {g.role.value} {describe_group(g)}. zpool remove can evacuate a top-level vdev only "
            f"when no top-level vdev has parity and all share one ashift; here {'; '.join(reasons)}. The command "
            "fails with 'invalid config; all top-level vdevs must have the same sector size and not be raidz', "
            "so once added this vdev stays for the life of the pool, and losing it loses the pool.",
            f"Treat adding {_vdev(i)} as permanent: size it for the pool's lifetime and give it the redundancy of "
            "the data vdevs. To keep it removable, the pool would need mirror data vdevs only, all with the same "
            "ashift as this vdev.",
            role=g.role.value.capitalize(),
        )


def rule_special_redundancy(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    data = list(_groups(design, Role.DATA))
    if not data:
        return
    data_ft = min(fault_tolerance(g) for _, g in data)
    for i, g in _special_groups(design):
        ft = fault_tolerance(g)
        if ft >= data_ft:
            continue
        weakest, weakest_group = next((j, d) for j, d in data if fault_tolerance(d) == data_ft)
        yield _risk(
            "special-redundancy-below-data",
            _vdev(i),
            f"{_vdev(i)} ({g.role.value}, {describe_group(g)}) survives {ft} disk failure(s); the data vdevs survive "
            f"{data_ft} (e.g. {_vdev(weakest)}, {describe_group(weakest_group)}). The {g.role.value} class holds "
            f"{'the pool metadata' if g.role == Role.SPECIAL else 'the dedup table'}, and losing any top-level "
            f"vdev loses the whole pool, so the pool now survives only {ft} failure(s). "
            f"{_zpool_says(weakest_group, g, design)}",
            f"Use a {data_ft + 1}-way mirror for {_vdev(i)} (it tolerates {data_ft} failures, like the data vdevs).",
            role=g.role.value.capitalize(),
        )


def rule_special_undersized(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if figures is None or figures.special_usable_bytes is None or figures.special_planned_bytes is None:
        return
    specials = list(_groups(design, Role.SPECIAL))
    if not specials or figures.special_usable_bytes <= 0:
        return
    size, planned = figures.special_usable_bytes, figures.special_planned_bytes
    small = [d.name for d in design.datasets if (d.special_small_blocks or 0) > 0]
    share = SPECIAL_SMALL_BLOCK_SHARE if small else 1.0
    limit = int(size * share)
    if planned <= limit:
        return
    if small:
        why = (
            f"small blocks (special_small_blocks on {', '.join(small)}) are placed there only while the class is "
            f"below {share:.0%} full (zfs_special_class_metadata_reserve_pct = 25), i.e. up to {format_iec(limit)}; "
            "beyond that they silently go to the data vdevs, and metadata spills too once the class is full"
        )
        fix = (
            "Enlarge the special vdevs so the planned use stays below 75% of the class, or lower "
            "special_small_blocks so fewer data blocks qualify."
        )
    else:
        why = "metadata beyond that spills back to the data vdevs (the alloc_class_fallbacks kstat counts it)"
        fix = "Enlarge the special vdevs, or plan for metadata spilling onto the data vdevs."
    yield _risk(
        "special-vdev-undersized",
        _vdev(specials[0][0]),
        f"The estimate puts {format_iec(planned)} on the special class "
        f"({', '.join(_vdev(i) for i, _ in specials)}), which has {format_iec(size)} "
        f"({planned / size:.0%} of it); {why}.",
        fix,
    )


def rule_special_small_blocks(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    has_special = any(True for _ in _groups(design, Role.SPECIAL))
    before_24 = Version.parse(design.version) < Version(2, 4)
    for i, ds in enumerate(design.datasets):
        ssb = ds.special_small_blocks
        if ssb is None or ssb == 0:
            continue
        value = zfs_nicenum(ssb)
        if ds.type == DatasetType.VOLUME and before_24:
            yield _risk(
                "special-small-blocks-volume",
                _ds(i),
                f"{ds.name} is a volume with special_small_blocks={value}, but before OpenZFS 2.4 the property "
                f"applies to filesystems only: zfs create refuses it on a volume and zvol data never goes to the "
                f"special class. The design targets OpenZFS {design.version}.",
                "Drop special_small_blocks from the volume, or target OpenZFS 2.4 or later.",
                dataset=ds.name,
            )
            continue
        if before_24 and (not is_power_of_two(ssb) or ssb < 512 or ssb > MIB):
            yield _risk(
                "special-small-blocks-value",
                _ds(i),
                f"{ds.name} sets special_small_blocks={value}. Before OpenZFS 2.4 it must be 0 or a power of two "
                f"from 512 to 1M (2.4 accepts any value up to 16M); the design targets OpenZFS {design.version}.",
                "Use a power of two no larger than 1M (e.g. 64K), or target OpenZFS 2.4.",
                value=value,
                dataset=ds.name,
            )
        if not has_special:
            yield _risk(
                "special-small-blocks-without-special",
                _ds(i),
                f"{ds.name} sets special_small_blocks={value}, but the design has no special vdev, so every block "
                "stays on the data vdevs.",
                "Add a special vdev, or drop the property.",
                dataset=ds.name,
            )


def rule_ssb_captures_all(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not any(True for _ in _groups(design, Role.SPECIAL)):
        return
    for i, ds in enumerate(design.datasets):
        if ds.type == DatasetType.VOLUME and Version.parse(design.version) < Version(2, 4):
            continue  # zvol data never goes to special before 2.4
        ssb = _inherited(design, ds, "special_small_blocks")
        if not ssb:
            continue
        bs = block_size(design, ds)
        if ssb < bs:
            continue
        prop = "volblocksize" if ds.type == DatasetType.VOLUME else "recordsize"
        size = ""
        if ds.contents is not None and ds.contents.logical_bytes:
            size = f" That is about {format_iec(ds.contents.logical_bytes)} of logical data."
        yield _risk(
            "special-small-blocks-captures-all",
            _ds(i),
            f"{ds.name} has special_small_blocks={zfs_nicenum(ssb)} and {prop}={zfs_nicenum(bs)}. Every data "
            "block is at most the block size after compression, so every block qualifies and the whole dataset "
            f"is written to the special class until that class is 75% full, then spills to the data vdevs.{size}",
            f"If the dataset is meant to live on the special vdevs, size them for it; otherwise set "
            f"special_small_blocks below {zfs_nicenum(bs)} (e.g. {zfs_nicenum(max(bs // 4, 4 * KIB))}) or raise "
            f"{prop}.",
            dataset=ds.name,
        )


# --------------------------------------------------------------------------- rules: ashift


_ASHIFT_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE)


def rule_ashift_below_physical(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, *_ASHIFT_ROLES):
        if g.ashift is None:
            continue  # the planner picks what zpool would (ashift.automatic)
        physical = max(d.physical_sector for d in g.disks)
        if (1 << g.ashift) >= physical:
            continue
        choice = resolve_ashift(g, design.version)
        if choice.fails is not None:
            what = f" On OpenZFS {design.version}: {choice.fails}."
        elif choice.raised:
            below_logical = (1 << g.ashift) < max(d.logical_sector for d in g.disks)
            verb = "vdev_open() raises the ashift to" if below_logical else "the vdev is raised to"
            what = (
                f" zpool create -o ashift={g.ashift} does not give this vdev ashift {g.ashift}: {verb} "
                f"{choice.used} ({1 << choice.used} B) without a message, while zpool get ashift keeps "
                f"printing {g.ashift}. The estimate uses ashift {choice.used}."
            )
        else:
            what = (
                f" Every write smaller than or misaligned to {physical} B becomes a read-modify-write inside the "
                "drive, which costs throughput, and a power loss during it can corrupt the other 512-byte sectors "
                "that share the physical sector."
            )
        yield _risk(
            "ashift-below-physical-sector",
            _vdev(i),
            f"{_vdev(i)} ({g.role.value}, {describe_group(g)}) sets ashift={g.ashift} ({1 << g.ashift} B) on disks "
            f"with {physical}-byte physical sectors. ashift is fixed when the vdev is created." + what,
            f"Use ashift={physical.bit_length() - 1} (or leave it out and let the planner take it from the "
            "physical sector).",
            ashift=g.ashift,
            sector=physical,
        )


def rule_mixed_ashift(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    top = list(_groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP))
    data = [group_ashift(g, design.version) for _, g in top if g.role == Role.DATA]
    if not data:
        return
    reference = data[0]
    if len({group_ashift(g, design.version) for _, g in top}) == 1:
        return
    for i, g in top:
        a = group_ashift(g, design.version)
        if a == reference:
            continue
        how = "set" if g.ashift is not None else "chosen from its physical sector"
        yield _risk(
            "mixed-ashift",
            _vdev(i),
            f"{_vdev(i)} ({g.role.value}, {describe_group(g)}) has ashift {a} ({how}); the first data vdev has "
            f"{reference}. With top-level vdevs of different ashift, zpool remove refuses every top-level vdev "
            "(data, special and dedup alike), so no vdev can ever be taken out of the pool again.",
            f"Give every data, special and dedup vdev the same ashift (e.g. ashift={max(reference, a)} everywhere, "
            "which suits both 512-byte and 4K disks).",
            ashift=a,
            other=str(reference),
        )


# --------------------------------------------------------------------------- rules: layout


def rule_raidz_padding(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    parity_groups = [(i, g) for i, g in _groups(design, Role.DATA) if g.parity > 0]
    by_index = {f.index: f for f in (figures.datasets if figures else ())}
    for di, ds in enumerate(design.datasets):
        fig = by_index.get(di)
        bs = block_size(design, ds)
        if fig is not None and fig.raidz_overhead_fraction is not None and fig.nominal_parity_fraction is not None:
            if not parity_groups or fig.raidz_overhead_fraction >= 1 or fig.nominal_parity_fraction >= 1:
                continue
            cost = 1 / (1 - fig.raidz_overhead_fraction)
            nominal = 1 / (1 - fig.nominal_parity_fraction)
            if cost < nominal * PADDING_OVERHEAD_FACTOR:
                continue
            i, g = parity_groups[0]
            bs = fig.block_size_bytes or bs
            detail = (
                f"The estimate gives {fig.raidz_overhead_fraction:.0%} of {ds.name}'s allocation as parity and "
                f"padding on {_vdev(i)} ({describe_group(g)}), against the layout's nominal "
                f"{fig.nominal_parity_fraction:.0%}: {cost:.2f}× raw space per byte of data instead of "
                f"{nominal:.2f}×."
            )
        else:
            worst = None
            for i, g in parity_groups:
                a = group_ashift(g, design.version)
                dd = draid_data_disks(g) if g.is_draid else None
                asize = block_asize(g.layout, g.width, a, bs, dd)
                data_cols = dd if dd is not None else g.width - g.parity
                nominal = (data_cols + g.parity) / data_cols
                cost = asize / bs
                if cost >= nominal * PADDING_OVERHEAD_FACTOR and (worst is None or cost / nominal > worst[0]):
                    worst = (cost / nominal, i, g, a, asize, nominal, cost)
            if worst is None:
                continue
            _, i, g, a, asize, nominal, cost = worst
            sectors = asize >> a
            data_sectors = -(-bs // (1 << a))
            used = deflate(asize, deflate_ratio(g.layout, g.width, a, draid_data_disks(g) if g.is_draid else None))
            rule = (
                "padded to whole rows of data + parity sectors"
                if g.is_draid
                else f"padded to a multiple of parity + 1 = {g.parity + 1} sectors"
            )
            detail = (
                f"On {_vdev(i)} ({describe_group(g)}, ashift {a}) a {zfs_nicenum(bs)} block of {ds.name} is "
                f"{data_sectors} data sector(s) plus parity, {rule}: {sectors} sectors = {zfs_nicenum(asize)}, "
                f"{cost:.2f}× its size, where the layout nominally costs {nominal:.2f}×. zfs list charges each such "
                f"block {zfs_nicenum(used)} ({used / bs:.2f}× the data), since AVAIL is computed for 128K blocks. "
                f"Flagged because the cost is at least {PADDING_OVERHEAD_FACTOR:.1f}× the nominal one. "
                + (
                    f"Compression cannot shrink a block below one row ({zfs_nicenum(data_cols << a)} of data)."
                    if g.is_draid
                    else "Compression makes blocks smaller and can make it worse."
                )
            )
        prop = "volblocksize" if ds.type == DatasetType.VOLUME else "recordsize"
        yield _risk(
            "raidz-padding-overhead",
            _ds(di),
            detail,
            f"Raise {prop} on {ds.name} (e.g. 64K or more for a zvol on wide RAIDZ), or put small-block workloads "
            "(VM disks, databases) on mirror vdevs or a narrower raidz.",
            block=zfs_nicenum(bs),
            dataset=ds.name,
            cost=cost,
            vdev=_vdev(i),
        )


def rule_draid_compression(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    draid = [(i, g) for i, g in _groups(design, Role.DATA) if g.is_draid]
    if not draid:
        return
    for di, ds in enumerate(design.datasets):
        comp = _inherited(design, ds, "compression")
        if comp is None or comp == "off":
            continue
        bs = block_size(design, ds)
        for i, g in draid:
            unit = draid_data_disks(g) << group_ashift(g, design.version)
            if not unit < bs <= 2 * unit:
                continue  # smaller blocks are reported by raidz-padding-overhead
            saves = f"saves space only for blocks that compress to {zfs_nicenum(unit)} or less (2:1 or better)"
            yield _risk(
                "draid-compression-loss",
                _ds(di),
                f"On {_vdev(i)} ({describe_group(g)}) the smallest allocation is {draid_data_disks(g)} data disks × "
                f"{1 << group_ashift(g, design.version)} B = {zfs_nicenum(unit)}, and compressed sizes are rounded "
                "up to "
                f"multiples of it. {ds.name} writes {zfs_nicenum(bs)} blocks, so compression={comp} {saves}.",
                f"Raise the block size of {ds.name} well above {zfs_nicenum(unit)} (e.g. recordsize=1M for bulk "
                "data), or use a dRAID with fewer data disks per group, or raidz/mirror for this workload.",
                dataset=ds.name,
                vdev=_vdev(i),
            )
            break


def rule_single_parity_large(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.DATA):
        single = g.layout in (Layout.RAIDZ1, Layout.DRAID1) or (g.layout == Layout.MIRROR and g.width == 2)
        if not single or not _is_hdd_or_unknown(g):
            continue
        size = _min_size(g)
        if size < LARGE_DISK_BYTES:
            continue
        readers = g.width - 1
        hours = size / 200e6 / 3600
        yield _risk(
            "single-parity-large-disks",
            _vdev(i),
            f"{_vdev(i)} is {describe_group(g)} of {format_si(size)} hard disks. Replacing a failed disk reads "
            f"{format_si(size * readers)} from the {readers} surviving disk(s) of that vdev; even at a sustained "
            f"200 MB/s that is {hours:.0f} h per disk, and days on a busy or fragmented pool. During that time the "
            "vdev has no redundancy: a second failure loses the pool, and an unreadable sector loses the file data "
            "on it (metadata keeps a second copy). 'Large' here means 8 TB or more.",
            "Use raidz2 (or draid2), or 3-way mirrors, for disks of this size, and keep backups.",
            size=format_si(size, 0),
        )


def rule_wide_raidz(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP):
        if not g.is_raidz:
            continue
        limit = WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE * (g.parity + 1)
        if g.width <= limit:
            continue
        yield _risk(
            "wide-raidz",
            _vdev(i),
            f"{_vdev(i)} is {describe_group(g)}. A resilver reads all {g.width - 1} surviving disks of the vdev and "
            f"takes longer the wider it is, and a raidz vdev delivers roughly the random IOPS of one disk, so one "
            f"{g.width}-wide vdev is much slower for small I/O than several narrower ones. Flagged above "
            f"4 × (parity + 1) = {limit} disks for {g.layout.value}.",
            f"Split into two or more {g.layout.value} vdevs of at most {limit} disks, raise the parity, "
            "or use dRAID, whose distributed spares rebuild quickly.",
            width=g.width,
            layout=g.layout.value,
        )


def _zpool_says(first: VdevGroup, second: VdevGroup, design: Design) -> str:
    """What zpool's replication check makes of the two layouts side by side (``core.replication``)."""
    message = pair_refusal(first, second, design.version)
    if message is None:
        return f"OpenZFS {design.version} accepts the two side by side without -f."
    return (
        f"zpool refuses them side by side unless forced (\"{message}\"); the generated commands add the "
        "override where zpool needs it and say why."
    )


def rule_mixed_redundancy(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    data = list(_groups(design, Role.DATA))
    if len(data) < 2:
        return
    first_i, first = data[0]
    key = (_family(first), fault_tolerance(first))
    for i, g in data[1:]:
        if (_family(g), fault_tolerance(g)) == key:
            continue
        yield _risk(
            "mixed-vdev-redundancy",
            _vdev(i),
            f"{_vdev(i)} is {describe_group(g)} (tolerates {fault_tolerance(g)} failure(s)) while {_vdev(first_i)} "
            f"is {describe_group(first)} (tolerates {fault_tolerance(first)}). The pool is only as safe as its "
            f"weakest top-level vdev and performance differs between them. {_zpool_says(first, g, design)}",
            "Use the same layout and parity for every data vdev.",
            layouts=f"{describe_group(first)} and {describe_group(g)}",
        )


def rule_non_redundant(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP):
        if fault_tolerance(g) > 0:
            continue
        n = g.count
        yield _risk(
            "non-redundant-vdev",
            _vdev(i),
            f"{_vdev(i)} is {n} single disk(s) in the {g.role.value} class. A top-level vdev with no redundancy "
            "fails with its disk, and the pool fails with any top-level vdev: one disk failure loses the whole "
            "pool. Checksums can detect damage but have no second copy of data to repair it from.",
            f"Mirror {_vdev(i)} (layout mirror, width 2 or more), or use raidz.",
            role=g.role.value.capitalize(),
        )


def rule_mixed_sizes(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG):
        sizes = [d.size_bytes for d in g.disks]
        small = min(sizes)
        lost = sum(s - small for s in sizes) * g.count
        raw = sum(sizes) * g.count
        if lost == 0 or lost < raw * MIXED_SIZE_LOSS_SHARE:
            continue
        yield _risk(
            "mixed-disk-sizes",
            _vdev(i),
            f"The members of {_vdev(i)} range from {format_si(small)} to {format_si(max(sizes))}. A mirror or raidz "
            f"vdev uses every member only up to the smallest one, so {format_si(lost)} "
            f"({lost / raw:.0%} of the group's raw capacity) is unused until the smaller disks are replaced "
            "(with autoexpand=on, or zpool online -e).",
            "Use disks of one size in each vdev, or accept the loss and plan to replace the smaller disks later.",
        )


def leaf_asize(design: Design, group: VdevGroup, size_bytes: int) -> int:
    """Bytes ZFS can allocate on one member disk of ``size_bytes`` in ``group`` (reference §2.1, §2.2)."""
    disk = replace(group.disks[0], size_bytes=size_bytes)
    return pool_leaf_asize(member_osize(design, group, disk))


def replacement_min_bytes(design: Design, group: VdevGroup) -> int:
    """Smallest leaf asize that can replace a member of ``group`` (``vdev_get_min_asize()``).

    A top-level vdev needs its asize rounded down to whole metaslabs; a raidz/dRAID child
    needs its share of that, a mirror child all of it.
    """
    leaf = min(leaf_asize(design, group, d.size_bytes) for d in group.disks)
    columns = group.width if group.parity > 0 else 1
    top = leaf * columns
    minimum = rounddown(top, 1 << metaslab_shift(top))
    return -(-minimum // columns)


def rule_spare_size(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    targets = list(_groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP))
    for i, g in _groups(design, Role.SPARE):
        spare = _min_size(g)
        spare_leaf = leaf_asize(design, g, spare)
        too_big = [(j, t) for j, t in targets if replacement_min_bytes(design, t) > spare_leaf]
        if not too_big:
            continue
        names = ", ".join(
            f"{_vdev(j)} ({format_si(_min_size(t))} disks, which need {replacement_min_bytes(design, t):,} B)"
            for j, t in too_big
        )
        yield _risk(
            "spare-too-small",
            _vdev(i),
            f"The hot spare {_vdev(i)} is {format_si(spare)} and gives ZFS {spare_leaf:,} B, less than a replacement "
            f"for {names}. A replacement must cover every metaslab of the vdev (its asize rounded down to whole "
            "metaslabs, split over the raidz columns), else zpool replace fails with 'device is too small' and the "
            "spare stays idle while the vdev runs degraded. Small differences between disks of the same nominal "
            "size are absorbed by that rounding and are not flagged.",
            "Use spares at least as large as the largest disk they should replace.",
        )


# --------------------------------------------------------------------------- rules: log and cache


def rule_slog_plp(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.LOG):
        if any(d.media == Media.HDD for d in g.disks):
            continue  # slog-on-hdd says what matters for a hard disk
        plp = [d.plp for d in g.disks]
        if all(p is True for p in plp):
            continue
        known_false = any(p is False for p in plp)
        if known_false:
            detail = (
                f"{_vdev(i)} ({describe_group(g)}) is marked without power-loss protection. The log only matters "
                "for synchronous writes, and each of them waits for the device to flush its volatile cache: "
                "without capacitor-backed cache, that flush makes the SLOG little faster than the pool, and a drive "
                "that acknowledges flushes it has not completed can lose acknowledged writes on power loss."
            )
        else:
            detail = (
                f"The design does not say whether {_vdev(i)} ({describe_group(g)}) has power-loss protection. A SLOG "
                "is useful only if it completes cache flushes quickly and safely, which takes capacitor-backed "
                "cache (typical of enterprise SSDs)."
            )
        yield _risk(
            "slog-without-plp",
            _vdev(i),
            detail,
            "Use a log device with power-loss protection (enterprise SSD or NVMe with PLP, or Optane), "
            "and set plp in the design.",
            severity=Severity.WARNING if known_false else Severity.INFO,
            plp="has no power-loss protection" if known_false else "may lack power-loss protection",
        )


def rule_slog_unmirrored(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in _groups(design, Role.LOG):
        if g.layout == Layout.MIRROR:
            continue
        yield _risk(
            "slog-unmirrored",
            _vdev(i),
            f"{_vdev(i)} is {describe_group(g)} as log. If it fails while the pool runs, ZFS falls back to the "
            "in-pool log and nothing is lost. Sync writes acknowledged in the last few seconds are lost only if "
            "the log device fails together with a crash or power loss (before the next transaction group commits); "
            "the pool itself stays importable (zpool import -m).",
            "Mirror the log (layout mirror, width 2) if losing the last seconds of synchronous writes in that "
            "double fault is not acceptable.",
        )


def rule_aux_on_hdd(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    data_media = {d.media for _, g in _groups(design, Role.DATA) for d in g.disks}
    for i, g in _groups(design, Role.LOG, Role.CACHE):
        if not any(d.media == Media.HDD for d in g.disks):
            continue
        if g.role == Role.LOG:
            yield _risk(
                "slog-on-hdd",
                _vdev(i),
                f"{_vdev(i)} ({describe_group(g)}) is a hard disk used as log. A separate log helps only when it "
                "commits synchronous writes faster than the data vdevs; a hard disk's seek latency is no better "
                f"than the pool's{' (whose data vdevs are hard disks too)' if Media.HDD in data_media else ''}.",
                "Use a low-latency SSD with power-loss protection as log, or no separate log.",
            )
        else:
            yield _risk(
                "l2arc-on-hdd",
                _vdev(i),
                f"{_vdev(i)} ({describe_group(g)}) is a hard disk used as cache. L2ARC serves reads faster than the "
                "data vdevs only if it is faster than they are, and it costs RAM for its headers.",
                "Use an SSD or NVMe device as cache, or more RAM instead.",
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


def rule_l2arc_memory(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    caches = list(_groups(design, Role.CACHE))
    if not caches:
        return
    total = sum(sum(d.size_bytes for d in g.disks) * g.count for _, g in caches)
    avg = _average_block(design)
    headers = L2ARC_HEADER_BYTES * total // avg
    ram = host_ram(design, figures)
    weighted = any(d.contents and d.contents.logical_bytes for d in design.datasets)
    basis = (
        f"L2ARC keeps a {L2ARC_HEADER_BYTES}-byte header in RAM for every block it holds. "
        f"{format_si(total)} of cache ({', '.join(_vdev(i) for i, _ in caches)}) filled with "
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
            f"{basis} The design gives no RAM (extra.host.ram_bytes); that is more than {L2ARC_RAM_SHARE:.0%} of "
            f"RAM on any host with less than {format_iec(headers / L2ARC_RAM_SHARE)}."
        )
        severity = Severity.INFO
    yield _risk(
        "l2arc-memory",
        _vdev(caches[0][0]),
        detail,
        "Use a smaller cache device, larger records, or more RAM; check l2_hdr_size in arcstats after warm-up.",
        severity=severity,
        headers=format_iec(headers, 1),
    )


def rule_dedup_memory(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    dedup = [(i, ds) for i, ds in enumerate(design.datasets) if _dedup_on(design, ds)]
    if not dedup:
        return
    flat = Version(2, 3) <= Version.parse(design.version)
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
    names = ", ".join(ds.name for _, ds in dedup)
    subject = _ds(dedup[0][0])
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
        parts.append("The design gives no RAM (extra.host.ram_bytes) to compare with.")
        severity = Severity.INFO
    yield _risk(
        "dedup-memory",
        subject,
        " ".join(parts),
        "Measure the real table with zdb -S POOL (simulated dedup) on sample data, keep dedup to datasets that "
        "really repeat, add RAM, or put the table on a mirrored dedup/special vdev; OpenZFS 2.3 adds "
        "dedup_table_quota to cap it.",
        severity=severity,
        ddt=format_iec(ddt, 1) if known else "unknown size",
    )


def rule_dedup_vdev_unused(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if any(_dedup_on(design, ds) for ds in design.datasets):
        return
    for i, g in _groups(design, Role.DEDUP):
        yield _risk(
            "dedup-vdev-without-dedup",
            _vdev(i),
            f"{_vdev(i)} ({describe_group(g)}) is a dedup vdev, which holds only dedup tables, but no dataset of "
            "the design enables dedup (extra.dedup). It adds a top-level vdev whose loss loses the pool.",
            "Drop the dedup vdev, or enable dedup on the datasets that need it.",
        )


# --------------------------------------------------------------------------- rules: datasets and pool


def rule_sync_disabled(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, ds in enumerate(design.datasets):
        if ds.sync != Sync.DISABLED:
            continue
        children = [d.name for d in design.datasets if d.name.startswith(ds.name + "/") and d.sync is None]
        inherit = f" Its children {', '.join(children)} inherit it." if children else ""
        yield _risk(
            "sync-disabled",
            _ds(i),
            f"{ds.name} sets sync=disabled: fsync() and O_SYNC writes return before the data is on stable storage. "
            "On a crash or power loss the writes of the last one or two transaction groups (zfs_txg_timeout = 5 s) are "
            "lost even though applications were told they were safe; databases and VM guests can be left "
            "inconsistent. The pool itself stays consistent." + inherit,
            "Keep sync=standard and add a mirrored SLOG with power-loss protection if synchronous writes are slow.",
            dataset=ds.name,
        )


def rule_pool_fill(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if figures is None:
        return
    if figures.planned_used_bytes is not None and figures.zfs_avail_bytes:
        planned, room, terms = figures.planned_used_bytes, figures.zfs_avail_bytes, "USED of AVAIL (zfs list)"
    elif figures.planned_allocated_bytes is not None and figures.zpool_size_bytes:
        planned, room, terms = figures.planned_allocated_bytes, figures.zpool_size_bytes, "ALLOC of SIZE (zpool list)"
    else:
        return
    fill = planned / room
    if fill <= POOL_FILL_WARN:
        return
    over = fill > 1
    detail = (
        f"The planned contents take {format_iec(planned)} of {format_iec(room)} ({terms}), {fill:.0%}. "
        + (
            "They do not fit. "
            if over
            else "As a pool fills, free space fragments and more metaslabs drop below metaslab_df_free_pct (4%) "
            "free, where the allocator leaves first-fit for the slower best-fit search; writes slow down and there "
            "is little room left for snapshots and growth. The common guideline is to stay below 80%. "
        )
        + "Flagged above 80%."
    )
    yield _risk(
        "pool-fill-high",
        "pool",
        detail,
        "Add capacity (more or larger disks, another vdev) so the planned contents stay below 80%, or plan less data.",
        severity=Severity.CRITICAL if over else Severity.WARNING,
        fill=fill,
    )


def is_boot_pool(design: Design) -> bool:
    """A boot pool: named ``bpool`` or ``boot``, or with ``extra["boot"] == True``."""
    return design.name in BOOT_POOL_NAMES or design.extra.get("boot") is True


def rule_boot_recordsize(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not is_boot_pool(design):
        return
    for i, ds in enumerate(design.datasets):
        if ds.recordsize is None or ds.recordsize <= BOOT_MAX_RECORDSIZE:
            continue
        yield _risk(
            "boot-recordsize",
            _ds(i),
            f"{design.name} is a boot pool and {ds.name} sets recordsize={zfs_nicenum(ds.recordsize)}. The boot "
            "loader reads this pool with its own ZFS reader: records above 128K activate the large_blocks "
            "feature, which GRUB reads only from 2.02 on (OpenZFS PR #6007) and which older or other boot "
            "loaders refuse, so the machine may not boot. A few kernels and initramfs images gain nothing from "
            "large records.",
            "Keep recordsize at 128K or less on the boot pool (create it with -o compatibility=grub2).",
            recordsize=zfs_nicenum(ds.recordsize),
            dataset=ds.name,
        )


def rule_vm_sector_size(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    passthrough = design.extra.get("vm_passthrough") is True
    if passthrough:
        for i, g in _groups(design, Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE):
            native = any(d.logical_sector >= 4096 for d in g.disks)
            emulated = not native and g.ashift is None and any(d.physical_sector >= 4096 for d in g.disks)
            if not (native or emulated):
                continue
            a = group_ashift(g, design.version)
            if native:
                what = "4Kn disks (4096-byte logical sectors)"
                why = (
                    "Unless the VM disk is configured with 4096-byte logical sectors, the hypervisor presents "
                    "512-byte sectors and emulates them on the 4Kn disk with read-modify-write, and ZFS in the "
                    "guest detects 512-byte sectors and picks ashift=9."
                )
            else:
                what = "512e disks with no explicit ashift"
                why = (
                    "The guest sees whatever physical sector size the hypervisor reports (512 bytes by default "
                    "for a virtual disk), so zpool create in the guest may pick ashift=9 on drives with 4K "
                    "physical sectors."
                )
            yield _risk(
                "vm-sector-size",
                _vdev(i),
                f"{_vdev(i)} ({describe_group(g)}) has {what} and the design says the disks are passed through to a "
                f"VM (extra.vm_passthrough). {why}",
                f"Set the VM disk's logical and physical block size to 4096 (QEMU logical_block_size=4096,"
                f"physical_block_size=4096) and create the pool with an explicit ashift={max(a, 12)}.",
                what=f"The VM using {_vdev(i)}",
            )
    native_pool = any(d.logical_sector >= 4096 for _, g in _groups(design, Role.DATA) for d in g.disks)
    if not native_pool:
        return
    for i, ds in enumerate(design.datasets):
        if ds.type != DatasetType.VOLUME:
            continue
        yield _risk(
            "vm-sector-size",
            _ds(i),
            f"{ds.name} is a volume on a pool of 4Kn disks. The zvol's own block size is "
            f"volblocksize={zfs_nicenum(block_size(design, ds))}, but a VM given this zvol sees 512-byte logical "
            "sectors by default, so a guest that writes 512-byte sectors makes ZFS read-modify-write a whole "
            "volblocksize block for each.",
            "Give the VM disk 4096-byte logical/physical sectors (QEMU logical_block_size=4096, Proxmox "
            "virtio/scsi options), and format the guest filesystem with 4K blocks.",
            severity=Severity.INFO,
            what=f"The VM using {ds.name}",
        )


# --------------------------------------------------------------------------- entry point

def rule_zpool_refuses(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    """What the release's zpool/zfs stop on (:mod:`.refusals`), with their own words."""
    for r in refusals(design):
        yield _risk(
            "zpool-refuses",
            r.subject,
            f"{r.command} on OpenZFS {design.version} stops with:\n{r.message}",
            "Target a release that has it (the table in docs/capacity.md says which), or change "
            f"{r.subject} to what OpenZFS {design.version} accepts.",
            command=r.command,
            version=design.version,
        )


RULES = (
    rule_special_irremovable,
    rule_special_redundancy,
    rule_special_undersized,
    rule_special_small_blocks,
    rule_ssb_captures_all,
    rule_ashift_below_physical,
    rule_mixed_ashift,
    rule_raidz_padding,
    rule_draid_compression,
    rule_single_parity_large,
    rule_wide_raidz,
    rule_mixed_redundancy,
    rule_non_redundant,
    rule_mixed_sizes,
    rule_spare_size,
    rule_slog_plp,
    rule_slog_unmirrored,
    rule_aux_on_hdd,
    rule_l2arc_memory,
    rule_dedup_memory,
    rule_dedup_vdev_unused,
    rule_sync_disabled,
    rule_pool_fill,
    rule_boot_recordsize,
    rule_vm_sector_size,
    rule_zpool_refuses,
)


def sort_risks(risks: Sequence[Risk]) -> list[Risk]:
    """Critical, warning, info; then by code; then by subject (``vdevs[2]`` before ``vdevs[10]``)."""
    return sorted(risks, key=lambda r: (SEVERITY_RANK[r.severity], r.code, _natural_key(r.subject)))


def assess(design: Design, figures: RiskFigures | None = None) -> list[Risk]:
    """Every risk the design raises, in a deterministic order (see :func:`sort_risks`)."""
    return sort_risks([risk for rule in RULES for risk in rule(design, figures)])


def risk_to_document(risk: Risk) -> dict[str, str]:
    """A risk as the estimate document lists it."""
    return {
        "code": risk.code,
        "severity": risk.severity.value,
        "title": risk.title,
        "detail": risk.detail,
        "fix": risk.fix,
        "reference": risk.reference,
        "subject": risk.subject,
    }


def catalog_markdown() -> str:
    """The risk code table of ``docs/risks.md``, generated from :data:`RISK_CATALOG`."""
    lines = ["| code | severity | fires when | reference |", "|---|---|---|---|"]
    for spec in RISK_CATALOG.values():
        lines.append(f"| `{spec.code}` | {spec.severity.value} | {spec.when} | {spec.reference} |")
    return "\n".join(lines) + "\n"
