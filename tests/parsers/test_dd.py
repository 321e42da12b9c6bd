"""dd summaries (GNU new/old, BSD, busybox)."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import ParseError, dd, parse

from .golden import SAMPLES, expected, parsed, samples

DD = SAMPLES / "dd"


@pytest.mark.parametrize("path", samples("dd"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_each_run_is_one_result_with_exact_bandwidth():
    doc = parsed(DD / "vps-comparison_dd_io.log")
    assert len(doc["results"]) == 5
    first = doc["results"][0]  # 1073741824 bytes … copied, 1.70473 s, 630 MB/s
    assert first["bandwidth_bytes_per_s"] == 1073741824 / 1.70473
    assert first["block_size_bytes"] == 65536  # 1073741824 bytes / 16384 records
    assert first["iops"] == 16384 / 1.70473
    assert first["name"] == "SEQ64K Q1T1 copy"


def test_commands_give_direction_and_progress_lines_are_skipped():
    doc = parsed(DD / "generated_gnu-dd-9_write-read-progress.log")
    assert [r["name"] for r in doc["results"]] == ["SEQ1M Q1T1 write", "SEQ1M Q1T1 read", "SEQ4K Q1T1 write"]
    assert doc["results"][2]["bandwidth_bytes_per_s"] == 40960000 / 1.96126


def test_old_gnu_bsd_and_busybox_lines():
    data = (
        b"1073741824 bytes (1.1 GB) copied, 2.5 s, 429 MB/s\n"
        b"268435456 bytes transferred in 1.000000 secs (268435456 bytes/sec)\n"
        b"1048576 bytes (1.0MB) copied, 0.5s, 2.0MB/s\n"
    )
    doc = parse(data).to_dict()
    assert [r["bandwidth_bytes_per_s"] for r in doc["results"]] == [1073741824 / 2.5, 268435456.0, 1048576 / 0.5]
    assert doc["source"]["tool"] == "dd"


def test_zero_seconds_is_an_error():
    with pytest.raises(ParseError) as exc:
        dd.parse(b"512 bytes copied, 0 s, 0 B/s\n")
    assert (exc.value.format, exc.value.where) == ("dd", "line 1")
