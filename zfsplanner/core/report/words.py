"""Figures in words, for the pages and the report alike: "1 in 2,300", "14 h", "80–180 IOPS", "Rebuild speed".

A probability, a duration or a rate is written the same way wherever a person reads it: the
design page's partials (``plans.planning_presentation``) and the Markdown report both call
these. :func:`figure_label` names a figure of the estimate document in words for a section
that has no labels of its own (a section added after the report was written).
"""

from __future__ import annotations

import math

from ..units import format_si, zfs_nicenum

# Estimate field names in words, where spelling the name with spaces would not read.
LABELS = {
    "afr": "Annualized failure rate",
    "ure_per_bit": "Unrecoverable read errors per bit read",
    "mttdl_hours": "Mean time to data loss",
    "mttdl_years": "Mean time to data loss",
    "zfs_avail_bytes": "Usable space (AVAIL)",
    "zpool_size_bytes": "Pool size (SIZE)",
    "zfs_used_bytes": "Uses (USED)",
    "raw_bytes": "Raw disks",
    "fault_tolerance": "Disk failures survived",
    "compressratio": "Compression ratio",
    "iops": "IOPS",
    "1y": "Within 1 year",
    "5y": "Within 5 years",
    "10y": "Within 10 years",
}
# A unit the value already shows is left out of the label ("rebuild_bytes_per_s" -> "Rebuild speed").
_SUFFIXES = (
    ("_bytes_per_s", " speed"),
    ("_bytes", ""),
    ("_fraction", ""),
    ("_probability", " (chance)"),
    ("_pct", ""),
    ("_seconds", " (time)"),
    ("_hours", " (time)"),
    ("_us", " (latency)"),
    ("_iops", " (IOPS)"),
)


def figure_label(key: str) -> str:
    """``"wear_bytes"`` -> ``"Wear"``, ``"reserve_pct"`` -> ``"Reserve"``, ``"md_raid"`` -> ``"Md raid"``."""
    if key in LABELS:
        return LABELS[key]
    for suffix, words in _SUFFIXES:
        if key.endswith(suffix) and key != suffix.lstrip("_"):
            key = key[: -len(suffix)] + words
            break
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(exponent: int) -> str:
    """``15`` -> "10¹⁵": the exponent raised as print sets it, not after a caret."""
    return f"10{str(exponent).translate(_SUPERSCRIPT)}"


def scientific(x: float) -> str:
    """``1.0e7`` -> "1.0 × 10⁷"."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa} × {power_of_ten(int(exponent))}"


def probability_text(p: float | None) -> str:
    """A probability in words: "21 %", "0.043 % (1 in 2,300)", "1 in 4.1 × 10¹¹"."""
    if p is None or not math.isfinite(p):
        return "does not apply"
    if p <= 0:
        return "0"
    if p >= 0.995:
        return "almost certain"
    if p >= 0.05:
        return f"{100 * p:.0f} %"
    one_in = 1 / p
    if one_in >= 1e6:
        return f"1 in {scientific(one_in)}"
    return f"{100 * p:.2g} % (1 in {float(f'{one_in:.2g}'):,.0f})"


def odds_text(p: float | None) -> str:
    """The short form for tables: "21 %", "1 in 5,300", "1 in 3.0 × 10⁶"."""
    if p is None or not math.isfinite(p):
        return "does not apply"
    if p <= 0:
        return "0"
    if p >= 0.05:
        return probability_text(p)
    one_in = 1 / p
    return f"1 in {scientific(one_in)}" if one_in >= 1e6 else f"1 in {float(f'{one_in:.2g}'):,.0f}"


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "does not apply"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    hours = seconds / 3600
    if hours < 48:
        return f"{hours:.1f} h" if hours < 10 else f"{hours:.0f} h"
    return f"{hours / 24:.1f} days"


def years_text(hours: float | None) -> str:
    if hours is None:
        return "does not apply"
    years = hours / 8766
    if years >= 1e6:
        return f"{scientific(years)} years"
    return f"{years:,.0f} years" if years >= 10 else f"{years:.1f} years"


def iops_text(v: float | None) -> str:
    if v is None:
        return "–"
    if v >= 10_000:
        return f"{v / 1000:,.0f}k"
    if v >= 1000:
        return f"{v / 1000:.1f}k"
    return f"{v:,.0f}"


def rate_text(v: float | None) -> str:
    return "–" if v is None else format_si(v) + "/s"


def percent_text(v: object, digits: int = 1) -> str:
    if not isinstance(v, int | float) or isinstance(v, bool):
        return "does not apply"
    return f"{100 * v:.{digits}f} %"


def share_text(v: float) -> str:
    """0.8123 -> "81.2 %"; a share too small for one decimal says so rather than "0.0 %"."""
    if 0 < v < 0.001:
        return "less than 0.1 %"
    return f"{100 * v:.1f} %"


def small_blocks_text(threshold: int) -> str:
    """A dataset's ``special_small_blocks`` in words: "64K", or "off (metadata only)" at 0."""
    return zfs_nicenum(threshold) if threshold else "off (metadata only)"
