"""The risk registry: what a risk is, what each code means, and the rules that raise them.

Each rule is registered with :func:`rule` (one code) or :func:`rule_codes` (several), which
record the code's :class:`RiskSpec` in :data:`RISK_CATALOG` and hand the spec to the rule,
so a code is written once: in its registration. A code whose fix is a change to the design
declares that one-click fix there too (``fix=``, a :data:`Fix`), so the catalog is the only
registry of fixes (:mod:`.fixes` applies them). Rules build their findings with
:func:`make_risk` from that spec. The package puts the rule modules in order with :func:`arrange`;
the catalog lists the codes in that order (the order ``docs/risks.md`` shows them in), and
:func:`assess` runs the rules in it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import ModuleType
from typing import Any

from ..design.types import Design


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


SEVERITY_RANK = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.INFO: 2}


# --------------------------------------------------------------------------- catalog


POOL = "pool"
"""The subject of a risk about the whole pool."""

VDEVS = "vdevs"
DATASETS = "datasets"

_SUBJECT = re.compile(r"^(vdevs|datasets)\[(\d+)\]$")


@dataclass(frozen=True)
class Part:
    """The part of the design a risk is about, read from its ``subject``: ``section`` is
    :data:`VDEVS` (``design.vdevs[index]``), :data:`DATASETS` (``design.datasets[index]``) or
    :data:`POOL` (the whole design, ``index`` -1)."""

    section: str
    index: int

    @classmethod
    def of(cls, subject: str) -> Part | None:
        """The part ``subject`` (``vdevs[1]``, ``datasets[0]``, ``pool``) names; None for any other text."""
        if subject == POOL:
            return cls(POOL, -1)
        match = _SUBJECT.match(subject)
        return cls(match.group(1), int(match.group(2))) if match else None


@dataclass(frozen=True)
class Fixed:
    """What a one-click fix made of the design: the changed ``design`` and the ``label`` saying what it did."""

    design: Design
    label: str


Fix = Callable[[Design, Part], Fixed | None]
"""A one-click fix: ``fix(design, part)`` returns the design with the change that resolves the risk on
``part`` (a new frozen ``Design``, built with ``dataclasses.replace``; the one given is never changed)
and its label, or None when this risk cannot be fixed by changing the design."""


@dataclass(frozen=True)
class RiskSpec:
    """What a code means: its usual severity, a title template, when it fires, its source, and the
    one-click fix that resolves it when that fix is a change to the design."""

    code: str
    severity: Severity
    title: str  # str.format template; fields are given by the rule
    when: str
    reference: str
    fix: Fix | None = None


# --------------------------------------------------------------------------- results and inputs


@dataclass(frozen=True)
class Risk:
    code: str
    severity: Severity
    title: str
    detail: str
    fix: str
    reference: str
    subject: str


@dataclass(frozen=True)
class DatasetFigure:
    """Per-dataset numbers from the dataset estimate.

    ``raidz_overhead_fraction``: share of the dataset's allocated bytes on the normal class
    that is parity and padding (``1 − data / allocated``). ``nominal_parity_fraction``: the
    layout's parity share (``p / width`` for raidz, ``p / (D + p)`` for dRAID).
    ``block_size_bytes``: the block size the overhead was computed for.
    """

    name: str
    index: int
    block_size_bytes: int | None = None
    raidz_overhead_fraction: float | None = None
    nominal_parity_fraction: float | None = None


@dataclass(frozen=True)
class RiskFigures:
    """Numbers computed elsewhere; every field is optional and a rule that needs a missing one is skipped.

    ``zfs_avail_bytes`` and ``planned_used_bytes``: the empty pool's AVAIL (with the space dedup and
    block cloning of the contents give back) and what the datasets' USED after writing the contents
    takes from it (``zfs list`` terms; from OpenZFS 2.4.1 and 2.3.7 without what they keep on the special
    class: ``capacity.pool.avail_charge``). ``zpool_size_bytes`` and
    ``planned_allocated_bytes``: the same in ``zpool list`` terms (SIZE and ALLOC), used when
    the first pair is missing. ``special_usable_bytes``: SIZE of the special class;
    ``special_planned_bytes``: bytes the estimate allocates there (both raw, as
    ``zpool list -v`` shows them). ``ram_bytes``: the host's RAM. ``dedup_*``: the dedup table
    (entries, in core, on disk) and the class it goes to, its SIZE and what is planned there.
    """

    zfs_avail_bytes: int | None = None
    planned_used_bytes: int | None = None
    zpool_size_bytes: int | None = None
    planned_allocated_bytes: int | None = None
    special_usable_bytes: int | None = None
    special_planned_bytes: int | None = None
    datasets: tuple[DatasetFigure, ...] = ()
    ram_bytes: int | None = None
    # the dedup table as zpool status -D reports it (sizing.dedup_table), and the class it lives on
    dedup_entries: int | None = None
    dedup_in_core_bytes: int | None = None
    dedup_on_disk_bytes: int | None = None
    dedup_home_role: str | None = None  # "dedup", "special" or "data"
    dedup_home_groups: tuple[int, ...] = ()
    dedup_home_size_bytes: int | None = None
    dedup_home_planned_bytes: int | None = None  # the table and what else goes there


# --------------------------------------------------------------------------- registry

Rule = Callable[[Design, RiskFigures | None], Iterator[Risk]]
"""A registered rule as :func:`assess` calls it: every risk it finds in the design."""

RuleBody = Callable[[RiskSpec, Design, RiskFigures | None], Iterator[Risk]]
"""A one-code rule as written: it receives the spec of its code first."""

MultiRuleBody = Callable[[tuple[RiskSpec, ...], Design, RiskFigures | None], Iterator[Risk]]
"""A rule that raises several codes: it receives their specs in registration order."""


@dataclass(frozen=True)
class Registration:
    """A registered rule and the codes it raises."""

    rule: Rule
    specs: tuple[RiskSpec, ...]


_CATALOG: dict[str, RiskSpec] = {}
_REGISTRATIONS: list[Registration] = []

RISK_CATALOG: Mapping[str, RiskSpec] = _CATALOG
"""Every code, in registration order (filled as the rule modules are imported, ordered by :func:`arrange`)."""


def _register(run: Rule, specs: tuple[RiskSpec, ...]) -> None:
    codes = [spec.code for spec in specs]
    if not codes:
        raise ValueError(f"rule {run.__name__} registers no risk code")
    taken = [code for code in codes if code in _CATALOG]
    if taken or len(set(codes)) != len(codes):
        raise ValueError(f"risk code(s) {', '.join(taken or codes)} registered twice (rule {run.__name__})")
    for spec in specs:
        _CATALOG[spec.code] = spec
    _REGISTRATIONS.append(Registration(run, specs))


def rule(
    code: str, severity: Severity, title: str, when: str, reference: str, fix: Fix | None = None
) -> Callable[[RuleBody], Rule]:
    """Register a rule that raises one code; the rule receives that code's :class:`RiskSpec`.
    ``fix``: the code's one-click fix, when its fix is a change to the design."""
    spec = RiskSpec(code, severity, title, when, reference, fix)

    def decorate(body: RuleBody) -> Rule:
        @functools.wraps(body)
        def run(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
            return body(spec, design, figures)

        _register(run, (spec,))
        return run

    return decorate


def rule_codes(*specs: RiskSpec) -> Callable[[MultiRuleBody], Rule]:
    """Register a rule that raises several codes; it receives their specs in the order given.
    Each spec declares its own one-click fix (``RiskSpec(..., fix=...)``)."""

    def decorate(body: MultiRuleBody) -> Rule:
        @functools.wraps(body)
        def run(design: Design, figures: RiskFigures | None) -> Iterator[Risk]:
            return body(specs, design, figures)

        _register(run, specs)
        return run

    return decorate


def arrange(*modules: ModuleType) -> None:
    """Order the registrations, and the catalog with them, by ``modules`` (each module's rules in the
    order they are defined), whatever order the modules were imported in."""
    names = [module.__name__ for module in modules]
    unlisted = sorted({reg.rule.__module__ for reg in _REGISTRATIONS} - set(names))
    if unlisted:
        raise ValueError(f"rule module(s) {', '.join(unlisted)} not given to arrange()")
    _REGISTRATIONS.sort(key=lambda reg: names.index(reg.rule.__module__))
    _CATALOG.clear()
    for reg in _REGISTRATIONS:
        for spec in reg.specs:
            _CATALOG[spec.code] = spec


def registrations() -> tuple[Registration, ...]:
    """Every registered rule with its codes, in registration order."""
    return tuple(_REGISTRATIONS)


def make_risk(
    spec: RiskSpec,
    subject: str,
    detail: str,
    fix: str,
    severity: Severity | None = None,
    *,
    name: str | None = None,
    **title: Any,
) -> Risk:
    """A finding of ``spec``'s code: the title template filled in, the spec's severity unless given.

    ``subject`` is the JSON path of the part the risk is about (``vdevs[1]``: the API's field);
    ``name`` is that part as a person names it (:func:`zfsplanner.core.naming.element_label`,
    "the special mirror (group 2)"), which the template gets as ``{name}``, and as ``{Name}`` with
    its first letter upper-case for the start of a sentence.
    """
    words = subject if name is None else name
    return Risk(
        code=spec.code,
        severity=severity or spec.severity,
        title=spec.title.format(name=words, Name=words[:1].upper() + words[1:], **title),
        detail=detail,
        fix=fix,
        reference=spec.reference,
        subject=subject,
    )


# --------------------------------------------------------------------------- results


def _natural_key(text: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def sort_risks(risks: Sequence[Risk]) -> list[Risk]:
    """Critical, warning, info; then by code; then by subject (``vdevs[2]`` before ``vdevs[10]``)."""
    return sorted(risks, key=lambda r: (SEVERITY_RANK[r.severity], r.code, _natural_key(r.subject)))


def assess(design: Design, figures: RiskFigures | None = None) -> list[Risk]:
    """Every risk the design raises, in a deterministic order (see :func:`sort_risks`)."""
    return sort_risks([risk for reg in _REGISTRATIONS for risk in reg.rule(design, figures)])


def risk_to_document(risk: Risk) -> dict[str, str]:
    """A risk as the estimate document lists it."""
    return {
        "code": risk.code,
        "severity": risk.severity.value,
        "title": risk.title,
        "detail": risk.detail,
        "fix": risk.fix,
        "reference": risk.reference,
        "subject": risk.subject,
    }


def catalog_markdown() -> str:
    """The risk code table of ``docs/risks.md``, generated from :data:`RISK_CATALOG`."""
    lines = ["| code | severity | fires when | reference | one-click fix |", "|---|---|---|---|---|"]
    for spec in RISK_CATALOG.values():
        fix = "yes" if spec.fix is not None else "—"
        lines.append(f"| `{spec.code}` | {spec.severity.value} | {spec.when} | {spec.reference} | {fix} |")
    return "\n".join(lines) + "\n"
