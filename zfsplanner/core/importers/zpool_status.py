"""``zpool status [POOL]`` (and the config part of ``zpool import``): the vdev tree.

The layout follows ``status_callback()`` and ``print_status_config()`` in
``cmd/zpool/zpool_main.c`` (OpenZFS 0.8 to 2.4): a header of ``key: value`` lines
(``pool:``, ``state:``, ``status:``, ``scan:``...), then ``config:``, a
``NAME STATE READ WRITE CKSUM`` header and one row per vdev, indented two spaces per
level below a tab; the classes follow as unindented ``dedup``, ``special``, ``logs``,
``cache`` and ``spares`` lines with their vdevs below; ``errors:`` ends the pool.

The tree is read from indentation only (deeper = child of the row above), so it
survives tabs turned into spaces by a copy and paste. Top-level names carry their
type: ``mirror-0``, ``raidz2-1``, ``draid2:8d:24c:2s-0``; ``replacing-N`` and
``spare-N`` group a member with its replacement or hot spare. With ``-g`` every name
is a GUID and the layout cannot be known: that is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Lines, UnreadableOutput

STATES = ("ONLINE", "DEGRADED", "FAULTED", "OFFLINE", "UNAVAIL", "REMOVED", "AVAIL", "INUSE", "SPLIT")
CLASS_WORDS = {"dedup": "dedup", "special": "special", "logs": "log", "cache": "cache", "spares": "spare"}

_ROW_RE = re.compile(r"^(?P<name>\S.*?)\s+(?P<state>" + "|".join(STATES) + r")(?=\s|$)(?P<rest>.*)$")
_HEADER_RE = re.compile(r"^\s*(?P<key>pool|id|state|status|action|see|scan|remove|checkpoint|expand|config|errors)"
                        r":\s?(?P<value>.*)$")
_COUNTERS_RE = re.compile(r"^\s*([0-9.]+[KMGTPE]?)\s+([0-9.]+[KMGTPE]?)\s+([0-9.]+[KMGTPE]?)(?=\s|$)(?P<rest>.*)$")
_DRAID_RE = re.compile(r"^draid(?P<p>[0-3]):(?P<d>[0-9]+)d:(?P<c>[0-9]+)c:(?P<s>[0-9]+)s(?:-[0-9]+)?$")
_RAIDZ_RE = re.compile(r"^raidz(?P<p>[1-3])?(?:-[0-9]+)?$")
_GROUP_RE = re.compile(r"^(?P<kind>mirror|replacing|spare|indirect)(?:-[0-9]+)?$")
_DRAID_SPARE_RE = re.compile(r"^draid[1-3]-[0-9]+-[0-9]+$")


class ZpoolStatusError(UnreadableOutput):
    format = "zpool status"


@dataclass(frozen=True)
class StatusVdev:
    """One row of the config tree and the rows below it."""

    name: str
    state: str | None
    line: int
    note: str = ""  # whatever follows the counters: "was /dev/sdb1", "(resilvering)", "block size: ..."
    children: tuple[StatusVdev, ...] = ()
    path: str = ""  # the device's full path, where the output gives it (zpool status -j)
    model: str = ""  # what `zpool status -j -c model` ran for the device

    @property
    def kind(self) -> str:
        """``mirror``, ``raidz``, ``draid``, ``replacing``, ``spare``, ``indirect``, ``draid-spare`` or ``leaf``."""
        if _DRAID_RE.match(self.name):
            return "draid"
        if _RAIDZ_RE.match(self.name) and self.children:
            return "raidz"
        m = _GROUP_RE.match(self.name)
        if m and (self.children or m.group("kind") == "indirect"):
            return m.group("kind")
        if _DRAID_SPARE_RE.match(self.name) and not self.children:
            return "draid-spare"
        return "leaf"

    @property
    def parity(self) -> int:
        m = _DRAID_RE.match(self.name)
        if m:
            return int(m.group("p"))
        m = _RAIDZ_RE.match(self.name)
        return int(m.group("p") or 1) if m else 0

    @property
    def draid(self) -> tuple[int, int, int] | None:
        """(data, children, spares) of a dRAID vdev's name."""
        m = _DRAID_RE.match(self.name)
        return (int(m.group("d")), int(m.group("c")), int(m.group("s"))) if m else None

    @property
    def device(self) -> str:
        """The device a leaf names: its path after ``was`` when it is missing (a GUID then)."""
        m = re.search(r"\bwas (\S+)", self.note)
        if m and self.name.isdigit():
            return m.group(1)
        return self.name

    @property
    def configured_ashift(self) -> int | None:
        """``block size: 512B configured, 4096B native`` -> 9."""
        m = re.search(r"block size: ([0-9]+)B configured", self.note)
        return int(m.group(1)).bit_length() - 1 if m else None


@dataclass(frozen=True)
class PoolStatus:
    name: str
    state: str | None
    line: int
    vdevs: tuple[StatusVdev, ...]  # top-level vdevs of the normal class
    classes: dict[str, tuple[StatusVdev, ...]] = field(default_factory=dict)  # dedup/special/log/cache/spare
    status: str = ""
    scan: str = ""
    errors: str = ""
    from_json: bool = False  # zpool status -j (which gives each device's path)


@dataclass
class _Node:
    name: str
    state: str | None
    line: int
    indent: int
    note: str
    children: list[_Node] = field(default_factory=list)
    section: str | None = None  # set on class header rows

    def freeze(self) -> StatusVdev:
        return StatusVdev(self.name, self.state, self.line, self.note, tuple(c.freeze() for c in self.children))


def _indent(text: str) -> int:
    expanded = text.expandtabs(8)
    return len(expanded) - len(expanded.lstrip(" "))


def _row(n: int, text: str) -> _Node:
    body = text.expandtabs(8)
    indent = _indent(text)
    stripped = body.strip()
    if stripped in CLASS_WORDS:
        return _Node(stripped, None, n, indent, "", section=CLASS_WORDS[stripped])
    m = _ROW_RE.match(body[indent:].rstrip())
    if not m:
        raise ZpoolStatusError(n, f"expected a vdev row (NAME STATE READ WRITE CKSUM), got {stripped!r}")
    rest = m.group("rest")
    counters = _COUNTERS_RE.match(rest)
    note = counters.group("rest").strip() if counters else rest.strip()
    return _Node(m.group("name").strip(), m.group("state"), n, indent, note)


def _tree(rows: list[_Node], pool_line: int) -> tuple[_Node, dict[str, list[_Node]]]:
    root: _Node | None = None
    classes: dict[str, list[_Node]] = {}
    stack: list[_Node] = []
    for node in rows:
        while stack and stack[-1].indent >= node.indent:
            stack.pop()
        if node.section is not None:
            if stack and stack[-1] is not root:
                raise ZpoolStatusError(node.line, f"the {node.name!r} heading is indented below a vdev")
            if node.section in classes:
                raise ZpoolStatusError(node.line, f"the {node.name!r} section appears twice")
            classes[node.section] = []
            stack = [node]
            continue
        if not stack:
            if root is not None:
                raise ZpoolStatusError(node.line, f"{node.name!r} is not indented below the pool {root.name!r}")
            root = node
        else:
            stack[-1].children.append(node)
        stack.append(node)
    if root is None:
        raise ZpoolStatusError(pool_line, "the config lists no vdevs")
    for r in rows:
        if r.section is not None:
            classes[r.section] = r.children
    return root, classes


def check(vdevs: list[StatusVdev], section: str) -> None:
    for v in vdevs:
        kind = v.kind
        if v.name.isdigit() and v.children:
            raise ZpoolStatusError(
                v.line, f"{v.name!r} is a GUID: zpool status -g hides the vdev types; run it without -g"
            )
        if kind == "leaf" and v.children:
            raise ZpoolStatusError(v.line, f"{v.name!r} has members but is not a mirror, raidz or draid vdev")
        if kind == "draid":
            data, children, spares = v.draid or (0, 0, 0)
            members = len(v.children)
            if members != children:
                raise ZpoolStatusError(v.line, f"{v.name} names {children} children but lists {members}")
        if kind in ("mirror", "raidz", "draid"):
            for c in v.children:
                if c.kind not in ("leaf", "replacing", "spare"):
                    raise ZpoolStatusError(c.line, f"{c.name!r} cannot be a member of {v.name!r}")
                if c.kind != "leaf" and any(g.kind not in ("leaf", "draid-spare") for g in c.children):
                    raise ZpoolStatusError(c.line, f"{c.name!r} nests groups deeper than zpool creates them")
        if section in ("cache", "spare") and kind not in ("leaf", "draid-spare"):
            raise ZpoolStatusError(v.line, f"{v.name!r}: {section} devices are single disks")


def _pool(lines: Lines, start: int) -> tuple[PoolStatus, int]:
    """Read one pool starting at ``lines[start]`` (its ``pool:`` line); return it and the next index."""
    n0, first = lines[start]
    name = first.split(":", 1)[1].strip()
    if not name:
        raise ZpoolStatusError(n0, "the pool: line names no pool")
    header: dict[str, str] = {}
    key = "pool"
    rows: list[_Node] = []
    phase = "header"
    i = start + 1
    while i < len(lines):
        n, text = lines[i]
        h = _HEADER_RE.match(text)
        if h and h.group("key") == "pool" and phase != "header":
            break
        if phase == "header":
            if h:
                key = h.group("key")
                header[key] = h.group("value").strip()
                if key == "config":
                    if header[key].startswith("The configuration cannot be determined"):
                        raise ZpoolStatusError(n, "zpool cannot determine this pool's configuration")
                    phase = "config"
            elif text.strip():
                header[key] = (header.get(key, "") + " " + text.strip()).strip()
        elif phase == "config":
            stripped = text.strip()
            if h and h.group("key") == "errors":
                header["errors"] = h.group("value").strip()
                phase = "after"
            elif not stripped:
                if rows:
                    phase = "rows-done"
            elif stripped.split()[:2] == ["NAME", "STATE"]:
                pass
            else:
                rows.append(_row(n, text))
        elif phase == "rows-done":
            if h and h.group("key") == "errors":
                header["errors"] = h.group("value").strip()
                phase = "after"
            elif text.strip() and not text.strip().startswith("dedup:"):
                raise ZpoolStatusError(n, f"unexpected line after the config: {text.strip()!r}")
            elif text.strip():
                phase = "after"
        i += 1
    if phase == "header":
        raise ZpoolStatusError(n0, f"pool {name!r} has no config: section")
    root, classes = _tree(rows, n0)
    if root.name != name:
        raise ZpoolStatusError(root.line, f"the config starts with {root.name!r}, not the pool {name!r}")
    frozen = {k: tuple(c.freeze() for c in v) for k, v in classes.items()}
    top = tuple(c.freeze() for c in root.children if c.name.split("-")[0] != "indirect")
    check(list(top), "data")
    for section, vdevs in frozen.items():
        check(list(vdevs), section)
    if not top:
        raise ZpoolStatusError(root.line, f"pool {name!r} lists no data vdevs")
    status = PoolStatus(
        name=name,
        state=header.get("state", "").split()[0] if header.get("state") else None,
        line=n0,
        vdevs=top,
        classes=frozen,
        status=header.get("status", ""),
        scan=header.get("scan", ""),
        errors=header.get("errors", ""),
    )
    return status, i


def parse(lines: Lines) -> list[PoolStatus]:
    """Every pool in the output, in order; :class:`ZpoolStatusError` naming the line otherwise."""
    pools: list[PoolStatus] = []
    i = 0
    while i < len(lines):
        n, text = lines[i]
        h = _HEADER_RE.match(text)
        if h and h.group("key") == "pool":
            pool, i = _pool(lines, i)
            pools.append(pool)
            continue
        if text.strip() == "no pools available":
            raise ZpoolStatusError(n, "zpool status found no pools")
        if text.strip():
            raise ZpoolStatusError(n, f"expected '  pool: NAME', got {text.strip()!r}")
        i += 1
    if not pools:
        raise ZpoolStatusError(lines[0][0] if lines else None, "no pool in the output")
    return pools
