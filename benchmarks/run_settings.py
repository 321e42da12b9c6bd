"""The settings a benchmark run was measured under, validated in one place.

Forms and API serializers both call :func:`clean_run_settings`. Sizes are accepted as
ZFS writes them (``128K``, ``1M``) or as bytes, and are stored as int bytes.
Stored shape (every key optional)::

    {"sync": "standard|always|disabled", "compression": "lz4",
     "recordsize_bytes": 131072, "volblocksize_bytes": 16384,
     "zil": "pool|slog|disabled", "slog_device": "Optane 900p",
     "tunables": {"zfs_nocacheflush": "1"}, "extra": {"iscsi": "LIO, 10 GbE"}}
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError

from zfsplanner.core.document.reader import key_values
from zfsplanner.core.units import UnitError, format_zfs_size, is_power_of_two, parse_zfs_size

from .choices import SyncSetting, ZilLocation

KNOWN_KEYS = (
    "sync",
    "compression",
    "recordsize_bytes",
    "volblocksize_bytes",
    "zil",
    "slog_device",
    "tunables",
    "extra",
)
_TUNABLE_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")
_MIN_BLOCK = 512
_MAX_BLOCK = 16 * 1024 * 1024


def _block_size(key: str, value: Any) -> int:
    try:
        n = parse_zfs_size(value)
    except (UnitError, TypeError, ValueError) as exc:
        raise ValidationError({key: f"{value!r} is not a size such as 128K or 131072 ({exc})"}) from exc
    if not (_MIN_BLOCK <= n <= _MAX_BLOCK) or not is_power_of_two(n):
        raise ValidationError({key: f"{value!r} must be a power of two between 512 and 16M"})
    return n


def _string_map(key: str, value: Any) -> dict[str, str]:
    if isinstance(value, str):
        value = parse_key_values(value, key)
    if not isinstance(value, dict):
        raise ValidationError({key: "must be an object of name: value pairs"})
    out: dict[str, str] = {}
    for name, v in value.items():
        if not isinstance(name, str) or not _TUNABLE_NAME.match(name):
            raise ValidationError({key: f"{name!r} is not a valid name (letters, digits, _ . : -)"})
        if isinstance(v, dict | list):
            raise ValidationError({key: f"{name}: the value must be text or a number"})
        out[name] = "" if v is None else str(v)
    return out


def parse_key_values(text: str, key: str = "extra") -> dict[str, str]:
    """``"a=1\nb = two"`` (one pair a line, or comma-separated) -> ``{"a": "1", "b": "two"}``, by the core's
    reader of module parameters (:func:`zfsplanner.core.document.reader.key_values`)."""
    try:
        return key_values(text)
    except ValueError as exc:
        raise ValidationError({key: str(exc)}) from exc


def clean_run_settings(data: Any) -> dict[str, Any]:
    """Validate run settings; unknown keys are refused (put them under ``extra``)."""
    if data in (None, ""):
        return {}
    if not isinstance(data, dict):
        raise ValidationError({"settings": "must be an object"})
    unknown = sorted(set(data) - set(KNOWN_KEYS))
    if unknown:
        raise ValidationError(
            {"settings": f"unknown key(s) {', '.join(unknown)}; known: {', '.join(KNOWN_KEYS)}; put others in 'extra'"}
        )
    out: dict[str, Any] = {}
    for key in ("sync", "zil"):
        value = data.get(key)
        if value in (None, ""):
            continue
        choices = SyncSetting if key == "sync" else ZilLocation
        if value not in choices.values:
            raise ValidationError({key: f"{value!r} is not one of {', '.join(choices.values)}"})
        out[key] = str(value)
    for key in ("compression", "slog_device"):
        value = data.get(key)
        if value in (None, ""):
            continue
        if not isinstance(value, str) or len(value) > 200:
            raise ValidationError({key: "must be text of at most 200 characters"})
        out[key] = value.strip()
    for key in ("recordsize_bytes", "volblocksize_bytes"):
        if data.get(key) not in (None, ""):
            out[key] = _block_size(key, data[key])
    for key in ("tunables", "extra"):
        if data.get(key) not in (None, "", {}):
            mapping = _string_map(key, data[key])
            if mapping:
                out[key] = mapping
    return out


def describe_run_settings(s: dict[str, Any]) -> list[tuple[str, str]]:
    """Readable (name, value) pairs for pages and chart legends."""
    rows: list[tuple[str, str]] = []
    if s.get("sync"):
        rows.append(("sync", s["sync"]))
    if s.get("compression"):
        rows.append(("compression", s["compression"]))
    for key, name in (("recordsize_bytes", "recordsize"), ("volblocksize_bytes", "volblocksize")):
        if s.get(key):
            rows.append((name, str(format_zfs_size(int(s[key])))))
    if s.get("zil"):
        rows.append(("ZIL", ZilLocation(s["zil"]).label + (f": {s['slog_device']}" if s.get("slog_device") else "")))
    elif s.get("slog_device"):
        rows.append(("SLOG", s["slog_device"]))
    for key in ("tunables", "extra"):
        for name, value in (s.get(key) or {}).items():
            rows.append((name, value))
    return rows


def settings_text(settings: list[tuple[str, str]]) -> str:
    """All of a run's settings in one line: ``sync=always, SLOG: SSD``."""
    return ", ".join(setting_text(k, v) for k, v in settings)


def setting_text(key: str, value: str) -> str:
    """One short setting as a legend writes it: ``sync=always``, ``SLOG: SSD``, ``sync: not set``."""
    if not value:
        return f"{key}: not set"
    return value if key in ("ZIL", "SLOG") else f"{key}={value}"


_ZIL_SHORT = {"pool": "ZIL in the pool", "slog": "SLOG", "disabled": "ZIL disabled"}


def short_settings(s: dict[str, Any]) -> list[tuple[str, str]]:
    """Short (name, value) pairs for chart legends: ``sync``/``always``, ``ZIL``/``SLOG: SSD``."""
    rows: list[tuple[str, str]] = []
    for key in ("sync", "compression"):
        if s.get(key):
            rows.append((key, str(s[key])))
    for key, name in (("recordsize_bytes", "recordsize"), ("volblocksize_bytes", "volblocksize")):
        if s.get(key):
            rows.append((name, str(format_zfs_size(int(s[key])))))
    zil = s.get("zil")
    device = s.get("slog_device")
    if zil:
        text = _ZIL_SHORT.get(zil, zil)
        rows.append(("ZIL", f"{text}: {device}" if device and zil == "slog" else text))
    elif device:
        rows.append(("SLOG", f"SLOG: {device}"))
    for key in ("tunables", "extra"):
        for name, value in (s.get(key) or {}).items():
            rows.append((name, value))
    return rows
