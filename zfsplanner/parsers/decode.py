"""Turn uploaded bytes into text and record which encoding they were in.

Order (shared/reference/benchmark-formats.md §2.1): a BOM decides; otherwise a NUL
pattern means UTF-16 without BOM; then strict UTF-8; then Shift_JIS (CP932, what
Japanese Windows Notepad saves); finally CP1252, and Latin-1 which accepts any byte.
Line endings are normalised to ``\\n``.
"""

from __future__ import annotations

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be", "utf-16-be"),
)


def detect_encoding(data: bytes) -> tuple[str, int]:
    """Return ``(encoding label, number of BOM bytes to skip)`` for ``data``."""
    for bom, label, _ in _BOMS:
        if data.startswith(bom):
            skip = len(bom)
            if label == "utf-16-le" and data[2:4] == b"\xff\xfe":
                skip = 4  # CDM 5-7 may write its own BOM on top of the CRT's
            return ("utf-8-sig" if label == "utf-8" else label), skip
    head = data[:4096]
    if len(head) >= 4:
        odd_nuls = head[1::2].count(0)
        even_nuls = head[0::2].count(0)
        half = len(head) // 2
        if odd_nuls > half * 0.4 and even_nuls < half * 0.05:
            return "utf-16-le", 0
        if even_nuls > half * 0.4 and odd_nuls < half * 0.05:
            return "utf-16-be", 0
    return "", 0


_CODECS = {"utf-8-sig": "utf-8", "utf-16-le": "utf-16-le", "utf-16-be": "utf-16-be"}


def decode(data: bytes) -> tuple[str, str]:
    """Decode ``data``; return ``(text with \\n line ends, encoding label)``."""
    label, skip = detect_encoding(data)
    if label:
        text = data[skip:].decode(_CODECS[label], errors="replace")
    else:
        for candidate in ("utf-8", "cp932", "cp1252"):
            try:
                text = data.decode(candidate)
            except UnicodeDecodeError:
                continue
            label = candidate
            break
        else:
            text, label = data.decode("latin-1"), "latin-1"
    return normalise_newlines(text), label


def normalise_newlines(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def peek_text(data: bytes, limit: int = 65536) -> str:
    """Decode only the start of ``data`` (for cheap sniffing of large uploads)."""
    label, skip = detect_encoding(data)
    head = data[skip : skip + limit]
    if label.startswith("utf-16"):
        head = head[: len(head) // 2 * 2]
        return normalise_newlines(head.decode(_CODECS[label], errors="replace"))
    try:
        return normalise_newlines(head.decode("utf-8", errors="strict"))
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3:  # a character cut in half by the limit
            return normalise_newlines(head.decode("utf-8", errors="replace"))
    for candidate in ("cp932", "utf-8"):
        try:
            return normalise_newlines(head.decode(candidate, errors="strict"))
        except UnicodeDecodeError:
            continue
    return normalise_newlines(head.decode("latin-1"))
