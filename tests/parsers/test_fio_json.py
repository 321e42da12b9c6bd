"""fio JSON / json+ samples (shared/samples/benchmarks/fio + our own fio 3.33 runs)."""

from __future__ import annotations

import json

import pytest

from zfsplanner.parsers import ParseError, fio_json, parse

from .golden import SAMPLES, expected, parsed, result_by_name, samples

FIO = SAMPLES / "fio_json"


@pytest.mark.parametrize("path", samples("fio_json"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_fio2_bw_is_kib_and_latency_is_usec():
    doc = parsed(FIO / "fioplot_fio-2.18_randread_qd1.json")
    r = result_by_name(doc, "RND4K Q1T1 read")
    assert doc["source"]["tool_version"] == "2.18-59-g618e"
    assert r["bandwidth_bytes_per_s"] == 292 * 1024  # "bw" : 292 (KiB/s)
    assert r["iops"] == 73.184143
    assert r["latency_mean_us"] == 13652.220173  # "lat" mean, already µs in fio 2
    assert r["latency_max_us"] == 26177.0
    assert r["latency_percentiles_us"]["1"] == 5600  # clat.percentile "1.000000": 5600 µs
    assert r["latency_percentiles_us"]["99.9"] == 24960


def test_fio31_without_bw_bytes_uses_bw_times_1024_and_ns_latency():
    r = parsed(FIO / "fioplot_fio-3.1_randread_qd1_numjobs16_group-reporting.json")["results"]
    assert len(r) == 1  # group_reporting: 16 clones, one entry
    r0 = r[0]
    assert r0["name"] == "RND4K Q1T16 read"
    assert r0["threads"] == 16 and r0["queue_depth"] == 1 and r0["block_size_bytes"] == 4096
    assert r0["bandwidth_bytes_per_s"] == 287210 * 1024
    assert r0["latency_mean_us"] == pytest.approx(218.158961903)  # lat_ns mean 218158.961903 ns
    assert r0["latency_percentiles_us"]["1"] == pytest.approx(71.168)  # clat_ns "1.000000": 71168


def test_fio36_prefers_bw_bytes():
    r = parsed(FIO / "fioplot_fio-3.6_ceph-rbd_randread_qd1_numjobs16_group-reporting.json")["results"][0]
    assert r["bandwidth_bytes_per_s"] == 69098982  # bw_bytes, not bw 67479 × 1024 = 69098496
    assert r["iops"] == 16869.868836


def test_text_before_the_json_is_kept_as_messages():
    doc = parsed(FIO / "fioplot_fio-3.34_randread_interrupted-signal-prefix.json")
    assert doc["meta"]["messages"] == ["fio: terminating on signal 2"]
    assert result_by_name(doc, "RND4K Q1T1 read")["bandwidth_bytes_per_s"] == 41380254


def test_a_job_that_measured_nothing_fails_the_log_in_fios_words():
    doc = parsed(FIO / "fioplot_fio-3.33_write_1m_with-stderr-prefix.json")
    error = doc["error"]
    assert (error["format"], error["where"]) == ("fio-json", "$.jobs[0].error")
    assert "fio job '1m' ended with error 22 (EINVAL: Invalid argument)" in error["message"]
    assert "fio said: fio: time_based requires a runtime/timeout setting" in error["message"]


def test_a_write_to_a_full_device_is_refused_with_enospc():
    error = parsed(FIO / "generated_fio-3.33_dev-full-enospc_with-stderr.json")["error"]
    assert "error 28 (ENOSPC: No space left on device); it measured nothing" in error["message"]


def test_one_failed_job_among_good_ones_makes_the_log_partial():
    doc = parsed(FIO / "generated_fio-3.33_one-job-enospc_with-stderr.json")
    assert [r["name"] for r in doc["results"]] == ["SEQ16K Q1T1 write"]
    assert doc["warnings"] == [
        "fio job 'full-device' ended with error 28 (ENOSPC: No space left on device); it measured nothing"
    ]
    assert doc["meta"]["errors"] == [{"job": "full-device", "error": 28}]


def test_clones_without_group_reporting_are_summed():
    path = FIO / "samyaple_fio-3.33_randwrite_iodepth16_numjobs16_no-group-reporting.json"
    raw = json.loads(path.read_text())
    doc = parsed(path)
    assert len(raw["jobs"]) == 16
    [r] = doc["results"]
    assert r["name"] == "RND4K Q16T16 write"
    assert r["bandwidth_bytes_per_s"] == sum(j["write"]["bw_bytes"] for j in raw["jobs"])
    assert r["iops"] == pytest.approx(sum(j["write"]["iops"] for j in raw["jobs"]))
    weights = [j["write"]["lat_ns"]["N"] for j in raw["jobs"]]
    mean_ns = sum(j["write"]["lat_ns"]["mean"] * w for j, w in zip(raw["jobs"], weights)) / sum(weights)
    assert r["latency_mean_us"] == pytest.approx(mean_ns / 1000)
    assert r["latency_max_us"] == max(j["write"]["lat_ns"]["max"] for j in raw["jobs"]) / 1000


def test_mixed_randrw_gives_a_read_and_a_write_result_named_by_the_mix():
    doc = parsed(FIO / "samyaple_fio-3.33_randrw65_iodepth8_numjobs4_no-group-reporting.json")
    assert [r["name"] for r in doc["results"]] == ["RND4K Q8T4 R65W35 read", "RND4K Q8T4 R65W35 write"]
    assert [r["op"] for r in doc["results"]] == ["read", "write"]


def test_global_options_are_the_fallback_for_job_options():
    doc = parsed(FIO / "pkb_fio-2.17_global-options_group-reporting.json")
    assert [r["name"] for r in doc["results"]] == ["RND16K Q1T2 read", "RND16K Q1T2 write"]
    assert doc["meta"]["ioengine"] == "libaio"  # only in "global options"
    assert result_by_name(doc, "RND16K Q1T2 read")["bandwidth_bytes_per_s"] == 129386 * 1024


def test_oldest_layout_without_options_names_results_by_job():
    doc = parsed(FIO / "pkb_fio-2.1.4_five-jobs.json")
    assert [r["name"] for r in doc["results"]] == [
        "sequential_write write",
        "sequential_read read",
        "random_write_test write",
        "random_read_test read",
        "random_read_test_parallel read",
    ]
    assert doc["results"][0]["block_size_bytes"] is None
    assert doc["results"][0]["bandwidth_bytes_per_s"] == 68118 * 1024


def test_json_plus_bins_are_ignored_and_names_match_crystaldiskmark():
    doc = parsed(FIO / "generated_fio-3.33_cdm-like.jsonplus.json")
    cdm = parsed(SAMPLES / "crystaldiskmark" / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt")
    assert {r["name"] for r in doc["results"]} == {r["name"] for r in cdm["results"]}
    assert all(r["bandwidth_bytes_per_s"] > 0 for r in doc["results"])


def test_generated_json_lines_up_with_crystaldiskmark_names():
    doc = parsed(FIO / "generated_fio-3.33_cdm-like.json")
    raw = json.loads((FIO / "generated_fio-3.33_cdm-like.json").read_text())
    names = [r["name"] for r in doc["results"]]
    assert names == [
        "SEQ1M Q8T1 read",
        "SEQ1M Q8T1 write",
        "SEQ1M Q1T1 read",
        "SEQ1M Q1T1 write",
        "RND4K Q32T1 read",
        "RND4K Q32T1 write",
        "RND4K Q1T1 read",
        "RND4K Q1T1 write",
    ]
    first = raw["jobs"][0]["read"]
    assert doc["results"][0]["bandwidth_bytes_per_s"] == first["bw_bytes"]
    assert doc["results"][0]["latency_mean_us"] == pytest.approx(first["lat_ns"]["mean"] / 1000)


def test_two_appended_documents_give_both_results():
    data = (FIO / "fioplot_fio-3.6_ceph-rbd_randread_qd1_numjobs16_group-reporting.json").read_bytes()
    doc = parse(data + b"\n" + data).to_dict()
    assert len(doc["results"]) == 2


def test_utf16_output_from_powershell_is_read():
    text = (FIO / "fioplot_fio-3.1_randread_qd1_numjobs16_group-reporting.json").read_text()
    doc = parse(b"\xff\xfe" + text.encode("utf-16-le")).to_dict()
    assert doc["source"]["encoding"] == "utf-16-le"
    assert doc["results"][0]["bandwidth_bytes_per_s"] == 287210 * 1024


def test_a_wrong_type_names_the_json_path():
    raw = json.loads((FIO / "fioplot_fio-2.18_randread_qd1.json").read_text())
    raw["jobs"][0]["read"]["bw"] = "fast"
    with pytest.raises(ParseError) as exc:
        fio_json.parse(json.dumps(raw).encode())
    assert str(exc.value) == "fio-json: at $.jobs[0].read.bw: expected a number"


def test_truncated_json_names_the_line():
    data = (FIO / "fioplot_fio-3.34_randread_interrupted-signal-prefix.json").read_bytes()
    with pytest.raises(ParseError) as exc:
        parse(data[:2000])
    assert exc.value.format == "fio-json"
    assert exc.value.where.startswith("line ")


def test_jobs_must_be_a_list():
    with pytest.raises(ParseError) as exc:
        parse(b'{"fio version": "fio-3.33", "jobs": {}}')
    assert exc.value.where == "$.jobs"


def test_an_error_after_json_plus_bins_reports_the_files_own_line():
    path = FIO / "generated_fio-3.33_cdm-like.jsonplus.json"
    lines = path.read_bytes().split(b"\n")
    target = next(i for i, line in enumerate(lines) if b'"bw_min"' in line and i > 200)
    lines[target] = lines[target].replace(b":", b"::", 1)
    with pytest.raises(ParseError) as exc:
        parse(b"\n".join(lines))
    assert exc.value.where.startswith(f"line {target + 1},")
