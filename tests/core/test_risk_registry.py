"""The risk registry: every code is registered once, by one rule, and the catalog is exactly what is registered."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import zfsplanner.core.risk as risk_package
from zfsplanner.core.risk import RULES
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
    # the rule modules and the registry; fixes.py keys its one-click fixes by code
    sources = "\n".join(p.read_text() for p in sorted(PACKAGE.glob("*.py")) if p.name != "fixes.py")
    for code in RISK_CATALOG:
        assert len(re.findall(rf'"{re.escape(code)}"', sources)) == 1, code


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
