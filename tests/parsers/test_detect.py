"""Format detection by content, and the purity of the parsers package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from zfsplanner.parsers import (
    PARSERS,
    UnknownFormat,
    bonnie,
    crystaldiskmark,
    dd,
    detect,
    fio_json,
    fio_log,
    fio_text,
)

from .golden import samples

EXPECTED = {
    "fio_json": fio_json,
    "fio_text": fio_text,
    "fio_log": fio_log,
    "crystaldiskmark": crystaldiskmark,
    "bonnie": bonnie,
    "dd": dd,
}
OTHER_SAMPLES = Path(__file__).resolve().parent / "samples" / "other"


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_every_sample_is_detected_as_its_format(fmt):
    for path in samples(fmt):
        assert detect(path.read_bytes()) is EXPECTED[fmt], path.name


def test_detection_ignores_the_file_name():
    data = (Path(__file__).parent / "samples" / "dd" / "vps-comparison_dd_io.log").read_bytes()
    assert detect(data, filename="results.json") is dd


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   \n",
        b"hello world\n",
        b'{"not": "fio"}',
        b"pool  alloc  free\n----- ----- -----\n",
    ],
)
def test_unknown_content_raises_unknown_format(data):
    with pytest.raises(UnknownFormat) as exc:
        detect(data)
    assert exc.value.format == "unknown"


def test_zpool_iostat_and_diskspd_are_not_claimed():
    for name in ("jc_zpool-iostat.out", "jc_zpool-iostat-v.out", "pkb_diskspd_result.xml"):
        with pytest.raises(UnknownFormat):
            detect((OTHER_SAMPLES / name).read_bytes())


def test_registry_is_an_explicit_tuple():
    assert PARSERS == (fio_json, crystaldiskmark, bonnie, fio_text, fio_log, dd)
    for module in PARSERS:
        assert callable(module.sniff) and callable(module.parse) and isinstance(module.FORMAT, str)


def test_parsers_never_import_django():
    # The zfsplanner package itself loads Celery/Django settings, so check the parser
    # modules' own import statements rather than sys.modules.
    package = Path(__file__).resolve().parents[2] / "zfsplanner" / "parsers"
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in {"django", "celery", "rest_framework"}, f"{source.name} imports {name}"
                assert node.level > 0 if isinstance(node, ast.ImportFrom) and top == "zfsplanner" else True
                if isinstance(node, ast.ImportFrom) and node.level == 0 and top not in ("__future__",):
                    assert top in sys.stdlib_module_names or top == "orjson", f"{source.name} imports {name}"
            if isinstance(node, ast.Import):
                for name in names:
                    top = name.split(".")[0]
                    assert top in sys.stdlib_module_names or top == "orjson", f"{source.name} imports {name}"
