"""Reading a JSON document field by field: the reader that collects every error with its path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from ..design.types import (
    PRICE_MAX_DIGITS,
    PRICE_MAX_PLACES,
)
from ..units import UnitError, parse_disk_size, parse_zfs_size
from .limits import size_error


class Reader:
    """Collects errors with their field paths while reading a document."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []

    def err(self, path: str, msg: str) -> None:
        self.errors.append((path, msg))

    def obj(self, value: Any, path: str) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.err(path, f"must be an object, not {kind(value)}")
            return None
        return value

    def given(self, d: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> bool:
        """Whether ``d`` gives ``key`` a value (null is no value); "is required" when it must and doesn't."""
        if key in d and d[key] is not None:
            return True
        if required:
            self.err(join(path, key), "is required")
        return False

    def string(self, d: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> str | None:
        if not self.given(d, key, path, required=required):
            return None
        v = d[key]
        if not isinstance(v, str):
            self.err(join(path, key), f"must be a string, not {kind(v)}")
            return None
        return v

    def integer(
        self,
        d: Mapping[str, Any],
        key: str,
        path: str,
        *,
        required: bool = False,
        lo: int | None = None,
        hi: int | None = None,
    ) -> int | None:
        if not self.given(d, key, path, required=required):
            return None
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.err(join(path, key), f"must be an integer, not {kind(v)}")
            return None
        if lo is not None and v < lo:
            self.err(join(path, key), f"must be at least {lo} (got {v})")
            return None
        if hi is not None and v > hi:
            self.err(join(path, key), f"must be at most {hi} (got {v})")
            return None
        return int(v)

    def choice(self, d: Mapping[str, Any], key: str, path: str, enum: Any, *, required: bool = False) -> Any:
        v = self.string(d, key, path, required=required)
        if v is None:
            return None
        try:
            return enum(v)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            self.err(join(path, key), f"{v!r} is not one of {allowed}")
            return None

    def zfs_size(self, d: Mapping[str, Any], key: str, path: str) -> int | None:
        if not self.given(d, key, path):
            return None
        try:
            return self._addressable(parse_zfs_size(d[key]), join(path, key))
        except UnitError as exc:
            self.err(join(path, key), str(exc))
            return None

    def disk_size(self, d: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> int | None:
        if not self.given(d, key, path, required=required):
            return None
        try:
            return self._addressable(parse_disk_size(d[key]), join(path, key))
        except UnitError as exc:
            self.err(join(path, key), str(exc))
            return None

    def price(self, d: Mapping[str, Any], key: str, path: str) -> Decimal | None:
        """A price: a decimal string (``"249.99"``) or a JSON number, zero or more."""
        if not self.given(d, key, path):
            return None
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, int | float | str):
            self.err(join(path, key), f'must be a number or a decimal string such as "249.99", not {kind(v)}')
            return None
        try:
            value = Decimal(str(v).strip())
        except InvalidOperation:
            self.err(join(path, key), f'{v!r} is not a number (write it as "249.99")')
            return None
        exponent = value.as_tuple().exponent
        if not value.is_finite() or not isinstance(exponent, int):
            self.err(join(path, key), f"{v!r} is not a number")
            return None
        if value < 0:
            self.err(join(path, key), f"must be zero or more (got {v})")
            return None
        if value >= 10**PRICE_MAX_DIGITS:
            self.err(join(path, key), f"must be below 10^{PRICE_MAX_DIGITS} (got {v})")
            return None
        if -exponent > PRICE_MAX_PLACES and value != value.quantize(Decimal(1).scaleb(-PRICE_MAX_PLACES)):
            self.err(join(path, key), f"may have at most {PRICE_MAX_PLACES} decimal places (got {v})")
            return None
        return value.quantize(Decimal(1).scaleb(-PRICE_MAX_PLACES)).normalize() + 0

    def _addressable(self, value: int, path: str) -> int | None:
        problem = size_error(value)
        if problem:
            self.err(path, problem)
            return None
        return value


def kind(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), type(v).__name__
    )


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def extra(d: Mapping[str, Any], known: Sequence[str]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in known}


def key_values(text: str) -> dict[str, str]:
    """``"a=1\\nb = two"`` (one ``name=value`` a line, or separated by commas) -> ``{"a": "1", "b": "two"}``,
    as people write module parameters (``zfs_nocacheflush=1``); ``ValueError`` names the entry that
    has no ``=``."""
    out: dict[str, str] = {}
    for n, raw in enumerate((p for p in text.replace(",", "\n").split("\n") if p.strip()), start=1):
        line = raw.strip()
        if "=" not in line:
            raise ValueError(f"entry {n} ({line!r}) is not name=value")
        name, value = (p.strip() for p in line.split("=", 1))
        out[name] = value
    return out
