"""The text a real pool of a design would print: the reverse of the importer.

From a design and its estimate: ``zpool status`` and ``zpool list -v -p`` as OpenZFS
2.2+ prints them (``print_status_config()`` / ``collect_list_stats()`` in
``cmd/zpool/zpool_main.c``), ``lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA``
and ``zfs get -H -p``. Devices get made-up but consistent names: by-id names
(``ata-<model>_<serial>``, ``-part1`` for partitions) when the model is known, kernel
names (``sda``, ``nvme0n1``) otherwise; serials are ``ZP000001``, ``ZP000002``... The
round trip design -> these texts -> :func:`~zfsplanner.core.importers.import_pool`
gives back the same design (see ``tests/core/test_import_roundtrip.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..compression.rules import default_compression
from ..datasets.inputs import default_volblocksize
from ..design.types import DatasetType, Design, Disk, Media, Partitioning, Role, VdevGroup
from ..geometry.ashift import written_ashift
from ..geometry.partitioning import linux_whole_disk_partition_bytes
from ..properties.resolve import DEFAULT_RECORDSIZE
from ..versions import Version

CLASS_HEADING = {Role.DEDUP: "dedup", Role.SPECIAL: "special", Role.LOG: "logs"}


@dataclass(frozen=True)
class Leaf:
    name: str  # as zpool status prints it
    kernel: str  # the kernel name lsblk prints
    disk: Disk
    partitioned: bool  # Linux whole disk: zpool made partitions 1 and 9
    psize: int  # the partition or file ZFS uses (zpool list -v SIZE of the leaf)
    serial: str


@dataclass(frozen=True)
class Top:
    group: VdevGroup
    vdev_id: int | None  # None for cache and spare devices
    name: str
    leaves: tuple[Leaf, ...]
    estimate: Mapping[str, Any]


def _letters(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


class _Names:
    def __init__(self) -> None:
        self.serial = 0
        self.sd = 0
        self.nvme = 0

    def leaf(self, design: Design, group: VdevGroup, disk: Disk) -> Leaf:
        self.serial += 1
        serial = f"ZP{self.serial:06d}"
        nvme = disk.media == Media.NVME
        if nvme:
            kernel = f"nvme{self.nvme}n1"
            self.nvme += 1
        else:
            kernel = f"sd{_letters(self.sd)}"
            self.sd += 1
        whole = design.partitioning_of(group) == Partitioning.LINUX_WHOLE_DISK
        if whole:
            psize = linux_whole_disk_partition_bytes(disk.size_bytes, disk.logical_sector)
        else:
            psize = disk.size_bytes
        if disk.model:
            bus = "nvme" if nvme else "ata"
            name = f"{bus}-{disk.model.replace(' ', '_')}_{serial}" + ("" if whole else "-part1")
        else:
            name = kernel if whole else (f"{kernel}p1" if nvme else f"{kernel}1")
        return Leaf(name, kernel, disk, whole, psize, serial)


def _tops(design: Design, estimate: Mapping[str, Any]) -> list[Top]:
    names = _Names()
    vdevs = estimate["vdevs"]
    out: list[Top] = []
    index = 0
    vdev_id = 0
    for group in design.vdevs:
        for _ in range(group.count):
            est = vdevs[index]
            index += 1
            leaves = tuple(names.leaf(design, group, d) for d in group.disks)
            if group.role in (Role.CACHE, Role.SPARE):
                out.append(Top(group, None, leaves[0].name, leaves, est))
                continue
            if group.layout.value == "stripe":
                name = leaves[0].name
            elif group.is_draid:
                d = est.get("draid") or {}
                name = f"{group.layout.value}:{d.get('data')}d:{group.width}c:{d.get('spares')}s-{vdev_id}"
            else:
                name = f"{group.layout.value}-{vdev_id}"
            out.append(Top(group, vdev_id, name, leaves, est))
            vdev_id += 1
    return out


def _draid_spares(top: Top) -> list[str]:
    spares = (top.estimate.get("draid") or {}).get("spares") or 0
    return [f"{top.group.layout.value}-{top.vdev_id}-{k}" for k in range(spares)]


def zpool_status_text(design: Design, estimate: Mapping[str, Any]) -> str:
    """``zpool status POOL`` of a healthy pool of this design."""
    tops = _tops(design, estimate)
    rows: list[tuple[int, str, str, bool]] = [(0, design.name, "ONLINE", False)]
    headings: list[tuple[int, str]] = []

    def add(top: Top, depth: int) -> None:
        if top.group.layout.value == "stripe" or top.vdev_id is None:
            rows.append((depth, top.leaves[0].name, "ONLINE", False))
            return
        rows.append((depth, top.name, "ONLINE", False))
        rows.extend((depth + 2, leaf.name, "ONLINE", False) for leaf in top.leaves)

    for top in tops:
        if top.group.role == Role.DATA:
            add(top, 2)
    for role in (Role.DEDUP, Role.SPECIAL, Role.LOG):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            headings.append((len(rows), f"\t{CLASS_HEADING[role]}\t"))
            for top in chosen:
                add(top, 2)
    cache = [t for t in tops if t.group.role == Role.CACHE]
    if cache:
        headings.append((len(rows), "\tcache"))
        rows.extend((2, t.leaves[0].name, "ONLINE", False) for t in cache)
    spares = [t.leaves[0].name for t in tops if t.group.role == Role.SPARE]
    spares += [s for t in tops if t.group.is_draid for s in _draid_spares(t)]
    if spares:
        headings.append((len(rows), "\tspares"))
        rows.extend((2, s, "AVAIL", True) for s in spares)
    width = max(10, *(depth + len(name) for depth, name, _, _ in rows))
    lines = [
        f"  pool: {design.name}",
        " state: ONLINE",
        "config:",
        "",
        f"\t{'NAME':<{width}}  {'STATE':<8} {'READ':>5} {'WRITE':>5} {'CKSUM':>5}",
    ]
    heading_at = dict(headings)
    for i, (depth, name, state, spare) in enumerate(rows):
        if i in heading_at:
            lines.append(heading_at[i])
        row = f"\t{'':{depth}}{name:<{width - depth}}  {state:<8}"
        if not spare:
            row += f" {0:>5} {0:>5} {0:>5}"
        lines.append(row)
    lines += ["", "errors: No known data errors"]
    return "\n".join(lines) + "\n"


def _allocations(tops: list[Top], estimate: Mapping[str, Any]) -> dict[int, int]:
    """ALLOC per top-level vdev: the planned data spread by each vdev's share of its class."""
    pool = estimate["pool"]
    special_alloc = int(pool.get("special_allocated_bytes") or 0)
    normal_alloc = max(int(pool.get("allocated_bytes") or 0) - special_alloc, 0)
    out: dict[int, int] = {}
    for role, total in ((Role.DATA, normal_alloc), (Role.SPECIAL, special_alloc)):
        members = [t for t in tops if t.group.role == role]
        space = sum(int(t.estimate.get("dspace_bytes") or 0) for t in members) or 1
        for t in members:
            out[id(t)] = total * int(t.estimate.get("dspace_bytes") or 0) // space
    return out


# zprop_width() of the fixed vdev fields (column name, at least 5 for numbers, 8 for HEALTH): the
# widths collect_vdev_prop() pads to, and the dashes of a class heading.
VDEV_FIELDS = (("size", 5), ("allocated", 5), ("free", 5), ("checkpoint", 7), ("expandsize", 8),
               ("fragmentation", 5), ("capacity", 5), ("dedupratio", 5), ("health", 8))
POOL_PROPERTIES = {"name": "NAME", "size": "SIZE", "allocated": "ALLOC", "free": "FREE", "checkpoint": "CKPOINT",
                   "expandsize": "EXPANDSZ", "fragmentation": "FRAG", "capacity": "CAP", "dedupratio": "DEDUP",
                   "health": "HEALTH", "altroot": "ALTROOT"}
LEFT_ALIGNED = ("name", "health", "altroot")


@dataclass(frozen=True)
class ListRow:
    kind: str  # "vdev" or "heading"
    depth: int
    name: str
    values: Mapping[str, str]


def _list_rows(design: Design, estimate: Mapping[str, Any]) -> tuple[dict[str, str], list[ListRow]]:
    """The pool's ``-p`` values and its ``-v`` rows as ``collect_list_stats()`` fills them."""
    modern = Version.parse(design.version) >= Version(2, 2)
    tops = _tops(design, estimate)
    alloc = _allocations(tops, estimate)
    pool_size = int(estimate["pool"]["zpool_size_bytes"])
    pool_alloc = sum(alloc.values())
    pool = {"name": design.name, "size": str(pool_size), "allocated": str(pool_alloc),
            "free": str(max(pool_size - pool_alloc, 0)), "checkpoint": "-", "expandsize": "-",
            "fragmentation": "0", "capacity": str(pool_alloc * 100 // pool_size if pool_size else 0),
            "dedupratio": "1.00", "health": "ONLINE", "altroot": "-"}

    def values(space: int, pspace: int, used: int, health: str) -> dict[str, str]:
        toplevel = space != 0  # only top-level vdevs account space (vs_space)
        size = pspace or space
        out = {"size": str(size) if size else "-", "checkpoint": "-", "expandsize": "-", "dedupratio": "-",
               "health": health}
        for key, value in (("allocated", str(used)), ("free", str(max(space - used, 0))),
                           ("fragmentation", "0"), ("capacity", str(used * 100 // space if space else 0))):
            out[key] = value if toplevel else "-"
        return out

    rows: list[ListRow] = []

    def add(top: Top) -> None:
        size = int(top.estimate["zpool_size_bytes"])
        used = alloc.get(id(top), 0)
        if top.group.layout.value == "stripe":  # a single-disk vdev is a leaf: its physical size (vs_pspace)
            rows.append(ListRow("vdev", 2, top.name, values(size, top.leaves[0].psize if modern else 0, used,
                                                             "ONLINE")))
            return
        name = top.name if modern else top.name.rsplit("-", 1)[0]
        rows.append(ListRow("vdev", 2, name, values(size, 0, used, "ONLINE")))
        rows.extend(ListRow("vdev", 4, leaf.name, values(0, leaf.psize if modern else 0, 0, "ONLINE"))
                    for leaf in top.leaves)

    for top in tops:
        if top.group.role == Role.DATA:
            add(top)
    for role in (Role.DEDUP, Role.SPECIAL, Role.LOG):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            rows.append(ListRow("heading", 0, CLASS_HEADING[role], {}))
            for top in chosen:
                add(top)
    for role, heading, health in ((Role.CACHE, "cache", "ONLINE"), (Role.SPARE, "spare", "AVAIL")):
        chosen = [t for t in tops if t.group.role == role]
        if chosen:
            rows.append(ListRow("heading", 0, heading, {}))
            rows.extend(ListRow("vdev", 2, t.name, values(0, t.leaves[0].psize if modern else 0, 0, health))
                        for t in chosen)
    return pool, rows


def zpool_list_text(design: Design, estimate: Mapping[str, Any], *, columns: Sequence[str] | None = None,
                    scripted: bool = False) -> str:
    """``zpool list -v -p [-H] [-o COLUMNS] POOL`` of the new pool with the design's contents written.

    As ``collect_pool()``/``collect_list_stats()`` in ``cmd/zpool/zpool_main.c`` print it: the
    pool row has the ``-o`` columns, every vdev row the name and the nine fixed fields (padded
    to ``zprop_width()``, or after tabs with ``-H``), class headings a row of dashes (spaces even
    with ``-H``). From 2.2 vdev names carry their id (``raidz2-0``) and leaves their physical
    size; before, ``raidz2`` and ``-``.
    """
    cols = tuple(columns or POOL_PROPERTIES)
    pool, rows = _list_rows(design, estimate)
    namewidth = max(9, len(design.name), *(r.depth + len(r.name) for r in rows if r.kind == "vdev"))
    dashes = "      -      -      -        -         -      -      -      -         -"
    lines: list[str] = []
    if scripted:
        lines.append("\t".join(pool.get(c, "-") for c in cols))
    else:
        widths = {c: max(len(POOL_PROPERTIES.get(c, c.upper())), len(pool.get(c, "-"))) for c in cols}
        widths[cols[0]] = namewidth

        def cells(get: Mapping[str, str]) -> str:
            out = []
            for k, c in enumerate(cols):
                v = get[c]
                last = k == len(cols) - 1
                out.append(v if last and c in LEFT_ALIGNED else f"{v:<{widths[c]}}" if c in LEFT_ALIGNED
                           else f"{v:>{widths[c]}}")
            return "  ".join(out)

        lines.append(cells({c: POOL_PROPERTIES.get(c, c.upper()) for c in cols}))
        lines.append(cells({c: pool.get(c, "-") for c in cols}))
    for r in rows:
        if r.kind == "heading":
            lines.append(f"{r.name:<{namewidth}}{dashes}")
        elif scripted:
            lines.append("\t" + "\t".join([r.name, *(r.values[k] for k, _ in VDEV_FIELDS)]))
        else:
            name = f"{'':{r.depth}}{r.name}"
            lines.append(f"{name:<{namewidth}}" + "".join(f"  {r.values[k]:>{w}}" for k, w in VDEV_FIELDS))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the JSON of -j (OpenZFS 2.3+)

LABELS_BYTES = 4 * 1024**2 + 512 * 1024  # VDEV_LABEL_START_SIZE + VDEV_LABEL_END_SIZE


def _guid(*parts: object) -> str:
    """A made-up but stable 64-bit GUID for a pool or vdev."""
    value = 1469598103934665603
    for ch in "/".join(str(p) for p in parts):
        value = ((value ^ ord(ch)) * 1099511628211) % (1 << 64)
    return str(value or 1)


# fill_vdev_info() finds a vdev by its printed name (zpool_find_vdev()); OpenZFS 2.3.2 finds neither the root
# ("root-0", as the manual's example shows) nor a dRAID vdev (openzfs/zfs#18431), which then have only their
# name and figures: no vdev_type, guid, class or state.
_NOT_FOUND_BY_NAME = ("root", "draid")


def _num(value: int, as_int: bool) -> int | str:
    """``nice_num_str_nvlist()`` with ``-p``: digits as a string, or an integer with ``--json-int``."""
    return value if as_int else str(value)


def _json(data: Mapping[str, Any]) -> str:
    """``nvlist_print_json()`` then a newline (``zcmd_print_json()``): one line, no spaces."""
    import json

    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def _pool_info(design: Design, as_int: bool, *, with_type: bool) -> dict[str, Any]:
    """``fill_pool_info()`` (zpool_main.c l. 1106)."""
    out: dict[str, Any] = {"name": design.name}
    if with_type:
        out["type"] = "POOL"
    out["state"] = "ONLINE"
    out["pool_guid"] = int(_guid(design.name)) if as_int else _guid(design.name)
    out["txg"] = 4 if as_int else "4"
    out["spa_version"] = 5000 if as_int else "5000"
    out["zpl_version"] = 5 if as_int else "5"
    return out


def zpool_status_json(design: Design, estimate: Mapping[str, Any], *, as_int: bool = False, flat: bool = False,
                      guid_key: bool = False) -> str:
    """``zpool status -j -p [--json-int] [--json-flat-vdevs] [--json-pool-key-guid] POOL``.

    As ``status_callback_json()`` (zpool_main.c l. 10697), ``vdev_stats_nvlist()`` (l. 9142),
    ``fill_vdev_info()`` (l. 1158), ``class_vdevs_nvlist()``, ``l2cache_nvlist()`` and
    ``spares_nvlist()`` build it for a healthy pool, with exact numbers (``-p``).
    """
    tops = _tops(design, estimate)
    alloc = _allocations(tops, estimate)
    pool = estimate["pool"]

    def vdev(name: str, vtype: str, cls: str, *, space: int = 0, used: int = 0, dspace: int = 0, rsize: int = 0,
             pspace: int = 0, leaf: bool = False, path: str | None = None, spare: bool = False,
             parent: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name}
        if vtype not in _NOT_FOUND_BY_NAME:
            out["vdev_type"] = vtype
            out["guid"] = _num(int(_guid(design.name, name)), as_int) if as_int else _guid(design.name, name)
            if path:
                out["path"] = path
                out["devid"] = path.rsplit("/", 1)[-1]
            out["class"] = cls
            out["state"] = "ONLINE"
        if flat and parent is not None:
            out["parent"] = parent
        if spare:
            out["state"] = "AVAIL"  # replaces fill_vdev_info()'s state
            return out
        for key, value in (("alloc_space", used), ("total_space", space), ("def_space", dspace),
                           ("rep_dev_size", rsize), ("phys_space", pspace)):
            if value:
                out[key] = _num(value, as_int)
        for key in ("read_errors", "write_errors", "checksum_errors"):
            out[key] = _num(0, as_int)
        if leaf:
            out["slow_ios"] = _num(0, as_int)
        return out

    def leaf_path(leaf: Leaf) -> str:
        """ZPOOL_CONFIG_PATH: partition 1 of a whole disk (zpool status hides it), else the member itself."""
        by_id = leaf.name.startswith(("ata-", "nvme-"))
        if not leaf.partitioned:
            return f"/dev/disk/by-id/{leaf.name}" if by_id else f"/dev/{leaf.name}"
        if by_id:
            return f"/dev/disk/by-id/{leaf.name}-part1"
        return f"/dev/{leaf.kernel}" + ("p1" if leaf.kernel.startswith("nvme") else "1")

    def cls(role: Role) -> str:
        return {Role.DATA: "normal", Role.LOG: "log", Role.CACHE: "l2cache", Role.SPARE: "spare"}.get(role, role.value)

    def top_object(top: Top, flat_into: dict[str, Any] | None) -> dict[str, Any]:
        size = int(top.estimate["zpool_size_bytes"])
        used = alloc.get(id(top), 0)
        dspace = int(top.estimate.get("dspace_bytes") or 0)
        role = cls(top.group.role)
        parent = design.name if top.group.role == Role.DATA else None
        if top.group.layout.value == "stripe":
            leaf = top.leaves[0]
            return vdev(top.name, "disk", role, space=size, used=used, dspace=dspace,
                        rsize=size + LABELS_BYTES, pspace=leaf.psize, leaf=True,
                        path=leaf_path(leaf), parent=parent)
        vtype = "draid" if top.group.is_draid else top.group.layout.value.rstrip("0123456789") or "raidz"
        obj = vdev(top.name, vtype, role, space=size, used=used, dspace=dspace, rsize=size, parent=parent)
        per_leaf = size if vtype == "mirror" else -(-size // max(len(top.leaves), 1))
        kids = {}
        for leaf in top.leaves:
            child = vdev(leaf.name, "disk", role, rsize=per_leaf + LABELS_BYTES, pspace=leaf.psize, leaf=True,
                         path=leaf_path(leaf), parent=top.name)
            kids[leaf.name] = child
            if flat_into is not None:
                flat_into[leaf.name] = child
        obj["vdevs"] = kids
        return obj

    item = _pool_info(design, as_int, with_type=False)
    item["status"] = "OK"
    vds: dict[str, Any] = {}
    normal_space = sum(int(t.estimate["zpool_size_bytes"]) for t in tops
                       if t.group.role in (Role.DATA, Role.SPECIAL, Role.DEDUP))
    root = vdev(design.name, "root", "normal", space=normal_space, used=sum(alloc.values()),
                dspace=int(pool.get("normal_dspace_bytes") or 0))
    root_kids: dict[str, Any] = {}
    for top in tops:
        if top.group.role == Role.DATA:
            # flat: each member is listed next to its parent too, before it (the parent adds itself last)
            obj = top_object(top, root_kids if flat else None)
            root_kids[top.name] = obj
            if flat:
                vds.update({k: v for k, v in obj.get("vdevs", {}).items()})
                vds[top.name] = obj
    root["vdevs"] = root_kids
    vds[design.name] = root
    sections: dict[str, dict[str, Any]] = {}
    for role, key in ((Role.DEDUP, "dedup"), (Role.SPECIAL, "special"), (Role.LOG, "logs"),
                      (Role.CACHE, "l2cache"), (Role.SPARE, "spares")):
        group: dict[str, Any] = {}
        for top in (t for t in tops if t.group.role == role):
            if role in (Role.CACHE, Role.SPARE):
                leaf = top.leaves[0]
                obj = vdev(leaf.name, "disk", cls(role), pspace=0 if role == Role.SPARE else leaf.psize,
                           rsize=leaf.psize, leaf=True, path=leaf_path(leaf), spare=role == Role.SPARE)
            else:
                obj = top_object(top, vds if flat else None)
            group[obj["name"]] = obj
            if flat:
                vds[obj["name"]] = obj
        if role == Role.SPARE:  # dRAID's distributed spares are in the pool's spares list
            for top in tops:
                for spare_name in _draid_spares(top) if top.group.is_draid else []:
                    obj = vdev(spare_name, "dspare", "spare", leaf=True, spare=True)
                    group[spare_name] = obj
                    if flat:
                        vds[spare_name] = obj
        if group:
            sections[key] = group
    item["vdevs"] = vds
    if not flat:
        item.update(sections)
    item["error_count"] = _num(0, as_int)
    key = _guid(design.name) if guid_key else design.name
    return _json({"output_version": {"command": "zpool status", "vers_major": 0, "vers_minor": 1},
                  "pools": {key: item}})


def _prop(value: str, source: str = "NONE", as_int: bool = False) -> dict[str, Any]:
    """``zprop_nvlist_one_property()`` (libzfs_util.c l. 1412): all-digit values become integers with --json-int."""
    v: int | str = int(value) if as_int and value.isdigit() else value
    return {"value": v, "source": {"type": source, "data": "-"}}


def zpool_list_json(design: Design, estimate: Mapping[str, Any], *, as_int: bool = False, verbose: bool = True,
                    guid_key: bool = False) -> str:
    """``zpool list -j -p [-v] [--json-int] [--json-pool-key-guid] POOL``.

    As ``collect_pool()`` (zpool_main.c l. 6817: the ``-o`` properties but the name) and
    ``collect_list_stats()`` (l. 7000: each vdev's nine fixed properties through
    ``collect_vdev_prop()``, the classes as ``dedup``/``special``/``logs``, then ``l2cache``
    and ``spares``) build it.
    """
    pool, rows = _list_rows(design, estimate)
    tops = _tops(design, estimate)
    item = _pool_info(design, as_int, with_type=True)
    item["properties"] = {k: _prop(pool[k], "DEFAULT" if k == "altroot" else "NONE", as_int)
                          for k in POOL_PROPERTIES if k != "name"}
    if verbose:
        by_name = {r.name: r for r in rows if r.kind == "vdev"}

        def ent(name: str, role: Role) -> dict[str, Any]:
            r = by_name[name]
            vtype = "disk"
            if name.startswith(("mirror", "raidz", "draid")) and not name.startswith("draid") or ":" in name:
                vtype = "draid" if ":" in name else name.split("-")[0].rstrip("0123456789") or "raidz"
            cls = {Role.DATA: "normal", Role.LOG: "log", Role.CACHE: "l2cache", Role.SPARE: "spare"}.get(
                role, role.value)
            info: dict[str, Any] = {"name": name}
            if vtype not in _NOT_FOUND_BY_NAME:
                info |= {"vdev_type": vtype, "guid": _guid(design.name, name), "class": cls, "state": "ONLINE"}
            return info | {"properties": {k: _prop(r.values[k], "NONE", as_int) for k, _ in VDEV_FIELDS}}

        nvdevs: dict[str, Any] = {}
        groups: dict[str, dict[str, Any]] = {}
        for top in tops:
            role = top.group.role
            obj = ent(top.name if Version.parse(design.version) >= Version(2, 2) or top.group.layout.value == "stripe"
                      else top.name.rsplit("-", 1)[0], role)
            if top.group.layout.value != "stripe" and top.vdev_id is not None:
                obj["vdevs"] = {leaf.name: ent(leaf.name, role) for leaf in top.leaves}
            key = {Role.DEDUP: "dedup", Role.SPECIAL: "special", Role.LOG: "logs", Role.CACHE: "l2cache",
                   Role.SPARE: "spares"}.get(role)
            if key is None:
                nvdevs[obj["name"]] = obj
            else:
                groups.setdefault(key, {})[obj["name"]] = obj
        nvdevs.update(groups)
        item["vdevs"] = nvdevs
    key = _guid(design.name) if guid_key else design.name
    return _json({"output_version": {"command": "zpool list", "vers_major": 0, "vers_minor": 1},
                  "pools": {key: item}})


def lsblk_text(design: Design, estimate: Mapping[str, Any]) -> str:
    """``lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA`` of the pool's disks."""
    rows: list[tuple[str, int, int, int, str, str, str]] = []
    for top in _tops(design, estimate):
        for leaf in top.leaves:
            d = leaf.disk
            ls, ps = d.logical_sector, d.physical_sector
            rota = "0" if d.media in (Media.SSD, Media.NVME) else "1"
            model = d.model or ""
            if leaf.partitioned:
                rows.append((leaf.kernel, d.size_bytes, ls, ps, model, leaf.serial, rota))
                p = "p" if leaf.kernel.startswith("nvme") else ""
                rows.append((f"├─{leaf.kernel}{p}1", leaf.psize, ls, ps, "", "", rota))
                rows.append((f"└─{leaf.kernel}{p}9", 8 * 1024**2 * ls // 512, ls, ps, "", "", rota))
            else:
                p = "p" if leaf.kernel.startswith("nvme") else ""
                rows.append((leaf.kernel, d.size_bytes + 2 * 1024**2, ls, ps, model, leaf.serial, rota))
                rows.append((f"└─{leaf.kernel}{p}1", d.size_bytes, ls, ps, "", "", rota))
    head = ("NAME", "SIZE", "LOG-SEC", "PHY-SEC", "MODEL", "SERIAL", "ROTA")
    cells = [tuple(str(x) for x in r) for r in rows]
    widths = [max(len(head[i]), *(len(c[i]) for c in cells)) if cells else len(head[i]) for i in range(7)]
    right = (False, True, True, True, False, False, True)

    def line(values: Sequence[str]) -> str:
        parts = [f"{v:>{w}}" if r else f"{v:<{w}}" for v, w, r in zip(values, widths, right, strict=True)]
        return " ".join(parts).rstrip()

    return "\n".join([line(head), *(line(c) for c in cells)]) + "\n"


def zfs_get_text(design: Design, estimate: Mapping[str, Any]) -> str:
    """``zfs get -H -p -r type,used,available,... POOL``: the datasets with their contents written."""
    version = design.version
    pool = estimate["pool"]
    avail = int(pool.get("zfs_avail_after_bytes", pool["zfs_avail_bytes"]))
    by_name = {d["name"]: d for d in estimate.get("datasets", [])}
    lines: list[str] = []

    def put(name: str, prop: str, value: object, source: str = "-") -> None:
        lines.append(f"{name}\t{prop}\t{value}\t{source}")

    names = [design.name] + [d.name for d in design.datasets if d.name != design.name]
    for name in names:
        ds = next((d for d in design.datasets if d.name == name), None)
        est = by_name.get(name, {})
        volume = ds is not None and ds.type == DatasetType.VOLUME
        put(name, "type", "volume" if volume else "filesystem")
        if name == design.name and ds is None:
            used = int(pool.get("zfs_used_bytes") or 0) + int(pool.get("initial_used_bytes") or 0)
            put(name, "used", used)
            put(name, "available", avail)
            put(name, "referenced", int(pool.get("initial_used_bytes") or 0))
            put(name, "compression", default_compression(version), "default")
            continue
        assert ds is not None
        put(name, "used", int(est.get("zfs_used_bytes") or 0))
        put(name, "available", avail)
        put(name, "referenced", int(est.get("referenced_bytes") or est.get("zfs_used_bytes") or 0))
        given = ds.contents.logical_bytes if ds.contents is not None else None
        logical = int(given if given is not None else est.get("logical_bytes") or 0)
        put(name, "logicalreferenced", logical)
        ratio = est.get("compressratio") or 1.0
        put(name, "compressratio", f"{ratio:.2f}")
        put(name, "refcompressratio", f"{ratio:.2f}")
        if volume:
            put(name, "volsize", ds.volsize, "local")
            put(name, "volblocksize", ds.volblocksize or default_volblocksize(version),
                "-" if ds.volblocksize else "default")
            put(name, "refreservation", "none" if ds.extra.get("sparse") else est.get("refreservation_bytes") or 0,
                "local" if ds.extra.get("sparse") else "-")
        else:
            put(name, "recordsize", ds.recordsize or DEFAULT_RECORDSIZE, "local" if ds.recordsize else "default")
            put(name, "quota", ds.quota or 0, "local" if ds.quota else "default")
        put(name, "compression", ds.compression or default_compression(version),
            "local" if ds.compression else "default")
        put(name, "copies", ds.copies or 1, "local" if ds.copies else "default")
        put(name, "sync", (ds.sync.value if ds.sync else "standard"), "local" if ds.sync else "default")
        put(name, "special_small_blocks", ds.special_small_blocks or 0,
            "local" if ds.special_small_blocks is not None else "default")
    return "\n".join(lines) + "\n"


def zpool_get_text(design: Design) -> str:
    """``zpool get -H -p ashift POOL`` of a pool built with the generated commands (``zpool create -o ashift=N``)."""
    first = next(g for g in design.vdevs if g.role == Role.DATA)
    return f"{design.name}\tashift\t{written_ashift(first, design.version)}\tlocal\n"


def _source_json(source: str) -> dict[str, str]:
    """A SOURCE column as ``zprop_nvlist_one_property()`` writes it."""
    if source.startswith("inherited from "):
        return {"type": "INHERITED", "data": source[len("inherited from "):]}
    kind = {"-": "NONE", "default": "DEFAULT", "local": "LOCAL", "temporary": "TEMPORARY", "received": "RECEIVED"}
    return {"type": kind[source], "data": "-"}


def _props_json(text: str, as_int: bool) -> dict[str, dict[str, Any]]:
    """``{name: {property: {"value", "source"}}}`` from ``NAME\tPROPERTY\tVALUE\tSOURCE`` lines."""
    out: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        name, prop, value, source = line.split("\t")
        v: int | str = int(value) if as_int and value.isdigit() else value
        out.setdefault(name, {})[prop] = {"value": v, "source": _source_json(source)}
    return out


def zfs_get_json(design: Design, estimate: Mapping[str, Any], *, as_int: bool = False) -> str:
    """``zfs get -j -p [--json-int] -r PROPERTIES POOL``: the properties :func:`zfs_get_text` prints.

    As ``get_callback()`` in ``cmd/zfs/zfs_main.c`` (l. 2127: ``fill_dataset_info()`` l. 1927,
    then ``properties``) builds it.
    """
    datasets: dict[str, Any] = {}
    for name, props in _props_json(zfs_get_text(design, estimate), as_int).items():
        kind = str(props["type"]["value"]).upper()
        datasets[name] = {"name": name, "type": kind, "pool": design.name,
                          "createtxg": 1 if as_int else "1", "properties": props}
    return _json({"output_version": {"command": "zfs get", "vers_major": 0, "vers_minor": 1},
                  "datasets": datasets})


def zpool_get_json(design: Design, *, as_int: bool = False) -> str:
    """``zpool get -j -p [--json-int] ashift POOL`` (``get_callback()`` in zpool_main.c l. 12467)."""
    item = _pool_info(design, as_int, with_type=True)
    item["properties"] = _props_json(zpool_get_text(design), as_int)[design.name]
    return _json({"output_version": {"command": "zpool get", "vers_major": 0, "vers_minor": 1},
                  "pools": {design.name: item}})


def zfs_version_json(design: Design) -> str:
    """``zfs version -j`` (``zfs_version_nvlist()`` in libzfs_util.c)."""
    return _json({"output_version": {"command": "zfs version", "vers_major": 0, "vers_minor": 1},
                  "zfs_version": {"userland": f"zfs-{design.version}.0-1", "kernel": f"zfs-kmod-{design.version}.0-1"}})


LIST_FORMS = ("text", "scripted", "json", "none")


def outputs(design: Design, estimate: Mapping[str, Any], *, disks: bool = True, datasets: bool = True,
            status: str = "text", listing: str = "text") -> str:
    """The outputs together, each after its ``$ command`` line, as a user would paste them.

    ``status`` is ``text``, ``json`` (``zpool status -j -p``) or ``none``; ``listing`` is
    ``text`` (``zpool list -v -p``), ``scripted`` (``-v -p -H -o name,size,alloc,free``),
    ``json`` (``zpool list -v -j --json-int``) or ``none``.
    """
    name = design.name
    parts = {"text": [f"$ zpool status {name}", zpool_status_text(design, estimate)],
             "json": [f"$ zpool status -j -p {name}", zpool_status_json(design, estimate)],
             "none": []}[status]
    parts += {
        "text": [f"$ zpool list -v -p {name}", zpool_list_text(design, estimate)],
        "scripted": [f"$ zpool list -v -p -H -o name,size,alloc,free {name}",
                     zpool_list_text(design, estimate, columns=("name", "size", "allocated", "free"), scripted=True)],
        "json": [f"$ zpool list -v -j --json-int {name}", zpool_list_json(design, estimate, as_int=True)],
        "none": [],
    }[listing]
    if status == "json":
        parts += ["$ zfs version -j", zfs_version_json(design)]
        parts += [f"$ zpool get -j -p ashift {name}", zpool_get_json(design)]
    else:
        parts += ["$ zfs version", f"zfs-{design.version}.0-1", f"zfs-kmod-{design.version}.0-1"]
        parts += [f"$ zpool get -H -p ashift {name}", zpool_get_text(design)]
    if disks:
        parts += ["$ lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA", lsblk_text(design, estimate)]
    if datasets and design.datasets:
        if status == "json":
            parts += [f"$ zfs get -j -p -r all {name}", zfs_get_json(design, estimate)]
        else:
            parts += [f"$ zfs get -H -p -r all {name}", zfs_get_text(design, estimate)]
    return "\n".join(p.rstrip("\n") for p in parts) + "\n"
