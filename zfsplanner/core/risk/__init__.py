"""Risk rules with stable codes (``spec/design-format.md``, "Risk codes").

``assess(design, figures)`` returns every risk the design raises, each with a stable
``code``, a severity, a title, a detail that names the vdev group or dataset and the
numbers behind the verdict, a fix, a reference (OpenZFS source file, man page or issue)
and the ``subject`` (the design field it is about: ``vdevs[1]``, ``datasets[0]`` or
``pool``). The order is deterministic: critical first, then warning, then info; within a
severity by code, then by subject.

Rules read the design itself. The few that need computed figures (pool fill, special
class use, and optionally the per-dataset RAIDZ overhead) take them from
:class:`RiskFigures`, which other modules fill in; a rule whose figure is ``None`` is
skipped. RAM comes from ``figures.ram_bytes`` or, failing that, from the design key
``host.ram_bytes``.

Every threshold is a named constant in the module of its rules and is explained in the
detail text. Each rule is registered once with its code(s) (:mod:`.registry`); the rule
modules, put in catalog order by ``arrange`` below (import a rule's constants from its module):

- :mod:`.special`: special and dedup classes, special_small_blocks
- :mod:`.sectors`: ashift below the physical sector, mixed ashift
- :mod:`.layout`: raidz/dRAID overhead, parity, width, mixed vdevs, disk sizes, spares
- :mod:`.devices`: log, cache and dedup devices, L2ARC and dedup table memory
- :mod:`.datasets`: sync, pool fill, boot pools, release refusals, VM sector sizes
- :mod:`.host`: the host's module parameters that trade safety for speed (zfs_nocacheflush, zil_disable)
"""

from __future__ import annotations

from . import datasets, devices, host, layout, sectors, special
from .registry import (
    RISK_CATALOG,
    DatasetFigure,
    Risk,
    RiskFigures,
    Rule,
    Severity,
    arrange,
    assess,
    catalog_markdown,
    registrations,
    risk_to_document,
)

arrange(special, sectors, layout, devices, datasets, host)

RULES: tuple[Rule, ...] = tuple(reg.rule for reg in registrations())
"""Every rule in the order :func:`assess` runs them."""

__all__ = [
    "RISK_CATALOG",
    "RULES",
    "DatasetFigure",
    "Risk",
    "RiskFigures",
    "Severity",
    "assess",
    "catalog_markdown",
    "risk_to_document",
]
