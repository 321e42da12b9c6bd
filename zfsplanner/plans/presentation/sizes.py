"""A byte count as the pages show it (:class:`Size`), in the unit the reader chose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zfsplanner.core.units import DEFAULT_SIZE_UNIT, format_iec, format_si, format_size, zfs_nicenum


@dataclass(frozen=True)
class Size:
    """A byte count as the pages show it: ``text`` in the reader's unit, ``zfs`` as zpool/zfs print it.

    The unit is chosen once, for the whole presentation (:func:`summarize`); a template reads
    ``size.text`` and never picks a unit itself. ``iec``/``si`` remain for figures that are
    about one family by nature (a disk's label size, a binary ZFS limit).
    """

    bytes: int
    unit: str = DEFAULT_SIZE_UNIT

    @property
    def text(self) -> str:
        return format_size(self.bytes, self.unit)

    @property
    def exact(self) -> str:
        """The byte count with separators, for a title attribute."""
        return f"{self.bytes:,} bytes"

    @property
    def iec(self) -> str:
        return format_iec(self.bytes)

    @property
    def si(self) -> str:
        return format_si(self.bytes)

    @property
    def zfs(self) -> str:
        return zfs_nicenum(self.bytes)


def as_int(value: Any) -> int:
    """A count or byte figure of the document or the estimate; 0 when absent or not a number."""
    return int(value) if isinstance(value, int | float) else 0
