"""Risk rules about the special and dedup allocation classes and special_small_blocks, and their
one-click fixes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..design.types import DatasetType, Design, Layout, Role, VdevGroup
from ..geometry.removal import Blocker, RemovalBlocker, RemovalContext, removal_blockers, removal_context
from ..geometry.vdev_shape import fault_tolerance
from ..naming import dataset_label, sentence_case
from ..properties.resolve import block_size
from ..units import KIB, MIB, format_iec, is_power_of_two, zfs_nicenum
from ..versions import Version
from .common import (
    REF_REMOVAL,
    agree,
    dataset_path,
    ds_name,
    groups_of,
    inherited_value,
    mirror_of,
    set_dataset_size,
    vdev_name,
    vdev_path,
    with_dataset,
    with_vdev,
    zpool_says,
)
from .registry import Fixed, Part, Risk, RiskFigures, RiskSpec, Severity, make_risk, rule, rule_codes

SPECIAL_SMALL_BLOCK_SHARE = 0.75  # 100 − zfs_special_class_metadata_reserve_pct (25)

REF_SPECIAL = "man zpoolconcepts.7 (Special Allocation Class); openzfs/zfs PR #5182 (Metadata Allocation Classes)"
REF_SPECIAL_CLASS = (
    "module/zfs/spa_misc.c (spa_preferred_class); man zfs.4 (zfs_special_class_metadata_reserve_pct); openzfs/zfs#11421"
)
REF_SSB = "man zfsprops.7 (special_small_blocks); module/zcommon/zfs_prop.c; lib/libzfs/libzfs_dataset.c"


def _special_groups(design: Design) -> list[tuple[int, VdevGroup]]:
    return list(groups_of(design, Role.SPECIAL, Role.DEDUP))


@rule(
    "special-vdev-irremovable",
    Severity.WARNING,
    "{Name} can never be removed",
    "a special or dedup vdev in a pool that has a raidz/draid top-level vdev, or whose top-level vdevs "
    "differ in ashift",
    REF_REMOVAL,
)
def rule_special_irremovable(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    removal = removal_context(design)
    for i, g in _special_groups(design):
        blockers = removal_blockers(g, removal)  # the decision: geometry.removal, as spa_vdev_remove_top_check()
        if not blockers:
            continue
        reasons = [reason for b in blockers for reason in _removal_reasons(design, removal, i, b)]
        yield make_risk(
            spec,
            vdev_path(i),
            f"zpool remove can evacuate a top-level vdev only "
            f"when no top-level vdev has parity and all share one ashift; here {'; '.join(reasons)}. The command "
            "fails with 'invalid config; all top-level vdevs must have the same sector size and not be raidz', "
            f"so once added, {vdev_name(design, i)} {agree(design, i, 'stays', 'stay')} for the life of the pool, "
            "and losing it loses the pool.",
            f"Treat adding {vdev_name(design, i)} as permanent: size it for the pool's lifetime and give it the "
            "redundancy of "
            "the data vdevs. To keep it removable, the pool would need mirror data vdevs only, all with the same "
            "ashift as this vdev.",
            name=vdev_name(design, i),
        )


def _removal_reasons(design: Design, removal: RemovalContext, index: int, blocker: RemovalBlocker) -> list[str]:
    """``blocker`` of group ``index`` in words that name the vdevs and ashifts it is about."""
    if blocker.kind == Blocker.PARITY:
        names = ", ".join(vdev_name(design, j) for j in removal.parity_groups)
        return [f"the pool has top-level vdevs with parity: {names}"]
    if blocker.kind == Blocker.NORMAL_ASHIFTS:
        return [f"the data vdevs differ in ashift ({', '.join(map(str, sorted(removal.normal_ashifts)))})"]
    if blocker.kind == Blocker.CLASS_ASHIFT:
        group = design.vdevs[index]
        own, normal, peers = removal.ashifts[index], removal.normal_ashifts, removal.class_ashifts[group.role]
        reasons = []
        if normal and own != max(normal):
            reasons.append(f"its ashift {own} differs from the data vdevs' {max(normal)}")
        if len(peers) > 1:
            reasons.append(f"the {group.role.value} vdevs differ in ashift ({', '.join(map(str, sorted(peers)))})")
        return reasons or [str(blocker)]
    return [str(blocker)]


def _data_fault_tolerance(design: Design) -> int | None:
    """Failures the least redundant data vdev survives (:func:`fault_tolerance`, the one home)."""
    data = [fault_tolerance(g) for _, g in groups_of(design, Role.DATA)]
    return min(data) if data else None


def fix_special_redundancy(design: Design, part: Part) -> Fixed | None:
    target = _data_fault_tolerance(design)
    group = design.vdevs[part.index]
    if target is None or group.layout not in (Layout.MIRROR, Layout.STRIPE):
        return None
    width = target + 1
    return Fixed(
        with_vdev(design, part.index, mirror_of(group, width)),
        f"Make it a {width}-way mirror (survives {target} failures, like the data vdevs)",
    )


@rule(
    "special-redundancy-below-data",
    Severity.WARNING,
    "{Name} {verb} fewer failures than the data vdevs",
    "the special or dedup class tolerates fewer disk failures than the least redundant data vdev",
    REF_SPECIAL,
    fix=fix_special_redundancy,
)
def rule_special_redundancy(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    data = list(groups_of(design, Role.DATA))
    data_ft = _data_fault_tolerance(design)
    if data_ft is None:
        return
    for i, g in _special_groups(design):
        ft = fault_tolerance(g)
        if ft >= data_ft:
            continue
        weakest, weakest_group = next((j, d) for j, d in data if fault_tolerance(d) == data_ft)
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'survives', 'survive')} {ft} disk failure(s); "
            f"the data vdevs survive {data_ft} (e.g. {vdev_name(design, weakest)}). The {g.role.value} class holds "
            f"{'the pool metadata' if g.role == Role.SPECIAL else 'the dedup table'}, and losing any top-level "
            f"vdev loses the whole pool, so the pool now survives only {ft} failure(s). "
            f"{zpool_says(weakest_group, g, design)}",
            f"Use a {data_ft + 1}-way mirror for {vdev_name(design, i)} (it tolerates {data_ft} failures, like the "
            "data vdevs).",
            name=vdev_name(design, i),
            verb=agree(design, i, "tolerates", "tolerate"),
        )


@rule(
    "special-vdev-undersized",
    Severity.WARNING,
    "The special class is too small for what is planned on it",
    "estimated special-class allocation above 75% of its size when small blocks go there "
    "(zfs_special_class_metadata_reserve_pct = 25), or above 100% otherwise",
    REF_SPECIAL_CLASS,
)
def rule_special_undersized(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if figures is None or figures.special_usable_bytes is None or figures.special_planned_bytes is None:
        return
    specials = list(groups_of(design, Role.SPECIAL))
    if not specials or figures.special_usable_bytes <= 0:
        return
    size, planned = figures.special_usable_bytes, figures.special_planned_bytes
    small = [dataset_label(d) for d in design.datasets if (d.special_small_blocks or 0) > 0]
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
    yield make_risk(
        spec,
        vdev_path(specials[0][0]),
        f"The estimate puts {format_iec(planned)} on the special class "
        f"({', '.join(vdev_name(design, i) for i, _ in specials)}), which has {format_iec(size)} "
        f"({planned / size:.0%} of it); {why}.",
        fix,
        name=vdev_name(design, specials[0][0]),
    )


def fix_ssb_captures_all(design: Design, part: Part) -> Fixed | None:
    """special_small_blocks at half the block size in force (the rule's own :func:`block_size`: the
    dataset's recordsize or volblocksize, set, inherited or the release's default)."""
    ds = design.datasets[part.index]
    block_bytes = block_size(design, ds)
    half = max(block_bytes // 2, 4096)
    if half >= block_bytes:
        return None
    size_key = "volblocksize" if ds.type == DatasetType.VOLUME else "recordsize"
    return set_dataset_size(design, part, "special_small_blocks", half, f" (below {size_key})")


@rule(
    "special-small-blocks-captures-all",
    Severity.WARNING,
    "All data of {dataset} goes to the special class",
    "special_small_blocks >= recordsize (or volblocksize on 2.4+) with a special class present",
    REF_SSB,
    fix=fix_ssb_captures_all,
)
def rule_ssb_captures_all(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    if not any(True for _ in groups_of(design, Role.SPECIAL)):
        return
    for i, ds in enumerate(design.datasets):
        if ds.type == DatasetType.VOLUME and design.release < Version(2, 4):
            continue  # zvol data never goes to special before 2.4
        ssb = inherited_value(design, ds, "special_small_blocks")
        if not ssb:
            continue
        bs = block_size(design, ds)
        if ssb < bs:
            continue
        prop = "volblocksize" if ds.type == DatasetType.VOLUME else "recordsize"
        size = ""
        if ds.contents is not None and ds.contents.logical_bytes:
            size = f" That is about {format_iec(ds.contents.logical_bytes)} of logical data."
        yield make_risk(
            spec,
            dataset_path(i),
            f"{sentence_case(ds_name(design, i))} has special_small_blocks={zfs_nicenum(ssb)} and "
            f"{prop}={zfs_nicenum(bs)}. Every data "
            "block is at most the block size after compression, so every block qualifies and the whole dataset "
            f"is written to the special class until that class is 75% full, then spills to the data vdevs.{size}",
            f"If the dataset is meant to live on the special vdevs, size them for it; otherwise set "
            f"special_small_blocks below {zfs_nicenum(bs)} (e.g. {zfs_nicenum(max(bs // 4, 4 * KIB))}) or raise "
            f"{prop}.",
            name=ds_name(design, i),
            dataset=ds_name(design, i),
        )


def fix_drop_ssb(design: Design, part: Part) -> Fixed | None:
    ds = design.datasets[part.index]
    if ds.special_small_blocks is None:
        return None
    return Fixed(with_dataset(design, part.index, replace(ds, special_small_blocks=None)), "Drop special_small_blocks")


def fix_ssb_value(design: Design, part: Part) -> Fixed | None:
    """The largest value OpenZFS before 2.4 accepts at or below the one given: a power of two up to 1M."""
    ds = design.datasets[part.index]
    given = ds.special_small_blocks
    if given is None:
        return None
    value = min(1 << max(given.bit_length() - 1, 9), MIB)
    return set_dataset_size(design, part, "special_small_blocks", value)


@rule_codes(
    RiskSpec(
        "special-small-blocks-volume",
        Severity.WARNING,
        "special_small_blocks on {dataset} needs OpenZFS 2.4",
        "special_small_blocks set on a volume when the design targets OpenZFS before 2.4",
        REF_SSB,
        fix=fix_drop_ssb,
    ),
    RiskSpec(
        "special-small-blocks-value",
        Severity.WARNING,
        "special_small_blocks={value} on {dataset} is not accepted before OpenZFS 2.4",
        "special_small_blocks that is not a power of two, or above 1M, when the design targets OpenZFS before 2.4",
        REF_SSB,
        fix=fix_ssb_value,
    ),
    RiskSpec(
        "special-small-blocks-without-special",
        Severity.INFO,
        "special_small_blocks on {dataset} has no effect without a special vdev",
        "special_small_blocks > 0 in a design with no special vdev",
        REF_SSB,
        fix=fix_drop_ssb,
    ),
)
def rule_special_small_blocks(
    specs: tuple[RiskSpec, ...], design: Design, figures: RiskFigures | None
) -> Iterator[Risk]:
    volume_spec, value_spec, no_special_spec = specs
    has_special = any(True for _ in groups_of(design, Role.SPECIAL))
    before_24 = design.release < Version(2, 4)
    for i, ds in enumerate(design.datasets):
        ssb = ds.special_small_blocks
        if ssb is None or ssb == 0:
            continue
        value = zfs_nicenum(ssb)
        if ds.type == DatasetType.VOLUME and before_24:
            yield make_risk(
                volume_spec,
                dataset_path(i),
                f"{sentence_case(ds_name(design, i))} sets special_small_blocks={value}, but before OpenZFS 2.4 the "
                "property "
                f"applies to filesystems only: zfs create refuses it on a volume and zvol data never goes to the "
                f"special class. The design targets OpenZFS {design.version}.",
                "Drop special_small_blocks from the volume, or target OpenZFS 2.4 or later.",
                name=ds_name(design, i),
                dataset=ds_name(design, i),
            )
            continue
        if before_24 and (not is_power_of_two(ssb) or ssb < 512 or ssb > MIB):
            yield make_risk(
                value_spec,
                dataset_path(i),
                f"{sentence_case(ds_name(design, i))} sets special_small_blocks={value}. Before OpenZFS 2.4 it must "
                "be 0 or a power of two "
                f"from 512 to 1M (2.4 accepts any value up to 16M); the design targets OpenZFS {design.version}.",
                "Use a power of two no larger than 1M (e.g. 64K), or target OpenZFS 2.4.",
                name=ds_name(design, i),
                value=value,
                dataset=ds_name(design, i),
            )
        if not has_special:
            yield make_risk(
                no_special_spec,
                dataset_path(i),
                f"{sentence_case(ds_name(design, i))} sets special_small_blocks={value}, but the design has no "
                "special vdev, so every block "
                "stays on the data vdevs.",
                "Add a special vdev, or drop the property.",
                name=ds_name(design, i),
                dataset=ds_name(design, i),
            )
