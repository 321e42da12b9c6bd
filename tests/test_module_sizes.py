"""No module of the project grows past 500 lines: one that does has found a seam to split along.

The core is pinned apart (tests/core/test_purity.py); this covers the apps, the parsers and
``benchmarks`` too. Migrations are generated, so they are left out.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 500


def sizes(package: str) -> dict[str, int]:
    return {
        str(p.relative_to(ROOT)): len(p.read_text().splitlines())
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.relative_to(ROOT).parts
    }


def test_no_module_of_the_project_is_over_500_lines():
    modules = sizes("zfsplanner") | sizes("benchmarks")
    assert len(modules) > 150
    assert any(name.startswith("benchmarks/") for name in modules)
    assert {name: n for name, n in modules.items() if n > MAX_MODULE_LINES} == {}
