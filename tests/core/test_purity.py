"""The calculation core and the parsers never import Django, Celery or DRF."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import zfsplanner.core
import zfsplanner.parsers

ROOT = Path(__file__).resolve().parents[2]


CORE = ROOT / "zfsplanner" / "core"
MAX_TOP_LEVEL_MODULES = 12
MAX_MODULE_LINES = 550


def modules():
    """Every module of the core and the parsers, packages and their modules at any depth."""
    for pkg in (zfsplanner.core, zfsplanner.parsers):
        yield pkg.__name__
        for info in pkgutil.walk_packages(pkg.__path__, f"{pkg.__name__}."):
            yield info.name


def test_core_and_parsers_import_without_django():
    names = sorted(modules())
    some = {"zfsplanner.core.design.types", "zfsplanner.core.geometry.ashift", "zfsplanner.core.risk.layout"}
    assert some <= set(names)
    code = (
        "import importlib, sys\n"
        "sys.modules['zfsplanner'] = type(sys)('zfsplanner'); sys.modules['zfsplanner'].__path__ = ['zfsplanner']\n"
        f"for n in {names!r}: importlib.import_module(n)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'rest_framework')]\n"
        "assert not bad, bad\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_core_is_a_few_modules_and_packages_along_its_seams():
    """At most 12 modules at the top of core/, the rest in packages; a package has an __init__."""
    top = sorted(p.name for p in CORE.glob("*.py") if p.name != "__init__.py")
    assert 0 < len(top) <= MAX_TOP_LEVEL_MODULES, top
    packages = [p for p in CORE.iterdir() if p.is_dir() and any(p.glob("*.py"))]
    assert packages and all((p / "__init__.py").exists() for p in packages)


def test_no_core_module_is_over_550_lines():
    sizes = {str(p.relative_to(CORE)): len(p.read_text().splitlines()) for p in CORE.rglob("*.py")}
    assert len(sizes) > 50
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES} == {}
