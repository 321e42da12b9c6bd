"""How far the model is from the pool it was imported from.

The importer keeps what the pool reported under the design's ``imported.reported`` key;
this sets each figure against the estimate of the same design:

* SIZE (``zpool list``) against ``pool.zpool_size_bytes``;
* USED + AVAIL of the root dataset (the pool's usable space, whatever is stored) against
  the model's AVAIL of the empty pool plus what a new pool's root uses;
* AVAIL (``zfs list``) against the model's AVAIL after the imported datasets' contents;
* ALLOC (``zpool list``) against the modelled allocation of those contents;
* each top-level vdev's SIZE (``zpool list -v``) and each dataset's REFER.

``difference_bytes`` is model minus pool, ``difference_fraction`` relative to the pool's
figure. A figure printed without ``-p`` is rounded to 3 digits, so differences under its
rounding are not differences; a figure the importer fitted (disk sizes unknown) is marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..design.types import Design, Layout, Role, VdevGroup
from ..estimate import Estimate
from ..naming import describe_group

MIN_DATASET_BYTES = 64 * 1024**2
ROUNDING = 0.0025  # zfs_nicenum prints 3 significant digits: within 0.25 % either way of 21.8T, 1.50K, ...


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    what: str  # the command that printed the pool's figure
    reported_bytes: int
    model_bytes: int
    exact: bool = True  # the pool's figure was printed exactly (-p)
    fitted: bool = False  # the disk sizes were fitted to this very figure

    @property
    def difference_bytes(self) -> int:
        return self.model_bytes - self.reported_bytes

    @property
    def difference_fraction(self) -> float | None:
        return self.difference_bytes / self.reported_bytes if self.reported_bytes else None

    @property
    def within_rounding(self) -> bool:
        frac = self.difference_fraction
        return not self.exact and frac is not None and abs(frac) <= ROUNDING

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["difference_bytes"] = self.difference_bytes
        out["difference_fraction"] = self.difference_fraction
        out["within_rounding"] = self.within_rounding
        return out


def reported_of(document: Mapping[str, Any]) -> Mapping[str, Any] | None:
    imported = document.get("imported")
    if not isinstance(imported, Mapping):
        return None
    reported = imported.get("reported")
    return reported if isinstance(reported, Mapping) else None


def _fitted(document: Mapping[str, Any], what: str) -> bool:
    devices = (document.get("imported") or {}).get("devices") or []
    return any(isinstance(d, Mapping) and what in str(d.get("size_source", "")) for d in devices)


def compare(document: Mapping[str, Any], estimate: Estimate) -> list[Row]:
    """Rows of pool figure vs model figure; empty when the design was not imported.

    ``document`` is the design document (what the pool reported is under ``imported``), ``estimate``
    the estimate of that design."""
    reported = reported_of(document)
    if not reported:
        return []
    pool = estimate.pool
    rows: list[Row] = []
    size = reported.get("zpool_size_bytes")
    if isinstance(size, int):
        rows.append(Row("size", "SIZE", "zpool list", size, pool.zpool_size_bytes,
                        bool(reported.get("zpool_size_exact", True)), _fitted(document, "pool SIZE")))
    avail = reported.get("zfs_avail_bytes")
    used = reported.get("zfs_used_bytes")
    exact_avail = bool(reported.get("zfs_avail_exact", True))
    if isinstance(avail, int) and isinstance(used, int):
        rows.append(Row("usable", "USED + AVAIL", "zfs list POOL", used + avail, pool.usable_bytes, exact_avail))
    if isinstance(avail, int):
        rows.append(Row("avail", "AVAIL", "zfs list POOL", avail, pool.zfs_avail_after_bytes, exact_avail))
    alloc = reported.get("zpool_alloc_bytes")
    if isinstance(alloc, int):
        model_alloc = pool.allocated_bytes + pool.initial_used_bytes
        exact = bool(reported.get("zpool_size_exact", True))
        rows.append(Row("alloc", "ALLOC", "zpool list", alloc, model_alloc, exact))
    vdevs = {v.index: v for v in estimate.vdevs}
    for v in reported.get("vdevs") or []:
        if not isinstance(v, Mapping) or v.get("index") not in vdevs:
            continue
        if not isinstance(v.get("zpool_size_bytes"), int):
            continue
        model = vdevs[int(v["index"])].zpool_size_bytes
        rows.append(Row(f"vdev-{v['index']}", f"SIZE of {v.get('name')}", "zpool list -v", int(v["zpool_size_bytes"]),
                        model, bool(v.get("exact", True)), _fitted(document, f"reports for {v.get('name')}")))
    datasets = {d.name: d for d in estimate.datasets}
    for name, rep in (reported.get("datasets") or {}).items():
        est = datasets.get(name)
        if est is None or not isinstance(rep, Mapping) or not isinstance(rep.get("referenced_bytes"), int):
            continue
        if rep["referenced_bytes"] < MIN_DATASET_BYTES:
            continue  # a few hundred KiB of metadata: its difference says nothing
        rows.append(Row(f"dataset-{name}", f"REFER of {name}", "zfs list", int(rep["referenced_bytes"]),
                        est.referenced_bytes))
    return rows


# --------------------------------------------------------------------------- layouts

# The roles whose vdevs make up SIZE, AVAIL and ALLOC: a log, cache or spare changes none of the figures compared.
CAPACITY_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)
_LAYOUT_WORDS = {Layout.STRIPE: "single-disk vdevs", Layout.MIRROR: "mirrors"}


def _shape_key(groups: Sequence[VdevGroup]) -> list[tuple[str, int, int, int | None, int | None]]:
    return sorted((g.layout.value, g.width, g.count, g.draid_data, g.draid_spares) for g in groups)


def _role_words(role: Role, groups: Sequence[VdevGroup], *, disks_word: bool, shapes: bool) -> str:
    """``8 disks in raidz2``, ``2 special disks in mirrors``, ``12 disks in raidz2 (2 × 6-wide raidz2)``; the
    ``disks`` word left out for the second half of a sentence ("the pool 6 in raidz2")."""
    if not groups:
        return "none" if not disks_word else f"no {'' if role == Role.DATA else role.value + ' '}vdevs"
    disks = sum(g.width * g.count for g in groups)
    layouts = list(dict.fromkeys(_LAYOUT_WORDS.get(g.layout, g.layout.value) for g in groups))
    noun = ("" if role == Role.DATA else f"{role.value} ") + ("disk" if disks == 1 else "disks")
    words = f"{disks} {noun + ' ' if disks_word else ''}in {' and '.join(layouts)}"
    return f"{words} ({' + '.join(describe_group(g) for g in groups)})" if shapes else words


def layout_difference(design: Design, pool: Design) -> str | None:
    """How the vdevs of ``design`` differ from those of the imported ``pool`` in the roles that make up the
    compared figures, as a sentence ("the design has 8 disks in raidz2, the pool 6 in raidz2: the figures
    compare different layouts"); None when they have the same layout (disk sizes may still differ)."""
    parts = []
    for role in CAPACITY_ROLES:
        mine = [g for g in design.vdevs if g.role == role]
        theirs = [g for g in pool.vdevs if g.role == role]
        if _shape_key(mine) == _shape_key(theirs):
            continue
        plain = (_role_words(role, mine, disks_word=True, shapes=False),
                 _role_words(role, theirs, disks_word=True, shapes=False))
        shapes = plain[0] == plain[1]  # the same disks in the same kind of vdev, grouped otherwise
        first = _role_words(role, mine, disks_word=True, shapes=shapes)
        second = _role_words(role, theirs, disks_word=not mine, shapes=shapes)
        parts.append(f"the design has {first}, the pool {'has ' if not mine else ''}{second}")
    if not parts:
        return None
    return "; ".join(parts) + ": the figures compare different layouts"
