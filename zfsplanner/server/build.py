"""Which build of zfsplanner is running: a digest of its source files.

Cached results (estimates, commands, rendered pages) are keyed with it, so a new release
never serves what the previous one computed, even from a cache that outlived the upgrade.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SOURCE_SUFFIXES = (".py", ".html", ".c", ".h")


def source_digest(root: Path) -> str:
    """12 hex digits over the path and bytes of every source file under ``root`` (a few ms)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file()):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return "b" + digest.hexdigest()[:12]
