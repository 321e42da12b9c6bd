"""Helpers the risk rules share: how a vdev group is named and described (:mod:`..naming`: a risk's
``subject`` is the JSON path, ``vdevs[1]``; its title, detail and fix name the part as a person would,
"the special mirror (group 2)"), which groups have
which role, dataset properties as ZFS resolves them, the host's RAM, and the design changes several
one-click fixes make (a group turned into a mirror)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Literal, TypedDict

from ..commands.replication import pair_refusal
from ..design.types import Dataset, Design, Layout, Media, Role, VdevGroup
from ..naming import dataset_label, vdev_label
from ..properties import resolve as properties
from ..units import format_zfs_size
from .registry import Fixed, Part, RiskFigures

REF_REMOVAL = (
    "module/zfs/vdev_removal.c (spa_vdev_remove_top_check); man zpool-remove.8: "
    "'all top-level vdevs must have the same sector size and not be raidz'"
)


def vdev_path(i: int) -> str:
    return f"vdevs[{i}]"


def dataset_path(i: int) -> str:
    return f"datasets[{i}]"


def vdev_name(design: Design, i: int) -> str:
    """The vdev group ``design.vdevs[i]`` in words: "the special mirror (group 2)" (:mod:`..naming`)."""
    return vdev_label(design, i)


def ds_name(design: Design, i: int) -> str:
    """The dataset ``design.datasets[i]`` in words: "dataset tank/media", "volume tank/vm-100-disk-0"."""
    return dataset_label(design.datasets[i])


def agree(design: Design, i: int, singular: str, plural: str) -> str:
    """The verb that agrees with :func:`vdev_name` of group ``i``: "the log mirror has", "the data vdevs have"."""
    return plural if design.vdevs[i].count > 1 else singular


def layout_family(group: VdevGroup) -> str:
    if group.is_raidz:
        return "raidz"
    if group.is_draid:
        return "dRAID"
    return "mirror" if group.layout == Layout.MIRROR else "single disk"


def groups_of(design: Design, *roles: Role) -> Iterator[tuple[int, VdevGroup]]:
    return ((i, g) for i, g in enumerate(design.vdevs) if g.role in roles)


def inherited_value(design: Design, ds: Dataset, attr: str) -> Any:
    """An inheritable property as ZFS resolves it: set locally, else from the nearest listed ancestor
    (:func:`properties.inherited`)."""
    return properties.inherited(design, ds, attr)


def dedup_on(design: Design, ds: Dataset) -> bool:
    return properties.dedup_on(design, ds)


def host_ram(design: Design, figures: RiskFigures | None) -> int | None:
    """RAM of the host: ``figures.ram_bytes``, else the design's ``host.ram_bytes``."""
    if figures is not None and figures.ram_bytes is not None:
        return figures.ram_bytes
    return design.host.ram_bytes


def min_member_size(group: VdevGroup) -> int:
    return min(d.size_bytes for d in group.disks)


def is_hdd_or_unknown(group: VdevGroup) -> bool:
    return all(d.media in (None, Media.HDD) for d in group.disks)


def zpool_says(first: VdevGroup, second: VdevGroup, design: Design) -> str:
    """What zpool's replication check makes of the two layouts side by side (``core.replication``)."""
    message = pair_refusal(first, second, design.release)
    if message is None:
        return f"OpenZFS {design.version} accepts the two side by side without -f."
    return (
        f'zpool refuses them side by side unless forced ("{message}"); the generated commands add the '
        "override where zpool needs it and say why."
    )


# --------------------------------------------------------------------------- what several fixes change


def with_vdev(design: Design, index: int, group: VdevGroup) -> Design:
    """``design`` with its vdev group ``index`` replaced by ``group``."""
    return replace(design, vdevs=(*design.vdevs[:index], group, *design.vdevs[index + 1 :]))


def with_dataset(design: Design, index: int, ds: Dataset) -> Design:
    """``design`` with its dataset ``index`` replaced by ``ds``."""
    return replace(design, datasets=(*design.datasets[:index], ds, *design.datasets[index + 1 :]))


SizeProperty = Literal["recordsize", "volblocksize", "special_small_blocks"]


class _SizeChange(TypedDict, total=False):
    recordsize: int
    volblocksize: int
    special_small_blocks: int


def set_dataset_size(design: Design, part: Part, prop: SizeProperty, value: int, why: str = "") -> Fixed:
    """The fix that sets the size property ``prop`` of the dataset ``part`` to ``value``, named as
    ``zfs set`` takes it (``Set recordsize=1M``), ``why`` after it."""
    change: _SizeChange = {}
    change[prop] = value
    ds = replace(design.datasets[part.index], **change)
    return Fixed(with_dataset(design, part.index, ds), f"Set {prop}={format_zfs_size(value)}{why}")


def mirror_of(group: VdevGroup, width: int) -> VdevGroup:
    """``group`` as a ``width``-way mirror (its disks repeated to ``width``, one per member)."""
    return replace(group, layout=Layout.MIRROR, width=width, disks=(group.disks * width)[:width])


def mirror_each_disk(design: Design, index: int) -> Fixed | None:
    """Group ``index``, a group of single disks (``stripe``), made 2-way mirrors; None for any other layout."""
    group = design.vdevs[index]
    if group.layout != Layout.STRIPE:
        return None
    return Fixed(with_vdev(design, index, mirror_of(group, 2)), "Make each disk a 2-way mirror")
