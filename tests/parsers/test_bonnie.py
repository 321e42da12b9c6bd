"""bonnie++ 1.96 / 1.97 / 2.00a tables and CSV lines."""

from __future__ import annotations

import pytest

from zfsplanner.parsers import ParseError, bonnie, parse

from .golden import SAMPLES, expected, parsed, result_by_name, samples

BON = SAMPLES / "bonnie"


@pytest.mark.parametrize("path", samples("bonnie"), ids=lambda p: p.name)
def test_it_matches_the_golden_file(path):
    assert parsed(path) == expected(path)


def test_csv_196_units_and_plus_signs():
    doc = parsed(BON / "pkb_bonnie++-1.96_csv.txt")
    assert doc["source"]["tool_version"] == "1.96"
    blk = result_by_name(doc, "seq_output_block")  # 72853 K/sec, latency 512ms
    assert blk["bandwidth_bytes_per_s"] == 72853 * 1024
    assert blk["latency_max_us"] == 512_000
    assert blk["latency_mean_us"] is None
    seeks = result_by_name(doc, "seeks")  # 537.7 /sec, 200ms
    assert seeks["ops_per_s"] == 537.7 and seeks["latency_max_us"] == 200_000
    assert seeks["bandwidth_bytes_per_s"] is None
    stat = result_by_name(doc, "seq_read")  # +++++ with latency 1759us
    assert stat["ops_per_s"] is None and stat["latency_max_us"] == 1759
    assert "seq_read" in doc["meta"]["too_fast"]
    assert {r["name"] for r in doc["results"]}.isdisjoint({"seq_output_char", "seq_input_char"})  # -f: not run
    assert doc["meta"]["file_size_bytes"] == 7423 * 1024**2


def test_197_file_with_table_and_csv_uses_the_csv_once():
    doc = parsed(BON / "indexid18724717092_bonnie++-1.97_table-and-csv.md")
    assert len(doc["results"]) == 12
    assert result_by_name(doc, "seq_output_char")["bandwidth_bytes_per_s"] == 446 * 1024
    assert result_by_name(doc, "rewrite")["latency_max_us"] == 2_056_000
    assert result_by_name(doc, "random_delete")["ops_per_s"] == 30901
    assert result_by_name(doc, "seq_create")["ops_per_s"] is None


def test_197_table_alone_gives_the_same_figures_as_its_csv():
    text = (BON / "indexid18724717092_bonnie++-1.97_table-and-csv.md").read_text()
    table_only = "\n".join(line for line in text.splitlines() if not line.startswith("1.97,"))
    from_table = bonnie.parse(table_only.encode()).to_dict()
    from_csv = parsed(BON / "indexid18724717092_bonnie++-1.97_table-and-csv.md")
    assert from_table["results"] == from_csv["results"]


def test_200a_csv_format_198_is_shifted_by_two():
    doc = parsed(BON / "generated_bonnie++-2.00a_table-and-csv.txt")
    assert doc["meta"]["csv_format"] == "1.98"
    assert doc["source"]["tool_version"] == "2.00a"
    assert result_by_name(doc, "seq_output_char")["bandwidth_bytes_per_s"] == 840 * 1024
    assert result_by_name(doc, "seq_output_block")["bandwidth_bytes_per_s"] == 456157 * 1024
    assert result_by_name(doc, "seq_input_char")["latency_max_us"] == 4603
    assert result_by_name(doc, "seq_create")["ops_per_s"] == 6313
    assert result_by_name(doc, "seq_input_block")["bandwidth_bytes_per_s"] is None  # +++++
    assert doc["meta"]["num_files"] == 4 * 1024


def test_quiet_csv_only():
    doc = parsed(BON / "generated_bonnie++-2.00a_quiet-csv.txt")
    assert doc["meta"]["machine"] == "zfsplan-csv"
    assert result_by_name(doc, "seq_output_block")["bandwidth_bytes_per_s"] == 809841 * 1024
    assert result_by_name(doc, "random_create")["latency_max_us"] == 2261


def test_200a_table_with_k_suffixes():
    text = (BON / "generated_bonnie++-2.00a_table-and-csv.txt").read_text()
    table_only = "\n".join(line for line in text.splitlines() if not line.startswith("1.98,"))
    doc = bonnie.parse(table_only.encode()).to_dict()
    assert result_by_name(doc, "seq_output_char")["bandwidth_bytes_per_s"] == 840 * 1024  # "840k"
    assert result_by_name(doc, "seq_output_block")["bandwidth_bytes_per_s"] == 445 * 1024 * 1024  # "445m"
    assert result_by_name(doc, "rewrite")["bandwidth_bytes_per_s"] == pytest.approx(1.6 * 1024**3)  # "1.6g"
    assert result_by_name(doc, "seq_input_block")["bandwidth_bytes_per_s"] is None  # "+++++"
    assert result_by_name(doc, "seeks")["latency_max_us"] == 16325


def test_a_short_csv_line_is_an_error_with_its_line():
    with pytest.raises(ParseError) as exc:
        parse(b"Version  1.97       ------Sequential Output------\n1.97,1.97,host,1,1,1M,,1,2,3\n")
    assert exc.value.format == "bonnie++"
    assert exc.value.where == "line 2"


def test_a_bad_latency_cell_names_the_field():
    line = (BON / "pkb_bonnie++-1.96_csv.txt").read_text().strip().replace("512ms", "512xs")
    with pytest.raises(ParseError) as exc:
        bonnie.parse(line.encode())
    assert exc.value.where == "line 1, field 38"


def test_bon_csv2txt_with_several_machines_gives_each_machines_results():
    doc = parsed(BON / "generated_bonnie++-2.00a_bon_csv2txt_three-machines.txt")
    # bon_csv2txt cuts long names in the throughput table ("zfs-ra 512M::8192:5"); the create
    # table has them whole, and runs are matched by that prefix
    assert doc["meta"]["machines"] == ["zfs-raidz2", "zfs-mirror", "single"]
    assert result_by_name(doc, "zfs-mirror seq_output_char")["bandwidth_bytes_per_s"] == 940 * 1024  # "940k"
    assert result_by_name(doc, "zfs-mirror seq_output_block")["bandwidth_bytes_per_s"] == 735 * 1024**2  # "735m"
    assert result_by_name(doc, "zfs-mirror seq_create")["ops_per_s"] == 202
    assert result_by_name(doc, "zfs-raidz2 seq_create #2")["ops_per_s"] == 676  # the second run of zfs-raidz2
    # "0k +++" is bon_csv2txt's rendering of +++++: too fast, not zero
    assert result_by_name(doc, "zfs-mirror seq_input_block")["bandwidth_bytes_per_s"] is None
    assert "zfs-mirror seq_input_block" in doc["meta"]["too_fast"]
    # -f (no per-char tests) and -n 0 (no file tests): four results, latencies by column
    single = [r for r in doc["results"] if r["name"].startswith("single ")]
    assert [r["op"] for r in single] == ["seq_output_block", "rewrite", "seq_input_block", "seeks"]
    assert [r["latency_max_us"] for r in single] == [905, 123, 124, 831]


def test_bon_csv2txt_table_matches_the_csv_lines_it_was_made_from():
    table = parsed(BON / "generated_bonnie++-2.00a_bon_csv2txt_three-machines.txt")
    html = parsed(BON / "generated_bonnie++-2.00a_bon_csv2html_three-machines.html")
    assert [r["op"] for r in table["results"]] == [r["op"] for r in html["results"]]
    for t, h in zip(table["results"], html["results"], strict=True):
        assert t["ops_per_s"] == h["ops_per_s"] and t["latency_max_us"] == h["latency_max_us"]
        if t["op"] in ("seq_output_char", "seq_input_char"):  # both print K/s
            assert t["bandwidth_bytes_per_s"] == h["bandwidth_bytes_per_s"]


def test_bon_csv2html_block_columns_are_mib_whatever_the_header_says():
    doc = parsed(BON / "generated_bonnie++-2.00a_bon_csv2html_three-machines.html")
    assert doc["meta"]["machines"] == ["zfs-raidz2", "zfs-mirror", "single-disk-hdd"]
    # CSV 752971 K/s; bon_csv2html prints (752971 + 512) / 1024 = 735 in the "M/sec" column
    assert result_by_name(doc, "zfs-mirror seq_output_block")["bandwidth_bytes_per_s"] == 735 * 1024**2
    assert result_by_name(doc, "zfs-mirror seq_output_char")["bandwidth_bytes_per_s"] == 940 * 1024  # raw K/s
    assert result_by_name(doc, "zfs-mirror random_delete")["latency_max_us"] == 8615


def test_repeated_runs_of_one_machine_are_named_apart():
    doc = parsed(BON / "generated_bonnie++-2.00a_x2_csv.txt")
    assert doc["meta"]["runs"] == 2
    assert result_by_name(doc, "seq_create")["ops_per_s"] == 573
    assert result_by_name(doc, "seq_create #2")["ops_per_s"] == 676


def test_bonnie_103_table_and_csv_without_version_fields_include_file_creation():
    doc = parsed(BON / "handmade_bonnie++-1.03_table-and-csv.txt")
    assert doc["source"]["tool_version"] == "1.03"  # from the table: 1.0x CSV has no version field
    assert doc["meta"]["csv_format"] == "1.0x"
    assert result_by_name(doc, "seq_input_block")["bandwidth_bytes_per_s"] == 121044 * 1024
    assert result_by_name(doc, "seeks")["ops_per_s"] == 231.6
    assert result_by_name(doc, "seq_create")["ops_per_s"] == 9822
    assert result_by_name(doc, "random_delete")["ops_per_s"] == 8840
    assert result_by_name(doc, "seq_read")["ops_per_s"] is None
    # the table alone (its Create table has no "Version" line) gives the same figures
    text = (BON / "handmade_bonnie++-1.03_table-and-csv.txt").read_text()
    table_only = "\n".join(line for line in text.splitlines() if not line.startswith("filer01,"))
    assert bonnie.parse(table_only.encode()).to_dict()["results"] == doc["results"]


def test_bonnie_103_runs_of_x3_quoted_in_an_email():
    doc = parsed(BON / "handmade_bonnie++-1.03_x3_quoted-in-email.txt")
    assert [r["name"] for r in doc["results"] if r["op"] == "seq_output_block"] == [
        "seq_output_block",
        "seq_output_block #2",
        "seq_output_block #3",
    ]
    assert result_by_name(doc, "seq_output_block #3")["bandwidth_bytes_per_s"] == 178190 * 1024


def test_bonnie_103_bon_csv2txt_two_machines():
    doc = parsed(BON / "handmade_bonnie++-1.03_bon_csv2txt_two-machines.txt")
    assert result_by_name(doc, "nas-mirror seeks")["ops_per_s"] == 402.7
    assert result_by_name(doc, "nas-raidz1 seq_delete")["ops_per_s"] == 16502
    assert len(doc["results"]) == 24


def test_a_table_indented_in_markdown():
    doc = parsed(BON / "handmade_bonnie++-1.97_markdown-indented.md")
    assert result_by_name(doc, "seq_input_block")["bandwidth_bytes_per_s"] == 1288410 * 1024
    assert result_by_name(doc, "rewrite")["latency_max_us"] == 1_604_000
    assert result_by_name(doc, "random_read")["latency_max_us"] == 19


def test_a_2_00_throughput_without_its_unit_is_refused():
    text = (BON / "generated_bonnie++-2.00a_table-and-csv.txt").read_text()
    table_only = "\n".join(line for line in text.splitlines() if not line.startswith("1.98,"))
    with pytest.raises(ParseError) as exc:
        bonnie.parse(table_only.replace("840k", "840 ").encode())
    assert exc.value.where == "line 4, column seq_output_char"


def test_200a_html_a_too_fast_mib_cell_beside_a_cpu_figure_is_too_fast_not_a_crash():
    """bon_csv2html of 2.00a prints block columns in MiB/s; ``+++`` there (the CPU cell a number) is
    "too fast", as everywhere else, and damage in such a cell is a ParseError naming it."""
    sample = SAMPLES / "bonnie" / "generated_bonnie++-2.00a_bon_csv2html_three-machines.html"
    html = sample.read_text()
    first = "<td>0</td><td>+++</td><td>0</td><td>+++</td>"  # block output and rewrite of zfs-raidz2
    assert first in html
    doc = parse(html.replace(first, "<td>+++</td><td>7</td><td>0</td><td>+++</td>", 1).encode())
    assert doc.results
    with pytest.raises(ParseError) as err:
        parse(html.replace(first, "<td>1,5x</td><td>7</td><td>0</td><td>+++</td>", 1).encode())
    assert "zfs-raidz2" in str(err.value)
