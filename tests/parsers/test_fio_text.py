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
    # five runs of the same job appended with >>: five results, named apart
    assert [r["name"] for r in doc["results"]] == ["RND4K Q16T8 read"] + [f"RND4K Q16T8 read #{i}" for i in range(2, 6)]
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


def test_block_sizes_with_decimals_are_kib_not_bytes():
    # "bs=(R) 64.0KiB-64.0KiB" is 64 KiB, and "bs=(R) 16.0KiB-16.0KiB" 16 KiB
    doc = parsed(TXT / "generated_fio-3.33_numjobs4-no-group-reporting_normal.txt")
    assert doc["results"][1]["name"] == "SEQ64K Q1T1 write"
    assert doc["results"][1]["block_size_bytes"] == 65536
    quoted = parsed(TXT / "generated_fio-3.33_16k_quoted-in-email.txt")
    assert [r["name"] for r in quoted["results"]] == ["SEQ16K Q1T1 write"]


def test_clones_without_group_reporting_give_the_results_of_the_json_of_the_same_run():
    """One fio 3.33 run with --output-format=json,normal, split into its two parts."""
    text = parsed(TXT / "generated_fio-3.33_numjobs4-no-group-reporting_normal.txt")["results"]
    json = parsed(SAMPLES / "fio_json" / "generated_fio-3.33_numjobs4-no-group-reporting.json")["results"]
    assert [r["name"] for r in text] == [r["name"] for r in json] == ["RND4K Q1T4 read", "SEQ64K Q1T1 write"]
    for t, j in zip(text, json, strict=True):
        for key in ("op", "pattern", "block_size_bytes", "queue_depth", "threads"):
            assert t[key] == j[key], key
        # the text figures are fio's rounded ones (3 significant digits)
        assert t["bandwidth_bytes_per_s"] == pytest.approx(j["bandwidth_bytes_per_s"], rel=0.005)
        assert t["iops"] == pytest.approx(j["iops"], rel=0.005)
        assert t["latency_mean_us"] == pytest.approx(j["latency_mean_us"], rel=0.001)
        assert t["latency_max_us"] == pytest.approx(j["latency_max_us"], rel=0.001)
        assert t["latency_percentiles_us"]["99"] == pytest.approx(j["latency_percentiles_us"]["99"], rel=0.02)


def test_fio_2_0_layout_keeps_mean_and_max_latency_of_every_appended_run():
    # "lat (usec): min=835 , max=88240 , avg=9762.95" — fio 2.0.x puts spaces before the commas
    doc = parsed(TXT / "handmade_fio-2.0.8_normal_two-runs-appended.txt")
    assert doc["source"]["tool_version"] == "2.0.8"
    names = [r["name"] for r in doc["results"]]
    assert names == ["SEQ128K Q16T1 read", "RND4K Q32T1 write", "SEQ128K Q16T1 read #2", "RND4K Q32T1 write #2"]
    first, write = doc["results"][0], doc["results"][1]
    assert (first["latency_mean_us"], first["latency_max_us"]) == (9762.95, 88240.0)
    assert first["bandwidth_bytes_per_s"] == 209715 * 1024
    assert write["latency_max_us"] == 1203.6e3  # max=1203.6K
    assert write["latency_percentiles_us"]["99"] == 243_000  # clat percentiles (msec)


def test_fio_2_0_clones_are_folded_with_weighted_latency():
    doc = parsed(TXT / "handmade_fio-2.0.3_normal_numjobs2_no-group-reporting.txt")
    read, write = doc["results"]
    assert read["name"] == "RND8K Q1T2 R70W30 read"  # issued r/w/d: total=6144/2634 + 6112/2616
    assert read["threads"] == 2
    assert read["bandwidth_bytes_per_s"] == pytest.approx((1638.4 + 1629.9) * 1024)  # "bw=1638.4 KB/s"
    assert read["iops"] == 204 + 203
    assert read["latency_mean_us"] == pytest.approx((4702.93 * 6144 + 4725.55 * 6112) / (6144 + 6112))
    assert read["latency_max_us"] == 151209
    assert write["latency_max_us"] == 101025


def test_a_job_that_failed_is_reported_in_words():
    error = parsed(TXT / "generated_fio-3.33_dev-full-enospc_normal.txt")["error"]
    assert error["format"] == "fio-text" and error["where"] == "line 7"
    assert "fio job 'full-write' ended with error 28 (ENOSPC: No space left on device)" in error["message"]
    partial = parsed(TXT / "generated_fio-3.33_one-job-enospc_normal.txt")
    assert [r["name"] for r in partial["results"]] == ["SEQ16K Q1T1 write"]
    assert partial["warnings"] == [
        "fio job 'full-device' ended with error 28 (ENOSPC: No space left on device); it measured nothing"
    ]
