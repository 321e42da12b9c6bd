"""Format detection by content, and the purity of the parsers package."""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from zfsplanner.parsers import (
    PARSERS,
    ParseError,
    UnknownFormat,
    bonnie,
    crystaldiskmark,
    dd,
    detect,
    fio_json,
    fio_log,
    fio_text,
    kdiskmark,
    parse,
)
from zfsplanner.parsers.common import check_figures

from .golden import samples

EXPECTED = {
    "fio_json": fio_json,
    "fio_text": fio_text,
    "fio_log": fio_log,
    "crystaldiskmark": crystaldiskmark,
    "kdiskmark": kdiskmark,
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
    assert PARSERS == (fio_json, kdiskmark, crystaldiskmark, bonnie, fio_text, fio_log, dd)
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


def test_a_negative_figure_is_refused_naming_the_test():
    doc = (
        b'{"fio version": "fio-3.33", "jobs": [{"jobname": "j", "groupid": 0, "error": 0,'
        b' "job options": {"rw": "read", "bs": "4k"},'
        b' "read": {"io_bytes": 4096, "bw_bytes": -1048576, "iops": 1.0, "total_ios": 1}}]}'
    )
    with pytest.raises(ParseError) as exc:
        parse(doc)
    assert (exc.value.format, exc.value.where) == ("fio-json", "result 1 (SEQ4K Q1T1 read)")
    assert exc.value.message == "bandwidth_bytes_per_s is -1048576.0; figures must be finite and not negative"


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -0.5])
def test_non_finite_figures_and_percentiles_are_refused(value):
    good = parse((Path(__file__).parent / "samples" / "dd" / "vps-comparison_dd_io.log").read_bytes())
    bad_iops = replace(good, results=(replace(good.results[0], iops=value),))
    with pytest.raises(ParseError, match="iops is"):
        check_figures(bad_iops, "dd")
    bad_pct = replace(good, results=(replace(good.results[0], latency_percentiles_us={"99": value}),))
    with pytest.raises(ParseError, match="latency percentile 99 is"):
        check_figures(bad_pct, "dd")
