"""The risk registry: every code is registered once, by one rule, with its one-click fix if it has one,
and the catalog is exactly what is registered (no second registry of fixes)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest

import zfsplanner.core.risk as risk_package
from zfsplanner.core.risk import RULES
from zfsplanner.core.risk.fixes import FIXABLE_CODES
from zfsplanner.core.risk.registry import RISK_CATALOG, Severity, registrations, rule

PACKAGE = Path(risk_package.__file__).resolve().parent


def test_each_code_is_registered_by_exactly_one_rule():
    codes = Counter(spec.code for reg in registrations() for spec in reg.specs)
    assert codes, "no rule registered"
    assert [code for code, n in codes.items() if n != 1] == []
    rules = [reg.rule for reg in registrations()]
    assert len(set(rules)) == len(rules)


def test_the_catalog_is_the_registered_codes_in_registration_order():
    registered = [spec for reg in registrations() for spec in reg.specs]
    assert list(RISK_CATALOG) == [spec.code for spec in registered]
    assert all(RISK_CATALOG[spec.code] is spec for spec in registered)
    assert RULES == tuple(reg.rule for reg in registrations())


def test_each_code_is_written_once_in_the_rule_sources():
    # every module of the package, fixes.py included: a fix is declared in its code's registration
    sources = "\n".join(p.read_text() for p in sorted(PACKAGE.glob("*.py")))
    for code in RISK_CATALOG:
        assert len(re.findall(rf'"{re.escape(code)}"', sources)) == 1, code


def test_every_code_with_a_fix_is_a_registered_rules_code():
    fixed = [spec for reg in registrations() for spec in reg.specs if spec.fix is not None]
    assert fixed, "no rule declares a one-click fix"
    assert FIXABLE_CODES == tuple(spec.code for spec in fixed)
    assert all(RISK_CATALOG[spec.code].fix is spec.fix for spec in fixed)
    # each fix lives beside its rule, in the module that registers it
    for reg in registrations():
        for spec in reg.specs:
            if spec.fix is not None:
                assert spec.fix.__module__ == reg.rule.__module__, spec.code


def _core_modules() -> list[ModuleType]:
    import zfsplanner.core as core

    names = [m.name for m in pkgutil.walk_packages(core.__path__, "zfsplanner.core.")]
    return [importlib.import_module(name) for name in names]


def test_no_second_registry_keys_anything_by_risk_code():
    codes = set(RISK_CATALOG)
    catalogs = {id(RISK_CATALOG)}
    second = [
        f"{module.__name__}.{name}"
        for module in _core_modules()
        for name, value in vars(module).items()
        if isinstance(value, Mapping) and id(value) not in catalogs and codes & {k for k in value if isinstance(k, str)}
    ]
    assert second == []
    # and no module-level table holds the fix functions: they are reached through their spec only
    fixes = {id(spec.fix) for spec in RISK_CATALOG.values() if spec.fix is not None}
    tables = [
        f"{module.__name__}.{name}"
        for module in _core_modules()
        for name, value in vars(module).items()
        if isinstance(value, Mapping | list | tuple | set | frozenset)
        and fixes & {id(v) for v in (value.values() if isinstance(value, Mapping) else value)}
    ]
    assert tables == []


def test_registering_a_taken_code_fails_and_leaves_the_catalog_alone():
    before = dict(RISK_CATALOG)
    count = len(registrations())
    taken = next(iter(RISK_CATALOG))
    with pytest.raises(ValueError, match=taken):

        @rule(taken, Severity.INFO, "again", "never", "none")
        def rule_again(spec, design, figures):  # pragma: no cover - never registered
            yield from ()

    assert dict(RISK_CATALOG) == before
    assert len(registrations()) == count
