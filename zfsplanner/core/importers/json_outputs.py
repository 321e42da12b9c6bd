"""The JSON that OpenZFS 2.3 and later print with ``-j``: ``zpool status``, ``zpool list``,
``zpool get``, ``zfs list``, ``zfs get`` and ``zfs version``, read with the standard ``json``.

Every such output is one object (``zcmd_print_json()``: one line, or indented when piped
through ``jq``) whose ``output_version.command`` names the command; the readers turn it into
the same results as the text readers, so the rest of the import does not care which was pasted.
Shapes as ``cmd/zpool/zpool_main.c`` and ``cmd/zfs/zfs_main.c`` of OpenZFS 2.3.2 build them:

* ``zpool status -j`` (``status_callback_json()``): ``pools.<name>`` (or ``<guid>`` with
  ``--json-pool-key-guid``) holds ``name``, ``state`` and ``vdevs`` with the root vdev
  (named after the pool), each vdev with ``name``, ``vdev_type``, ``state``, ``class``, its
  members under ``vdevs``, ``total_space`` on top-level vdevs and ``phys_space`` on leaves
  (``vdev_stats_nvlist()``); the classes follow as ``dedup``, ``special``, ``logs``,
  ``l2cache`` and ``spares``. With ``--json-flat-vdevs`` every vdev is also listed at the top
  of ``vdevs`` with a ``parent`` (and the classes' vdevs there too, without one);
* ``zpool list -j [-v]`` (``collect_pool()``, ``collect_list_stats()``): ``pools.<name>`` with
  ``properties.<prop>.value``, and with ``-v`` ``vdevs`` holding the top-level vdevs, each
  with ``properties`` and its members under ``vdevs``, and the classes as ``dedup``,
  ``special``, ``logs``, ``l2cache``, ``spares`` objects among them;
* ``zpool get -j`` / ``zfs get -j`` / ``zfs list -j``: ``pools.<name>`` or ``datasets.<name>``
  with ``properties.<prop>`` = ``{"value", "source": {"type", "data"}}``
  (``zprop_nvlist_one_property()`` in ``lib/libzfs/libzfs_util.c``);
* ``zpool get -j PROPS POOL all-vdevs`` (2.3+, ``get_callback_vdev()``): ``pool`` (the pool's
  ``name``) and ``vdevs.<name>`` with ``properties`` as above (:mod:`.vdev_props`);
* ``zfs version -j``: ``zfs_version.userland`` / ``.kernel``.

Numbers are strings as the text prints them (rounded, ``21.8T``, or exact with ``-p``) or
integers with ``--json-int``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..geometry.ashift import ASHIFT_MAX, ASHIFT_MIN
from .common import Lines, Size, UnreadableOutput, parse_size
from .props import Prop
from .vdev_props import VdevProperties
from .zpool_list import ListRow, PoolList
from .zpool_status import PoolStatus, StatusVdev, check

COMMANDS = ("zpool status", "zpool list", "zpool get", "zfs list", "zfs get", "zfs version")
# Keys of the class objects in zpool status -j / zpool list -j -v, and the design's roles.
CLASS_KEYS = {"dedup": "dedup", "special": "special", "logs": "log", "l2cache": "cache", "spares": "spare"}
# fill_vdev_info()'s "class" of a vdev.
VDEV_CLASSES = {"normal": "data", "dedup": "dedup", "special": "special", "log": "log", "l2cache": "cache",
                "spare": "spare"}
# vdev_state_str[] as zpool status prints the same states.
STATES = {"CANT_OPEN": "UNAVAIL", "CLOSED": "OFFLINE", "UNKNOWN": None, "HEALTHY": "ONLINE"}  # HEALTHY: the manual
SOURCES = {"NONE": "-", "DEFAULT": "default", "LOCAL": "local", "TEMPORARY": "temporary", "RECEIVED": "received"}


class JsonOutputError(UnreadableOutput):
    format = "JSON"


@dataclass
class JsonResult:
    """What one JSON output holds, as the text readers would have returned it."""

    command: str
    status: list[PoolStatus] = field(default_factory=list)
    lists: list[PoolList] = field(default_factory=list)
    pool_props: list[Prop] = field(default_factory=list)
    dataset_props: list[Prop] = field(default_factory=list)
    versions: list[tuple[int, str]] = field(default_factory=list)
    vdev_props: list[VdevProperties] = field(default_factory=list)


def starts_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def depth_change(text: str, in_string: bool = False) -> tuple[int, bool]:
    """How much ``text`` opens (``{``/``[``) minus closes, outside JSON strings; and whether it ends in one."""
    depth = 0
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return depth, in_string


def parse(lines: Lines, *, expected: str | None = None) -> JsonResult:
    """The JSON output in ``lines``; ``expected`` is the command a prompt line named, if any."""
    body = [(n, t) for n, t in lines if t.strip()]
    if not body:
        raise JsonOutputError(lines[0][0] if lines else None, "the output is empty")
    first = body[0][0]
    text = "\n".join(t for _, t in lines)
    offset = lines[0][0]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonOutputError(offset + exc.lineno - 1, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(data, dict):
        raise JsonOutputError(first, "expected a JSON object")
    ov = data.get("output_version")
    command = ov.get("command") if isinstance(ov, dict) else None
    if not isinstance(command, str):
        raise JsonOutputError(first, "no output_version.command: is this the JSON of zpool/zfs ... -j?")
    if command not in COMMANDS:
        raise JsonOutputError(first, f"the JSON of `{command}` is not one of the outputs the import reads "
                                     f"({', '.join(c + ' -j' for c in COMMANDS)})")
    if expected is not None and expected != command and not (expected == "version" and command == "zfs version"):
        raise JsonOutputError(first, f"the command line runs `{expected}` but the JSON is from `{command}`")
    lookup = _Lines(lines)
    out = JsonResult(command)
    if command == "zpool status":
        out.status = [_status(name, pool, lookup) for name, pool in _objects(data, "pools", first)]
        out.lists = [lst for lst in (_status_sizes(s, pool, lookup) for s, (_, pool) in
                                     zip(out.status, _objects(data, "pools", first), strict=True)) if lst.vdevs]
    elif command == "zpool list":
        out.lists = [_list(name, pool, lookup) for name, pool in _objects(data, "pools", first)]
    elif command == "zpool get" and "vdevs" in data and "pools" not in data:
        pool = data.get("pool")
        pool_name = str(pool["name"]) if isinstance(pool, dict) and "name" in pool else None
        found = [p for name, vdev in _objects(data, "vdevs", first) for p in _props(name, vdev, lookup)]
        out.vdev_props = [VdevProperties(pool_name, tuple(found), first)]
    elif command == "zpool get":
        out.pool_props = [p for name, pool in _objects(data, "pools", first) for p in _props(name, pool, lookup)]
    elif command in ("zfs list", "zfs get"):
        for name, ds in _objects(data, "datasets", first):
            out.dataset_props += _props(name, ds, lookup)
    else:
        ver = data.get("zfs_version")
        if not isinstance(ver, dict):
            raise JsonOutputError(first, "zfs version -j without zfs_version")
        out.versions = [(lookup.find(str(v)) or first, str(v)) for k in ("userland", "kernel")
                        if isinstance(v := ver.get(k), str)]
    return out


class _Lines:
    """The line where a name first appears as a JSON key, to name it in errors and notes."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.first = lines[0][0]

    def find(self, name: str, after: int = 0) -> int:
        needle = json.dumps(name) + ":"
        for n, t in self.lines:
            if n >= after and needle in t:
                return n
        return self.first


def _objects(data: Mapping[str, Any], key: str, line: int) -> list[tuple[str, Mapping[str, Any]]]:
    """``(name, object)`` of each pool or dataset; the name is the object's own (the key may be a GUID)."""
    found = data.get(key)
    if found is None:
        return []
    if not isinstance(found, dict):
        raise JsonOutputError(line, f"{key!r} is not an object")
    out: list[tuple[str, Mapping[str, Any]]] = []
    for k, v in found.items():
        if not isinstance(v, dict):
            raise JsonOutputError(line, f"{k!r} under {key!r} is not an object")
        name = v.get("name", k)
        out.append((str(name), v))
    return out


def _value(v: Any) -> str:
    """A JSON value as the text output prints it (``--json-int`` numbers as digits)."""
    if isinstance(v, bool) or v is None:
        return "-" if v is None else str(v).lower()
    return str(v)


def _size(v: Any, what: str, line: int) -> Size | None:
    if v is None:
        return None
    try:
        return parse_size(_value(v))
    except ValueError:
        raise JsonOutputError(line, f"{what} {v!r} is not a size") from None


# --------------------------------------------------------------------------- zpool status -j


def _children(obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The members of a vdev: its ``vdevs`` whose ``parent`` (flat output) is this vdev."""
    kids = obj.get("vdevs")
    if not isinstance(kids, dict):
        return []
    name = obj.get("name")
    return [k for k in kids.values() if isinstance(k, dict) and k.get("parent", name) == name]


def _state(obj: Mapping[str, Any]) -> str | None:
    state = obj.get("state")
    if not isinstance(state, str):
        return None
    return STATES.get(state, state)


def _note(obj: Mapping[str, Any]) -> str:
    """What the text prints after the counters: ``was PATH``, the aux state, the ashift warning."""
    if "was" in obj:
        return f"was {obj['was']}"
    ashifts = [_value(obj.get(k)) for k in ("configured_ashift", "physical_ashift")]
    if all(a.isdigit() and len(a) <= 2 and ASHIFT_MIN <= int(a) <= ASHIFT_MAX for a in ashifts):
        configured, physical = (int(a) for a in ashifts)
        return f"block size: {1 << configured}B configured, {1 << physical}B native"
    aux = obj.get("aux")
    return str(aux).lower().replace("_", " ") if aux else ""


def _vdev(obj: Mapping[str, Any], lookup: _Lines, after: int) -> StatusVdev:
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise JsonOutputError(after, "a vdev without a name")
    line = lookup.find(name, after)
    kids = tuple(_vdev(k, lookup, line) for k in _children(obj))
    path = obj.get("path") if not kids and obj.get("vdev_type") in ("disk", "file") else None
    model = obj.get("model") if not kids else None  # from -c model (zpool_nvlist_cmd())
    return StatusVdev(name, _state(obj), line, _note(obj), kids, path if isinstance(path, str) else "",
                      model.strip() if isinstance(model, str) and model.strip() not in ("", "-") else "")


def _tops(name: str, pool: Mapping[str, Any], lookup: _Lines, line: int) -> list[tuple[str, Mapping[str, Any]]]:
    """``(role, vdev object)`` of the top-level vdevs, nested or flat output alike."""
    tops: list[tuple[str, Mapping[str, Any]]] = []
    vdevs = pool.get("vdevs")
    if not isinstance(vdevs, dict):
        raise JsonOutputError(line, f"pool {name!r} has no vdevs")
    for obj in vdevs.values():
        if not isinstance(obj, dict) or "parent" in obj:
            continue  # --json-flat-vdevs lists every member again, with its parent
        if obj.get("name") == name and obj.get("vdev_type", "root") == "root":
            tops += [(VDEV_CLASSES.get(str(c.get("class", "normal")), "data"), c) for c in _children(obj)]
        else:
            tops.append((VDEV_CLASSES.get(str(obj.get("class", "normal")), "data"), obj))
    for key, role in CLASS_KEYS.items():
        group = pool.get(key)
        if isinstance(group, dict):
            tops += [(role, c) for c in group.values() if isinstance(c, dict)]
    return tops


def _status(name: str, pool: Mapping[str, Any], lookup: _Lines) -> PoolStatus:
    line = lookup.find(name)
    data: list[StatusVdev] = []
    classes: dict[str, list[StatusVdev]] = {}
    for role, obj in _tops(name, pool, lookup, line):
        if obj.get("vdev_type") in ("indirect", "hole"):
            continue
        v = _vdev(obj, lookup, line)
        (data if role == "data" else classes.setdefault(role, [])).append(v)
    if not data:
        raise JsonOutputError(line, f"pool {name!r} lists no data vdevs")
    frozen = {k: tuple(v) for k, v in classes.items()}
    try:
        check(data, "data")
        for section, vdevs in frozen.items():
            check(list(vdevs), section)
    except UnreadableOutput as exc:
        raise JsonOutputError(exc.line, exc.message) from None
    scan = pool.get("scan_stats")
    return PoolStatus(
        name=name,
        state=_state(pool),
        line=line,
        vdevs=tuple(data),
        classes=frozen,
        status=str(pool.get("status", "")),
        scan=str(scan.get("state", "")) if isinstance(scan, dict) else "",
        errors=str(pool.get("error_count", "")),
        from_json=True,
    )


def _status_sizes(status: PoolStatus, pool: Mapping[str, Any], lookup: _Lines) -> PoolList:
    """The sizes zpool status -j carries, as zpool list -v rows: top-level ``total_space``, leaves' ``phys_space``."""
    rows: list[ListRow] = []

    def walk(obj: Mapping[str, Any], role: str, depth: int) -> None:
        name = obj.get("name")
        line = lookup.find(str(name), status.line)
        kids = _children(obj)
        # a leaf's size is its phys_space; a top-level vdev's total_space and alloc_space are zpool list's
        # ALLOC + FREE (and its SIZE unless it is a leaf); vdev_stats_nvlist() leaves out figures that are 0
        space = _size(obj.get("total_space"), f"the size of {name}", line) if depth == 1 else None
        used = _size(obj.get("alloc_space", 0), f"the allocation of {name}", line) if space else None
        free = Size(space.bytes - used.bytes, space.exact and used.exact) if space and used else None
        size = space if kids else _size(obj.get("phys_space"), f"the size of {name}", line)
        rows.append(ListRow(str(name), depth, role, size, used, line, free, size_physical=not kids))
        for k in kids:
            walk(k, role, depth + 1)

    for role, obj in _tops(status.name, pool, lookup, status.line):
        walk(obj, role, 1)
    # The root vdev's space is every class's but the logs' (vdev_space_update()): zpool list's SIZE and ALLOC.
    found = pool.get("vdevs")
    vdevs: Mapping[str, Any] = found if isinstance(found, dict) else {}
    root = next((o for o in vdevs.values() if isinstance(o, dict) and o.get("name") == status.name
                 and "parent" not in o and o.get("vdev_type", "root") == "root"), {})
    size = _size(root.get("total_space"), "the pool's total_space", status.line)
    alloc = _size(root.get("alloc_space"), "the pool's alloc_space", status.line)
    free = Size(size.bytes - alloc.bytes, size.exact and alloc.exact) if size and alloc else None
    return PoolList(status.name, size, alloc, free, status.state, status.line, tuple(rows), from_status=True)


# --------------------------------------------------------------------------- zpool list -j


def _prop_values(obj: Mapping[str, Any]) -> dict[str, Any]:
    props = obj.get("properties")
    if not isinstance(props, dict):
        return {}
    out = {}
    for k, v in props.items():
        value = v.get("value") if isinstance(v, dict) else v
        out[k] = None if value == "-" else value
    return out


def _list(name: str, pool: Mapping[str, Any], lookup: _Lines) -> PoolList:
    line = lookup.find(name)
    values = _prop_values(pool)
    rows: list[ListRow] = []

    def walk(obj: Mapping[str, Any], section: str, depth: int) -> None:
        vname = str(obj.get("name"))
        at = lookup.find(vname, line)
        v = _prop_values(obj)
        kids = obj.get("vdevs")
        # zpool list -j is OpenZFS 2.3+, whose leaves print their physical size as SIZE
        rows.append(ListRow(vname, depth, section, _size(v.get("size"), "SIZE", at),
                            _size(v.get("allocated"), "ALLOC", at), at, _size(v.get("free"), "FREE", at),
                            size_physical=not (isinstance(kids, dict) and kids)))
        if isinstance(kids, dict):
            for k in kids.values():
                if isinstance(k, dict):
                    walk(k, section, depth + 1)

    vdevs = pool.get("vdevs")
    if isinstance(vdevs, dict):
        for key, obj in vdevs.items():
            if not isinstance(obj, dict):
                continue
            if key in CLASS_KEYS and "properties" not in obj:
                for member in obj.values():
                    if isinstance(member, dict):
                        walk(member, CLASS_KEYS[key], 1)
            else:
                walk(obj, "data", 1)
    health = values.get("health")
    return PoolList(
        name=name,
        size=_size(values.get("size"), "SIZE", line),
        allocated=_size(values.get("allocated"), "ALLOC", line),
        free=_size(values.get("free"), "FREE", line),
        health=str(health) if health is not None else _state(pool),
        line=line,
        vdevs=tuple(rows),
        dedupratio=None if values.get("dedupratio") is None else str(values["dedupratio"]),
    )


# --------------------------------------------------------------------------- zpool get -j, zfs get/list -j


def _source(src: Any) -> str | None:
    if not isinstance(src, dict):
        return None
    kind = str(src.get("type", ""))
    if kind == "INHERITED":
        return f"inherited from {src.get('data')}"
    return SOURCES.get(kind)


def _props(name: str, obj: Mapping[str, Any], lookup: _Lines) -> list[Prop]:
    line = lookup.find(name)
    props = obj.get("properties")
    if not isinstance(props, dict):
        raise JsonOutputError(line, f"{name!r} has no properties")
    out: list[Prop] = []
    kind = obj.get("type")
    if isinstance(kind, str) and "type" not in props and kind in ("FILESYSTEM", "VOLUME", "SNAPSHOT", "BOOKMARK"):
        out.append(Prop(name, "type", kind.lower(), "-", line))
    for prop, v in props.items():
        if isinstance(v, dict):
            value, source = v.get("value"), _source(v.get("source"))
        else:
            value, source = v, None
        out.append(Prop(name, str(prop), _value(value), source, line))
    return out
