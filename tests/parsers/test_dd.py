"""dd summaries (GNU new/old, BSD, busybox)."""

from __future__ import annotations

import re

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


ENGLISH = DD / "generated_gnu-dd-9.1_C.log"
SESSION_NAMES = ["SEQ1M Q1T1 write", "SEQ1M Q1T1 read", "SEQ1M Q1T1 write #2", "SEQ64K Q1T1 write"]


@pytest.mark.parametrize("path", sorted(DD.glob("translated_gnu-dd_*.log")), ids=lambda p: p.name)
def test_a_translated_log_reads_exactly_like_the_english_one(path):
    """The English session rewritten with coreutils' translated messages (ru, pl, pt_BR, es, ja,
    zh_CN, it, cs; decimal commas; old formats with "c", "秒" and "MB/秒")."""
    assert parsed(path)["results"] == parsed(ENGLISH)["results"]


@pytest.mark.parametrize("path", sorted(DD.glob("generated_gnu-dd-9.1_*.log")), ids=lambda p: p.name)
def test_real_dd_output_in_every_installed_locale(path):
    """dd 9.1 run with LANG=de_DE, fr_FR, nl_NL, tr_TR, uk_UA, zh_CN, ko_KR (and C)."""
    doc = parsed(path)
    assert [r["name"] for r in doc["results"]] == SESSION_NAMES
    text = path.read_text()
    for r in doc["results"]:
        # IOPS is records out ÷ seconds: bytes ÷ block size ÷ seconds, whatever the language
        assert r["iops"] == pytest.approx(r["bandwidth_bytes_per_s"] / r["block_size_bytes"])
    # the first write: 33554432 bytes in the seconds printed on its line, decimal comma or point
    first_line = next(line for line in text.splitlines() if "33554432" in line)
    seconds = float(re.search(r"(\d+[.,]\d+)\s*s", first_line).group(1).replace(",", "."))
    assert doc["results"][0]["bandwidth_bytes_per_s"] == 33554432 / seconds


def test_a_decimal_comma_never_becomes_a_thousands_separator():
    doc = parse(b"1073741824 Bytes (1,1 GB, 1,0 GiB) kopiert, 1,70473 s, 630 MB/s\n").to_dict()
    assert doc["results"][0]["bandwidth_bytes_per_s"] == 1073741824 / 1.70473


def test_figures_that_disagree_are_refused_with_the_line_number():
    data = b"1073741824 bytes copied, 1.70473 s, 630 MB/s\n1073741824 bytes copied, 1.70473 s, 63,0 MB/s\n"
    with pytest.raises(ParseError) as exc:
        parse(data)
    assert (exc.value.format, exc.value.where) == ("dd", "line 2")
    assert "the figures disagree" in exc.value.message


def test_a_command_continued_over_several_lines_is_a_write():
    doc = parsed(ENGLISH)
    assert doc["results"][3]["op"] == "write"
    assert doc["meta"]["commands"][3].startswith("dd if=/dev/zero of=/tmp/gen/dd/testfile bs=64k count=256")
    session = (
        b"root@nas:~# dd \\\n"
        b">   if=/dev/zero of=/tank/bench/zero.bin \\\n"
        b">   bs=1M count=100 oflag=direct\n"
        b"104857600 bytes (105 MB, 100 MiB) copied, 0.5 s, 210 MB/s\n"
    )
    [r] = parse(session).results
    assert (r.op, r.name) == ("write", "SEQ1M Q1T1 write")
    # no records lines: the block size and IOPS come from bs=
    assert r.iops == 100 / 0.5


def test_directions_from_the_command_line():
    def op(cmd: str) -> str:
        return parse(f"$ {cmd}\n1048576 bytes copied, 0.5 s, 2.1 MB/s\n".encode()).results[0].op

    assert op("dd if=/dev/urandom of=/tank/f bs=1M count=1") == "write"
    assert op("dd if=/tank/f of=/dev/null bs=1M") == "read"
    assert op("dd of=/tank/f bs=1M count=1") == "write"  # stdin into a file
    assert op("dd if=/dev/sda of=/dev/sdb bs=1M") == "copy"


def test_a_log_cut_off_inside_a_run_is_partial_with_a_warning():
    data = ENGLISH.read_bytes()
    cut = data[: data.index(b"records out", data.index(b"of=/dev/null")) + len(b"records out\n")]
    doc = parse(cut).to_dict()
    assert [r["name"] for r in doc["results"]] == ["SEQ1M Q1T1 write"]
    assert doc["warnings"] == [
        "the run whose 'records in/out' lines start at line 6 has no summary line (bytes, seconds, rate): "
        "the log was cut off there, so that run has no figures"
    ]


def test_freebsd_13_and_toybox_summaries():
    data = (
        b"1073741824 bytes (1074 MB, 1024 MiB) transferred 2.017s, 532 MB/s\n"  # FreeBSD >= 13, no comma
        b"1048576 bytes (1.0 M) copied, 0.002 s, 500 M/s\n"  # toybox: "M/s" without B
    )
    doc = parse(data).to_dict()
    assert [r["bandwidth_bytes_per_s"] for r in doc["results"]] == [1073741824 / 2.017, 1048576 / 0.002]


def ops(path) -> list[tuple[str, str]]:
    return [(r["op"], r["name"]) for r in parsed(DD / path)["results"]]


def test_a_command_wrapped_onto_a_line_of_bare_operands_gives_the_direction():
    """macOS: the write continued with a backslash, the read's if=/of= wrapped onto the next line."""
    assert ops("handmade_macos-dd_command-over-two-lines.log") == [
        ("write", "SEQ1M Q1T1 write"),
        ("read", "SEQ1M Q1T1 read"),
    ]


def test_freebsd_status_progress_lines_are_not_runs():
    doc = parsed(DD / "handmade_freebsd-13-dd_status-progress.log")
    assert [r["op"] for r in doc["results"]] == ["write", "read"]
    assert doc["results"][0]["bandwidth_bytes_per_s"] == 4294967296 / 4.110472


def test_two_commands_on_one_line_give_each_run_its_own_direction():
    """German session: ``dd if=/dev/zero of=F … && dd if=F of=/dev/null``."""
    doc = parsed(DD / "handmade_gnu-dd-8.30_de_DE_two-runs-one-line.log")
    assert [r["op"] for r in doc["results"]] == ["write", "read"]
    assert doc["meta"]["run_commands"] == [
        "dd if=/dev/zero of=/rpool/data/testfile bs=1M count=1024 conv=fdatasync",
        "dd if=/rpool/data/testfile of=/dev/null bs=1M",
    ]


def test_busybox_reads_are_reads():
    assert [op for op, _ in ops("handmade_busybox-1.36-dd_write-then-reads.log")] == ["write", "read", "read"]


@pytest.mark.parametrize(
    ("command", "direction"),
    [
        ("dd if=/dev/zero of=/tank/f bs=1M", "write"),
        ("dd if='/dev/zero' of=\"/tank/f\" bs=1M", "write"),  # quoted operands
        ("cat /tank/src | dd of=/tank/f bs=1M", "write"),  # a pipe into dd
        ("dd if=/tank/f bs=1M | md5sum", "read"),  # dd into a pipe
        ("dd bs=1M of=/dev/null if=/tank/f", "read"),
        ("/bin/dd if=/tank/f of=/tank/g bs=1M", "copy"),
    ],
)
def test_the_direction_rule(command, direction):
    data = f"# {command}\n1048576 bytes copied, 0.5 s, 2.1 MB/s\n".encode()
    assert parse(data).results[0].op == direction


def test_each_run_takes_the_next_command_and_a_loop_repeats_the_last():
    data = (
        b"$ dd if=/dev/zero of=/tank/f bs=1M count=1; dd if=/tank/f of=/dev/null bs=1M\n"
        + b"1048576 bytes copied, 0.5 s, 2.1 MB/s\n" * 3
    )
    assert [r.op for r in parse(data).results] == ["write", "read", "read"]


@pytest.mark.parametrize(
    "path", ["forum_gnu-dd-8_write-error-enospc.log", "generated_gnu-dd-9.1-dev-full_write-error.log"]
)
def test_a_run_that_ended_in_a_write_error_has_no_iops(path):
    doc = parsed(DD / path)
    first = doc["results"][0]
    assert first["op"] == "write"
    assert first["iops"] is None
    assert first["bandwidth_bytes_per_s"] is not None  # what was written before the error
    assert len(doc["warnings"]) == 1
    assert doc["warnings"][0].startswith("the run with the error at line 2 (dd:")
    assert "did not complete" in doc["warnings"][0]


def test_the_complete_run_after_a_failed_one_keeps_its_iops():
    doc = parsed(DD / "generated_gnu-dd-9.1-dev-full_write-error.log")
    assert doc["results"][1]["iops"] == 16 / 0.019074


def test_a_warning_from_dd_does_not_make_a_run_incomplete():
    data = (
        b"$ dd if=/dev/sda of=/dev/null bs=64k count=1\n"
        b"dd: warning: partial read (65536 bytes); suggest iflag=fullblock\n"
        b"0+1 records in\n0+1 records out\n65536 bytes (66 kB, 64 KiB) copied, 0.001 s, 65.5 MB/s\n"
    )
    doc = parse(data)
    assert doc.warnings == ()
    assert doc.results[0].iops == 1 / 0.001
