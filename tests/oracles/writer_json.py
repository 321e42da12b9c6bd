"""What ``zpool status -j``, ``zpool list -j``, ``zfs get -j``, ``zpool get -j`` and
``zfs version -j`` print for a design (OpenZFS 2.3+)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zfsplanner.core.design.types import Design, Role
from zfsplanner.core.estimate import Estimate
from zfsplanner.core.versions import Version

from .writer_model import (
    POOL_PROPERTIES,
    Leaf,
    Top,
    allocations,
    draid_spares,
    list_rows,
    tops_of,
    vdev_fields,
    zfs_get_text,
    zpool_get_text,
    zpool_get_vdevs_text,
)

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


def zpool_status_json(design: Design, estimate: Estimate, *, as_int: bool = False, flat: bool = False,
                      guid_key: bool = False) -> str:
    """``zpool status -j -p [--json-int] [--json-flat-vdevs] [--json-pool-key-guid] POOL``.

    As ``status_callback_json()`` (zpool_main.c l. 10697), ``vdev_stats_nvlist()`` (l. 9142),
    ``fill_vdev_info()`` (l. 1158), ``class_vdevs_nvlist()``, ``l2cache_nvlist()`` and
    ``spares_nvlist()`` build it for a healthy pool, with exact numbers (``-p``).
    """
    tops = tops_of(design, estimate)
    alloc = allocations(tops, estimate)

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
        size = top.figures.zpool_size_bytes
        used = alloc.get(id(top), 0)
        dspace = top.figures.dspace_bytes
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
    normal_space = sum(t.figures.zpool_size_bytes for t in tops
                       if t.group.role in (Role.DATA, Role.SPECIAL, Role.DEDUP))
    root = vdev(design.name, "root", "normal", space=normal_space, used=sum(alloc.values()),
                dspace=estimate.pool.normal_dspace_bytes)
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
                obj = vdev(leaf.name, "disk", cls(role), space=top.figures.zpool_size_bytes,
                           pspace=0 if role == Role.SPARE else leaf.psize, rsize=leaf.psize, leaf=True,
                           path=leaf_path(leaf), spare=role == Role.SPARE)
            else:
                obj = top_object(top, vds if flat else None)
            group[obj["name"]] = obj
            if flat:
                vds[obj["name"]] = obj
        if role == Role.SPARE:  # dRAID's distributed spares are in the pool's spares list
            for top in tops:
                for spare_name in draid_spares(top) if top.group.is_draid else []:
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


def zpool_list_json(design: Design, estimate: Estimate, *, as_int: bool = False, verbose: bool = True,
                    guid_key: bool = False) -> str:
    """``zpool list -j -p [-v] [--json-int] [--json-pool-key-guid] POOL``.

    As ``collect_pool()`` (zpool_main.c l. 6817: the ``-o`` properties but the name) and
    ``collect_list_stats()`` (l. 7000: each vdev's nine fixed properties through
    ``collect_vdev_prop()``, the classes as ``dedup``/``special``/``logs``, then ``l2cache``
    and ``spares``) build it.
    """
    pool, rows = list_rows(design, estimate)
    tops = tops_of(design, estimate)
    item = _pool_info(design, as_int, with_type=True)
    item["properties"] = {k: _prop(pool[k], "DEFAULT" if k == "altroot" else "NONE", as_int)
                          for k in POOL_PROPERTIES if k != "name"}
    if verbose:
        by_name = {r.name: r for r in rows if r.kind == "vdev"}
        fields = vdev_fields(design, tuple(POOL_PROPERTIES))

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
            return info | {"properties": {k: _prop(r.values.get(k, "-"), "NONE", as_int) for k, _ in fields}}

        nvdevs: dict[str, Any] = {}
        groups: dict[str, dict[str, Any]] = {}
        for top in tops:
            role = top.group.role
            obj = ent(top.name if design.release >= Version(2, 2) or top.group.layout.value == "stripe"
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


def zfs_get_json(design: Design, estimate: Estimate, *, as_int: bool = False) -> str:
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


def zpool_get_json(design: Design, estimate: Estimate, *, as_int: bool = False, requested: bool = True) -> str:
    """``zpool get -j -p [--json-int] PROPERTIES POOL``: the properties :func:`zpool_get_text` prints
    (``get_callback()`` in zpool_main.c l. 12467)."""
    item = _pool_info(design, as_int, with_type=True)
    item["properties"] = _props_json(zpool_get_text(design, estimate, requested=requested), as_int)[design.name]
    return _json({"output_version": {"command": "zpool get", "vers_major": 0, "vers_minor": 1},
                  "pools": {design.name: item}})


def zpool_get_vdevs_json(design: Design, estimate: Estimate, *, as_int: bool = False) -> str:
    """``zpool get -j -p [--json-int] ashift POOL all-vdevs`` (2.3+): ``get_callback()`` puts the pool
    (``fill_pool_info()``) under ``pool`` and ``get_callback_vdev()`` each vdev (``fill_vdev_info()``) under
    ``vdevs.<name>`` with its ``properties``."""
    vdevs: dict[str, Any] = {}
    for name, props in _props_json(zpool_get_vdevs_text(design, estimate, scripted=True), as_int).items():
        vdevs[name] = {"name": name, "type": "VDEV", "guid": int(_guid(name)) if as_int else _guid(name),
                       "class": "normal", "state": "ONLINE", "properties": props}
    return _json({"output_version": {"command": "zpool get", "vers_major": 0, "vers_minor": 1},
                  "pool": _pool_info(design, as_int, with_type=False), "vdevs": vdevs})


def zfs_version_lines(design: Design) -> tuple[str, str]:
    """``zfs version``: the userland and kernel module lines of the release the design is modelled as."""
    release = design.release
    return f"zfs-{release}-1", f"zfs-kmod-{release}-1"


def zfs_version_json(design: Design) -> str:
    """``zfs version -j`` (``zfs_version_nvlist()`` in libzfs_util.c)."""
    userland, kernel = zfs_version_lines(design)
    return _json({"output_version": {"command": "zfs version", "vers_major": 0, "vers_minor": 1},
                  "zfs_version": {"userland": userland, "kernel": kernel}})
