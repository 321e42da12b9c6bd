"""The calculation core and the parsers never import Django, Celery or DRF."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import zfsplanner.core
import zfsplanner.parsers

ROOT = Path(__file__).resolve().parents[2]


def modules():
    for pkg in (zfsplanner.core, zfsplanner.parsers):
        yield pkg.__name__
        for info in pkgutil.iter_modules(pkg.__path__):
            yield f"{pkg.__name__}.{info.name}"


def test_core_and_parsers_import_without_django():
    names = sorted(modules())
    assert "zfsplanner.core.design" in names
    code = (
        "import importlib, sys\n"
        "sys.modules['zfsplanner'] = type(sys)('zfsplanner'); sys.modules['zfsplanner'].__path__ = ['zfsplanner']\n"
        f"for n in {names!r}: importlib.import_module(n)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'rest_framework')]\n"
        "assert not bad, bad\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
