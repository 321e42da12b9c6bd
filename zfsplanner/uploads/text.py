"""What an uploaded file may hold, checked once, as its bytes arrive, before any row is written.

Each upload kind names its :class:`TextRule`:

* ``UTF8``: text in UTF-8 (a BOM is allowed), as the pool's own outputs are (``zpool``,
  ``zfs``, ``lsblk``) and design documents;
* ``LINES``: lines of bytes, as file listings are: the paths in ``du -ab`` are whatever bytes
  the file system holds, so only a NUL (never in a path, always in a binary file or in text
  saved as UTF-16) is refused;
* ``LOG``: benchmark logs, read by :mod:`zfsplanner.parsers.decode`: UTF-16 (with or without
  a BOM, as CrystalDiskMark writes it) or an 8-bit encoding; a NUL in the decoded text is refused;
* ``BINARY``: compression samples, whose bytes are the point; nothing is refused.

:class:`TextCheck` is fed the bytes as they arrive (the streaming handler, :func:`~.handler.spool`)
and :func:`read_text` decodes a whole small file (pool outputs, design documents) through the same
check. A refusal is :class:`UnreadableUpload`: a 400 naming the file and the line, and nothing
is stored. (PostgreSQL cannot store a NUL in a text column: without this, a NUL in a pool
output answered 500 when the import was saved.)
"""

from __future__ import annotations

import codecs
import enum
from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException

from zfsplanner.parsers.decode import detect_encoding

# Enough of the start of a file to tell UTF-16 without a BOM (what decode.detect_encoding reads).
HEAD_BYTES = 4096


class UploadRefused(APIException):
    """An upload refused while it arrives, before anything is stored (too large, not text)."""


class UnreadableUpload(UploadRefused):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "unreadable_upload"

    def __init__(self, name: str, line: int, problem: str) -> None:
        self.name = name
        self.line = line
        self.problem = problem
        super().__init__(f"{shown_name(name)}, line {line}: {problem}; nothing was stored.")


def shown_name(name: str) -> str:
    """A client's file name as it can be shown (control characters and lone surrogates spelled out)."""
    name = (name or "the file")[:120]
    if any(ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF for ch in name):
        name = name.encode("unicode_escape", "backslashreplace").decode("ascii")
    return f"'{name}'"


class TextRule(enum.Enum):
    UTF8 = "utf-8 text"
    LINES = "lines"
    LOG = "log"
    BINARY = "binary"


NUL_PROBLEM = "contains a NUL byte, so it is a binary file or text saved as UTF-16"
UTF16_PROBLEM = "is saved as UTF-16; save it as UTF-8 text (on Windows: Out-File -Encoding utf8)"


class TextCheck:
    """Bytes of one file fed as they arrive; :class:`UnreadableUpload` as soon as they cannot be its kind's text.

    Lines are counted as the bytes pass (line 1 is the first), so the refusal names the line
    the offending byte is on. Nothing is kept but the first few kilobytes, until the
    encoding is known.
    """

    def __init__(self, rule: TextRule, name: str) -> None:
        self.rule = rule
        self.name = name
        self.lines = 0  # newlines seen before the bytes being checked
        self._head = b""
        self._decoder: Any = None  # UTF-8 (UTF8) or UTF-16 (LOG): an incremental decoder
        self._started = rule is TextRule.BINARY

    def feed(self, data: bytes) -> None:
        if self._started:
            self._check(data, final=False)
            return
        self._head += data
        if len(self._head) >= HEAD_BYTES:
            self._start(final=False)

    def close(self) -> None:
        """The last byte has arrived (a file cut in the middle of a character is refused now)."""
        if not self._started:
            self._start(final=True)
        elif self._decoder is not None:
            self._check(b"", final=True)

    def _refuse(self, problem: str, line: int | None = None) -> UnreadableUpload:
        return UnreadableUpload(self.name, line or self.lines + 1, problem)

    def _start(self, final: bool) -> None:
        head, self._head = self._head, b""
        self._started = True
        label, skip = detect_encoding(head)
        if label.startswith("utf-16"):
            if self.rule is not TextRule.LOG:
                raise self._refuse(UTF16_PROBLEM, 1)
            self._decoder = codecs.getincrementaldecoder(label)("replace")  # as decode.decode() reads it
            head = head[skip:]
        elif self.rule is TextRule.UTF8:
            self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
            head = head[skip:]
        self._check(head, final=final)

    def _check(self, data: bytes, final: bool) -> None:
        if self.rule is TextRule.BINARY:
            return
        if self._decoder is None or self.rule is TextRule.UTF8:  # 8-bit text or UTF-8: a NUL byte is a NUL
            nul = data.find(b"\x00")
            if nul >= 0:
                raise self._refuse(NUL_PROBLEM, self.lines + data.count(b"\n", 0, nul) + 1)
            if self._decoder is None:
                self.lines += data.count(b"\n")
                return
        carried = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final)
        except UnicodeDecodeError as exc:
            before = max(0, exc.start - carried)
            problem = (
                "ends in the middle of a character" if exc.reason == "unexpected end of data"
                else f"is not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); save it as UTF-8"
            )
            raise self._refuse(problem, self.lines + data.count(b"\n", 0, before) + 1) from exc
        nul = text.find("\x00")  # UTF-16
        if nul >= 0:
            raise self._refuse("contains a NUL character", self.lines + text.count("\n", 0, nul) + 1)
        self.lines += text.count("\n")


def check_bytes(data: bytes, name: str, rule: TextRule) -> None:
    """Refuse ``data`` (a whole file) as :class:`TextCheck` does."""
    check = TextCheck(rule, name)
    check.feed(data)
    check.close()


def read_text(data: bytes, name: str) -> str:
    """The UTF-8 text of a whole small file (a BOM dropped); :class:`UnreadableUpload` naming the
    file and the line for a NUL, UTF-16 or bytes that are not UTF-8."""
    check_bytes(data, name, TextRule.UTF8)
    return data.decode("utf-8-sig")
