"""Risk rules about the vdev layout: raidz and dRAID overhead, parity, width, mixed vdevs, disks
without redundancy, mixed disk sizes and hot spares (ashift: :mod:`.sectors`), and their one-click
fixes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..design.types import DatasetType, Design, Layout, Role, VdevGroup
from ..geometry.alloc import block_asize, deflate, deflate_ratio, nominal_parity_fraction
from ..geometry.ashift import group_ashift
from ..geometry.draid import draid_data_disks
from ..geometry.metaslab import metaslab_shift
from ..geometry.partitioning import leaf_asize as pool_leaf_asize
from ..geometry.partitioning import member_osize
from ..geometry.vdev_shape import fault_tolerance
from ..naming import describe_group, sentence_case
from ..properties.resolve import block_size
from ..units import KIB, MIB, format_si, rounddown, zfs_nicenum
from .common import (
    agree,
    dataset_path,
    ds_name,
    groups_of,
    inherited_value,
    is_hdd_or_unknown,
    layout_family,
    min_member_size,
    mirror_each_disk,
    mirror_of,
    set_dataset_size,
    vdev_name,
    vdev_path,
    with_vdev,
    zpool_says,
)
from .registry import Fixed, Part, Risk, RiskFigures, RiskSpec, Severity, make_risk, rule

LARGE_DISK_BYTES = 8 * 10**12  # single parity on disks this large (vendor TB): see single-parity-large-disks
WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE = 4  # raidz wider than 4 × (parity + 1): 8, 12, 16 disks
PADDING_OVERHEAD_FACTOR = 1.20  # a block costing >= 1.2× the layout's nominal raw space per data byte
MIXED_SIZE_LOSS_SHARE = 0.01  # ignore differences below 1% of a group's raw capacity

REF_RAIDZ = "module/zfs/vdev_raidz.c (vdev_raidz_psize_to_asize); module/zfs/vdev_draid.c; openzfs/zfs#14420"
REF_ZPOOL_ADD = "cmd/zpool/zpool_vdev.c (get_replication: 'mismatched replication level'); man zpool-add.8"
REF_ZPOOLCONCEPTS = "man zpoolconcepts.7 (Virtual Devices); module/zfs/vdev_raidz.c"


PADDING_FIX_VOLBLOCKSIZE = 64 * KIB  # what the raidz-padding-overhead fix gives a zvol


def fix_padding(design: Design, part: Part) -> Fixed | None:
    ds = design.datasets[part.index]
    if ds.type != DatasetType.VOLUME:
        return None
    return set_dataset_size(design, part, "volblocksize", PADDING_FIX_VOLBLOCKSIZE)


@rule(
    "raidz-padding-overhead",
    Severity.WARNING,
    "{block} blocks of {dataset} cost {cost:.2f}× their size on {vdev}",
    "a dataset's block size costs at least 1.2× the raw space per data byte that the raidz/dRAID layout "
    "nominally costs (parity plus padding to (p+1) sectors, or to whole dRAID rows)",
    REF_RAIDZ,
    fix=fix_padding,
)
def rule_raidz_padding(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    parity_groups = [(i, g) for i, g in groups_of(design, Role.DATA) if g.parity > 0]
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
                f"The estimate gives {fig.raidz_overhead_fraction:.0%} of {ds_name(design, di)}'s allocation as "
                f"parity and padding on {vdev_name(design, i)}, against the layout's nominal "
                f"{fig.nominal_parity_fraction:.0%}: {cost:.2f}× raw space per byte of data instead of "
                f"{nominal:.2f}×."
            )
        else:
            worst = None
            for i, g in parity_groups:
                a = group_ashift(g, design.release)
                dd = draid_data_disks(g) if g.is_draid else None
                asize = block_asize(g.layout, g.width, a, bs, dd)
                data_cols = dd if dd is not None else g.width - g.parity
                nominal = 1 / (1 - nominal_parity_fraction(g.layout, g.width, dd))
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
                f"On {vdev_name(design, i)}, with ashift {a}, a {zfs_nicenum(bs)} block of {ds_name(design, di)} is "
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
        yield make_risk(
            spec,
            dataset_path(di),
            detail,
            f"Raise {prop} on {ds_name(design, di)} (e.g. 64K or more for a zvol on wide RAIDZ), or put small-block "
            "workloads (VM disks, databases) on mirror vdevs or a narrower raidz.",
            block=zfs_nicenum(bs),
            name=ds_name(design, di),
            dataset=ds_name(design, di),
            cost=cost,
            vdev=vdev_name(design, i),
        )


def fix_draid_compression(design: Design, part: Part) -> Fixed | None:
    ds = design.datasets[part.index]
    if ds.type == DatasetType.VOLUME or block_size(design, ds) >= MIB:
        return None
    return set_dataset_size(design, part, "recordsize", MIB)


@rule(
    "draid-compression-loss",
    Severity.INFO,
    "Compression on {dataset} saves little on dRAID {vdev}",
    "compression enabled on a dataset whose block size is more than one and at most two dRAID allocation "
    "units (data disks × sector); smaller blocks are reported by raidz-padding-overhead",
    "man zpoolconcepts.7 (dRAID: 'can reduce the effective compression ratio'); module/zfs/vdev_draid.c "
    "(vdev_draid_min_alloc); module/zfs/vdev.c (vdev_spa_set_alloc)",
    fix=fix_draid_compression,
)
def rule_draid_compression(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    draid = [(i, g) for i, g in groups_of(design, Role.DATA) if g.is_draid]
    if not draid:
        return
    for di, ds in enumerate(design.datasets):
        comp = inherited_value(design, ds, "compression")
        if comp is None or comp == "off":
            continue
        bs = block_size(design, ds)
        for i, g in draid:
            unit = draid_data_disks(g) << group_ashift(g, design.release)
            if not unit < bs <= 2 * unit:
                continue  # smaller blocks are reported by raidz-padding-overhead
            saves = f"saves space only for blocks that compress to {zfs_nicenum(unit)} or less (2:1 or better)"
            yield make_risk(
                spec,
                dataset_path(di),
                f"On {vdev_name(design, i)} the smallest allocation is {draid_data_disks(g)} data disks × "
                f"{1 << group_ashift(g, design.release)} B = {zfs_nicenum(unit)}, and compressed sizes are rounded "
                "up to "
                f"multiples of it. {sentence_case(ds_name(design, di))} writes {zfs_nicenum(bs)} blocks, so "
                f"compression={comp} {saves}.",
                f"Raise the block size of {ds_name(design, di)} well above {zfs_nicenum(unit)} "
                "(e.g. recordsize=1M for bulk data), or use a dRAID with fewer data disks per group, or raidz/mirror "
                "for this workload.",
                name=ds_name(design, di),
                dataset=ds_name(design, di),
                vdev=vdev_name(design, i),
            )
            break


def fix_single_parity(design: Design, part: Part) -> Fixed | None:
    group = design.vdevs[part.index]
    if group.layout == Layout.RAIDZ1:
        changed, label = replace(group, layout=Layout.RAIDZ2), "Make it raidz2 (survives two failures)"
    elif group.layout == Layout.DRAID1:
        changed, label = replace(group, layout=Layout.DRAID2), "Make it draid2 (survives two failures)"
    elif group.layout == Layout.MIRROR and group.width == 2:
        changed, label = mirror_of(group, 3), "Make it a 3-way mirror"
    else:
        return None
    return Fixed(with_vdev(design, part.index, changed), label)


@rule(
    "single-parity-large-disks",
    Severity.WARNING,
    "Single parity on {size} disks in {name}",
    "a raidz1, draid1 or 2-way mirror data vdev of hard disks (or disks of unknown media) of 8 TB or more",
    "man zpoolconcepts.7 (Virtual Devices, resilver); man zpool-resilver.8",
    fix=fix_single_parity,
)
def rule_single_parity_large(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.DATA):
        single = g.layout in (Layout.RAIDZ1, Layout.DRAID1) or (g.layout == Layout.MIRROR and g.width == 2)
        if not single or not is_hdd_or_unknown(g):
            continue
        size = min_member_size(g)
        if size < LARGE_DISK_BYTES:
            continue
        readers = g.width - 1
        hours = size / 200e6 / 3600
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'has', 'have')} single parity on "
            f"{format_si(size)} hard disks. Replacing a failed disk reads "
            f"{format_si(size * readers)} from the {readers} surviving disk(s) of that vdev; even at a sustained "
            f"200 MB/s that is {hours:.0f} h per disk, and days on a busy or fragmented pool. During that time the "
            "vdev has no redundancy: a second failure loses the pool, and an unreadable sector loses the file data "
            "on it (metadata keeps a second copy). 'Large' here means 8 TB or more.",
            "Use raidz2 (or draid2), or 3-way mirrors, for disks of this size, and keep backups.",
            name=vdev_name(design, i),
            size=format_si(size, 0),
        )


def fix_wide_raidz(design: Design, part: Part) -> Fixed | None:
    """Two vdevs of half the width for each (a group that lists its disks one by one is left to the user)."""
    group = design.vdevs[part.index]
    width, count = group.width, group.count
    if width % 2 or not group.single_disk or width // 2 < group.parity + 2:
        return None
    return Fixed(
        with_vdev(design, part.index, _regrouped(group, width // 2, count * 2)),
        f"Split it into {count * 2} vdevs of {width // 2} disks",
    )


@rule(
    "wide-raidz",
    Severity.WARNING,
    "{width}-wide {layout} in {name}",
    "a raidz vdev wider than 4 × (parity + 1) disks: more than 8 (raidz1), 12 (raidz2) or 16 (raidz3)",
    REF_ZPOOLCONCEPTS,
    fix=fix_wide_raidz,
)
def rule_wide_raidz(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP):
        if not g.is_raidz:
            continue
        limit = WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE * (g.parity + 1)
        if g.width <= limit:
            continue
        yield make_risk(
            spec,
            vdev_path(i),
            f"A resilver of {vdev_name(design, i)} reads all {g.width - 1} surviving disks of the vdev and "
            f"takes longer the wider it is, and a raidz vdev delivers roughly the random IOPS of one disk, so one "
            f"{g.width}-wide vdev is much slower for small I/O than several narrower ones. Flagged above "
            f"4 × (parity + 1) = {limit} disks for {g.layout.value}.",
            f"Split into two or more {g.layout.value} vdevs of at most {limit} disks, raise the parity, "
            "or use dRAID, whose distributed spares rebuild quickly.",
            name=vdev_name(design, i),
            width=g.width,
            layout=g.layout.value,
        )


WIDE_MIRROR_WIDTH = 3  # an n-way mirror beyond this many copies: see wide-mirror


def _regrouped(group: VdevGroup, width: int, count: int) -> VdevGroup:
    """The same disks as ``count`` vdevs of ``width`` (a group whose members are all one disk)."""
    return replace(group, width=width, count=count, disks=group.disks[:1] * width)


def fix_wide_mirror(design: Design, part: Part) -> Fixed | None:
    """The same disks as 3-way mirrors (or 2-way, when the width is not a multiple of 3)."""
    group = design.vdevs[part.index]
    width, count = group.width, group.count
    if not group.single_disk:
        return None
    for ways in (3, 2):
        if width % ways == 0:
            return Fixed(
                with_vdev(design, part.index, _regrouped(group, ways, count * width // ways)),
                f"Make it {count * width // ways} {ways}-way mirrors of the same disks",
            )
    return None


@rule(
    "wide-mirror",
    Severity.INFO,
    "{ways}-way mirror in {name}: {usable} of the raw space is usable",
    "a data, special or dedup mirror of more than 3 disks",
    "man zpoolconcepts.7 (Virtual Devices: mirror)",
    fix=fix_wide_mirror,
)
def rule_wide_mirror(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP):
        if g.layout != Layout.MIRROR or g.width <= WIDE_MIRROR_WIDTH:
            continue
        n = g.width
        pairs = n // 2
        yield make_risk(
            spec,
            vdev_path(i),
            f"Every disk of a {n}-way mirror holds a copy of the whole vdev: {sentence_case(vdev_name(design, i))} "
            f"keeps {n} copies of every block, so 1/{n} ({100 / n:.1f} %) of its raw space holds data and "
            f"{n - 1} disks' worth holds copies. It survives {n - 1} failures per vdev, more than raidz3 (3) or a "
            f"3-way mirror (2). The same {n} disks as {pairs} 2-way mirrors hold {pairs} times as much "
            f"(surviving 1 failure per mirror), as raidz2 about {n - 2} times as much (surviving any 2).",
            "Use 2-way or 3-way mirrors of the same disks (more vdevs), or raidz2, unless the extra copies are meant.",
            name=vdev_name(design, i),
            ways=n,
            usable=f"1/{n}",
        )


@rule(
    "mixed-vdev-redundancy",
    Severity.WARNING,
    "Data vdevs mix {layouts}",
    "top-level data vdevs of different layout families (mirror, raidz, dRAID, single disk) or fault tolerance",
    REF_ZPOOL_ADD,
)
def rule_mixed_redundancy(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    data = list(groups_of(design, Role.DATA))
    if len(data) < 2:
        return
    first_i, first = data[0]
    key = (layout_family(first), fault_tolerance(first))
    for i, g in data[1:]:
        if (layout_family(g), fault_tolerance(g)) == key:
            continue
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'tolerates', 'tolerate')} "
            f"{fault_tolerance(g)} failure(s), while {vdev_name(design, first_i)} "
            f"{agree(design, first_i, 'tolerates', 'tolerate')} {fault_tolerance(first)}. The pool is only as "
            f"safe as its weakest top-level vdev and performance differs between them. {zpool_says(first, g, design)}",
            "Use the same layout and parity for every data vdev.",
            name=vdev_name(design, i),
            layouts=f"{describe_group(first)} and {describe_group(g)}",
        )


def fix_non_redundant(design: Design, part: Part) -> Fixed | None:
    return mirror_each_disk(design, part.index)


@rule(
    "non-redundant-vdev",
    Severity.CRITICAL,
    "{Name} {verb} no redundancy",
    "a data, special or dedup vdev that is a single disk",
    "man zpoolconcepts.7 (Virtual Devices; 'if a top-level vdev fails the pool fails')",
    fix=fix_non_redundant,
)
def rule_non_redundant(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP):
        if fault_tolerance(g) > 0:
            continue
        n = g.count
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'has', 'have')} no redundancy: "
            f"{'its disk is' if n == 1 else f'each of its {n} disks is'} a top-level vdev of the {g.role.value} "
            "class on its own. A top-level vdev with no redundancy "
            "fails with its disk, and the pool fails with any top-level vdev: one disk failure loses the whole "
            "pool. Checksums can detect damage but have no second copy of data to repair it from.",
            f"Mirror {vdev_name(design, i)} (layout mirror, width 2 or more), or use raidz.",
            name=vdev_name(design, i),
            verb=agree(design, i, "has", "have"),
        )


@rule(
    "mixed-disk-sizes",
    Severity.INFO,
    "Disks of different sizes in {name}",
    "members of one vdev differ in size and the capacity above the smallest is at least 1% of the group",
    "module/zfs/vdev_mirror.c, module/zfs/vdev_raidz.c (vdev asize from the smallest child); "
    "man zpoolprops.7 (autoexpand)",
)
def rule_mixed_sizes(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG):
        sizes = [d.size_bytes for d in g.disks]
        small = min(sizes)
        lost = sum(s - small for s in sizes) * g.count
        raw = sum(sizes) * g.count
        if lost == 0 or lost < raw * MIXED_SIZE_LOSS_SHARE:
            continue
        yield make_risk(
            spec,
            vdev_path(i),
            f"The members of {vdev_name(design, i)} range from {format_si(small)} to {format_si(max(sizes))}. "
            f"A mirror or raidz vdev uses every member only up to the smallest one, so {format_si(lost)} "
            f"({lost / raw:.0%} of the group's raw capacity) is unused until the smaller disks are replaced "
            "(with autoexpand=on, or zpool online -e).",
            "Use disks of one size in each vdev, or accept the loss and plan to replace the smaller disks later.",
            name=vdev_name(design, i),
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


def fix_small_spare(design: Design, part: Part) -> Fixed | None:
    """Spares of the largest disk among the vdevs they should replace."""
    members = [
        (disk.size_bytes, gi, di)
        for gi, g in enumerate(design.vdevs)
        if g.role in (Role.DATA, Role.SPECIAL, Role.DEDUP)
        for di, disk in enumerate(g.disks)
    ]
    if not members:
        return None
    _, gi, di = max(members)
    largest = design.vdevs[gi].disks[di]
    spare = design.vdevs[part.index]
    return Fixed(
        with_vdev(design, part.index, replace(spare, disks=(largest,) * spare.width, single_disk=True)),
        f"Use {largest.model or format_si(largest.size_bytes) + ' disks'} as spares",
    )


@rule(
    "spare-too-small",
    Severity.WARNING,
    "{Name} {verb} too small to replace the disks of the pool",
    "a hot spare smaller than the smallest member of a data, special or dedup vdev",
    "module/zfs/spa.c (spa_vdev_attach: EOVERFLOW 'device is too small'); module/zfs/vdev.c (vdev_get_min_asize)",
    fix=fix_small_spare,
)
def rule_spare_size(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    targets = list(groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP))
    for i, g in groups_of(design, Role.SPARE):
        spare = min_member_size(g)
        spare_leaf = leaf_asize(design, g, spare)
        too_big = [(j, t) for j, t in targets if replacement_min_bytes(design, t) > spare_leaf]
        if not too_big:
            continue
        names = ", ".join(
            f"{vdev_name(design, j)} ({format_si(min_member_size(t))} disks, "
            f"which need {replacement_min_bytes(design, t):,} B)"
            for j, t in too_big
        )
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'is', 'are')} {format_si(spare)} and "
            f"{agree(design, i, 'gives', 'give')} ZFS {spare_leaf:,} B, less than a replacement for {names}. "
            "A replacement must cover every metaslab of the vdev (its asize rounded down to whole metaslabs, "
            "split over the raidz columns), else zpool replace fails with 'device is too small' and the "
            "spare stays idle while the vdev runs degraded. Small differences between disks of the same nominal "
            "size are absorbed by that rounding and are not flagged.",
            "Use spares at least as large as the largest disk they should replace.",
            name=vdev_name(design, i),
            verb=agree(design, i, "is", "are"),
        )
