"""What an import gives back: the design document, the questions it could not answer, and what
the pool reported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .common import UnreadableOutput
from .members import (
    Member,
)

ROLE_ORDER = ("data", "dedup", "special", "log", "cache", "spare")
IMPORT_KEY = "imported"

# The newest feature each release added (zfeature_common.c), newest first.
FEATURE_VERSIONS = (
    ("2.4", ("dynamic_gang_header", "physical_rewrite", "block_cloning_endian")),
    ("2.3", ("fast_dedup", "longname", "large_microzap", "raidz_expansion", "redaction_list_spill")),
    ("2.2", ("block_cloning", "head_errlog", "blake3", "vdev_zaps_v2", "zilsaxattr", "avz_v2")),
    ("2.1", ("draid",)),
    ("2.0", ("device_rebuild", "zstd_compress", "log_spacemap", "livelist", "redaction_bookmarks")),
    ("0.8", ("allocation_classes", "encryption", "project_quota", "spacemap_v2", "resilver_defer")),
)


class ImportProblem(UnreadableOutput):
    """The outputs were readable but do not describe a pool the planner can model."""

    format = "import"


@dataclass(frozen=True)
class PoolImport:
    document: dict[str, Any]
    members: tuple[Member, ...]
    notes: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def questions(self) -> list[dict[str, Any]]:
        """The member sizes no output gave, one question per model (or role): the preview asks them."""
        value = self.document.get(IMPORT_KEY, {}).get("questions", [])
        return value if isinstance(value, list) else []

    @property
    def reported(self) -> dict[str, Any]:
        value = self.document.get(IMPORT_KEY, {}).get("reported", {})
        return value if isinstance(value, dict) else {}
