"""CrystalDiskMark 3.x–8.x text results, and the encodings CDM and editors save them in."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import ParseError, crystaldiskmark, parse

from .golden import SAMPLES, expected, parsed, result_by_name, samples

CDM = SAMPLES / "crystaldiskmark"
WD_BLUE = CDM / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"


@pytest.mark.parametrize("path", samples("crystaldiskmark"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_cdm8_rows_are_converted_from_decimal_megabytes():
    doc = parsed(WD_BLUE)
    r = result_by_name(
        doc, "SEQ1M Q8T1 read"
    )  # SEQ    1MiB (Q=  8, T= 1):   531.458 MB/s [    506.8 IOPS] < 15726.77 us>
    assert r["bandwidth_bytes_per_s"] == 531_458_000
    assert r["iops"] == 506.8
    assert r["latency_mean_us"] == 15726.77
    assert r["latency_max_us"] is None
    assert (r["op"], r["pattern"], r["block_size_bytes"], r["queue_depth"], r["threads"]) == (
        "read",
        "sequential",
        1048576,
        8,
        1,
    )
    w = result_by_name(
        doc, "RND4K Q1T1 write"
    )  # RND    4KiB (Q=  1, T= 1):    99.900 MB/s [  24389.6 IOPS] <    40.73 us>
    assert w["bandwidth_bytes_per_s"] == 99_900_000
    assert w["latency_mean_us"] == 40.73


def test_cdm8_footer_goes_to_meta():
    meta = parsed(WD_BLUE)["meta"]
    assert meta["date"] == "2021-06-22T17:19:21"
    assert meta["os"] == "Windows 10  [10.0 Build 19042] (x64)"
    assert meta["comment"] == "WD Blue 3D 1TB"
    assert meta["profile"] == "Default"
    assert meta["test_size_bytes"] == 1024**3
    assert meta["runs"] == 5
    assert meta["target"] == "E:"


def test_cdm8_nvme_style_rows_keep_their_own_shapes():
    doc = parsed(CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt")
    assert [r["name"] for r in doc["results"][:4]] == [
        "SEQ1M Q8T1 read",
        "SEQ128K Q32T1 read",
        "RND4K Q32T16 read",
        "RND4K Q1T1 read",
    ]
    assert result_by_name(doc, "RND4K Q32T16 write")["bandwidth_bytes_per_s"] == 1_795_237_000


def test_cdm7_crlf_and_sequential_random_words():
    doc = parsed(CDM / "EXCERPT_cdm-7.0.0_crlf_from-java-string-literal.txt")
    assert doc["source"]["tool_version"] == "7.0.0"
    r = result_by_name(
        doc, "RND4K Q32T16 read"
    )  # Random 4KiB (Q= 32, T=16):     0.851 MB/s [    207.8 IOPS] <635043.04 us>
    assert r["bandwidth_bytes_per_s"] == 851_000 and r["latency_mean_us"] == 635043.04
    assert doc["meta"]["interval_s"] == 5


def test_cdm6_old_row_names_map_to_the_common_grammar():
    doc = parsed(CDM / "EXCERPT_cdm-6.0.2_from-amorphousdiskmark-comment.txt")
    assert [r["name"] for r in doc["results"]] == [
        "SEQ128K Q32T1 read",
        "SEQ128K Q32T1 write",
        "RND4K Q8T8 read",
        "RND4K Q8T8 write",
        "RND4K Q32T1 read",
        "RND4K Q32T1 write",
        "RND4K Q1T1 read",
        "RND4K Q1T1 write",
    ]
    assert result_by_name(doc, "RND4K Q8T8 read")["iops"] == 96167.0
    assert doc["meta"]["test_size_bytes"] == 1024 * 1024**2


def test_cdm5_sequential_t1_row_is_seq1m_q1t1():
    doc = parsed(CDM / "EXCERPT_cdm-5.2.0_from-amorphousdiskmark-comment.txt")
    r = result_by_name(doc, "SEQ1M Q1T1 read")  # Sequential Read (T= 1) :   156.034 MB/s
    assert r["bandwidth_bytes_per_s"] == 156_034_000 and r["iops"] is None


@pytest.mark.parametrize(
    "name",
    ["EXCERPT_cdm-3.0.2_aligned_from-cpp-comment.txt", "EXCERPT_cdm-3.0.3_whitespace-collapsed_from-blog-markdown.txt"],
)
def test_cdm3_rows_aligned_or_collapsed(name):
    doc = parsed(CDM / name)
    assert [r["name"] for r in doc["results"]] == [
        "SEQ1M Q1T1 read",
        "SEQ1M Q1T1 write",
        "RND512K Q1T1 read",
        "RND512K Q1T1 write",
        "RND4K Q1T1 read",
        "RND4K Q1T1 write",
        "RND4K Q32T1 read",
        "RND4K Q32T1 write",
    ]


def test_cdm3_values():
    doc = parsed(CDM / "EXCERPT_cdm-3.0.2_aligned_from-cpp-comment.txt")
    assert result_by_name(doc, "RND4K Q32T1 read")["bandwidth_bytes_per_s"] == 819_000  # 0.819 MB/s
    assert result_by_name(doc, "RND4K Q32T1 read")["iops"] == 199.8
    assert doc["meta"]["date"] == "2013-04-13T23:02:23"
    assert doc["meta"]["target"] == "G:"


def test_utf16le_with_bom_and_crlf_as_cdm7_saves_it():
    text = WD_BLUE.read_text(encoding="utf-8").replace("\n", "\r\n")
    data = b"\xff\xfe" + text.encode("utf-16-le")
    doc = parse(data).to_dict()
    assert doc["source"]["encoding"] == "utf-16-le"
    assert doc["results"] == parsed(WD_BLUE)["results"]
    assert doc["meta"] == parsed(WD_BLUE)["meta"]


def test_utf16le_with_a_double_bom():
    text = WD_BLUE.read_text(encoding="utf-8").replace("\n", "\r\n")
    doc = parse(b"\xff\xfe\xff\xfe" + text.encode("utf-16-le")).to_dict()
    assert doc["results"] == parsed(WD_BLUE)["results"]


def test_utf16le_without_bom():
    doc = parse(WD_BLUE.read_text().encode("utf-16-le")).to_dict()
    assert doc["source"]["encoding"] == "utf-16-le"
    assert len(doc["results"]) == 8


def test_utf16be_with_bom():
    doc = parse(b"\xfe\xff" + WD_BLUE.read_text().encode("utf-16-be")).to_dict()
    assert doc["source"]["encoding"] == "utf-16-be"
    assert len(doc["results"]) == 8


def test_utf8_with_bom():
    doc = parse(b"\xef\xbb\xbf" + WD_BLUE.read_bytes()).to_dict()
    assert doc["source"]["encoding"] == "utf-8-sig"
    assert doc["results"] == parsed(WD_BLUE)["results"]


def test_shift_jis_with_a_japanese_comment():
    text = WD_BLUE.read_text().replace("Comment: WD Blue 3D 1TB", "Comment: 外付けドライブ（テスト用）")
    doc = parse(text.replace("\n", "\r\n").encode("cp932")).to_dict()
    assert doc["source"]["encoding"] == "cp932"
    assert doc["meta"]["comment"] == "外付けドライブ（テスト用）"
    assert doc["results"] == parsed(WD_BLUE)["results"]


def test_mix_block_rows_are_mixed_op():
    text = WD_BLUE.read_text().replace(
        "Profile: Default",
        "[Mix] Read 70%/Write 30%\n"
        "  SEQ    1MiB (Q=  8, T= 1):   500.000 MB/s [    476.8 IOPS] < 16000.00 us>\n\nProfile: Default",
    )
    doc = parse(text.encode()).to_dict()
    r = result_by_name(doc, "SEQ1M Q8T1 R70W30 mixed")
    assert r["op"] == "mixed" and r["bandwidth_bytes_per_s"] == 500_000_000


def test_unfinished_rows_are_null_not_zero():
    text = WD_BLUE.read_text().replace(
        "99.900 MB/s [  24389.6 IOPS] <    40.73 us>", "0.000 MB/s [      0.0 IOPS] <     0.00 us>"
    )
    r = result_by_name(parse(text.encode()).to_dict(), "RND4K Q1T1 write")
    assert r["bandwidth_bytes_per_s"] is None and r["iops"] is None and r["latency_mean_us"] is None


def test_a_damaged_row_names_its_line():
    text = WD_BLUE.read_text().replace("531.458 MB/s", "531,458 MB/s")
    with pytest.raises(ParseError) as exc:
        crystaldiskmark.parse(text.encode())
    assert str(exc.value).startswith("crystaldiskmark: at line 9: unreadable result row")


def test_no_rows_is_an_error():
    with pytest.raises(ParseError) as exc:
        crystaldiskmark.parse(b"CrystalDiskMark 8.0.4 x64\n")
    assert exc.value.format == "crystaldiskmark"


def test_cdm3_rows_pasted_without_the_header_are_still_crystaldiskmark():
    doc = parsed(CDM / "handmade_cdm-3.x_rows-only_forum-paste.txt")
    assert doc["source"]["tool"] == "crystaldiskmark"
    assert [r["name"] for r in doc["results"]][:3] == ["SEQ1M Q1T1 read", "SEQ1M Q1T1 write", "RND512K Q1T1 read"]
    assert result_by_name(doc, "RND4K Q32T1 read")["iops"] == 12088.1
    assert "warnings" not in doc  # all 8 rows are there


def test_a_cdm8_file_cut_off_in_the_write_block_is_partial():
    data = WD_BLUE.read_bytes()
    write = data.index(b"[Write]")
    cut = data[: data.index(b"\n", data.index(b"RND", write)) + 1]  # [Write] block: SEQ, SEQ, RND only
    doc = parse(cut).to_dict()
    assert len(doc["results"]) == 7
    assert doc["warnings"] == ["the [Write] block has 3 of 4 rows: the file was cut off"]
    half_row = data[: data.index(b"RND", write) + 20]
    doc = parse(half_row).to_dict()
    assert doc["warnings"][0].startswith("the last line (17) is a result row cut off in the middle")
    no_write = parse(data[:write]).to_dict()
    assert no_write["warnings"] == ["there is no [Write] block: the file ends after the [Read] results"]


def test_a_cdm3_file_cut_off_is_partial():
    data = (CDM / "EXCERPT_cdm-3.0.2_aligned_from-cpp-comment.txt").read_bytes()
    doc = parse(data[: data.index(b"Random Read 4KB (QD=32)")]).to_dict()
    assert len(doc["results"]) == 6
    assert doc["warnings"] == ["only 6 of the 8 result rows are there: the file was cut off"]


def test_an_unfinished_run_says_which_tests_have_no_figure():
    text = WD_BLUE.read_text().replace(
        "   99.900 MB/s [  24389.6 IOPS] <    40.73 us>", "    0.000 MB/s [      0.0 IOPS] <     0.00 us>"
    )
    doc = parse(text.encode()).to_dict()
    assert doc["warnings"] == ["1 test(s) show 0.000 MB/s, so the run was stopped before them: RND4K Q1T1 write"]
