"""KDiskMark exports: CrystalDiskMark's layout under KDiskMark's own header."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import detect, kdiskmark

from .golden import SAMPLES, expected, parsed, result_by_name, samples

KDM = SAMPLES / "kdiskmark"


@pytest.mark.parametrize("path", samples("kdiskmark"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


@pytest.mark.parametrize("path", samples("kdiskmark"), ids=lambda p: p.name)
def test_kdiskmark_is_recognised_as_kdiskmark_not_crystaldiskmark(path):
    assert detect(path.read_bytes()) is kdiskmark
    assert parsed(path)["source"]["tool"] == "kdiskmark"


def test_kdiskmark_3_names_its_fio_and_target():
    doc = parsed(KDM / "KDM_kdiskmark-3.1.4_default-mix.txt")
    assert doc["source"]["tool_version"] == "3.1.4"
    assert doc["meta"]["fio_version"] == "3.35"
    assert doc["meta"]["target"] == "/tank/bench 41% (1.7 TiB) [Samsung SSD 970 EVO Plus 1TB]"
    assert doc["meta"]["date"] == "2024-03-12T21:07:44"
    # "Sequential   1 MiB (Q=  8, T= 1):  3574.483 MB/s [   3408.9 IOPS] <  2346.80 us>"
    r = result_by_name(doc, "SEQ1M Q8T1 read")
    assert (r["bandwidth_bytes_per_s"], r["iops"], r["latency_mean_us"]) == (3_574_483_000, 3408.9, 2346.80)
    assert result_by_name(doc, "RND4K Q1T1 R70W30 mixed")["bandwidth_bytes_per_s"] == 61_770_000


def test_kdiskmark_1_without_a_version_and_2_with_the_peak_profile():
    old = parsed(KDM / "KDM_kdiskmark-1.x_default.txt")
    assert old["source"]["tool_version"] is None and "fio_version" not in old["meta"]
    assert result_by_name(old, "RND4K Q32T16 write")["bandwidth_bytes_per_s"] == 402_118_000
    peak = parsed(KDM / "KDM_kdiskmark-2.3.0_peak-profile.txt")
    assert [r["name"] for r in peak["results"]] == [
        "SEQ1M Q8T1 read",
        "RND4K Q32T16 read",
        "SEQ1M Q8T1 write",
        "RND4K Q32T16 write",
    ]
    assert peak["meta"]["profile"] == "Peak Performance"
