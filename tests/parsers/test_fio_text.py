"""fio normal (human) output, 2.x and 3.x."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import ParseError, fio_text

from .golden import SAMPLES, expected, parsed, result_by_name, samples

TXT = SAMPLES / "fio_text"


@pytest.mark.parametrize("path", samples("fio_text"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_fio2_runs_appended_in_one_file():
    doc = parsed(TXT / "vps-comparison_fio-2.2.10_normal_randread_8jobs.log")
    assert doc["source"]["tool_version"] == "2.2.10"
    assert [r["name"] for r in doc["results"]] == ["RND4K Q16T8 read"] * 5
    r = doc["results"][0]  # read : io=4096.0MB, bw=611058KB/s, iops=152764 — KB is KiB in fio 2
    assert r["bandwidth_bytes_per_s"] == 611058 * 1024
    assert r["iops"] == 152764
    assert r["latency_mean_us"] == 829.81  # lat (usec): … avg=829.81
    assert r["latency_max_us"] == 27862
    assert r["latency_percentiles_us"]["99.9"] == 10688


def test_fio3_markdown_with_unit_switching():
    doc = parsed(TXT / "k8s-homelab_fio-3.25_normal_zfs-raidz2-fsync.md")
    assert len(doc["results"]) == 20
    first = doc["results"][0]  # write: IOPS=4801, BW=18.8MiB/s; lat (nsec): avg=13731.86, max=58476
    assert first["name"] == "SEQ4K Q1T1 write"
    assert first["bandwidth_bytes_per_s"] == pytest.approx(18.8 * 1024**2)
    assert first["latency_mean_us"] == pytest.approx(13.73186)
    assert first["latency_max_us"] == pytest.approx(58.476)
    assert first["latency_percentiles_us"]["50"] == pytest.approx(12.608)
    assert all(r["op"] == "write" for r in doc["results"])
    # "IOPS=18.6k" is 18600; the fsync section's percentiles don't replace clat's
    fast = [r for r in doc["results"] if r["iops"] == 18600]
    assert len(fast) == 1
    odd = [r for r in doc["results"] if r["block_size_bytes"] == 2300]
    assert odd and odd[0]["name"] == "SEQ2300B Q1T1 write"


def test_fio3_generated_normal_output_lines_up_with_cdm_names():
    doc = parsed(TXT / "generated_fio-3.33_cdm-like_normal.txt")
    cdm = parsed(SAMPLES / "crystaldiskmark" / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt")
    assert [r["name"] for r in doc["results"]] == [
        "SEQ1M Q8T1 read",
        "SEQ1M Q8T1 write",
        "SEQ1M Q1T1 read",
        "SEQ1M Q1T1 write",
        "RND4K Q32T1 read",
        "RND4K Q32T1 write",
        "RND4K Q1T1 read",
        "RND4K Q1T1 write",
    ]
    assert {r["name"] for r in doc["results"]} == {r["name"] for r in cdm["results"]}
    assert result_by_name(doc, "SEQ1M Q8T1 read")["threads"] == 1


def test_a_mangled_direction_line_names_its_line():
    text = (TXT / "vps-comparison_fio-2.2.10_normal_randread_8jobs.log").read_text()
    bad = text.replace("read : io=4096.0MB, bw=611058KB/s", "read : io=4096.0MB, bw=lots", 1)
    with pytest.raises(ParseError) as exc:
        fio_text.parse(bad.encode())
    assert (exc.value.format, exc.value.where) == ("fio-text", "line 15")
