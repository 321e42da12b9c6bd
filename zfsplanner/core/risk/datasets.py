"""Risk rules about datasets and the pool as a whole: sync, pool fill, boot pools, what the
release refuses, and sector sizes seen by virtual machines; and their one-click fixes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..commands.refusals import refusals
from ..design.types import DatasetType, Design, Role, Sync
from ..geometry.ashift import DEFAULT_POOL_ASHIFT, group_ashift, group_physical_ashift
from ..naming import element_label, sentence_case
from ..properties.resolve import block_size
from ..units import KIB, format_iec, zfs_nicenum
from ..versions import SERIES, SERIES_NAMES, supports
from .common import (
    agree,
    dataset_path,
    ds_name,
    groups_of,
    mirror_of,
    set_dataset_size,
    vdev_name,
    vdev_path,
    with_dataset,
    with_vdev,
)
from .registry import (
    DATASETS,
    POOL,
    VDEVS,
    Fixed,
    Part,
    Risk,
    RiskFigures,
    RiskSpec,
    Severity,
    make_risk,
    rule,
)

POOL_FILL_WARN = 0.80
BOOT_MAX_RECORDSIZE = 128 * KIB

BOOT_POOL_NAMES = ("bpool", "boot")

REF_SYNC = "man zfsprops.7 (sync)"
REF_FILL = "module/zfs/metaslab.c (metaslab_df_free_pct, metaslab_df_alloc_threshold); module/zfs/spa_misc.c (slop)"
REF_BOOT = "cmd/zpool/compatibility.d/grub2; openzfs/zfs PR #6007 (large block boot pools, GRUB 2.02 note)"
REF_VM = "module/zfs/vdev.c (vdev_open: ashift is at least the logical sector); QEMU logical_block_size"


def fix_sync_disabled(design: Design, part: Part) -> Fixed | None:
    ds = design.datasets[part.index]
    return Fixed(with_dataset(design, part.index, replace(ds, sync=None)), "Set sync=standard")


@rule(
    "sync-disabled",
    Severity.WARNING,
    "sync=disabled on {dataset}",
    "a dataset that sets sync=disabled",
    REF_SYNC,
    fix=fix_sync_disabled,
)
def rule_sync_disabled(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, ds in enumerate(design.datasets):
        if ds.sync != Sync.DISABLED:
            continue
        children = [d.name for d in design.datasets if d.name.startswith(ds.name + "/") and d.sync is None]
        inherit = f" Its children {', '.join(children)} inherit it." if children else ""
        yield make_risk(
            spec,
            dataset_path(i),
            f"{sentence_case(ds_name(design, i))} sets sync=disabled: fsync() and O_SYNC writes return before the "
            "data is on stable storage. "
            "On a crash or power loss the writes of the last one or two transaction groups (zfs_txg_timeout = 5 s) are "
            "lost even though applications were told they were safe; databases and VM guests can be left "
            "inconsistent. The pool itself stays consistent." + inherit,
            "Keep sync=standard and add a mirrored SLOG with power-loss protection if synchronous writes are slow.",
            name=ds_name(design, i),
            dataset=ds_name(design, i),
        )


def fix_pool_fill(design: Design, part: Part) -> Fixed | None:
    """One more vdev like the last data group's (a step: the risk stays while the pool is too full)."""
    data = [i for i, _ in groups_of(design, Role.DATA)]
    if not data:
        return None
    group = design.vdevs[data[-1]]
    count = group.count
    return Fixed(
        with_vdev(design, data[-1], replace(group, count=count + 1)),
        f"Add another data vdev like the others ({count} → {count + 1})",
    )


@rule(
    "pool-fill-high",
    Severity.WARNING,
    "Planned contents fill {fill:.0%} of the pool",
    "planned USED above 80% of the empty pool's AVAIL with what dedup and clones save (critical above 100%)",
    REF_FILL,
    fix=fix_pool_fill,
)
def rule_pool_fill(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
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
    yield make_risk(
        spec,
        POOL,
        detail,
        "Add capacity (more or larger disks, another vdev) so the planned contents stay below 80%, or plan less data.",
        severity=Severity.CRITICAL if over else Severity.WARNING,
        name=element_label(design, POOL),
        fill=fill,
    )


def is_boot_pool(design: Design) -> bool:
    """A boot pool: named ``bpool`` or ``boot``, or with ``extra["boot"] == True``."""
    return design.name in BOOT_POOL_NAMES or design.extra.get("boot") is True


def fix_boot_recordsize(design: Design, part: Part) -> Fixed | None:
    return set_dataset_size(design, part, "recordsize", BOOT_MAX_RECORDSIZE)


@rule(
    "boot-recordsize",
    Severity.WARNING,
    "recordsize={recordsize} on boot dataset {dataset}",
    "a boot pool (named bpool or boot, or extra.boot = true) dataset that sets recordsize above 128K",
    REF_BOOT,
    fix=fix_boot_recordsize,
)
def rule_boot_recordsize(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not is_boot_pool(design):
        return
    for i, ds in enumerate(design.datasets):
        if ds.recordsize is None or ds.recordsize <= BOOT_MAX_RECORDSIZE:
            continue
        yield make_risk(
            spec,
            dataset_path(i),
            f"Pool {design.name} is a boot pool and {ds_name(design, i)} sets "
            f"recordsize={zfs_nicenum(ds.recordsize)}. The boot "
            "loader reads this pool with its own ZFS reader: records above 128K activate the large_blocks "
            "feature, which GRUB reads only from 2.02 on (OpenZFS PR #6007) and which older or other boot "
            "loaders refuse, so the machine may not boot. A few kernels and initramfs images gain nothing from "
            "large records.",
            "Keep recordsize at 128K or less on the boot pool (create it with -o compatibility=grub2).",
            name=ds_name(design, i),
            recordsize=zfs_nicenum(ds.recordsize),
            dataset=ds.name,
        )


def fix_refused(design: Design, part: Part) -> Fixed | None:
    """What the design's release refuses, changed to what it accepts (the release stays the user's)."""
    if part.section == DATASETS:  # a dataset: zstd before 2.0
        ds = design.datasets[part.index]
        if ds.compression is None:
            return None
        return Fixed(with_dataset(design, part.index, replace(ds, compression="lz4")), "Use compression=lz4")
    group = design.vdevs[part.index]
    if group.role in (Role.SPECIAL, Role.DEDUP) and group.parity > 0:  # raidz/dRAID class vdev before 2.4
        mirror = mirror_of(replace(group, draid_data=None, draid_spares=None), group.parity + 1)
        return Fixed(
            with_vdev(design, part.index, mirror),
            f"Make it a {group.parity + 1}-way mirror (survives {group.parity} failures, as before)",
        )
    if group.is_draid:  # dRAID before 2.1: the first release that has it
        first = next((name for name in SERIES_NAMES if supports(SERIES[name].release, "draid")), None)
        if first is None:
            return None
        return Fixed(replace(design, openzfs_version=SERIES[first].named), f"Target OpenZFS {first}")
    return None


@rule(
    "zpool-refuses",
    Severity.CRITICAL,
    "{command} on OpenZFS {version} refuses {name}",
    "a vdev or dataset the design's release cannot create: dRAID before 2.1, a raidz/dRAID special or "
    "dedup vdev before 2.4, compression=zstd before 2.0 (the risk quotes the tool's message)",
    "cmd/zpool/zpool_vdev.c (make_leaf_vdev, construct_spec); openzfs/zfs PR #17496; "
    "module/zcommon/zfs_prop.c (compression values)",
    fix=fix_refused,
)
def rule_zpool_refuses(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    """What the release's zpool/zfs stop on (:mod:`.refusals`), with their own words."""
    for r in refusals(design):
        yield make_risk(
            spec,
            r.subject,
            f"{r.command} on OpenZFS {design.version} stops with:\n{r.message}",
            "Target a release that has it (the table in docs/capacity.md says which), or change "
            f"{element_label(design, r.subject)} to what OpenZFS {design.version} accepts.",
            name=element_label(design, r.subject),
            command=r.command,
            version=design.version,
        )


def fix_vm_ashift(design: Design, part: Part) -> Fixed | None:
    """512e disks under a VM: an explicit ashift keeps the guest's 512-byte view from choosing 9.
    (4Kn disks need the VM's block size set as well, which is not part of the design.) A volume on
    4Kn disks (the same code about a dataset) has no fix in the design: its guest's block size is not."""
    if part.section != VDEVS:
        return None
    group = design.vdevs[part.index]
    if any(d.logical_sector >= 4096 for d in group.disks):
        return None
    ashift = max(group_physical_ashift(group), DEFAULT_POOL_ASHIFT)
    return Fixed(with_vdev(design, part.index, replace(group, ashift=ashift)), f"Set ashift={ashift} explicitly")


@rule(
    "vm-sector-size",
    Severity.WARNING,
    "{what} will see 512-byte sectors",
    "disks passed through to a VM (extra.vm_passthrough = true) that are 4Kn, or 512e with no explicit "
    "ashift (warning); volumes on a pool of 4Kn disks (info)",
    REF_VM,
    fix=fix_vm_ashift,
)
def rule_vm_sector_size(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    passthrough = design.extra.get("vm_passthrough") is True
    if passthrough:
        for i, g in groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE):
            native = any(d.logical_sector >= 4096 for d in g.disks)
            emulated = not native and g.requested_ashift is None and any(d.physical_sector >= 4096 for d in g.disks)
            if not (native or emulated):
                continue
            a = group_ashift(g, design.release)
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
            yield make_risk(
                spec,
                vdev_path(i),
                f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'has', 'have')} {what}, and the design says "
                f"the disks are passed through to a VM. {why}",
                f"Set the VM disk's logical and physical block size to 4096 (QEMU logical_block_size=4096,"
                f"physical_block_size=4096) and create the pool with an explicit ashift={max(a, 12)}.",
                name=vdev_name(design, i),
                what=f"The VM using {vdev_name(design, i)}",
            )
    native_pool = any(d.logical_sector >= 4096 for _, g in groups_of(design, Role.DATA) for d in g.disks)
    if not native_pool:
        return
    for i, ds in enumerate(design.datasets):
        if ds.type != DatasetType.VOLUME:
            continue
        yield make_risk(
            spec,
            dataset_path(i),
            f"{sentence_case(ds_name(design, i))} is on a pool of 4Kn disks. The zvol's own block size is "
            f"volblocksize={zfs_nicenum(block_size(design, ds))}, but a VM given this zvol sees 512-byte logical "
            "sectors by default, so a guest that writes 512-byte sectors makes ZFS read-modify-write a whole "
            "volblocksize block for each.",
            "Give the VM disk 4096-byte logical/physical sectors (QEMU logical_block_size=4096, Proxmox "
            "virtio/scsi options), and format the guest filesystem with 4K blocks.",
            severity=Severity.INFO,
            name=ds_name(design, i),
            what=f"The VM using {ds_name(design, i)}",
        )
