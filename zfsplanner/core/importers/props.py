"""``zpool get [-p] [-H] all POOL`` and ``zfs get [-p] [-H] [-r] all DATASET``.

Both print ``NAME PROPERTY VALUE SOURCE`` (``zprop_print_one_property()`` in
``lib/libzfs/libzfs_util.c``): with a header and columns padded to the widest value, or
with ``-H`` one tab-separated line per property and no header. ``-p`` prints numbers
exactly (bytes, ratios without the ``x``). A value may contain spaces (a comment, a
mountpoint), so the padded form is cut at the header's column positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import Lines, UnreadableOutput

GET_COLUMNS = ("name", "property", "value", "received", "source")


class PropertiesError(UnreadableOutput):
    format = "zfs get"


class ZpoolGetError(PropertiesError):
    format = "zpool get"


class ZfsGetError(PropertiesError):
    format = "zfs get"


@dataclass(frozen=True)
class Prop:
    name: str
    property: str
    value: str
    source: str | None
    line: int


def parse(lines: Lines, *, zpool: bool, columns: tuple[str, ...] | None = None, scripted: bool = False) -> list[Prop]:
    """Every property line; ``zpool`` picks the error class (and nothing else)."""
    error = ZpoolGetError if zpool else ZfsGetError
    body = [(n, t.rstrip("\r")) for n, t in lines if t.strip()]
    if not body:
        raise error(lines[0][0] if lines else None, "the output is empty")
    n0, first = body[0]
    words = first.split()
    starts: list[int] | None = None
    if not scripted and words and words[0] == "NAME" and "PROPERTY" in words:
        cols = tuple(w.lower() for w in words)
        unknown = [w for w in cols if w not in GET_COLUMNS]
        if unknown:
            raise error(n0, f"unknown column {unknown[0].upper()!r} in the header")
        starts = [first.index(w) for w in words]
        body = body[1:]
    else:
        cols = columns or ("name", "property", "value", "source")
        scripted = True
    if "property" not in cols or "value" not in cols:
        raise error(n0, "the PROPERTY and VALUE columns are needed")
    out: list[Prop] = []
    for n, text in body:
        if scripted:
            fields = text.split("\t")
            if len(fields) != len(cols):
                if len(fields) == 1:
                    raise error(n, f"expected {len(cols)} tab-separated fields, got {text.strip()!r}")
                raise error(n, f"expected {len(cols)} tab-separated fields, got {len(fields)}")
        else:
            assert starts is not None
            if len(text) <= starts[-1] and len(cols) > 1 and cols[-1] != "value":
                raise error(n, f"the line ends before the {cols[-1].upper()} column: {text.strip()!r}")
            bounds = [*starts[1:], len(text)]
            fields = [text[a:b].strip() for a, b in zip(starts, bounds, strict=True)]
            if any(text[s - 1 : s].strip() for s in starts[1:] if 0 < s <= len(text)):
                raise error(n, f"the columns do not line up with the header: {text.strip()!r}")
        row = dict(zip(cols, fields, strict=True))
        name = row.get("name", "")
        prop = row["property"]
        if not prop or not prop.replace("@", "").replace(":", "").replace("_", "").replace(".", "").isalnum():
            raise error(n, f"{prop!r} is not a property name")
        out.append(Prop(name, prop, row["value"], row.get("source") or None, n))
    return out


def by_name(props: list[Prop]) -> dict[str, dict[str, Prop]]:
    """``{object name: {property: Prop}}`` in the order the objects first appear."""
    out: dict[str, dict[str, Prop]] = {}
    for p in props:
        out.setdefault(p.name, {})[p.property] = p
    return out
