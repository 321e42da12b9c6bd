"""What every reader of pasted command output shares: located errors, lines, sizes as printed.

Every parser takes the lines of one command's output as ``(line number, text)`` pairs, so
an error names the line of the file or paste the user gave, not of the section. Each
parser raises its own subclass of :class:`UnreadableOutput` and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

Lines = Sequence[tuple[int, str]]

_BIN = "KMGTPE"
_NICE_RE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([KMGTPE]?)(?:i?B)?$", re.IGNORECASE)


class UnreadableOutput(ValueError):
    """Output a parser cannot read; ``line`` is the 1-based line in what the user gave."""

    format = "output"

    def __init__(self, line: int | None, message: str, *, source: str | None = None) -> None:
        self.line = line
        self.message = message
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        prefix = f"{self.source}: " if self.source else ""
        return f"{prefix}{where}{self.format}: {self.message}"

    def located(self, source: str) -> UnreadableOutput:
        """The same error naming the file (or paste) it came from."""
        err = type(self)(self.line, self.message, source=source)
        err.format = self.format
        return err


class UnknownOutput(UnreadableOutput):
    """A line that belongs to no output the importer reads."""

    format = "import"


def numbered(text: str, first: int = 1) -> list[tuple[int, str]]:
    """``text`` as ``(line number, line)`` pairs without line endings (tabs kept)."""
    return [(first + i, line.rstrip("\r\n")) for i, line in enumerate(text.splitlines())]


@dataclass(frozen=True)
class Size:
    """A size as a command printed it: exact with ``-p``/``-b``, else rounded (``21.8T``)."""

    bytes: int
    exact: bool


def parse_size(text: str) -> Size | None:
    """``12345`` (exact bytes), ``21.8T``/``512K``/``1.50M`` (powers of 1024, rounded), ``-`` or empty: None.

    ``zfs_nicenum_format()`` (``lib/libzutil/zutil_nicenum.c``) prints the largest unit that
    keeps the number below 1024 with up to 3 significant digits, so a printed ``21.8T`` stands
    for anything from 21.75 to 21.85 TiB. Raises ``ValueError`` for anything else.
    """
    t = text.strip()
    if t in ("", "-", "none"):
        return None
    if t.isdigit():
        return Size(int(t), True)
    m = _NICE_RE.match(t)
    if not m:
        raise ValueError(f"{text!r} is not a size")
    number, unit = m.group(1), m.group(2).upper()
    if not unit:
        if "." in number:
            raise ValueError(f"{text!r} is not a whole number of bytes")
        return Size(int(number), True)
    value = float(number) * 1024 ** (_BIN.index(unit) + 1)
    return Size(int(round(value)), False)


def rounding_bytes(size: Size) -> int:
    """How far the true figure may be from a printed one: 0 for exact bytes, else half a unit of
    the third significant digit, at most 0.5 % of the figure (``zfs_nicenum_format()`` prints
    ``1.00T``, ``10.0T``, ``100T``: never more than 3 significant digits)."""
    return 0 if size.exact else -(-size.bytes // 200)


def parse_ratio(text: str) -> float | None:
    """``1.35x`` or ``1.35`` (as ``-p`` prints it) -> 1.35; ``-``: None; ValueError otherwise."""
    t = text.strip().rstrip("xX")
    if t in ("", "-"):
        return None
    value = float(t)
    if not value >= 0:
        raise ValueError(f"{text!r} is not a ratio")
    return value


def tokens(line: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\S+", line)]
