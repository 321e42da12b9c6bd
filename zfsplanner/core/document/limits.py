"""Limits on a design document, checked before any work proportional to what it asks for.

Every entry point (the pages, the API, ``manage.py estimate``, share links) reads a design
through :func:`zfsplanner.core.document.parse.parse_design`, which calls :func:`document_errors`
first. That check walks the document once, iteratively (so nesting depth cannot exhaust
the stack), and stops at the first :data:`MAX_ERRORS` problems; the cost is linear in the
size of the document and independent of the values in it (a width of 2^30 costs what a
width of 6 costs). Raw JSON text goes through :func:`load_json_document` first, which
refuses an oversized or too deeply nested text before Python's recursive parser sees it.

The limits, and where they come from:

=============================  =========  ====================================================
limit                          value      source
=============================  =========  ====================================================
any size in bytes              2^64 − 1   ZFS keeps sizes in unsigned 64-bit integers
                                          (``uint64_t`` ``vs_space``, ``zfs_prop`` values)
files in a dataset             2^48       ZFS's object numbers per dataset (``DN_MAX_OBJECT``)
dRAID children                 255        ``VDEV_DRAID_MAX_CHILDREN`` = ``UINT8_MAX``
                                          (include/sys/fs/zfs.h: the on-disk permutation
                                          tables store a child in one byte)
raidz and mirror width         255        the planner's: OpenZFS sets no lower bound of its
                                          own, and no one builds wider; the same as dRAID
vdev groups per design         64         the planner's
top-level vdevs per design     1,024      the planner's (sum of ``count``)
disks per design               4,096      the planner's (sum of width × count)
datasets per design            256        the planner's
file-size histogram buckets    4,096      per dataset (the planner's; an imported listing
                                          makes at most 16 per power of two, core/importers/listings.py)
block-size histogram entries   32,768     per dataset: one per sector multiple of the largest
                                          record (16 MiB / 512 B)
histogram entries in all       65,536     per design, both kinds together (the planner's)
document size                  1 MiB      the planner's (as JSON text; a design is a few KB)
nesting depth                  32         the planner's (the format itself needs 6)
string length                  10,000     characters, any string; keys 255
control characters             refused    in every string and key, except tab, LF and CR
lone surrogates                refused    in every string and key (``"\\udfff"``): not text
numbers                        finite     integers within ±(2^64 − 1); no NaN or infinity
=============================  =========  ====================================================
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 2**64 - 1
MAX_FILES = 2**48
MAX_INTEGER = 2**64 - 1
RAIDZ_MAX_WIDTH = 255
DRAID_MAX_CHILDREN = 255
MIRROR_MAX_WIDTH = 255
MAX_WIDTH = {"stripe": 1, "mirror": MIRROR_MAX_WIDTH}
MAX_WIDTH.update({f"raidz{p}": RAIDZ_MAX_WIDTH for p in (1, 2, 3)})
MAX_WIDTH.update({f"draid{p}": DRAID_MAX_CHILDREN for p in (1, 2, 3)})
MAX_VDEV_GROUPS = 64
MAX_TOP_LEVEL_VDEVS = 1024
MAX_DISKS = 4096
MAX_DATASETS = 256
MAX_HISTOGRAM_BUCKETS = 4096
MAX_BLOCK_HISTOGRAM_ENTRIES = 32_768
MAX_HISTOGRAM_BUCKETS_TOTAL = 65_536
MAX_DOCUMENT_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_STRING_CHARS = 10_000
MAX_KEY_CHARS = 255
MAX_ERRORS = 20
# Digits in one number of JSON text: enough to name the field of 10^400 after parsing, and far
# below Python's own limit (4,300), past which converting the text to an int costs quadratic time.
MAX_NUMBER_DIGITS = 1000
# Tab, line feed and carriage return are text; every other C0 control, and DEL, is refused.
ALLOWED_CONTROLS = frozenset("\t\n\r")
_CONTROLS = frozenset(chr(c) for c in (*range(0x20), 0x7F)) - ALLOWED_CONTROLS


class DocumentLimitError(ValueError):
    """A document (or its JSON text) beyond a limit. ``errors`` is a list of (path, message)."""

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = errors
        super().__init__("; ".join(f"{p}: {m}" if p else m for p, m in errors))


@dataclass
class Scan:
    """What :func:`scan_document` found, and how much work it did (nodes visited)."""

    errors: list[tuple[str, str]]
    steps: int = 0
    size: int = 0


def _path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


# Where a value is, as the scan keeps it: "" (the document) or (where its container is, its key);
# spelled out (:func:`_text`) only for a value with a problem.
Where = str | tuple[Any, str | int]


def _text(where: Where) -> str:
    keys: list[str | int] = []
    while isinstance(where, tuple):
        where, key = where
        keys.append(key)
    path = where
    for key in reversed(keys):
        path = _path(path, key)
    return path


def _plain_size(items: list[Any] | tuple[Any, ...], depth: int) -> tuple[int, int] | None:
    """(nodes, JSON size) of the items of a list at ``depth`` that holds only plain integers within
    :data:`MAX_INTEGER`, or lists of them (a file-size histogram, one of its buckets); None when any
    item is something else. Such items cannot break a limit, so they need no visit of their own."""
    nodes = size = 0
    for item in items:
        kind = type(item)
        if kind is int:
            if abs(item) > MAX_INTEGER:
                return None
            nodes += 1
            size += 1 + min(item.bit_length() * 3 // 10 + 2, 25)
        elif (kind is list or kind is tuple) and depth < MAX_DEPTH:
            inner = _plain_size(item, MAX_DEPTH)  # its items must be integers
            if inner is None:
                return None
            nodes += 1 + inner[0]
            size += 3 + inner[1]
        else:
            return None
    return nodes, size


def _control(text: str) -> str | None:
    """The first refused control character of ``text``, if any (``\\x00`` spelled out)."""
    if text.isprintable():
        return None
    for ch in text:
        if ch in _CONTROLS:
            return ch
    return None


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of ``text`` (``"\\udfff"`` from JSON), if any: half of a UTF-16
    pair, not a character, so no encoding can store it (PostgreSQL and files are UTF-8)."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return text[exc.start]
    return None


def text_error(text: str) -> str | None:
    """Why ``text`` cannot be stored as text (a NUL, a lone surrogate), or None."""
    if "\x00" in text:
        return "contains a NUL character (\\u0000), which cannot be stored"
    ch = lone_surrogate(text)
    if ch is not None:
        return (
            f"contains a lone surrogate (\\u{ord(ch):04x}), half of a UTF-16 pair and not a character; "
            "send the character itself"
        )
    return None


def _string_errors(text: str, limit: int) -> str | None:
    if len(text) > limit:
        return f"is {len(text):,} characters long; at most {limit:,} are accepted"
    ch = _control(text)
    if ch is not None:
        name = "NUL" if ch == "\x00" else f"control character U+{ord(ch):04X}"
        return f"contains a {name}; remove it (only tab, line feed and carriage return are accepted)"
    return text_error(text)


def _number_size(value: int | float) -> int:
    """Characters the number takes as JSON text, without converting a huge int to text."""
    if isinstance(value, int):
        return min(value.bit_length() * 3 // 10 + 2, 25)
    return 25


def scan_document(doc: Any, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> Scan:
    """Walk ``doc`` once and collect every generic limit it breaks (see the module table).

    Iterative, one visit per node, at most :data:`MAX_ERRORS` errors: the work is linear in
    the size of the document whatever the values in it.
    """
    scan = Scan(errors=[])
    stack: list[tuple[Any, Where, int]] = [(doc, "", 1)]
    while stack and len(scan.errors) < MAX_ERRORS:
        value, where, depth = stack.pop()
        scan.steps += 1
        if isinstance(value, str):
            scan.size += len(value) + 2
            problem = _string_errors(value, MAX_STRING_CHARS)
            if problem:
                scan.errors.append((_text(where), problem))
        elif isinstance(value, bool) or value is None:
            scan.size += 5
        elif isinstance(value, int):
            scan.size += _number_size(value)
            if abs(value) > MAX_INTEGER:
                scan.errors.append((_text(where), "is beyond 2^64 − 1, larger than any size or count ZFS can hold"))
        elif isinstance(value, float):
            scan.size += _number_size(value)
            if not math.isfinite(value):
                scan.errors.append((_text(where), f"must be a finite number, not {value}"))
        elif isinstance(value, Mapping | list | tuple):
            if depth > MAX_DEPTH:
                scan.errors.append((_text(where), f"is nested more than {MAX_DEPTH} levels deep"))
                continue
            scan.size += 2
            if isinstance(value, Mapping):
                for key, item in value.items():
                    scan.size += 2
                    if not isinstance(key, str):
                        scan.errors.append((_text(where), f"has a key that is not a string: {type(key).__name__}"))
                        continue
                    scan.size += len(key) + 2
                    problem = _string_errors(key, MAX_KEY_CHARS)
                    if problem:
                        shown = key[:40].encode("unicode_escape").decode("ascii")
                        scan.errors.append((_text(where), f"the key '{shown}' {problem}"))
                        continue
                    stack.append((item, (where, key), depth + 1))
            else:
                plain = _plain_size(value, depth)
                if plain is not None and scan.size + plain[1] <= max_bytes:
                    # what visiting each item would add, none of them being a problem
                    scan.steps += plain[0]
                    scan.size += plain[1]
                    continue
                for index, item in enumerate(value):
                    scan.size += 1
                    stack.append((item, (where, index), depth + 1))
        else:
            scan.errors.append((_text(where), f"is not a JSON value ({type(value).__name__})"))
        if scan.size > max_bytes:
            scan.errors.append(("", f"the document is larger than {_mib(max_bytes)}; a design is a few kilobytes"))
            break
    return scan


def _mib(n: int) -> str:
    return f"{n / 1024 / 1024:g} MiB ({n:,} bytes)" if n >= 1024 * 1024 else f"{n:,} bytes"


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def structure_errors(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The limits on the design's shape: vdev groups, widths, disks, datasets, histogram buckets.

    Reads only the list lengths and the ``width``/``count``/``layout`` of each group, so a
    width of 2^30 costs nothing; the fields' own rules are checked later by ``parse_design``.
    """
    errors: list[tuple[str, str]] = []
    vdevs = doc.get("vdevs")
    if isinstance(vdevs, list):
        if len(vdevs) > MAX_VDEV_GROUPS:
            errors.append(("vdevs", f"has {len(vdevs):,} vdev groups; a design may have at most {MAX_VDEV_GROUPS}"))
            vdevs = []
        top_level = disks = 0
        for i, group in enumerate(vdevs):
            if not isinstance(group, Mapping):
                continue
            width, count = _int(group.get("width")), _int(group.get("count"))
            layout = group.get("layout")
            limit = MAX_WIDTH.get(layout, 255) if isinstance(layout, str) else 255
            if width is not None and width > limit and not (layout == "stripe" and width <= 255):
                what = (
                    "dRAID can have at most"
                    if str(layout).startswith("draid")
                    else f"a {layout} vdev can have at most"
                    if layout in MAX_WIDTH
                    else "a vdev can have at most"
                )
                errors.append((f"vdevs[{i}].width", f"{what} {limit} disks (got {width:,})"))
                width = None
            members = group.get("disks")
            if isinstance(members, list) and len(members) > 255:
                errors.append((f"vdevs[{i}].disks", f"lists {len(members):,} disks; a vdev has at most 255"))
            if count is not None and count > MAX_TOP_LEVEL_VDEVS:
                errors.append(
                    (f"vdevs[{i}].count", f"must be at most {MAX_TOP_LEVEL_VDEVS:,} (got {count:,})")
                )
                count = None
            top_level += max(count or 1, 1)
            disks += max(count or 1, 1) * max(width or 1, 1)
        if top_level > MAX_TOP_LEVEL_VDEVS:
            errors.append(
                ("vdevs", f"make {top_level:,} top-level vdevs; a design may have at most {MAX_TOP_LEVEL_VDEVS:,}")
            )
        elif disks > MAX_DISKS:
            errors.append(("vdevs", f"use {disks:,} disks; a design may have at most {MAX_DISKS:,}"))
    datasets = doc.get("datasets")
    if isinstance(datasets, list):
        if len(datasets) > MAX_DATASETS:
            errors.append(("datasets", f"has {len(datasets):,} datasets; a design may have at most {MAX_DATASETS}"))
            datasets = []
        buckets = 0
        for i, ds in enumerate(datasets):
            contents = ds.get("contents") if isinstance(ds, Mapping) else None
            if not isinstance(contents, Mapping):
                continue
            for key, limit in (
                ("file_size_histogram", MAX_HISTOGRAM_BUCKETS),
                ("block_size_histogram", MAX_BLOCK_HISTOGRAM_ENTRIES),
            ):
                hist = contents.get(key)
                if isinstance(hist, list):
                    buckets += len(hist)
                    if len(hist) > limit:
                        message = f"has {len(hist):,} entries; at most {limit:,} per dataset"
                        errors.append((f"datasets[{i}].contents.{key}", message))
        if buckets > MAX_HISTOGRAM_BUCKETS_TOTAL:
            errors.append(
                ("datasets", f"have {buckets:,} histogram entries in all; at most {MAX_HISTOGRAM_BUCKETS_TOTAL:,}")
            )
    return errors


def document_errors(doc: Any, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> list[tuple[str, str]]:
    """Every limit ``doc`` breaks (empty when it is within all of them); linear in its size."""
    shape = structure_errors(doc) if isinstance(doc, Mapping) else []
    return (shape + scan_document(doc, max_bytes=max_bytes).errors)[:MAX_ERRORS]


def size_error(value: int, what: str = "bytes") -> str | None:
    """The message for a size beyond what ZFS can hold, or None."""
    if value > MAX_BYTES:
        return f"{value:,} {what} is beyond what ZFS can address (at most 2^64 − 1 = 16 EiB)"
    return None


# --------------------------------------------------------------------------- JSON text


def json_text_errors(text: str | bytes, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> list[tuple[str, str]]:
    """Size and nesting depth of JSON text, read without parsing it (one pass, no recursion)."""
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        return [("", f"the document is larger than {_mib(max_bytes)} (got {size:,} bytes)")]
    data = text.encode("utf-8") if isinstance(text, str) else text
    depth = 0
    in_string = escaped = False
    digits = 0
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
            continue
        if 0x30 <= byte <= 0x39:
            digits += 1
            if digits > MAX_NUMBER_DIGITS:
                return [("", f"a number in the document has more than {MAX_NUMBER_DIGITS} digits")]
            continue
        digits = 0
        if byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return [("", f"the document is nested more than {MAX_DEPTH} levels deep")]
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return []


def load_json_document(text: str | bytes, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> Any:
    """``json.loads`` behind the size and depth limits; :class:`DocumentLimitError` beyond them.

    Invalid JSON still raises ``json.JSONDecodeError`` (``ValueError``) with its line and column.
    """
    import json

    errors = json_text_errors(text, max_bytes=max_bytes)
    if errors:
        raise DocumentLimitError(errors)
    return json.loads(text, parse_constant=_refuse_constant)


def _refuse_constant(name: str) -> Any:
    raise DocumentLimitError([("", f"{name} is not a JSON number; numbers must be finite")])
