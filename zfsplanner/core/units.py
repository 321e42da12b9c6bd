"""Byte sizes: parsing and formatting at the edges; everything inside is int bytes.

Two conventions meet here:

* ZFS properties (``recordsize=128K``) use powers of 1024, and ``zfs``/``zpool``
  print sizes in powers of 1024 with one-letter suffixes (``21.8T`` means TiB).
  Source: ``lib/libzfs/libzfs_util.c`` (``zfs_nicestrtonum``) and
  ``lib/libzutil/zutil_nicenum.c`` (``zfs_nicenum_format``).
* Drive vendors label capacities in powers of 1000 (``14TB`` = 14 × 10^12 bytes).

A disk capacity given as text must therefore carry an explicit unit: ``TB`` or
``TiB``; a bare ``T`` is ambiguous and rejected.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

KIB = 1024
MIB = 1024**2
GIB = 1024**3
TIB = 1024**4
PIB = 1024**5

_BIN_LETTERS = "KMGTPE"
_SIZE_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*$")


class UnitError(ValueError):
    """A size string that cannot be read; the message says why."""


def _split(text: str) -> tuple[Decimal, str]:
    m = _SIZE_RE.match(text)
    if not m:
        raise UnitError(f"{text!r} is not a size (expected a number and a unit, e.g. '128K' or '14TB')")
    try:
        return Decimal(m.group(1)), m.group(2)
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only digits
        raise UnitError(f"{text!r} is not a number") from exc


def _to_int(value: Decimal, text: object) -> int:
    if value != value.to_integral_value():
        raise UnitError(f"{text!r} is not a whole number of bytes")
    return int(value)


def _bytes_or_number_and_unit(value: object, least: int, too_small: str) -> int | tuple[Decimal, str]:
    """A size as given: bytes when it is an int (at least ``least``, else ``too_small``) or a string
    without a unit (or ``B``); otherwise the number and the unit, for the caller to read the unit."""
    if isinstance(value, bool):
        raise UnitError("a size cannot be true/false")
    if isinstance(value, int):
        if value < least:
            raise UnitError(f"{value} {too_small}")
        return value
    if not isinstance(value, str):
        raise UnitError(f"{value!r} is not a size")
    number, unit = _split(value)
    if unit.upper() in ("", "B"):
        return _to_int(number, value)
    return number, unit


def parse_zfs_size(value: int | str) -> int:
    """Read a ZFS property size (``128K``, ``1M``, ``1.5G``, ``512``) as bytes.

    Suffixes are powers of 1024 whether written ``K``, ``KB`` or ``KiB``, exactly as
    ``zfs set`` reads them (``zfs_nicestrtonum`` in ``lib/libzfs/libzfs_util.c``).
    """
    read = _bytes_or_number_and_unit(value, 0, "is negative")
    if isinstance(read, int):
        return read
    number, unit = read
    u = unit.upper()
    letter = u[0]
    rest = u[1:]
    if letter not in _BIN_LETTERS or rest not in ("", "B", "IB"):
        raise UnitError(f"{value!r}: unknown unit {unit!r} (use K, M, G, T, P or E)")
    return _to_int(number * (KIB ** (_BIN_LETTERS.index(letter) + 1)), value)


_DECIMAL_UNITS = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15, "EB": 10**18}
_BINARY_UNITS = {"KIB": KIB, "MIB": MIB, "GIB": GIB, "TIB": TIB, "PIB": PIB, "EIB": 1024**6}


def parse_disk_size(value: int | str) -> int:
    """Read a disk capacity: an int is bytes; a string needs ``TB`` (10^12) or ``TiB`` (2^40).

    ``"14T"`` is rejected because a drive label's T (10^12) and ZFS's T (2^40)
    differ by 10 %.
    """
    read = _bytes_or_number_and_unit(value, 1, "is not a positive number of bytes")
    if isinstance(read, int):
        return read
    number, unit = read
    u = unit.upper()
    if u in _DECIMAL_UNITS:
        return int(number * _DECIMAL_UNITS[u])
    if u in _BINARY_UNITS:
        return int(number * _BINARY_UNITS[u])
    if len(u) == 1 and u in _BIN_LETTERS:
        raise UnitError(
            f"{value!r} is ambiguous: write {number}{u}B for the vendor's decimal unit "
            f"or {number}{u}iB for the binary unit"
        )
    raise UnitError(f"{value!r}: unknown unit {unit!r} (use e.g. TB or TiB)")


def format_disk_size(n: int) -> str:
    """The shortest exact spelling of ``n`` bytes that :func:`parse_disk_size` reads back: ``8TB``,
    ``100GiB``, else the bytes themselves (``123B``), so a size shown in a form is saved unchanged."""
    spellings = [f"{n}B"]
    if n > 0:
        units = [(k, v) for k, v in _DECIMAL_UNITS.items()] + [(k[0] + "iB", v) for k, v in _BINARY_UNITS.items()]
        spellings += [f"{n // unit}{name}" for name, unit in units if n % unit == 0]
    return min(spellings, key=len)


def format_zfs_size(n: int) -> str | int:
    """The shortest exact ZFS property spelling of ``n`` (``131072 -> '128K'``), else ``n``."""
    if n <= 0:
        return n
    for i in range(len(_BIN_LETTERS), 0, -1):
        unit = KIB**i
        if n % unit == 0:
            return f"{n // unit}{_BIN_LETTERS[i - 1]}"
    return n


def zfs_nicenum(n: int | float) -> str:
    """Format like ``zpool list``/``zfs list`` without ``-p`` (powers of 1024, ``21.8T``).

    Follows ``zfs_nicenum_format()``: the largest unit that keeps the integer part
    below 1024, then 2, 1 or 0 decimals, the first that fits in 5 characters.
    """
    value = float(n)
    index = 0
    while value >= 1024 and index < len(_BIN_LETTERS):
        value /= 1024
        index += 1
    suffix = "" if index == 0 else _BIN_LETTERS[index - 1]
    if index == 0 or value == int(value) and float(n) % (1024**index) == 0:
        return f"{int(value)}{suffix}"
    for precision in (2, 1, 0):
        text = f"{value:.{precision}f}"
        if len(text + suffix) <= 5 or precision == 0:
            return f"{text}{suffix}"
    return f"{value:.0f}{suffix}"  # pragma: no cover


def _format_scaled(n: int | float, digits: int, base: int, units: tuple[str, ...]) -> str:
    """``n`` in the largest of ``units`` (each ``base`` times the one before) that keeps it below
    ``base``, the last one for anything larger; whole bytes without decimals."""
    value = float(n)
    for unit in units[:-1]:
        if abs(value) < base:
            return f"{value:.{digits if unit != 'B' else 0}f} {unit}"
        value /= base
    return f"{value:.{digits}f} {units[-1]}"


def format_si(n: int | float, digits: int = 2) -> str:
    """Decimal units as on a drive label: ``14000519643136 -> '14.00 TB'``."""
    return _format_scaled(n, digits, 1000, ("B", "kB", "MB", "GB", "TB", "PB"))


def format_iec(n: int | float, digits: int = 2) -> str:
    """Binary units as ``zfs`` counts them: ``14000519643136 -> '12.73 TiB'``."""
    return _format_scaled(n, digits, 1024, ("B", "KiB", "MiB", "GiB", "TiB", "PiB"))


# The two families a reader picks between: decimal (TB, as on drive labels) or binary (TiB, what
# zpool/zfs count in; their one-letter T means TiB). Pages and reports show one at a time.
SIZE_UNITS = ("TiB", "TB")
DEFAULT_SIZE_UNIT = "TiB"


def format_size(n: int | float, unit: str = DEFAULT_SIZE_UNIT) -> str:
    """``n`` in the reader's family of units: ``"TB"`` decimal (:func:`format_si`), else binary."""
    return format_si(n) if unit == "TB" else format_iec(n)


def is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def ilog2(n: int) -> int:
    """log2 of a power of two."""
    if not is_power_of_two(n):
        raise UnitError(f"{n} is not a power of two")
    return n.bit_length() - 1


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def roundup(x: int, m: int) -> int:
    """Smallest multiple of ``m`` that is >= ``x`` (``roundup`` in ``sys/sysmacros.h``)."""
    return ceil_div(x, m) * m


def rounddown(x: int, m: int) -> int:
    return (x // m) * m


def highbit(x: int) -> int:
    """1-based index of the highest set bit (``highbit64`` in OpenZFS); 0 for 0."""
    return x.bit_length() if x > 0 else 0


def ratio(a: int | float, b: int | float) -> float:
    return a / b if b else math.nan
