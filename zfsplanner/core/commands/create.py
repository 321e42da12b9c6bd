"""The shell commands that build a design: ``zpool create``, ``zpool add``, ``zpool attach``, and all of them
in order (``zfs create`` itself is :mod:`.datasets`).

Device names are placeholders (``/dev/disk/by-id/<model>-<n>``, numbered per model in the
order of the design) for the administrator to replace with the real ``by-id`` links.
Every word is quoted with :func:`shlex.quote`, so a placeholder or dataset name with
spaces or shell metacharacters cannot change the command.

How ashift is placed (``man zpoolprops.7``, ``ashift``; ``man zpool-add.8``, ``-o ashift``):
the ``ashift`` pool property given to ``zpool create -o ashift=N`` is the value used for
every vdev in that command and the default for later ``zpool add``. ashift is really a
property of each top-level vdev, fixed when it is created, so a group whose ashift differs
from the first data group's is left out of ``zpool create`` and added afterwards with
``zpool add -o ashift=N``. A group without an ashift of its own takes the design's top-level
``ashift``; when neither gives one, the choice ``zpool`` would make (the largest physical sector,
or the logical one when the physical is above ``zfs_vdev_max_auto_ashift``; see
:func:`ashift.written_ashift`) is written out explicitly rather than left to autodetection. The vdev
may still end up with a larger ashift than written (``zpool`` passes it to the member disks
only before 2.3.6/2.4.0): :mod:`zfsplanner.core.geometry.ashift` models that, and the capacity uses it.

Top-level vdev names used by ``zpool attach`` (``raidz2-0``) are ``<type>-<id>``, where the
id is the vdev's position among the pool's top-level vdevs (data, special, dedup and log,
in command-line order; cache and spare devices are not top-level vdevs).

Pool-wide ``-O`` options and ``zfs create`` come from :mod:`.datasets`.

Overrides: ``zpool create`` gets ``-f`` exactly when OpenZFS's replication check
(:mod:`zfsplanner.core.commands.replication`) would refuse the vdevs without it, e.g. raidz2 data
with a 2-way mirror special vdev, or 2-way next to 3-way mirrors. Each ``zpool add`` is
checked against the pool as the commands before it leave it: it gets
``--allow-replication-mismatch`` and/or ``--allow-ashift-mismatch`` where the release has
them (2.3, 2.2.4), which skip only that check, and ``-f`` on older releases. In
:func:`all_commands` every override is preceded by ``#`` lines quoting what ``zpool`` would
print without it and why overriding is intended.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..design.types import Design, Disk, Role, VdevGroup
from ..geometry.ashift import group_ashift, written_ashift
from ..naming import vdev_label, vdev_type_word
from ..versions import Version, supports
from .datasets import dataset_options, root_dataset, zfs_creates
from .replication import (
    TopLevelVdev,
    add_refusal,
    ashift_refusal,
    class_topology_refusal,
    create_refusal,
    top_level_vdevs,
    vdev_error_output,
)

BY_ID = "/dev/disk/by-id/"

# ZFS properties a dataset may carry in ``extra`` (``PASSTHROUGH_PROPERTIES``) come from
# :mod:`zfsplanner.core.properties.zfsprops`, with the values each release accepts.

# Order of the classes in ``zpool create`` (data first; zpool accepts any order).
_ROLE_ORDER = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG, Role.CACHE, Role.SPARE)
_TOP_LEVEL_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG)
def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.:+-]+", "_", text.strip()) or "disk"


class _Namer:
    """Hands out ``/dev/disk/by-id/<base>-<n>`` names, numbered per base in design order."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def name(self, disk: Disk, role: Role) -> str:
        base = _slug(disk.model) if disk.model else role.value
        self.counts[base] = self.counts.get(base, 0) + 1
        return f"{BY_ID}{base}-{self.counts[base]}"


def device_names(design: Design) -> list[list[list[str]]]:
    """Placeholder device paths: ``[group][vdev][member]``, in the design's order."""
    namer = _Namer()
    return [[[namer.name(d, g.role) for d in g.disks] for _ in range(g.count)] for g in design.vdevs]


def _pool_ashift(design: Design) -> int:
    first_data = next(g for g in design.vdevs if g.role == Role.DATA)
    return written_ashift(first_data, design.release)


def _in_create(design: Design, group: VdevGroup) -> bool:
    """Does the group go into ``zpool create`` (same ashift as the pool default), or a later ``zpool add``?"""
    if group.role == Role.SPARE:
        return True
    return written_ashift(group, design.release) == _pool_ashift(design)


def _group_words(group: VdevGroup, devices: Sequence[Sequence[str]], with_role: bool) -> list[str]:
    """``special mirror a b mirror c d`` for one group (the original width of an expanded raidz)."""
    words: list[str] = []
    if with_role and group.role != Role.DATA:
        words.append(group.role.value)
    width = group.expanded_from_width or group.width
    word = vdev_type_word(group)
    for members in devices:
        if word is not None:
            words.append(word)
        words.extend(members[:width])
    return words


def _create_groups(design: Design) -> list[int]:
    """Indexes of the groups ``zpool create`` names, in command-line order."""
    return [i for role in _ROLE_ORDER for i, g in enumerate(design.vdevs) if g.role == role and _in_create(design, g)]


def _add_groups(design: Design) -> list[int]:
    """Indexes of the groups added afterwards, one ``zpool add`` each, in order."""
    return [
        i for role in _ROLE_ORDER for i, g in enumerate(design.vdevs) if g.role == role and not _in_create(design, g)
    ]


def _top_level(design: Design, indexes: Iterable[int]) -> list[TopLevelVdev]:
    """The top-level vdevs of these groups as the command names them (an expanded raidz at its first width)."""
    out: list[TopLevelVdev] = []
    for i in indexes:
        g = design.vdevs[i]
        if g.role in _TOP_LEVEL_ROLES:
            out += top_level_vdevs(g, g.expanded_from_width or g.width)
    return out


@dataclass(frozen=True)
class ZpoolCheck:
    """What one ``zpool create``/``zpool add`` needs to run as written.

    ``flags``: the override options it gets (``-f``, ``--allow-replication-mismatch``,
    ``--allow-ashift-mismatch``); ``refusals``: what ``zpool`` prints without each of them,
    in the same order; ``blocked``: (group in words, message) for each refusal no option overrides
    (the release cannot build that vdev at all).
    """

    flags: tuple[str, ...] = ()
    refusals: tuple[str, ...] = ()
    blocked: tuple[tuple[str, str], ...] = ()


def _blocked(design: Design, indexes: Iterable[int]) -> tuple[tuple[str, str], ...]:
    out = []
    for i in indexes:
        message = class_topology_refusal(design.vdevs[i], design.release)
        if message is not None:
            out.append((vdev_label(design, i), message))
    return tuple(out)


def zpool_create_check(design: Design) -> ZpoolCheck:
    """Does ``zpool create`` need ``-f``? Only when OpenZFS's replication check refuses the vdevs."""
    groups = _create_groups(design)
    refusal = create_refusal(_top_level(design, groups), design.release)
    if refusal is None:
        return ZpoolCheck(blocked=_blocked(design, groups))
    return ZpoolCheck(("-f",), (vdev_error_output(refusal),), _blocked(design, groups))


def zpool_add_checks(design: Design) -> list[ZpoolCheck]:
    """The overrides each ``zpool add`` needs, checked against the pool the commands before it built.

    The replication check compares the new vdevs with the pool's last non-log top-level
    vdev (and is skipped once the pool is inconsistent); from 2.3 (2.2.4) the ashift check
    compares the new vdevs' ashift with the data vdevs', when those all share one ashift.
    Where the release has them, the narrow ``--allow-replication-mismatch`` /
    ``--allow-ashift-mismatch`` are used instead of ``-f``, which would also skip the
    in-use checks.
    """
    version = design.release
    narrow = supports(version, "zpool_add_ashift_check")
    created = _create_groups(design)
    pool = _top_level(design, created)
    data_ashifts = [group_ashift(design.vdevs[i], version) for i in created if design.vdevs[i].role == Role.DATA]
    out = []
    for i in _add_groups(design):
        group = design.vdevs[i]
        new = _top_level(design, [i])
        flags: list[str] = []
        refusals: list[str] = []
        replication = add_refusal(pool, new, version)
        if replication is not None:
            flags.append("--allow-replication-mismatch" if narrow else "-f")
            refusals.append(vdev_error_output(replication))
        ashift = group_ashift(group, version)
        ashift_message = ashift_refusal(design.name, data_ashifts, [ashift] * len(new), version)
        if ashift_message is not None:
            flags.append("--allow-ashift-mismatch")
            refusals.append(ashift_message)
        out.append(ZpoolCheck(tuple(flags), tuple(refusals), _blocked(design, [i])))
        pool += new
        if group.role == Role.DATA:
            data_ashifts.append(ashift)
    return out


CONTINUATION = " \\\n  "  # the end of a line that goes on: a space, a backslash, the next line indented


def _lines(parts: Sequence[Sequence[str]], wrapped: bool) -> str:
    """A command from its parts, each a list of words: on one line, or (``wrapped``) one part per
    line, every line but the last ending in `` \\`` and the next one indented, as a person writes it."""
    quoted = [shlex.join(part) for part in parts if part]
    return (CONTINUATION if wrapped else " ").join(quoted)


def _vdev_parts(group: VdevGroup, devices: Sequence[Sequence[str]], with_role: bool) -> list[list[str]]:
    """One part per top-level vdev of the group (``raidz2 a b c d``); the first carries the class word."""
    parts = [_group_words(group, [members], with_role=False) for members in devices]
    if with_role and group.role != Role.DATA and parts:
        parts[0].insert(0, group.role.value)
    return parts


def _create_parts(design: Design) -> list[list[str]]:
    """``zpool create`` in parts: the command and its options, the root dataset's ``-O`` options with the
    pool name, then one part per top-level vdev (per spare or cache device group), classes in order."""
    names = device_names(design)
    head = ["zpool", "create", *zpool_create_check(design).flags, "-o", f"ashift={_pool_ashift(design)}"]
    root = root_dataset(design)
    options: list[str] = []
    if root is not None:
        for opt in dataset_options(design, root).options:
            options += ["-O", opt]
    parts = [head + [design.name]] if not options else [head, [*options, design.name]]
    groups = _create_groups(design)
    for role in _ROLE_ORDER:
        in_role = [i for i in groups if design.vdevs[i].role == role]
        first = True
        for i in in_role:
            group = design.vdevs[i]
            if group.layout.value == "stripe":  # single disks of one class: one part for the class
                disks = [w for members in names[i] for w in members[:1]]
                parts.append(([role.value] if first and role != Role.DATA else []) + disks)
            else:
                parts += _vdev_parts(group, names[i], with_role=first)
            first = False
    return parts


def zpool_create_command(design: Design, *, wrapped: bool = False) -> str:
    """``zpool create [-f] -o ashift=N [-O prop=value ...] POOL vdevs...`` for the groups that share the pool ashift.

    An expanded RAIDZ group is created at its original width (``expanded_from_width``);
    :func:`zpool_attach_commands` widens it. ``-f`` only when :func:`zpool_create_check` says so.
    ``wrapped``: one top-level vdev per line, the lines joined with `` \\`` (what the pages and the
    report show and copy); the API gives the command on one line.
    """
    return _lines(_create_parts(design), wrapped)


def zpool_add_commands(design: Design, *, wrapped: bool = False) -> list[str]:
    """One ``zpool add [overrides] -o ashift=N POOL <class> vdevs...`` per group whose ashift differs."""
    names = device_names(design)
    out = []
    for i, check in zip(_add_groups(design), zpool_add_checks(design), strict=True):
        group = design.vdevs[i]
        head = ["zpool", "add", *check.flags, "-o", f"ashift={written_ashift(group, design.release)}", design.name]
        if group.layout.value == "stripe":
            disks = [w for members in names[i] for w in members[:1]]
            vdevs = [([group.role.value] if group.role != Role.DATA else []) + disks]
        else:
            vdevs = _vdev_parts(group, names[i], with_role=True)
        out.append(_lines([head, *vdevs], wrapped))
    return out


def top_level_ids(design: Design) -> list[list[int]]:
    """Top-level vdev id of each vdev of each group (``[]`` for cache and spare groups)."""
    ids: list[list[int]] = [[] for _ in design.vdevs]
    next_id = 0
    order = [(role, True) for role in _ROLE_ORDER] + [(role, False) for role in _ROLE_ORDER]
    for role, in_create in order:
        for i, group in enumerate(design.vdevs):
            if group.role == role and role in _TOP_LEVEL_ROLES and _in_create(design, group) == in_create:
                ids[i] = list(range(next_id, next_id + group.count))
                next_id += group.count
    return ids


def zpool_attach_commands(design: Design) -> list[str]:
    """``zpool attach -w POOL raidzP-ID NEWDISK`` for each disk a RAIDZ expansion adds.

    RAIDZ expansion (OpenZFS 2.3+, ``man zpool-attach.8``) adds one disk at a time and a
    pool runs one expansion at a time, so each command waits (``-w``) for its reflow to
    finish before the next one starts.
    """
    names = device_names(design)
    ids = top_level_ids(design)
    out = []
    for i, group in enumerate(design.vdevs):
        if group.expanded_from_width is None:
            continue
        for vdev_id, members in zip(ids[i], names[i], strict=True):
            target = f"{group.layout.value}-{vdev_id}"
            for new in members[group.expanded_from_width :]:
                out.append(shlex.join(["zpool", "attach", "-w", design.name, target, new]))
    return out


def _override_notes(command: str, check: ZpoolCheck, version: Version) -> list[str]:
    """The comment lines above a ``zpool`` command: why each override is there, or why it will stop."""
    notes: list[str] = []
    for vdev, message in check.blocked:
        notes.append(f"{command} stops here on OpenZFS {version.series}, and no option overrides it:")
        notes.append(f"  {message}")
        notes.append(
            f"OpenZFS 2.4 accepts raidz and dRAID special/dedup vdevs; on {version.series} make {vdev} a mirror."
        )
    for flag, refusal in zip(check.flags, check.refusals, strict=True):
        notes.append(f"{command} needs {flag}: without it OpenZFS {version.series} stops with")
        notes += [f"  {line}" for line in refusal.splitlines()]
        notes.append(_WHY[flag])
    return notes


_WHY = {
    "-f": (
        "The design asks for exactly these vdevs (its risks say what the mix costs), so -f is intended; -f also "
        "skips the check that the devices are not in use, so make sure each path is the disk you mean."
    ),
    "--allow-replication-mismatch": (
        "The design asks for exactly these vdevs (its risks say what the mix costs); this option skips only the "
        "replication check."
    ),
    "--allow-ashift-mismatch": (
        "The design gives these vdevs a different ashift (their own, or what zpool chooses from their sectors); "
        "this option skips only the ashift check (a pool whose top-level vdevs differ in ashift cannot take a "
        "vdev out with zpool remove; one ashift for the whole pool avoids it)."
    ),
}


def all_commands(design: Design, *, wrapped: bool = False) -> list[str]:
    """Every command, in the order to run them: create, add, attach, then datasets.

    A command that needs an override, that leaves out a property of the design, or that
    the targeted release refuses outright is preceded by ``# `` comment lines saying so.
    ``wrapped``: ``zpool create`` and ``zpool add`` one top-level vdev per line (see
    :func:`zpool_create_command`); such a command is one item with its line breaks in it.
    """
    version = design.release
    out: list[str] = []
    root = root_dataset(design)
    if root is not None:
        out += [f"# {root.name}: {note}" for note in dataset_options(design, root).left_out]
    out += [f"# {n}" for n in _override_notes("zpool create", zpool_create_check(design), version)]
    out.append(zpool_create_command(design, wrapped=wrapped))
    for command, check in zip(zpool_add_commands(design, wrapped=wrapped), zpool_add_checks(design), strict=True):
        out += [f"# {n}" for n in _override_notes("zpool add", check, version)]
        out.append(command)
    out += zpool_attach_commands(design)
    for command, options in zfs_creates(design):
        name = shlex.split(command)[-1]
        out += [f"# {name}: {note}" for note in options.left_out]
        out.append(command)
    return out


def command_lines(commands: Sequence[str]) -> list[str]:
    """The lines of ``commands`` as a page shows them, one element per line (a wrapped command gives several)."""
    return [line for command in commands for line in command.split("\n")]
