"""What a run page shows, in words: the log's metadata as readable rows, never raw Python lists.

The parsers put what they read about a log into ``meta`` (dates, the tool's own settings,
jobs that failed, messages the tool printed). :func:`meta_rows` turns that into (label, text)
pairs for the page, with sizes in units and lists as sentences; a key it does not know is
still shown, flattened the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zfsplanner.core.units import format_si, format_zfs_size
from zfsplanner.parsers.common import errno_words

# Known meta keys, in the order a reader wants them, with their labels.
LABELS: dict[str, str] = {
    "date": "Measured",
    "target": "Target",
    "os": "Operating system",
    "comment": "Comment",
    "profile": "Profile",
    "test": "Test",
    "test_size_bytes": "Test size",
    "file_size_bytes": "File size",
    "runs": "Runs in the log",
    "interval_s": "Interval",
    "mode": "Mode",
    "time": "Time",
    "zero_fill": "Zero fill",
    "machine": "Machine",
    "machines": "Machines",
    "concurrency": "Concurrency",
    "num_files": "Files (create tests)",
    "too_fast": "Too fast to time (+++++)",
    "csv_format": "CSV format",
    "jobs": "fio jobs",
    "ioengine": "ioengine",
    "direct": "direct I/O",
    "size": "size",
    "runtime": "runtime",
    "time_based": "time_based",
    "numjobs": "numjobs",
    "end_fsync": "end_fsync",
    "fsync": "fsync",
    "fdatasync": "fdatasync",
    "sync": "sync",
    "zero_buffers": "zero_buffers",
    "buffer_compress_percentage": "buffer_compress_percentage",
    "dedupe_percentage": "dedupe_percentage",
    "shortest_test_s": "Shortest test",
    "fewest_ios": "Fewest I/Os in a test",
    "fio_version": "fio version",
    "errors": "Jobs that ended with an error",
    "messages": "Messages printed by the tool",
    "commands": "Commands",
    "run_commands": "Command of each run",
    "latency_unit_assumed": "Latency unit",
}
MULTILINE = frozenset({"messages", "commands", "run_commands", "errors"})


@dataclass(frozen=True)
class MetaRow:
    key: str
    label: str
    text: str
    lines: tuple[str, ...] = ()  # several lines (messages, commands) shown one under the other


def _text(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _error_line(item: Any) -> str:
    if isinstance(item, dict) and "job" in item:
        number = item.get("error")
        words = errno_words(number) if isinstance(number, int) and not isinstance(number, bool) else _text(number)
        return f"job {item['job']!r}: error {number} ({words})"
    return _text(item)


def _value(key: str, value: Any) -> tuple[str, tuple[str, ...]]:
    if key in ("test_size_bytes", "file_size_bytes") and isinstance(value, int):
        return f"{format_zfs_size(value)} ({format_si(value)})", ()
    if key == "shortest_test_s" and isinstance(value, int | float):
        return f"{value:g} s", ()
    if key == "fewest_ios" and isinstance(value, int):
        return f"{value:,}", ()
    if key == "interval_s" and isinstance(value, int | float):
        return f"{value:g} s", ()
    if key == "num_files" and isinstance(value, int):
        return f"{value:,}", ()
    if key == "errors" and isinstance(value, list):
        lines = tuple(_error_line(v) for v in value)
        return f"{len(lines)} job(s)", lines
    if key in MULTILINE and isinstance(value, list):
        lines = tuple(_text(v) for v in value)
        return f"{len(lines)} line(s)", lines
    return _text(value), ()


def meta_rows(meta: dict[str, Any] | None) -> list[MetaRow]:
    """Readable rows for a run's ``meta``: known keys first in a fixed order, then the rest."""
    meta = meta or {}
    keys = [k for k in LABELS if k in meta] + [k for k in meta if k not in LABELS]
    rows = []
    for key in keys:
        value = meta[key]
        if value in (None, "", [], {}):
            continue
        if key == "run_commands" and value == meta.get("commands"):
            continue  # one command per run, in order: the commands row says it already
        text, lines = _value(key, value)
        rows.append(MetaRow(key=key, label=LABELS.get(key, key.replace("_", " ")), text=text, lines=lines))
    return rows
