"""Planning assumptions: what the reliability, performance and special-sizing figures rest on.

A design may set them at its top level (``spec/design-format.md``, "Additions"):

```json
"special_headroom_fraction": 0.25,
"reliability": {"afr": {"ST14000NM001G": 0.0157, "ssd": 0.01}, "ure_per_bit": {"hdd": 1e-15},
                "fill_fraction": 0.8, "rebuild_bytes_per_s": {"vdevs[0]": 200000000},
                "replacement_hours": 24},
"performance": {"disk": {"ST14000NM001G": {"random_read_iops": 170, "seq_read_bytes_per_s": 250000000}}}
```

Keys of ``afr`` and ``performance.disk`` are disk models, or a media class (``hdd``,
``ssd``, ``nvme``) for every disk of that class without a model-specific value. Anything
not given falls back to figures from outside the design (the catalog or an imported
benchmark of that disk model, passed in as :class:`DriveInputs`), then to the defaults
below, which are stated with their source in every estimate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

MEDIA_CLASSES = ("hdd", "ssd", "nvme")

# Annualized failure rates. HDD: Backblaze Drive Stats for 2024, all data drives (1.57 %,
# about 300,000 drives). SSD: Backblaze Drive Stats, SSD edition for 2022 (boot SSDs, 0.98 %).
DEFAULT_AFR = {"hdd": 0.0157, "ssd": 0.0098, "nvme": 0.0098}
AFR_SOURCE = {
    "hdd": "Backblaze Drive Stats for 2024, all data drives",
    "ssd": "Backblaze Drive Stats SSD edition for 2022 (boot SSDs)",
    "nvme": "Backblaze Drive Stats SSD edition for 2022 (boot SSDs)",
}
# Unrecoverable read errors per bit read: the usual data-sheet classes (enterprise HDD 1 in
# 10^15; desktop and many NAS HDDs state 1 in 10^14; SATA SSD 10^16; enterprise NVMe 10^17).
DEFAULT_URE_PER_BIT = {"hdd": 1e-15, "ssd": 1e-16, "nvme": 1e-17}
DEFAULT_FILL_FRACTION = 0.8
# Hours from a disk failing to its replacement starting to resilver when the pool has no
# hot spare (a hot spare or a dRAID distributed spare starts at once).
DEFAULT_REPLACEMENT_HOURS = 24.0
DEFAULT_SPECIAL_HEADROOM = 0.25
HOURS_PER_YEAR = 8766.0  # 365.25 days

_VDEV_KEY = re.compile(r"^vdevs\[(\d+)\]$")


@dataclass(frozen=True)
class DriveFigures:
    """Per-disk performance figures; ``None`` where the source does not say.

    ``random_*_iops`` are 4 KiB random at queue depth 32, ``*_qd1`` at depth 1;
    ``seq_*`` are 1 MiB streaming (the outer-track maximum for an HDD, as data sheets
    give it); ``sync_write_iops`` is 4 KiB writes each followed by a cache flush, one at
    a time (what a ZIL commit does).
    """

    random_read_iops: float | None = None
    random_read_iops_qd1: float | None = None
    random_write_iops: float | None = None
    random_write_iops_qd1: float | None = None
    seq_read_bytes_per_s: float | None = None
    seq_write_bytes_per_s: float | None = None
    sync_write_iops: float | None = None
    source: str = ""

    def over(self, base: DriveFigures) -> DriveFigures:
        """These figures where given, ``base`` elsewhere; the source names both when mixed."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "source"}
        merged = {k: v if v is not None else getattr(base, k) for k, v in values.items()}
        used_self = any(v is not None for v in values.values())
        used_base = any(v is None and getattr(base, k) is not None for k, v in values.items())
        sources = [s for s, used in ((self.source, used_self), (base.source, used_base)) if used and s]
        return DriveFigures(**merged, source=" + ".join(dict.fromkeys(sources)))


FIGURE_KEYS = tuple(f.name for f in fields(DriveFigures) if f.name != "source")


@dataclass(frozen=True)
class DriveInputs:
    """Figures from outside the design for one disk model: the catalog and imported benchmarks."""

    afr: float | None = None
    afr_source: str = ""
    figures: DriveFigures = field(default_factory=DriveFigures)


@dataclass(frozen=True)
class PlanningInputs:
    """Per-model inputs the web app looks up (catalog rows, benchmark runs of that model)."""

    drives: Mapping[str, DriveInputs] = field(default_factory=dict)


@dataclass(frozen=True)
class ReliabilitySettings:
    afr: Mapping[str, float] = field(default_factory=dict)
    ure_per_bit: Mapping[str, float] = field(default_factory=dict)
    fill_fraction: float | None = None
    rebuild_bytes_per_s: Mapping[int, float] = field(default_factory=dict)  # by design vdev group
    replacement_hours: float | None = None


MAX_HORIZON_YEARS = 10
MAX_GROWTH_PER_YEAR = 5.0  # 500 % a year: beyond that a plan over years means little
DEFAULT_WIDEN_BY = 1


@dataclass(frozen=True)
class GrowthSettings:
    """How the data grows (the design's ``growth``): ``per_year`` a constant rate (0.3: 30 % more
    each year), over ``horizon_years`` (1 to 10), and ``fill_limit``, the fill the pool should stay
    under. Optional: ``widen_by`` (disks each RAIDZ vdev gains when widened), ``larger_disk_bytes``
    (the size of the disks that replace the present ones; default twice theirs) and
    ``price_change_per_year`` (-0.1: disk prices fall 10 % a year) and ``energy_price_per_kwh`` (what a
    kilowatt-hour costs, in the currency of the disks' prices)."""

    per_year: float
    horizon_years: int
    fill_limit: float
    widen_by: int = DEFAULT_WIDEN_BY
    larger_disk_bytes: int | None = None
    price_change_per_year: float = 0.0
    energy_price_per_kwh: float | None = None


MAX_ENERGY_PRICE_PER_KWH = 100.0  # in any currency a kilowatt-hour costs less than that


@dataclass(frozen=True)
class PlanningSettings:
    special_headroom_fraction: float = DEFAULT_SPECIAL_HEADROOM
    reliability: ReliabilitySettings = field(default_factory=ReliabilitySettings)
    disk_figures: Mapping[str, DriveFigures] = field(default_factory=dict)
    ram_bytes: int | None = None
    growth: GrowthSettings | None = None


class PlanningError(ValueError):
    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = errors
        super().__init__("; ".join(f"{p}: {m}" for p, m in errors))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


class _Errors:
    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def fraction(self, value: Any, path: str, *, lo: float, hi: float, lo_open: bool = True) -> float | None:
        v = _number(value)
        below = v is not None and (v <= lo if lo_open else v < lo)
        if v is None or below or v > hi:
            bound = f"{'above' if lo_open else 'at least'} {lo:g} and at most {hi:g}"
            self.items.append((path, f"must be a number {bound} (got {value!r})"))
            return None
        return v

    def mapping(self, value: Any, path: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.items.append((path, "must be an object"))
            return {}
        return value


def _read_reliability(e: _Errors, raw: Any, groups: int) -> ReliabilitySettings:
    d = e.mapping(raw, "reliability")
    afr: dict[str, float] = {}
    for key, value in e.mapping(d.get("afr", {}), "reliability.afr").items():
        v = e.fraction(value, f"reliability.afr.{key}", lo=0.0, hi=1.0)
        if v is not None:
            afr[str(key)] = v
    ure: dict[str, float] = {}
    for key, value in e.mapping(d.get("ure_per_bit", {}), "reliability.ure_per_bit").items():
        if key not in MEDIA_CLASSES:
            e.items.append((f"reliability.ure_per_bit.{key}", f"must be one of {', '.join(MEDIA_CLASSES)}"))
            continue
        v = e.fraction(value, f"reliability.ure_per_bit.{key}", lo=0.0, hi=1e-6, lo_open=False)
        if v is not None:
            ure[key] = v
    fill = None
    if d.get("fill_fraction") is not None:
        fill = e.fraction(d["fill_fraction"], "reliability.fill_fraction", lo=0.0, hi=1.0)
    rebuild: dict[int, float] = {}
    for key, value in e.mapping(d.get("rebuild_bytes_per_s", {}), "reliability.rebuild_bytes_per_s").items():
        path = f"reliability.rebuild_bytes_per_s.{key}"
        m = _VDEV_KEY.match(str(key))
        if m is None or int(m.group(1)) >= groups:
            e.items.append((path, f"the key must name a vdev group of the design, vdevs[0] to vdevs[{groups - 1}]"))
            continue
        v = e.fraction(value, path, lo=0.0, hi=1e12)
        if v is not None:
            rebuild[int(m.group(1))] = v
    hours = None
    if d.get("replacement_hours") is not None:
        hours = e.fraction(d["replacement_hours"], "reliability.replacement_hours", lo=0.0, hi=24 * 365, lo_open=False)
    return ReliabilitySettings(afr, ure, fill, rebuild, hours)


def _read_figures(e: _Errors, raw: Any, path: str) -> DriveFigures:
    d = e.mapping(raw, path)
    values: dict[str, float] = {}
    for key, value in d.items():
        if key == "source":
            continue
        if key not in FIGURE_KEYS:
            e.items.append((f"{path}.{key}", f"is not a disk figure; use {', '.join(FIGURE_KEYS)}"))
            continue
        v = e.fraction(value, f"{path}.{key}", lo=0.0, hi=1e13)
        if v is not None:
            values[key] = v
    return DriveFigures(**values, source="design")


def _whole(e: _Errors, value: Any, path: str, *, lo: int, hi: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        e.items.append((path, f"must be a whole number from {lo} to {hi} (got {value!r})"))
        return None
    return int(value)


def _read_growth(e: _Errors, raw: Any) -> GrowthSettings | None:
    d = e.mapping(raw, "growth")
    known = (
        "per_year",
        "horizon_years",
        "fill_limit",
        "widen_by",
        "larger_disk_bytes",
        "price_change_per_year",
        "energy_price_per_kwh",
    )
    for key in d:
        if key not in known:
            e.items.append((f"growth.{key}", f"is not a growth setting; use {', '.join(known)}"))
    missing = [k for k in known[:3] if k not in d]
    for k in missing:
        e.items.append((f"growth.{k}", "is required"))
    if missing:
        return None
    per_year = e.fraction(d["per_year"], "growth.per_year", lo=0.0, hi=MAX_GROWTH_PER_YEAR, lo_open=False)
    horizon = _whole(e, d["horizon_years"], "growth.horizon_years", lo=1, hi=MAX_HORIZON_YEARS)
    limit = e.fraction(d["fill_limit"], "growth.fill_limit", lo=0.0, hi=1.0)
    widen = _whole(e, d.get("widen_by", DEFAULT_WIDEN_BY), "growth.widen_by", lo=1, hi=16)
    larger = None
    if d.get("larger_disk_bytes") is not None:
        larger = _whole(e, d["larger_disk_bytes"], "growth.larger_disk_bytes", lo=1, hi=2**60)
    change = 0.0
    if d.get("price_change_per_year") is not None:
        v = e.fraction(d["price_change_per_year"], "growth.price_change_per_year", lo=-0.9, hi=1.0, lo_open=False)
        change = v if v is not None else 0.0
    energy = None
    if d.get("energy_price_per_kwh") is not None:
        energy = e.fraction(
            d["energy_price_per_kwh"], "growth.energy_price_per_kwh", lo=0.0, hi=MAX_ENERGY_PRICE_PER_KWH, lo_open=False
        )
    if per_year is None or horizon is None or limit is None or widen is None:
        return None
    return GrowthSettings(per_year, horizon, limit, widen, larger, change, energy)


def read_growth(raw: Any) -> GrowthSettings:
    """A growth block read on its own, by the rule of the design's ``growth`` (the layout advisor
    takes one too); :class:`PlanningError` names each bad field (``growth.per_year``, …)."""
    e = _Errors()
    growth = _read_growth(e, raw)
    if e.items or growth is None:
        raise PlanningError(e.items or [("growth", "must be an object")])
    return growth


def read_planning(extra: Mapping[str, Any], groups: int, ram_bytes: int | None = None) -> PlanningSettings:
    """The planning settings of a design's top-level keys; :class:`PlanningError` names each bad field.

    ``groups`` is the number of vdev groups (``rebuild_bytes_per_s`` keys must name one);
    ``ram_bytes``: the host's RAM (the design's ``host``, read with the document).
    """
    e = _Errors()
    headroom = DEFAULT_SPECIAL_HEADROOM
    if extra.get("special_headroom_fraction") is not None:
        v = e.fraction(extra["special_headroom_fraction"], "special_headroom_fraction", lo=0.0, hi=4.0, lo_open=False)
        headroom = v if v is not None else headroom
    reliability = ReliabilitySettings()
    if "reliability" in extra:
        reliability = _read_reliability(e, extra["reliability"], groups)
    disk: dict[str, DriveFigures] = {}
    if "performance" in extra:
        perf = e.mapping(extra["performance"], "performance")
        for model, raw in e.mapping(perf.get("disk", {}), "performance.disk").items():
            disk[str(model)] = _read_figures(e, raw, f"performance.disk.{model}")
    growth = _read_growth(e, extra["growth"]) if extra.get("growth") is not None else None
    if e.items:
        raise PlanningError(e.items)
    return PlanningSettings(headroom, reliability, disk, ram_bytes, growth)


def planning_errors(extra: Mapping[str, Any], groups: int) -> list[tuple[str, str]]:
    try:
        read_planning(extra, groups)
    except PlanningError as exc:
        return exc.errors
    return []


# --------------------------------------------------------------------------- per-disk defaults


def media_class(media: str | None) -> str:
    """The disk's media class; a disk that does not say is taken for an HDD (the cautious choice)."""
    return media if media in MEDIA_CLASSES else "hdd"


def default_figures(media: str | None, rpm: int | None, plp: bool | None) -> DriveFigures:
    """Typical figures of a disk class (what the estimate uses without catalog or benchmark figures).

    HDD, 7200 rpm: about 12 ms per random I/O at depth 1 (seek + half a turn), about twice
    that rate with command queueing, 250 MB/s on the outer tracks; 5400 rpm a quarter
    slower. Every HDD sync write waits for a cache flush. SATA SSD: SATA 6 Gb/s limits
    streaming to about 550 MB/s. NVMe: PCIe 4 x4 class. SSDs without power-loss
    protection must flush their cache on every sync write, which costs most of their speed.
    """
    cls = media_class(media)
    if cls == "hdd":
        slow = rpm is not None and 0 < rpm < 7200
        k = 0.75 if slow else 1.0
        return DriveFigures(
            random_read_iops=180 * k,
            random_read_iops_qd1=80 * k,
            random_write_iops=200 * k,
            random_write_iops_qd1=120 * k,
            seq_read_bytes_per_s=250e6 * (0.72 if slow else 1.0),
            seq_write_bytes_per_s=250e6 * (0.72 if slow else 1.0),
            sync_write_iops=100 * k,
            source=f"media default (hdd, {'5400' if slow else '7200'} rpm)",
        )
    if cls == "ssd":
        return DriveFigures(
            random_read_iops=90_000,
            random_read_iops_qd1=10_000,
            random_write_iops=80_000,
            random_write_iops_qd1=30_000,
            seq_read_bytes_per_s=530e6,
            seq_write_bytes_per_s=500e6,
            sync_write_iops=20_000 if plp else 1_500,
            source=f"media default (ssd, {'with' if plp else 'without'} power-loss protection)",
        )
    return DriveFigures(
        random_read_iops=500_000,
        random_read_iops_qd1=14_000,
        random_write_iops=200_000,
        random_write_iops_qd1=50_000,
        seq_read_bytes_per_s=3.0e9,
        seq_write_bytes_per_s=2.0e9,
        sync_write_iops=50_000 if plp else 3_000,
        source=f"media default (nvme, {'with' if plp else 'without'} power-loss protection)",
    )


def drive_key(model: str | None, media: str | None) -> str:
    """How assumptions name a disk: its model, or its media class when it has none."""
    return model or media_class(media)


def resolve_figures(
    model: str | None,
    media: str | None,
    rpm: int | None,
    plp: bool | None,
    settings: PlanningSettings,
    inputs: PlanningInputs | None,
) -> DriveFigures:
    """Design value > catalog/benchmark of the model > the design's media-class value > media default."""
    base = default_figures(media, rpm, plp)
    by_media = settings.disk_figures.get(media_class(media))
    if by_media is not None:
        base = by_media.over(base)
    if inputs is not None and model and model in inputs.drives:
        base = inputs.drives[model].figures.over(base)
    if model and model in settings.disk_figures:
        base = settings.disk_figures[model].over(base)
    return base


def resolve_afr(
    model: str | None, media: str | None, settings: PlanningSettings, inputs: PlanningInputs | None
) -> tuple[float, str]:
    """The disk's annualized failure rate and where it comes from (same precedence as figures)."""
    cls = media_class(media)
    afr = settings.reliability.afr
    if model and model in afr:
        return afr[model], "design"
    if inputs is not None and model and model in inputs.drives and inputs.drives[model].afr is not None:
        d = inputs.drives[model]
        assert d.afr is not None
        return d.afr, d.afr_source or "catalog"
    if cls in afr:
        return afr[cls], "design"
    return DEFAULT_AFR[cls], AFR_SOURCE[cls]


def resolve_ure(media: str | None, settings: PlanningSettings) -> tuple[float, str]:
    cls = media_class(media)
    if cls in settings.reliability.ure_per_bit:
        return settings.reliability.ure_per_bit[cls], "design"
    return DEFAULT_URE_PER_BIT[cls], "data-sheet class default"

