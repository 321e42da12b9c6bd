"""Risk rules about sector sizes: an ashift below the disks' physical sector, and top-level vdevs
of different ashift. Which ashift a vdev gets is :mod:`..geometry.ashift`'s (the one home); these
rules say what it costs, and their one-click fixes set it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..design.types import Design, Role
from ..geometry.ashift import (
    DEFAULT_POOL_ASHIFT,
    AshiftChoice,
    group_ashift,
    group_physical_ashift,
    max_auto_ashift,
    uniform_ashift,
)
from ..geometry.ashift import resolve as resolve_ashift
from ..naming import sentence_case
from ..units import zfs_nicenum
from .common import REF_REMOVAL, agree, groups_of, vdev_name, vdev_path, with_vdev
from .registry import Fixed, Part, Risk, RiskFigures, RiskSpec, Severity, make_risk, rule

REF_ASHIFT = "module/zfs/vdev.c (vdev_open, vdev_ashift_optimize); man zpoolprops.7 (ashift)"


_ASHIFT_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE)


def fix_ashift(design: Design, part: Part) -> Fixed | None:
    group = design.vdevs[part.index]
    ashift = group_physical_ashift(group)
    label = f"Set ashift={ashift} ({1 << ashift}-byte sectors)"
    return Fixed(with_vdev(design, part.index, replace(group, ashift=ashift)), label)


@rule(
    "ashift-below-physical-sector",
    Severity.WARNING,
    "ashift={ashift} on {name} is below the disks' {sector}-byte physical sector",
    "an ashift smaller than log2 of the largest physical sector among the group's disks: given in the design, "
    "or zpool's own choice when that sector is above zfs_vdev_max_auto_ashift (64 KiB sectors on 2.2 and later)",
    REF_ASHIFT,
    fix=fix_ashift,
)
def rule_ashift_below_physical(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    for i, g in groups_of(design, *_ASHIFT_ROLES):
        choice = resolve_ashift(g, design.release)
        physical = 1 << choice.physical
        requested = choice.requested
        if requested is None and not choice.physical_ignored:
            continue  # zpool takes the physical sector by itself (ashift.automatic)
        if requested is not None and (1 << requested) >= physical:
            continue
        rmw = (
            f" Every write smaller than or misaligned to {physical} B becomes a read-modify-write inside the "
            "drive, which costs throughput, and a power loss during it can corrupt the other 512-byte sectors "
            "that share the physical sector."
        )
        if requested is None:
            detail = (
                f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'has', 'have')} disks with {physical}-byte "
                f"physical sectors, above the largest sector zpool aligns to by itself on OpenZFS {design.version} "
                f"(zfs_vdev_max_auto_ashift={max_auto_ashift(design.release)}, "
                f"{1 << max_auto_ashift(design.release)} B). Without -o ashift, zpool ignores the physical sector "
                f"and gives the vdev ashift {choice.used} ({1 << choice.used} B) from the logical sector; the "
                f"generated commands write -o ashift={choice.written}, the same choice." + rmw
            )
        else:
            if choice.source == "design":
                whose = agree(design, i, "sets", "set")
            else:
                whose = agree(design, i, "takes", "take") + " the pool's"
            if choice.fails is not None:
                what = f" On OpenZFS {design.version}: {choice.fails}."
            elif choice.raised:
                below_logical = (1 << requested) < max(d.logical_sector for d in g.disks)
                verb = "vdev_open() raises the ashift to" if below_logical else "the vdev is raised to"
                what = (
                    f" zpool create -o ashift={requested} does not give this vdev ashift {requested}: {verb} "
                    f"{choice.used} ({1 << choice.used} B) without a message, while zpool get ashift keeps "
                    f"printing {requested}. The estimate uses ashift {choice.used}."
                )
            else:
                what = rmw
            detail = (
                f"{sentence_case(vdev_name(design, i))} {whose} ashift={requested} ({1 << requested} B) on disks with "
                f"{physical}-byte physical sectors. ashift is fixed when the vdev is created." + what
            )
        yield make_risk(
            spec,
            vdev_path(i),
            detail,
            _explicit_ashift_fix(choice, physical),
            name=vdev_name(design, i),
            ashift=choice.used if requested is None else requested,
            sector=physical,
        )


def _explicit_ashift_fix(choice: AshiftChoice, physical: int) -> str:
    """Which ashift to set: the physical sector's, and when zpool would not choose it by itself,
    the 4 KiB alternative, both named because only an explicit -o ashift gets either."""
    if not choice.physical_ignored:
        if choice.source == "design" and choice.automatic == choice.physical:
            return (
                f"Use ashift={choice.physical} (or leave it out and let the planner take it from the physical sector)."
            )
        return f"Use ashift={choice.physical} ({physical} B, the physical sector)."
    alternative = max(DEFAULT_POOL_ASHIFT, choice.automatic)
    text = (
        f"Set ashift={choice.physical} explicitly to match the {physical}-byte sector (every block then takes at "
        f"least {zfs_nicenum(physical)}, which costs space on small blocks and raidz padding)"
    )
    if alternative == choice.requested:
        text += f", or keep ashift={alternative} and accept the read-modify-writes inside the drive"
    elif alternative < choice.physical:
        text += f", or ashift={alternative} ({1 << alternative} B) to keep small blocks small"
    return text + ": zpool will not choose a larger ashift than the logical sector by itself."


def fix_mixed_ashift(design: Design, part: Part) -> Fixed | None:
    """Every vdev one ashift: the pool's ``ashift`` set, and the groups' own ones that differ left out."""
    target = uniform_ashift(design)
    vdevs = tuple(g if g.ashift in (None, target) else replace(g, ashift=None) for g in design.vdevs)
    return Fixed(replace(design, ashift=target, vdevs=vdevs), f"Give every vdev ashift={target}")


@rule(
    "mixed-ashift",
    Severity.WARNING,
    "{Name} {verb} ashift {ashift}, the first data vdev {other}",
    "top-level data, special or dedup vdevs with different ashift (given or chosen from physical sectors)",
    REF_REMOVAL,
    fix=fix_mixed_ashift,
)
def rule_mixed_ashift(spec: RiskSpec, design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
    top = list(groups_of(design, Role.DATA, Role.SPECIAL, Role.DEDUP))
    data = [group_ashift(g, design.release) for _, g in top if g.role == Role.DATA]
    if not data:
        return
    reference = data[0]
    if len({group_ashift(g, design.release) for _, g in top}) == 1:
        return
    for i, g in top:
        a = group_ashift(g, design.release)
        if a == reference:
            continue
        how = {"design": "set", "pool": "the pool's"}.get(
            resolve_ashift(g, design.release).source, "chosen from the disks' sectors"
        )
        yield make_risk(
            spec,
            vdev_path(i),
            f"{sentence_case(vdev_name(design, i))} {agree(design, i, 'has', 'have')} ashift {a} ({how}); "
            "the first data vdev has "
            f"{reference}. With top-level vdevs of different ashift, zpool remove refuses every top-level vdev "
            "(data, special and dedup alike), so no vdev can ever be taken out of the pool again.",
            f"Give every data, special and dedup vdev the same ashift: set the pool's ashift to "
            f"{uniform_ashift(design)} and leave it out of the vdev groups"
            + (" (it suits both 512-byte and 4K disks)." if uniform_ashift(design) == DEFAULT_POOL_ASHIFT else "."),
            name=vdev_name(design, i),
            verb=agree(design, i, "has", "have"),
            ashift=a,
            other=str(reference),
        )
