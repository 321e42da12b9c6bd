"""The preview's size questions: what each asks (a member size no output gave, or an ashift the
outputs leave open) and the answers read from the page's fields (``size-q1``, ``catalog-q1``).

The page shows them (``presentation``) and the services apply the answers; both read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zfsplanner.core.importers.answers import is_ashift_question
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.units import parse_disk_size

from .catalog import catalog_entries

ROLE_NAMES = {"data": "data", "special": "special", "dedup": "dedup", "log": "log", "cache": "cache",
              "spare": "hot spare"}


@dataclass(frozen=True)
class SizeQuestion:
    """A member size no pasted output gave: one per device model (or per role without one)."""

    id: str
    label: str
    devices: str
    partition: bool
    model: str | None
    typed: str = ""  # what was typed or chosen, shown again when the answers are refused
    chosen: str = ""
    choices: tuple[int, ...] = ()  # an ashift question: the values the outputs allow (the size field holds one)

    @property
    def field(self) -> str:
        return f"size-{self.id}"

    @property
    def catalog_field(self) -> str:
        return f"catalog-{self.id}"


def size_question(q: dict[str, Any]) -> SizeQuestion:
    if is_ashift_question(q):
        vdevs = ", ".join(q.get("vdevs") or [])
        return SizeQuestion(str(q["id"]), f"ashift of {vdevs}", str(q.get("reason") or ""), True, None,
                            choices=tuple(int(c) for c in q.get("choices") or []))
    devices = list(q.get("devices") or [])
    n = len(devices)
    what = "partition" if q.get("partition") else "disk"
    role = ROLE_NAMES.get(str(q.get("role")), str(q.get("role")))
    model = q.get("model")
    label = f"{model}: size of each {what}" if model else f"Size of each {role} {what}"
    shown = ", ".join(devices[:3]) + (f" and {n - 3} more" if n > 3 else "")
    where = ", ".join(q.get("vdevs") or [])
    return SizeQuestion(str(q["id"]), label, f"{n} {what}{'s' if n != 1 else ''} ({shown}) in {where}",
                        bool(q.get("partition")), model)


def open_questions(document: Mapping[str, Any]) -> list[SizeQuestion]:
    """The size questions the imported design still asks."""
    return [size_question(q) for q in (document.get("imported") or {}).get("questions") or []]


def answers_from(data: Mapping[str, Any], document: dict[str, Any]) -> dict[str, int | CatalogEntry]:
    """The preview's size answers (``size-q1`` typed as 16TB / 14.55 TiB / bytes, or ``catalog-q1`` a model).

    Only answered questions are returned; ``ValueError`` names the question whose answer is no size.
    """
    catalog: dict[str, CatalogEntry] | None = None
    out: dict[str, int | CatalogEntry] = {}
    for q in open_questions(document):
        model = str(data.get(q.catalog_field) or "").strip()
        typed = str(data.get(q.field) or "").strip()
        if q.choices:
            if typed:
                if not typed.isdigit() or int(typed) not in q.choices:
                    raise ValueError(f"{q.label}: {typed!r} is not one of the ashifts the outputs allow "
                                     f"({', '.join(str(c) for c in q.choices)})")
                out[q.id] = int(typed)
        elif model and not q.partition:
            catalog = catalog if catalog is not None else {c.model: c for c in catalog_entries()}
            if model not in catalog:
                raise ValueError(f"{q.label}: {model!r} is not in the disk catalog")
            out[q.id] = catalog[model]
        elif typed:
            try:
                out[q.id] = parse_disk_size(typed)
            except (ValueError, ArithmeticError):
                raise ValueError(f"{q.label}: {typed!r} is not a size (for example 16 TB, 14.55 TiB or a number "
                                 "of bytes)") from None
    if not out:
        raise ValueError("Give at least one size (typed, or a disk from the catalog).")
    return out
