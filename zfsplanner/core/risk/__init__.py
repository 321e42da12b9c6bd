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
``extra["host"]["ram_bytes"]``.

Every threshold is a named constant in the module of its rules and is explained in the
detail text. Each rule is registered once with its code(s) (:mod:`.registry`); the rule
modules, put in catalog order by ``arrange`` below:

- :mod:`.special`: special and dedup classes, special_small_blocks
- :mod:`.layout`: ashift, raidz/dRAID overhead, parity, width, mixed vdevs, disk sizes, spares
- :mod:`.devices`: log, cache and dedup devices, L2ARC and dedup table memory
- :mod:`.datasets`: sync, pool fill, boot pools, release refusals, VM sector sizes
"""

from __future__ import annotations

from ..geometry.metaslab import metaslab_shift
from ..geometry.vdev_shape import fault_tolerance
from ..naming import describe_group
from ..properties.resolve import DEFAULT_RECORDSIZE
from . import datasets, devices, layout, special
from .common import REF_REMOVAL, block_size, dedup_on, host_ram
from .datasets import (
    BOOT_MAX_RECORDSIZE,
    BOOT_POOL_NAMES,
    POOL_FILL_WARN,
    REF_BOOT,
    REF_FILL,
    REF_SYNC,
    REF_VM,
    is_boot_pool,
    rule_boot_recordsize,
    rule_pool_fill,
    rule_sync_disabled,
    rule_vm_sector_size,
    rule_zpool_refuses,
)
from .devices import (
    DDT_ENTRY_BYTES_FLAT,
    DDT_ENTRY_BYTES_TRAD,
    DDT_RAM_SHARE,
    L2ARC_HEADER_BYTES,
    L2ARC_RAM_SHARE,
    L2ARC_UNKNOWN_RAM_FLOOR,
    REF_DDT,
    REF_L2ARC,
    REF_SLOG,
    rule_aux_on_hdd,
    rule_dedup_memory,
    rule_dedup_vdev_unused,
    rule_l2arc_memory,
    rule_slog_plp,
    rule_slog_unmirrored,
)
from .layout import (
    LARGE_DISK_BYTES,
    MIXED_SIZE_LOSS_SHARE,
    PADDING_OVERHEAD_FACTOR,
    REF_ASHIFT,
    REF_RAIDZ,
    REF_ZPOOL_ADD,
    REF_ZPOOLCONCEPTS,
    WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE,
    leaf_asize,
    replacement_min_bytes,
    rule_ashift_below_physical,
    rule_draid_compression,
    rule_mixed_ashift,
    rule_mixed_redundancy,
    rule_mixed_sizes,
    rule_non_redundant,
    rule_raidz_padding,
    rule_single_parity_large,
    rule_spare_size,
    rule_wide_raidz,
)
from .registry import (
    RISK_CATALOG,
    SEVERITY_RANK,
    DatasetFigure,
    Registration,
    Risk,
    RiskFigures,
    RiskSpec,
    Rule,
    Severity,
    arrange,
    assess,
    catalog_markdown,
    registrations,
    risk_to_document,
    rule,
    rule_codes,
    sort_risks,
)
from .special import (
    REF_SPECIAL,
    REF_SPECIAL_CLASS,
    REF_SSB,
    SPECIAL_SMALL_BLOCK_SHARE,
    rule_special_irremovable,
    rule_special_redundancy,
    rule_special_small_blocks,
    rule_special_undersized,
    rule_ssb_captures_all,
)

arrange(special, layout, devices, datasets)

RULES: tuple[Rule, ...] = tuple(reg.rule for reg in registrations())
"""Every rule in the order :func:`assess` runs them."""

__all__ = [
    "BOOT_MAX_RECORDSIZE",
    "BOOT_POOL_NAMES",
    "DDT_ENTRY_BYTES_FLAT",
    "DDT_ENTRY_BYTES_TRAD",
    "DDT_RAM_SHARE",
    "DEFAULT_RECORDSIZE",
    "L2ARC_HEADER_BYTES",
    "L2ARC_RAM_SHARE",
    "L2ARC_UNKNOWN_RAM_FLOOR",
    "LARGE_DISK_BYTES",
    "MIXED_SIZE_LOSS_SHARE",
    "PADDING_OVERHEAD_FACTOR",
    "POOL_FILL_WARN",
    "REF_ASHIFT",
    "REF_BOOT",
    "REF_DDT",
    "REF_FILL",
    "REF_L2ARC",
    "REF_RAIDZ",
    "REF_REMOVAL",
    "REF_SLOG",
    "REF_SPECIAL",
    "REF_SPECIAL_CLASS",
    "REF_SSB",
    "REF_SYNC",
    "REF_VM",
    "REF_ZPOOLCONCEPTS",
    "REF_ZPOOL_ADD",
    "RISK_CATALOG",
    "RULES",
    "SEVERITY_RANK",
    "SPECIAL_SMALL_BLOCK_SHARE",
    "WIDE_RAIDZ_DISKS_PER_PARITY_PLUS_ONE",
    "DatasetFigure",
    "Registration",
    "Risk",
    "RiskFigures",
    "RiskSpec",
    "Rule",
    "Severity",
    "dedup_on",
    "arrange",
    "assess",
    "block_size",
    "catalog_markdown",
    "datasets",
    "describe_group",
    "devices",
    "fault_tolerance",
    "host_ram",
    "is_boot_pool",
    "layout",
    "leaf_asize",
    "metaslab_shift",
    "registrations",
    "replacement_min_bytes",
    "risk_to_document",
    "rule",
    "rule_ashift_below_physical",
    "rule_aux_on_hdd",
    "rule_boot_recordsize",
    "rule_codes",
    "rule_dedup_memory",
    "rule_dedup_vdev_unused",
    "rule_draid_compression",
    "rule_l2arc_memory",
    "rule_mixed_ashift",
    "rule_mixed_redundancy",
    "rule_mixed_sizes",
    "rule_non_redundant",
    "rule_pool_fill",
    "rule_raidz_padding",
    "rule_single_parity_large",
    "rule_slog_plp",
    "rule_slog_unmirrored",
    "rule_spare_size",
    "rule_special_irremovable",
    "rule_special_redundancy",
    "rule_special_small_blocks",
    "rule_special_undersized",
    "rule_ssb_captures_all",
    "rule_sync_disabled",
    "rule_vm_sector_size",
    "rule_wide_raidz",
    "rule_zpool_refuses",
    "sort_risks",
    "special",
]
