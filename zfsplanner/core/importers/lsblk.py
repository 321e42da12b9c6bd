"""``lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA`` (util-linux), in any of its forms.

* the default table: a header, columns one space apart, text columns left-aligned and
  numbers right-aligned (libsmartcols), partitions below their disk with ``├─``/``└─``
  (or ``|-``/`` `-`` with ``-i``); a MODEL may hold spaces, so fields are placed by the
  header's column edges;
* ``-l``/``-r``: no tree (``-r`` escapes spaces as ``\\x20``);
* ``-P``: ``NAME="sda" SIZE="14000519643136" ...`` pairs;
* ``-J``: JSON (``{"blockdevices": [...]}``, children nested).

``-b`` prints sizes in bytes; without it sizes are rounded powers of 1024 (``12.7T``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .common import Lines, Size, UnreadableOutput, parse_size, tokens

RIGHT_ALIGNED = {"SIZE", "LOG-SEC", "PHY-SEC", "ROTA", "RM", "RO", "MIN-IO", "OPT-IO", "RA", "RQ-SIZE",
                 "ALIGNMENT", "DISC-ALN", "DISC-GRAN", "DISC-MAX", "DISC-ZERO", "WSAME", "HCTL", "FSSIZE",
                 "FSAVAIL", "FSUSED", "FSUSE%", "MAJ:MIN", "SEQ", "DAX"}
_TREE_CHARS = "├└│─|`- "
MULTI_WORD = {"MODEL", "VENDOR", "LABEL", "PARTLABEL", "MOUNTPOINT", "MOUNTPOINTS", "FSTYPE", "STATE"}
_PAIR_RE = re.compile(r'([A-Z0-9:%_-]+)="((?:[^"\\]|\\.)*)"')


class LsblkError(UnreadableOutput):
    format = "lsblk"


@dataclass(frozen=True)
class BlockDevice:
    name: str
    size: Size | None
    logical_sector: int | None
    physical_sector: int | None
    model: str | None
    serial: str | None
    rotational: bool | None
    type: str | None
    parent: str | None
    line: int
    wwn: str | None = None
    vendor: str | None = None
    transport: str | None = None


def _key(k: str) -> str:
    return k.upper().replace("_", "-") if k.upper() not in ("MAJ:MIN", "FSUSE%") else k.upper()


def _device(n: int, row: dict[str, str | None], parent: str | None) -> BlockDevice:
    def text(key: str) -> str | None:
        v = row.get(key)
        v = v.strip() if isinstance(v, str) else v
        return v or None

    def integer(key: str) -> int | None:
        v = text(key)
        if v is None:
            return None
        if not (v.isascii() and v.isdigit()):
            raise LsblkError(n, f"{key} {v!r} is not a number")
        return int(v)

    name = text("NAME")
    if not name:
        raise LsblkError(n, "a row without a NAME")
    size_text = text("SIZE")
    try:
        size = parse_size(size_text) if size_text else None
    except ValueError:
        raise LsblkError(n, f"SIZE {size_text!r} is not a size") from None
    rota = text("ROTA")
    if rota not in (None, "0", "1", "true", "false"):
        raise LsblkError(n, f"ROTA {rota!r} is not 0 or 1")
    for key in ("LOG-SEC", "PHY-SEC"):
        v = integer(key)
        if v is not None and (v < 512 or v & (v - 1)):
            raise LsblkError(n, f"{key} {v} is not a sector size")
    return BlockDevice(
        name=name,
        size=size,
        logical_sector=integer("LOG-SEC"),
        physical_sector=integer("PHY-SEC"),
        model=text("MODEL"),
        serial=text("SERIAL"),
        rotational=None if rota is None else rota in ("1", "true"),
        type=text("TYPE"),
        parent=text("PKNAME") or parent,
        line=n,
        wwn=text("WWN"),
        vendor=text("VENDOR"),
        transport=text("TRAN"),
    )


def _json(lines: Lines) -> list[BlockDevice]:
    n0 = lines[0][0]
    try:
        doc = json.loads("\n".join(t for _, t in lines))
    except json.JSONDecodeError as exc:
        raise LsblkError(n0 + exc.lineno - 1, f"invalid JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("blockdevices"), list):
        raise LsblkError(n0, 'expected {"blockdevices": [...]} (lsblk -J)')
    out: list[BlockDevice] = []

    def walk(items: list[Any], parent: str | None) -> None:
        for item in items:
            if not isinstance(item, dict):
                raise LsblkError(n0, "a block device that is not an object")
            row = {_key(k): (str(v).lower() if isinstance(v, bool) else None if v is None else str(v))
                   for k, v in item.items() if k != "children"}
            dev = _device(n0, row, parent)
            out.append(dev)
            walk(item.get("children") or [], dev.name)

    walk(doc["blockdevices"], None)
    return out


def _pairs(lines: Lines) -> list[BlockDevice]:
    out = []
    for n, text in lines:
        pairs = _PAIR_RE.findall(text)
        if not pairs or _PAIR_RE.sub("", text).strip():
            raise LsblkError(n, f'expected KEY="value" pairs (lsblk -P), got {text.strip()!r}')
        row = {_key(k): v.encode().decode("unicode_escape") if "\\" in v else v for k, v in pairs}
        out.append(_device(n, row, None))
    return out


def _table(lines: Lines) -> list[BlockDevice]:
    n0, header = lines[0]
    head = tokens(header)
    names = [w for w, _, _ in head]
    if names[0] != "NAME":
        raise LsblkError(n0, f"expected a header starting with NAME, got {header.strip()!r}")
    raw = all(len(tokens(t)) == len(head) for _, t in lines[1:]) and any("\\x20" in t for _, t in lines[1:])
    out: list[BlockDevice] = []
    parents: list[str] = []
    for n, text in lines[1:]:
        toks = tokens(text)
        if raw or len(toks) == len(head) and not _aligned(head, toks):
            fields = {w: t.replace("\\x20", " ") for (w, _, _), (t, _, _) in zip(head, toks, strict=True)}
        else:
            fields = _place(n, head, toks)
        name_text = fields.get("NAME") or ""
        depth = _depth(text)
        name = name_text.lstrip(_TREE_CHARS)
        fields["NAME"] = name
        del parents[depth:]
        parent = parents[-1] if parents else None
        out.append(_device(n, dict(fields), parent))
        parents.append(name)
    return out


def _depth(text: str) -> int:
    """Tree depth from the ``├─`` drawing before the name (two characters per level)."""
    lead = len(text) - len(text.lstrip(_TREE_CHARS))
    return lead // 2


def _aligned(head: list[tuple[str, int, int]], toks: list[tuple[str, int, int]]) -> bool:
    return all(
        (t_end == h_end) if h in RIGHT_ALIGNED else (t_start == h_start or h == "NAME")
        for (h, h_start, h_end), (_, t_start, t_end) in zip(head, toks, strict=True)
    )


def _place(n: int, head: list[tuple[str, int, int]], toks: list[tuple[str, int, int]]) -> dict[str, str]:
    """Give each token to the column whose edge it sits on; extra words join the text column before them."""
    owner: list[int | None] = [None] * len(toks)
    for ci, (h, h_start, h_end) in enumerate(head):
        for ti, (_, t_start, t_end) in enumerate(toks):
            if owner[ti] is not None:
                continue
            if h in RIGHT_ALIGNED and t_end == h_end or h not in RIGHT_ALIGNED and t_start == h_start:
                owner[ti] = ci
                break
    if toks and owner[0] is None and toks[0][1] <= head[0][1] + 8:
        owner[0] = 0  # the NAME column, shifted by the tree drawing
    fields: dict[str, list[str]] = {}
    last: int | None = None
    for ti, (t, t_start, _) in enumerate(toks):
        owned = owner[ti]
        if owned is None:
            if last is None or head[last][0] not in MULTI_WORD:
                raise LsblkError(n, f"{t!r} at column {t_start + 1} does not line up with the header")
            owned = last
        fields.setdefault(head[owned][0], []).append(t)
        last = owned
    return {k: " ".join(v) for k, v in fields.items()}


def parse(lines: Lines) -> list[BlockDevice]:
    body = [(n, t.rstrip("\r")) for n, t in lines if t.strip()]
    if not body:
        raise LsblkError(lines[0][0] if lines else None, "the output is empty")
    first = body[0][1].lstrip()
    if first.startswith("{"):
        return _json(body)
    if _PAIR_RE.match(first):
        return _pairs(body)
    return _table(body)
