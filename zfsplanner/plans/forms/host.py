"""The designer's "Host and planning" form: RAM, failure rates, read-error rates, the wait for a new
disk and the fill level, which the reliability and sizing figures rest on.

Each field is optional: empty inherits, and the field says what it inherits and where that
comes from ("default: 1.57 %/year, Backblaze Drive Stats for 2024"). The inherited values are
the core's own (``core.planning``: ``resolve_afr``, ``resolve_ure`` and the defaults), looked up
with the design's own overrides left out, so the form shows exactly what an empty field gives.

The form edits the document's ``host.ram_bytes`` and ``host.tunables`` (module parameters, one
``name=value`` a line, checked by the core's reader of the host) and its ``reliability`` object
(``afr`` by disk model or media class, ``ure_per_bit`` by media class, ``fill_fraction``,
``replacement_hours``), and its ``growth`` block (``per_year``, ``horizon_years``, ``fill_limit``,
``price_change_per_year``, ``energy_price_per_kwh``; an empty growth rate removes the block); every
other key of them is kept as it is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django import forms

from zfsplanner.core.design.planning import (
    DEFAULT_FILL_FRACTION,
    DEFAULT_REPLACEMENT_HOURS,
    MAX_ENERGY_PRICE_PER_KWH,
    PlanningInputs,
    PlanningSettings,
    drive_key,
    media_class,
    resolve_afr,
    resolve_ure,
)
from zfsplanner.core.design.types import Design, Role
from zfsplanner.core.document.export import host_to_document
from zfsplanner.core.document.parts import read_host
from zfsplanner.core.document.reader import key_values
from zfsplanner.core.report.words import power_of_ten
from zfsplanner.core.units import GIB, UnitError, parse_disk_size

from ..choices import media_label
from .parts import read_part

DEFAULT_HORIZON_YEARS = 5
DEFAULT_FILL_LIMIT = 0.8
RELIABILITY_ROLES = (Role.DATA, Role.SPECIAL, Role.DEDUP)  # the vdevs whose loss loses the pool
_POWER = re.compile(r"^\s*(?:1\s*(?:in|per)\s*)?(?:(10)\s*(?:\^|\*\*)\s*(\d+)|([0-9.]+(?:e\+?\d+)?))\s*(?:bits?)?\s*$",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Inherited:
    """What an empty field gives, in words, where it comes from, and as the field would take it."""

    value: str
    source: str
    typed: str = ""  # the default as one would type it, shown greyed in the empty field

    @property
    def help(self) -> str:
        return f"Default: {self.value} ({self.source})."


def _percent(v: float) -> str:
    return f"{100 * v:.3g} %"


def _bits_typed(per_bit: float) -> str:
    """Bits read per error as the field takes them: "10^15", else "2.5e+15"."""
    exponent = math.log10(1 / per_bit) if per_bit else math.inf
    return f"10^{exponent:.0f}" if math.isfinite(exponent) and exponent.is_integer() else f"{1 / per_bit:.3g}"


def _bits(per_bit: float) -> str:
    """Bits read per error in words: "1 per 10¹⁵ bits"."""
    exponent = math.log10(1 / per_bit) if per_bit else math.inf
    return f"1 per {power_of_ten(round(exponent))} bits" if math.isfinite(exponent) and exponent.is_integer() else (
        f"1 per {1 / per_bit:.3g} bits")


def afr_keys(spec: Design) -> dict[str, tuple[str | None, str | None]]:
    """The names the estimate gives the disks of the data, special and dedup vdevs: model or media class."""
    keys: dict[str, tuple[str | None, str | None]] = {}
    for group in spec.vdevs:
        if group.role not in RELIABILITY_ROLES:
            continue
        for d in group.disks:
            media = d.media.value if d.media else None
            keys.setdefault(drive_key(d.model, media), (d.model, media))
    return keys


def media_keys(spec: Design) -> list[str]:
    return list(dict.fromkeys(media_class(m) for _, m in afr_keys(spec).values()))


def inherited(spec: Design, inputs: PlanningInputs | None, has_contents: bool) -> dict[str, Inherited]:
    """What each field inherits: ``ram``, ``replacement_hours``, ``fill``, ``afr:<key>``, ``ure:<media>``."""
    bare = PlanningSettings()  # the design's own values left out: what an empty field falls back to
    out = {
        "ram": Inherited("not given", "the SLOG sizing then assumes the 4 GiB cap of zfs_dirty_data_max"),
        "replacement_hours": Inherited(f"{DEFAULT_REPLACEMENT_HOURS:g} h",
                                       "a new disk within a day; no wait with a hot spare",
                                       f"{DEFAULT_REPLACEMENT_HOURS:g}"),
        "fill": Inherited("the planned contents", "how full each vdev is with the datasets planned") if has_contents
        else Inherited(_percent(DEFAULT_FILL_FRACTION), "when no contents are planned",
                       f"{100 * DEFAULT_FILL_FRACTION:g}"),
    }
    for key, (model, media) in afr_keys(spec).items():
        afr, source = resolve_afr(model, media, bare, inputs)
        out[f"afr:{key}"] = Inherited(f"{_percent(afr)}/year", source, f"{100 * afr:.3g}")
    for media in media_keys(spec):
        ure, source = resolve_ure(media, bare)
        out[f"ure:{media}"] = Inherited(_bits(ure), source, _bits_typed(ure))
    return out


def _parse_bits(text: str) -> float:
    """"10^15", "1e15", "1 per 10^15 bits" -> 1e-15 (errors per bit read)."""
    m = _POWER.match(text)
    if not m:
        raise forms.ValidationError("Write the bits read per error, e.g. 10^15 or 1e15.")
    bits = 10.0 ** int(m.group(2)) if m.group(1) else float(m.group(3))
    if not 1e6 <= bits < math.inf:
        raise forms.ValidationError("At least 10^6 bits per error (data sheets say 10^14 to 10^17).")
    return 1 / bits


class HostPlanningForm(forms.Form):
    """The fields are built from the design: one failure rate per disk of a data/special/dedup vdev,
    one read-error rate per media class."""

    ram = forms.CharField(
        label="RAM of the host", required=False, max_length=40,
        widget=forms.TextInput(attrs={"placeholder": "e.g. 64 GiB", "inputmode": "decimal"}),
    )
    replacement_hours = forms.FloatField(
        label="Wait for a new disk (hours)", required=False, min_value=0, max_value=24 * 365,
        widget=forms.NumberInput(attrs={"step": "any"}),
    )
    fill_percent = forms.FloatField(
        label="Fill level at rebuild time (%)", required=False, min_value=0.1, max_value=100,
        widget=forms.NumberInput(attrs={"step": "any"}),
    )
    growth_percent = forms.FloatField(
        label="Data growth (% a year)", required=False, min_value=0, max_value=500,
        help_text="Empty: no growth plan. With it, the design page shows when the pool fills and how to grow it.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": "30"}),
    )
    horizon_years = forms.IntegerField(
        label="Over (years)", required=False, min_value=1, max_value=10,
        help_text=f"Default: {DEFAULT_HORIZON_YEARS} years.",
        widget=forms.NumberInput(attrs={"placeholder": str(DEFAULT_HORIZON_YEARS)}),
    )
    fill_limit_percent = forms.FloatField(
        label="Keep the pool under (% full)", required=False, min_value=1, max_value=100,
        help_text=f"Default: {100 * DEFAULT_FILL_LIMIT:g} %.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": f"{100 * DEFAULT_FILL_LIMIT:g}"}),
    )
    price_change_percent = forms.FloatField(
        label="Disk prices change (% a year)", required=False, min_value=-90, max_value=100,
        help_text="Negative when prices fall, e.g. -10. Default: unchanged.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": "0"}),
    )
    energy_price = forms.FloatField(
        label="Energy price (per kWh)", required=False, min_value=0, max_value=MAX_ENERGY_PRICE_PER_KWH,
        help_text="In the currency of the disk prices, for the power the disks draw. Default: not counted.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": "0.30"}),
    )
    tunables = forms.CharField(
        label="Module parameters", required=False, max_length=4000,
        help_text="One name=value a line, as in /etc/modprobe.d/zfs.conf (e.g. zfs_arc_max=8589934592). "
                  "Parameters that trade safety for speed (zfs_nocacheflush) are named among the risks.",
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false", "placeholder": "zfs_arc_max=8589934592"}),
    )
    def __init__(self, *args: Any, spec: Design, defaults: Mapping[str, Inherited], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.afr_fields: dict[str, str] = {}
        self.ure_fields: dict[str, str] = {}
        for i, key in enumerate(afr_keys(spec)):
            name = f"afr_{i}"
            self.afr_fields[name] = key
            self.fields[name] = forms.FloatField(
                label=f"Failure rate of {key} disks (%/year)", required=False, min_value=0.001, max_value=100,
                widget=forms.NumberInput(attrs={"step": "any"}),
            )
        for media in media_keys(spec):
            name = f"ure_{media}"
            self.ure_fields[name] = media
            self.fields[name] = forms.CharField(
                label=f"Read errors, {media_label(media)} (bits read per error)", required=False, max_length=40,
                widget=forms.TextInput(),
            )
        for name, key in (("ram", "ram"), ("replacement_hours", "replacement_hours"), ("fill_percent", "fill"),
                          *((n, f"afr:{k}") for n, k in self.afr_fields.items()),
                          *((n, f"ure:{m}") for n, m in self.ure_fields.items())):
            if key in defaults:
                self.fields[name].help_text = defaults[key].help
                if defaults[key].typed:
                    self.fields[name].widget.attrs["placeholder"] = defaults[key].typed

    @staticmethod
    def initial_from(spec: Design) -> dict[str, Any]:
        """The form's values from the design (empty where it inherits)."""
        rel = _block(spec, "reliability")
        initial: dict[str, Any] = {}
        ram = spec.host.ram_bytes
        if ram is not None and ram > 0:
            initial["ram"] = f"{ram // GIB} GiB" if ram % GIB == 0 else str(ram)
        if spec.host.tunables:
            initial["tunables"] = "\n".join(f"{k}={_tunable_text(v)}" for k, v in spec.host.tunables.items())
        if isinstance(rel.get("replacement_hours"), int | float):
            initial["replacement_hours"] = rel["replacement_hours"]
        if isinstance(rel.get("fill_fraction"), int | float):
            initial["fill_percent"] = round(100 * rel["fill_fraction"], 4)
        growth = _block(spec, "growth")
        for field, key, scale in (("growth_percent", "per_year", 100), ("horizon_years", "horizon_years", 1),
                                  ("fill_limit_percent", "fill_limit", 100),
                                  ("price_change_percent", "price_change_per_year", 100),
                                  ("energy_price", "energy_price_per_kwh", 1)):
            if isinstance(growth.get(key), int | float) and not isinstance(growth.get(key), bool):
                initial[field] = round(scale * growth[key], 4) if scale != 1 else growth[key]
        afr = rel.get("afr") if isinstance(rel.get("afr"), Mapping) else {}
        for i, key in enumerate(afr_keys(spec)):
            if isinstance(afr.get(key), int | float):
                initial[f"afr_{i}"] = round(100 * afr[key], 6)
        ure = rel.get("ure_per_bit") if isinstance(rel.get("ure_per_bit"), Mapping) else {}
        for media in media_keys(spec):
            v = ure.get(media)
            if isinstance(v, int | float) and v > 0:
                exponent = math.log10(1 / v)
                initial[f"ure_{media}"] = f"10^{exponent:.0f}" if abs(exponent - round(exponent)) < 1e-9 else (
                    f"{1 / v:.6g}")
        return initial

    def clean_ram(self) -> int | None:
        text = (self.cleaned_data.get("ram") or "").strip()
        if not text:
            return None
        try:
            return parse_disk_size(text.replace(" ", ""))
        except UnitError as exc:
            raise forms.ValidationError(f"{exc}. Write it with its unit, e.g. 64 GiB.") from exc

    def clean_tunables(self) -> dict[str, str] | None:
        text = (self.cleaned_data.get("tunables") or "").strip()
        if not text:
            return None
        try:
            return key_values(text)
        except ValueError as exc:
            raise forms.ValidationError(f"{str(exc).capitalize()}: write one name=value a line.") from exc

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in self.ure_fields:
            text = (data.get(name) or "").strip()
            if text:
                try:
                    data[name] = _parse_bits(text)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
            else:
                data[name] = None
        return data

    def apply(self, design: Design) -> Design:
        """``design`` with these fields set (or removed where empty); other host and reliability keys
        stay. The host is read by the core's reader (``InvalidDesign`` at ``host.tunables.<name>``);
        the planning blocks are checked with the whole design when it is saved."""
        d = self.cleaned_data
        host = host_to_document(design.host)
        _put(host, "ram_bytes", d.get("ram"))
        if "tunables" in d:
            given = d.get("tunables") or {}
            before = design.host.tunables
            # a value the design holds as a number stays a number when the field shows it unchanged
            _put(host, "tunables", {k: before[k] if k in before and _tunable_text(before[k]) == v else v
                                    for k, v in given.items()} or None)
        extra = dict(design.extra)
        rel = dict(_block(design, "reliability"))
        _put(rel, "replacement_hours", d.get("replacement_hours"))
        fill = d.get("fill_percent")
        _put(rel, "fill_fraction", round(fill / 100, 6) if fill is not None else None)
        afr = dict(rel.get("afr") or {}) if isinstance(rel.get("afr"), Mapping) else {}
        for name, key in self.afr_fields.items():
            v = d.get(name)
            _put(afr, key, round(v / 100, 8) if v is not None else None)
        ure = dict(rel.get("ure_per_bit") or {}) if isinstance(rel.get("ure_per_bit"), Mapping) else {}
        for name, media in self.ure_fields.items():
            _put(ure, media, d.get(name))
        _put(rel, "afr", afr or None)
        _put(rel, "ure_per_bit", ure or None)
        _put(extra, "reliability", rel or None)
        _put(extra, "growth", self._growth(extra.get("growth")))
        return replace(design, host=read_part(read_host, host, "host"), extra=extra)

    def _growth(self, before: Any) -> dict[str, Any] | None:
        """The growth block: none without a growth rate; the keys this form does not show stay."""
        d = self.cleaned_data
        if d.get("growth_percent") is None:
            return None
        growth = dict(before) if isinstance(before, Mapping) else {}
        growth["per_year"] = round(d["growth_percent"] / 100, 6)
        growth["horizon_years"] = d.get("horizon_years") or DEFAULT_HORIZON_YEARS
        limit = d.get("fill_limit_percent")
        growth["fill_limit"] = round(limit / 100, 6) if limit is not None else DEFAULT_FILL_LIMIT
        change = d.get("price_change_percent")
        _put(growth, "price_change_per_year", round(change / 100, 6) if change else None)
        _put(growth, "energy_price_per_kwh", d.get("energy_price"))
        return growth

    def field_for(self, path: str) -> str | None:
        """The field a core error path (``reliability.afr.ST14000NM001G``) belongs to."""
        simple = {"host.ram_bytes": "ram", "reliability.replacement_hours": "replacement_hours",
                  "reliability.fill_fraction": "fill_percent"}
        if path in simple:
            return simple[path]
        growth = {"growth.per_year": "growth_percent", "growth.horizon_years": "horizon_years",
                  "growth.fill_limit": "fill_limit_percent", "growth.price_change_per_year": "price_change_percent",
                  "growth.energy_price_per_kwh": "energy_price"}
        if path in growth:
            return growth[path]
        if path == "host.tunables" or path.startswith("host.tunables."):
            return "tunables"
        for name, key in self.afr_fields.items():
            if path == f"reliability.afr.{key}":
                return name
        for name, media in self.ure_fields.items():
            if path == f"reliability.ure_per_bit.{media}":
                return name
        return None


def _block(design: Design, key: str) -> Mapping[str, Any]:
    """A planning block the design sets at its top level (``reliability``, ``growth``), else empty."""
    value = design.extra.get(key)
    return value if isinstance(value, Mapping) else {}


def _tunable_text(value: Any) -> str:
    """A module parameter's value as the field shows it (``true`` -> ``1``, as the kernel reads it)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def _put(target: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        target.pop(key, None)
    else:
        target[key] = value
