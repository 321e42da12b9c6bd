"""manage.py measure_compression: the spec's JSON, exit 2 on bad input."""

from __future__ import annotations

import io
import json
import os

import pytest
from django.core.management import call_command

from zfsplanner.core.datasets.measure import Setting, measure_bytes
from zfsplanner.core.versions import Version

from .conftest import text_sample


def run(*args: str) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("measure_compression", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, (json.loads(out.getvalue()) if out.getvalue() else None), err.getvalue()


def test_it_prints_per_file_and_total_results_for_every_algorithm_and_recordsize(tmp_path):
    a = tmp_path / "a.log"
    a.write_bytes(text_sample(400_000))
    b = tmp_path / "b.bin"
    b.write_bytes(os.urandom(200_000))
    code, doc, err = run(
        str(a),
        str(b),
        "--algorithms",
        "lz4,zstd,zstd-7,gzip-9",
        "--recordsize",
        "128K,1M",
        "--ashift",
        "12",
        "--openzfs-version",
        "2.3",
    )
    assert code == 0, err
    assert [f["path"] for f in doc["files"]] == [str(a), str(b)]
    keys = [(r["algorithm"], r["recordsize"]) for r in doc["total"]["results"]]
    assert keys == [(alg, rs) for alg in ("lz4", "zstd-3", "zstd-7", "gzip-9") for rs in (131072, 1048576)]
    for r in doc["files"][0]["results"]:
        for key in ("logical_bytes", "stored_bytes", "compressratio", "compressratio_exact", "throughput_bytes_per_s"):
            assert key in r
    first = doc["files"][0]["results"][0]
    expected = measure_bytes(a.read_bytes(), Setting("lz4", "lz4", 131072), 12, Version.parse("2.3")).document()
    assert first["stored_bytes"] == expected["stored_bytes"]
    assert first["compressratio"] == expected["compressratio"] > 2
    # random data: the full record stays as it is, only the zero-padded tail record shrinks
    rnd = doc["files"][1]["results"][0]
    assert (rnd["uncompressed_blocks"], rnd["compressed_blocks"]) == (1, 1)
    assert 200_000 < rnd["stored_bytes"] < 2 * 131072


def test_a_directory_stands_for_its_files(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.txt").write_bytes(text_sample(10_000))
    (tmp_path / "d" / "y.txt").write_bytes(text_sample(20_000))
    code, doc, _ = run(str(tmp_path / "d"), "--algorithms", "lz4")
    assert code == 0 and doc["total"]["files"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--algorithms", "snappy"], "--algorithms"),
        (["--recordsize", "100K"], "--recordsize"),
        (["--ashift", "20"], "--ashift"),
        (["--openzfs-version", "1.9"], "--openzfs-version"),
    ],
)
def test_bad_options_exit_2_naming_the_option(tmp_path, args, message):
    f = tmp_path / "f"
    f.write_bytes(b"x" * 100)
    code, doc, err = run(str(f), *args)
    assert code == 2 and doc is None and message in err


def test_an_unreadable_file_exits_2_naming_it(tmp_path):
    missing = tmp_path / "nope.bin"
    code, doc, err = run(str(missing))
    assert code == 2 and doc is None and str(missing) in err
