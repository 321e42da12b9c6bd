"""Which layout to buy: every sensible layout of some disks, with what each gives.

Given one or more candidate disks (a model and how many of them, with a price) and the
data (size now, yearly growth, the horizon in years, and optionally a file-size
histogram), :func:`advise` lists the layouts worth considering for each candidate:

* mirrors, 2- and 3-way, when the count divides evenly;
* raidz1, raidz2 and raidz3 at every width that divides the count, from ``parity + 2``
  disks up to the width the ``wide-raidz`` rule still accepts (``4 × (parity + 1)``);
* dRAID1-3 across all the disks (8 data disks per group, or fewer when the count is
  small) with one distributed spare (two from 24 disks), from 8 disks up.

Each row is estimated with the same engine as a design (pool capacity, the data written
at the horizon, reliability, performance) and carries the design that builds it (a typed
``Design``, written as a document only where it leaves: :meth:`Row.as_dict`), so it can be saved
as it is (with the price per disk the user typed).

With a growth block (``Options.growth``, the design format's ``growth``: ``{"per_year": 0.3,
"horizon_years": 5, "fill_limit": 0.8}``, read by the same rule), each row also gives its
``cost_per_usable_tb_year`` over the horizon: the timeline of the layout holding the data of now
(:mod:`.estimate.timeline`, the same figure as the design's ``timeline.cost_per_usable_tb_year``).
A layout of two or more vdevs then gets a second row, path ``add-vdev-later``: one vdev fewer
now, and the timeline's ``add-vdev`` option bought when the fill limit is reached, priced by that
option's ``cost_per_usable_tb_year``. That row applies when the smaller pool reaches the limit
within the horizon, and not already now; its figures are the layout's own (the pool it ends as),
its cost what both purchases cost, and its design the smaller pool with the data of now
and the growth block, whose timeline shows when to add the vdev.

Each row also carries its ``loss_level``: ``"critical"`` when the chance of losing some data
within five years is :data:`LOSS_CRITICAL` (10 %) or more, ``"warning"`` from
:data:`LOSS_WARNING` (1 %), else ``"ok"``. Sorting never puts a critical row above one that
is not: a layout that loses data one time in ten is no bargain whatever it costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from .capacity.pool import pool_capacity
from .design.planning import PlanningError, PlanningInputs, read_growth
from .design.types import (
    COMPRESSIBILITY_PROFILES,
    COMPRESSION_VALUES,
    PARITY,
    Compressibility,
    Contents,
    Dataset,
    Design,
    Disk,
    Layout,
    Role,
    VdevGroup,
)
from .document.checks import design_errors
from .document.export import design_to_document
from .document.limits import DRAID_MAX_CHILDREN, MAX_FILES, MAX_HISTOGRAM_BUCKETS, size_error
from .estimate import dataset_usages, estimate
from .estimate.timeline_figures import OptionKind, TimelineFigures
from .geometry.draid import draid_default_data
from .planning.context import context
from .planning.reliability_section import reliability_section
from .planning.sections import performance_section
from .units import is_power_of_two
from .versions import NEWEST_RELEASE, Version

MAX_DISKS = 1000
# The chance of losing some data within five years (reliability's ``data_loss_probability["5y"]``)
# from which a layout is marked. 1 %: one pool in a hundred loses files over a disk's service life,
# the level at which people who keep backups start to ask for more parity. 10 %: one in ten, a
# layout no one would choose knowingly (wide raidz1 of large disks lands here).
LOSS_WARNING = 0.01
LOSS_CRITICAL = 0.10


class GrowthPath(StrEnum):
    """How a row buys its disks over the horizon."""

    ALL_NOW = "all-now"
    ADD_VDEV_LATER = "add-vdev-later"  # one vdev fewer now, one more when the fill limit is reached


class LossLevel(StrEnum):
    """How a layout's five-year chance of losing some data is marked."""

    OK = "ok"
    WARNING = "warning"  # from LOSS_WARNING
    CRITICAL = "critical"  # from LOSS_CRITICAL: listed after every other layout

MIN_DRAID_DISKS = 8
SORT_KEYS = (
    "usable_bytes",
    "fault_tolerance",
    "loss_5y",
    "pool_loss_5y",
    "resilver_seconds",
    "random_read_iops",
    "random_write_iops",
    "seq_read_bytes_per_s",
    "seq_write_bytes_per_s",
    "cost_per_usable_tb",
    "cost_per_usable_tb_year",
)
# Sorting puts the best first: most space, most tolerance, least risk, fastest, cheapest.
DESCENDING = {
    "usable_bytes",
    "fault_tolerance",
    "random_read_iops",
    "random_write_iops",
    "seq_read_bytes_per_s",
    "seq_write_bytes_per_s",
}


class AdvisorError(ValueError):
    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{p}: {m}" for p, m in self.errors))


@dataclass(frozen=True)
class Candidate:
    """``count`` disks ``disk`` (read where it comes in: ``document.parts.disk_from_document``), at ``price`` each."""

    disk: Disk
    count: int
    price: float | None = None
    currency: str = ""
    label: str = ""
    price_typed: bool = False  # the user gave the price: the design document keeps it (``price_per_disk``)


@dataclass(frozen=True)
class DataNeeds:
    logical_bytes: int
    growth_per_year: float = 0.0  # 0.2 = 20 % a year
    years: int = 0
    file_size_histogram: tuple[tuple[int, int], ...] | None = None
    file_count: int | None = None
    recordsize: int = 1 << 20
    compression: str = "lz4"
    profile: str | None = None

    @property
    def at_horizon(self) -> float:
        """Growth factor at the horizon."""
        return (1 + self.growth_per_year) ** self.years


@dataclass(frozen=True)
class Options:
    openzfs_version: Version = NEWEST_RELEASE  # the newest release the planner knows
    pool_name: str = "tank"
    max_fill: float = 0.8  # a layout "fits" when the data at the horizon stays below this fill
    extra: Mapping[str, Any] = field(default_factory=dict)  # reliability/performance settings for every row
    growth: Mapping[str, Any] | None = None  # a growth block as a design gives it: cost per usable TB-year


@dataclass(frozen=True)
class Shape:
    layout: Layout
    width: int
    count: int
    draid_data: int | None = None
    draid_spares: int | None = None

    @property
    def label(self) -> str:
        if self.layout == Layout.MIRROR:
            return f"{self.count} × {self.width}-way mirror"
        if self.draid_data is not None:
            return f"{self.layout.value}:{self.draid_data}d:{self.width}c:{self.draid_spares}s"
        return f"{self.count} × {self.layout.value} of {self.width}"

    @property
    def fault_tolerance(self) -> int:
        return self.width - 1 if self.layout == Layout.MIRROR else PARITY[self.layout]


def layouts(n: int) -> list[Shape]:
    """The sensible layouts of ``n`` identical disks (see the module docstring)."""
    out: list[Shape] = []
    for way in (2, 3):
        if n >= way and n % way == 0:
            out.append(Shape(Layout.MIRROR, way, n // way))
    for layout in (Layout.RAIDZ1, Layout.RAIDZ2, Layout.RAIDZ3):
        p = PARITY[layout]
        for w in range(p + 2, min(n, 4 * (p + 1)) + 1):
            if n % w == 0:
                out.append(Shape(layout, w, n // w))
    if MIN_DRAID_DISKS <= n <= DRAID_MAX_CHILDREN:
        spares = 2 if n >= 24 else 1
        for layout in (Layout.DRAID1, Layout.DRAID2, Layout.DRAID3):
            p = PARITY[layout]
            if n - spares - p >= 2:
                out.append(Shape(layout, n, 1, draid_default_data(n, spares, p), spares))
    return out


def row_design(
    candidate: Candidate, shape: Shape, needs: DataNeeds, options: Options, growth: Mapping[str, Any] | None = None
) -> Design:
    """The design of one row: the layout, and the data as it will be at the horizon (with the growth
    block ``growth``, when given)."""
    price = Decimal(f"{candidate.price:.2f}") if candidate.price_typed and candidate.price is not None else None
    group = VdevGroup(
        role=Role.DATA,
        layout=shape.layout,
        width=shape.width,
        disks=(candidate.disk,) * shape.width,
        count=shape.count,
        draid_data=shape.draid_data,
        draid_spares=shape.draid_spares,
        price_per_disk=price,
    )
    factor = needs.at_horizon
    histogram = file_count = None
    if needs.file_size_histogram:
        histogram = tuple((s, max(int(round(c * factor)), 1)) for s, c in needs.file_size_histogram)
    elif needs.file_count:
        file_count = int(needs.file_count * factor)
    contents = Contents(
        logical_bytes=int(needs.logical_bytes * factor),
        file_count=file_count,
        file_size_histogram=histogram,
        compressibility=Compressibility(profile=needs.profile) if needs.profile else None,
    )
    data = Dataset(
        name=f"{options.pool_name}/data", recordsize=needs.recordsize, compression=needs.compression, contents=contents
    )
    extra = {**options.extra, **({"growth": dict(growth)} if growth is not None else {})}
    return Design(
        name=options.pool_name,
        vdevs=(group,),
        datasets=(data,),
        openzfs_version=options.openzfs_version,
        description=f"{shape.label} of {candidate.label or candidate.disk.model or 'disks'} (layout advisor)",
        extra=extra,
    )


@dataclass(frozen=True)
class Row:
    candidate: str
    layout: str
    vdev_layout: str
    width: int
    vdevs: int
    disks: int
    draid_data: int | None
    draid_spares: int | None
    usable_bytes: int
    fault_tolerance: int
    data_used_bytes: int
    fill_fraction: float
    fits: bool
    loss_1y: float
    loss_5y: float
    pool_loss_5y: float
    mttdl_hours: float | None
    resilver_seconds: float | None
    random_read_iops: float
    random_write_iops: float
    seq_read_bytes_per_s: float
    seq_write_bytes_per_s: float
    cost: float | None
    currency: str
    cost_per_usable_tb: float | None
    loss_level: LossLevel
    design: Design
    path: GrowthPath = GrowthPath.ALL_NOW
    cost_per_usable_tb_year: float | None = None  # over the growth block's horizon (None: no block or no price)
    add_vdev_at_years: float | None = None  # add-vdev-later: years from now until the vdev is added

    def as_dict(self) -> dict[str, Any]:
        """The row as the API gives it: its figures, and its design as a document (``document``)."""
        return {
            "document" if k == "design" else k: design_to_document(self.design) if k == "design" else getattr(self, k)
            for k in self.__dataclass_fields__
        }


def loss_level(loss_5y: float) -> LossLevel:
    """How a five-year chance of losing some data is marked (:data:`LOSS_WARNING`, :data:`LOSS_CRITICAL`)."""
    if loss_5y >= LOSS_CRITICAL:
        return LossLevel.CRITICAL
    return LossLevel.WARNING if loss_5y >= LOSS_WARNING else LossLevel.OK


def _row(candidate: Candidate, shape: Shape, needs: DataNeeds, options: Options, inputs: PlanningInputs | None) -> Row:
    design = _checked(row_design(candidate, shape, needs, options))
    pool = pool_capacity(design)
    usages = dataset_usages(design, pool)
    ctx = context(design, inputs)
    _, rel = reliability_section(ctx, pool, usages)
    _, perf = performance_section(ctx)
    usable = pool.zfs_avail_bytes
    used = sum(u.zfs_used_bytes for u in usages)
    cost = candidate.price * candidate.count if candidate.price is not None else None
    group: VdevGroup = design.vdevs[0]
    return Row(
        candidate=candidate.label or candidate.disk.model or "disk",
        layout=shape.label,
        vdev_layout=shape.layout.value,
        width=shape.width,
        vdevs=shape.count,
        disks=group.width * group.count,
        draid_data=shape.draid_data,
        draid_spares=shape.draid_spares,
        usable_bytes=usable,
        fault_tolerance=shape.fault_tolerance,
        data_used_bytes=used,
        fill_fraction=used / usable if usable else 1.0,
        fits=used <= usable * options.max_fill,
        loss_1y=rel.loss_1y,
        loss_5y=rel.loss_5y,
        pool_loss_5y=rel.pool_loss_5y,
        mttdl_hours=rel.mttdl_hours,
        resilver_seconds=rel.longest_resilver_seconds,
        random_read_iops=perf.random_read_iops.high,
        random_write_iops=perf.random_write_iops.high,
        seq_read_bytes_per_s=perf.seq_read_bytes_per_s.high,
        seq_write_bytes_per_s=perf.seq_write_bytes_per_s.high,
        cost=cost,
        currency=candidate.currency,
        cost_per_usable_tb=_per_tb(cost, usable),
        loss_level=loss_level(rel.loss_5y),
        design=design,
    )


def _checked(design: Design) -> Design:
    """``design`` when it passes the rules spanning its parts (its parts are the advisor's checked
    inputs); :class:`AdvisorError` in the advisor's own names otherwise."""
    errors = design_errors(design)
    if errors:
        raise AdvisorError(errors)
    return design


def _per_tb(cost: float | None, usable: int) -> float | None:
    return cost / (usable / 1e12) if cost is not None and usable > 0 else None


def _timeline(
    candidate: Candidate, shape: Shape, needs: DataNeeds, options: Options, inputs: PlanningInputs | None
) -> tuple[Design, TimelineFigures | None]:
    """The layout holding the data of now with the growth block, and its timeline priced at the
    candidate's price (the estimate's own: :func:`.estimate.estimate`); the design keeps the
    price only when the user typed it, as every row's does."""
    now, growth = replace(needs, years=0), options.growth or {}
    design = _checked(row_design(candidate, shape, now, options, growth))
    priced = row_design(replace(candidate, price_typed=True), shape, now, options, growth)
    return design, estimate(priced, inputs).timeline


def _growth_rows(
    row: Row, candidate: Candidate, shape: Shape, needs: DataNeeds, options: Options, inputs: PlanningInputs | None
) -> list[Row]:
    """The row with its cost per usable TB-year, and its add-vdev-later row where that applies."""
    _, line = _timeline(candidate, shape, needs, options, inputs)
    out = [replace(row, cost_per_usable_tb_year=line.cost_per_usable_tb_year if line else None)]
    if shape.count < 2 or shape.draid_data is not None:
        return out
    fewer = replace(shape, count=shape.count - 1)
    design, smaller = _timeline(replace(candidate, count=candidate.count - shape.width), fewer, needs, options, inputs)
    add = next((o for o in smaller.options if o.kind == OptionKind.ADD_VDEV), None) if smaller else None
    if smaller is None or add is None or add.cost_per_usable_tb_year is None or not smaller.at_years:
        return out  # the smaller pool is past its limit now, or does not reach it within the horizon
    now = candidate.price * fewer.count * fewer.width if candidate.price is not None else None
    cost = now + add.cost if now is not None and add.cost is not None else None
    limit = f"{smaller.fill_limit * 100:g} %"
    out.append(
        replace(
            row,
            layout=f"{fewer.label} now, one more vdev at {limit} full (year {smaller.at_years:.1f})",
            path=GrowthPath.ADD_VDEV_LATER,
            cost=cost,
            cost_per_usable_tb=_per_tb(cost, row.usable_bytes),
            cost_per_usable_tb_year=add.cost_per_usable_tb_year,
            add_vdev_at_years=smaller.at_years,
            design=design,
        )
    )
    return out


def sort_rows(rows: Sequence[Row], key: str) -> list[Row]:
    """Best first by ``key`` (one of :data:`SORT_KEYS`); rows at a critical chance of data loss
    after the others, and rows without that figure last."""
    if key not in SORT_KEYS:
        raise AdvisorError([("sort", f"{key!r} is not one of {', '.join(SORT_KEYS)}")])
    have = [r for r in rows if getattr(r, key) is not None]
    missing = [r for r in rows if getattr(r, key) is None]
    have.sort(key=lambda r: getattr(r, key), reverse=key in DESCENDING)
    have.sort(key=lambda r: r.loss_level == LossLevel.CRITICAL)  # stable: each part keeps its order
    return have + missing


def _advisor_path(path: str, candidate: int, message: str) -> tuple[str, str]:
    """The advisor's own name for a field of the generated design."""
    replacements = (
        ("datasets[0].contents.", "data."),
        ("datasets[0].", "data."),
        ("vdevs[0].disk", f"candidates[{candidate}].disk"),
        ("reliability", "options.reliability"),
        ("performance", "options.performance"),
        ("special_headroom_fraction", "options.special_headroom_fraction"),
        ("name", "options.pool_name"),
    )
    for prefix, replacement in replacements:
        if path.startswith(prefix):
            return replacement + path[len(prefix) :], message
    return (path or f"candidates[{candidate}]"), message


def _data_errors(needs: DataNeeds) -> list[tuple[str, str]]:
    """What the design format refuses in the data's own fields, at the horizon (the dataset reader's
    rules: ``document.parts``; the limits: ``document.limits``)."""
    errors: list[tuple[str, str]] = []
    if needs.compression not in COMPRESSION_VALUES:
        message = f"{needs.compression!r} is not a ZFS compression value (e.g. lz4, zstd, off)"
        errors.append(("data.compression", message))
    if needs.profile is not None and needs.profile not in COMPRESSIBILITY_PROFILES:
        errors.append(
            ("data.compressibility.profile", f"{needs.profile!r} is not one of {', '.join(COMPRESSIBILITY_PROFILES)}")
        )
    factor = needs.at_horizon
    beyond = size_error(int(needs.logical_bytes * factor)) if needs.logical_bytes >= 0 else None
    if beyond is not None:
        errors.append(("data.logical_bytes", f"at the horizon: {beyond}"))
    histogram = needs.file_size_histogram or ()
    if len(histogram) > MAX_HISTOGRAM_BUCKETS:
        message = f"has {len(histogram):,} entries; at most {MAX_HISTOGRAM_BUCKETS:,}"
        errors.append(("data.file_size_histogram", message))
    files = max(c for _, c in histogram) if histogram else (needs.file_count or 0)
    if files * factor > MAX_FILES:
        errors.append(("data", f"counts more than {MAX_FILES:,} files at the horizon"))
    return errors


def advise(
    candidates: Sequence[Candidate],
    needs: DataNeeds,
    options: Options | None = None,
    inputs: PlanningInputs | None = None,
    sort: str = "cost_per_usable_tb",
) -> list[Row]:
    """Every sensible layout of every candidate, best first by ``sort``."""
    options = options or Options()
    errors: list[tuple[str, str]] = []
    for i, c in enumerate(candidates):
        if not 2 <= c.count <= MAX_DISKS:
            errors.append((f"candidates[{i}].count", f"must be from 2 to {MAX_DISKS} disks (got {c.count})"))
        if c.price is not None and c.price < 0:
            errors.append((f"candidates[{i}].price", "cannot be negative"))
    if not candidates:
        errors.append(("candidates", "give at least one disk model and count"))
    if needs.logical_bytes < 0:
        errors.append(("data.logical_bytes", "cannot be negative"))
    if not 0 <= needs.growth_per_year <= 10:
        errors.append(("data.growth_per_year", "must be a fraction from 0 to 10 (0.2 = 20 % a year)"))
    if not 0 <= needs.years <= 30:
        errors.append(("data.years", "must be from 0 to 30"))
    if not is_power_of_two(needs.recordsize) or not 512 <= needs.recordsize <= 16 << 20:
        errors.append(("data.recordsize", "must be a power of two from 512 to 16M"))
    errors.extend(_data_errors(needs))
    if options.growth is not None:
        try:
            read_growth(options.growth)  # the rule of the design's growth block
        except PlanningError as exc:
            errors.extend(exc.errors)
    if errors:
        raise AdvisorError(errors)
    rows: list[Row] = []
    for i, c in enumerate(candidates):
        for shape in layouts(c.count):
            try:
                row = _row(c, shape, needs, options, inputs)
                rows.extend(_growth_rows(row, c, shape, needs, options, inputs) if options.growth else [row])
            except AdvisorError as exc:  # name the advisor's own fields, not the generated design's
                raise AdvisorError([_advisor_path(path, i, message) for path, message in exc.errors]) from exc
    return sort_rows(rows, sort)

