"""``zpool get [-p] [-H] PROPS POOL all-vdevs`` (OpenZFS 2.2 and later): each vdev's properties.

``zpool get`` with vdev names (or ``all-vdevs``, or ``root``) after the pool prints vdev
properties (``get_callback_vdev()`` in ``cmd/zpool/zpool_main.c``) in the same
``NAME PROPERTY VALUE SOURCE`` lines as pool properties (``zprop_print_one_property()`` in
``lib/libzfs/libzfs_util.c``), one block per vdev: the root as ``root-0``, top-level vdevs
with their id (``raidz3-0``, ``mirror-1``), leaves by device name. The header's column
widths are fixed when the first vdev (``root-0``) is printed, so longer names and values of
later vdevs push their columns right: the padded form is read by words, not by the header's
positions. ``ashift`` is ``vdev_ashift`` (``vdev_prop_get()`` in ``module/zfs/vdev.c``): the
ashift the vdev really has, whatever ``zpool get ashift POOL`` prints.

With ``-j`` (2.3+) the object has ``pool`` and ``vdevs.<name>.properties.<prop>`` =
``{"value", "source"}``; it is read in :mod:`.json_outputs` into the same :class:`VdevProperties`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import Lines
from .props import GET_COLUMNS, Prop, ZpoolGetError
from .props import parse as parse_props

# vdev properties no pool has (vdev_prop_init() in module/zcommon/zpool_prop.c)
VDEV_ONLY = frozenset({
    "path", "devid", "physpath", "encpath", "fru", "parent", "children", "bootsize", "asize", "psize", "parity",
    "numchildren", "read_errors", "write_errors", "checksum_errors", "trim_errors", "slow_ios", "null_ops",
    "read_ops", "write_ops", "free_ops", "claim_ops", "trim_ops", "null_bytes", "read_bytes", "write_bytes",
    "free_bytes", "claim_bytes", "trim_bytes", "checksum_n", "checksum_t", "io_n", "io_t", "slow_io_n",
    "slow_io_t", "removing", "allocating", "raidz_expanding", "trim_support", "failfast",
})
ROOT = "root-0"  # get_callback_vdev_cb(): the root vdev, not the pool's name
SOURCES = ("-", "default", "local", "temporary", "received")


@dataclass(frozen=True)
class VdevProperties:
    """The vdev properties of one pool (``pool`` None when no command line or JSON names it)."""

    pool: str | None
    props: tuple[Prop, ...]
    line: int

    def ashifts(self) -> dict[str, int]:
        """``{vdev name: ashift}`` of every vdev that has one (the root's 0 is left out)."""
        out = {}
        for p in self.props:
            digits = p.value.isascii() and p.value.isdigit()
            if p.property == "ashift" and p.name != ROOT and digits and int(p.value) > 0:
                out[p.name] = int(p.value)
        return out


def is_vdev_output(positionals: list[str], lines: Lines) -> bool:
    """Whether a ``zpool get`` output holds vdev properties: vdevs named after the pool on the command
    line, or (without one) the ``root-0`` row or a property only vdevs have."""
    if len(positionals) >= 3:
        return True
    for _, text in lines:
        words = text.split("\t") if "\t" in text else text.split()
        if len(words) >= 2 and (words[0] == ROOT or words[1] in VDEV_ONLY):
            return True
    return False


def parse(lines: Lines, *, pool: str | None, columns: tuple[str, ...] | None = None,
          scripted: bool = False) -> VdevProperties:
    """The vdev properties in ``lines`` (padded text with its header, or ``-H``'s tab-separated lines)."""
    body = [(n, t.rstrip("\r")) for n, t in lines if t.strip()]
    if not body:
        raise ZpoolGetError(lines[0][0] if lines else None, "the output is empty")
    n0, first = body[0]
    words = first.split()
    if scripted or "\t" in first or not (words and words[0] == "NAME" and "PROPERTY" in words):
        return VdevProperties(pool, tuple(parse_props(lines, zpool=True, columns=columns, scripted=True)), n0)
    cols = tuple(w.lower() for w in words)
    unknown = [w for w in cols if w not in GET_COLUMNS]
    if unknown:
        raise ZpoolGetError(n0, f"unknown column {unknown[0].upper()!r} in the header")
    if "property" not in cols or "value" not in cols:
        raise ZpoolGetError(n0, "the PROPERTY and VALUE columns are needed")
    out = []
    for n, text in body[1:]:
        row = _row(n, text.split(), cols)
        out.append(Prop(row.get("name", ""), row["property"], row["value"], row.get("source") or None, n))
    return VdevProperties(pool, tuple(out), n0)


def _row(n: int, words: list[str], cols: tuple[str, ...]) -> dict[str, str]:
    """One padded line by words: every column but VALUE is one word, SOURCE ``inherited from X`` three."""
    before = cols[: cols.index("value")]
    after = list(cols[cols.index("value") + 1 :])
    sizes = [3 if c == "source" and len(words) >= 3 and words[-3 - _after_source(after):][:2] == ["inherited", "from"]
             else 1 for c in after]
    if len(words) < len(before) + sum(sizes) + 1:
        raise ZpoolGetError(n, f"expected {' '.join(c.upper() for c in cols)}, got {' '.join(words)!r}")
    row = dict(zip(before, words[: len(before)], strict=True))
    end = len(words)
    for c, size in reversed(list(zip(after, sizes, strict=True))):
        row[c] = " ".join(words[end - size : end])
        end -= size
    row["value"] = " ".join(words[len(before) : end])
    if not row.get("property", "").replace("_", "").replace(":", "").replace(".", "").isalnum():
        raise ZpoolGetError(n, f"{row.get('property')!r} is not a property name")
    return row


def _after_source(after: list[str]) -> int:
    """How many one-word columns follow SOURCE."""
    return len(after) - 1 - after.index("source")
