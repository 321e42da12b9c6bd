"""What each upload kind's files may hold, checked as the bytes arrive (zfsplanner/uploads/text.py)."""

from __future__ import annotations

import pytest

from zfsplanner.uploads.text import TextCheck, TextRule, UnreadableUpload, check_bytes, read_text

ZPOOL = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE\n\ttank        ONLINE\n"


def _refusal(data: bytes, rule: TextRule, chunks: int | None = None) -> UnreadableUpload:
    check = TextCheck(rule, "zpool.txt")
    with pytest.raises(UnreadableUpload) as info:
        if chunks is None:
            check.feed(data)
        else:
            for i in range(0, len(data), chunks):
                check.feed(data[i : i + chunks])
        check.close()
    return info.value


def test_a_nul_is_refused_naming_the_file_and_its_line():
    exc = _refusal(b"zpool list\n  NAME SIZE\x00\n", TextRule.UTF8)
    assert exc.status_code == 400 and exc.line == 2
    assert str(exc.detail).startswith("'zpool.txt', line 2: contains a NUL byte")
    assert "nothing was stored" in str(exc.detail)


def test_the_line_is_counted_across_chunks():
    data = ("x" * 100 + "\n").encode() * 500 + b"bad\x00\n"
    assert _refusal(data, TextRule.UTF8, chunks=777).line == 501
    assert _refusal(data, TextRule.LINES, chunks=777).line == 501


def test_a_character_cut_between_two_chunks_is_text():
    data = ("é" * 5000 + "\n").encode() * 3
    check = TextCheck(TextRule.UTF8, "a.txt")
    for i in range(0, len(data), 4097):  # odd: every other chunk ends inside a character
        check.feed(data[i : i + 4097])
    check.close()
    assert check.lines == 3


def test_bytes_that_are_not_utf8_are_refused_naming_the_byte_and_line():
    exc = _refusal(b"tank\nx\xed\xbf\xbf\n", TextRule.UTF8)  # a lone surrogate, as UTF-8 bytes
    assert exc.line == 2 and "is not UTF-8 text (byte 0xed)" in str(exc.detail)


def test_a_file_ending_inside_a_character_is_refused():
    assert "ends in the middle of a character" in str(_refusal(b"tank \xc3", TextRule.UTF8).detail)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_is_refused_where_utf8_text_is_read(encoding):
    for rule in (TextRule.UTF8, TextRule.LINES):
        exc = _refusal(ZPOOL.encode(encoding), rule)
        assert exc.line == 1 and "is saved as UTF-16" in str(exc.detail)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_benchmark_log_may_be_utf16(encoding):
    check_bytes(("CrystalDiskMark 8.0.4\r\n" * 400).encode(encoding), "cdm.txt", TextRule.LOG)


def test_a_nul_character_in_a_utf16_log_is_refused_on_its_line():
    data = ("line\r\n" * 300 + "bad\x00\r\n").encode("utf-16")
    exc = _refusal(data, TextRule.LOG, chunks=1001)
    assert exc.line == 301 and "contains a NUL character" in str(exc.detail)


def test_an_8bit_log_is_text_but_a_nul_is_not():
    check_bytes("Mesure à 100 Mo/s\n".encode("cp1252"), "log.txt", TextRule.LOG)
    assert _refusal(b"fio-3.1\n\x89PNG\x00\x00", TextRule.LOG).line == 2


def test_a_listing_keeps_the_file_systems_bytes():
    check_bytes(b"4096\t/data/caf\xe9\n8192\t/data/b\n", "du.txt", TextRule.LINES)
    assert _refusal(b"4096\t/data/a\x00b\n", TextRule.LINES).line == 1


def test_a_compression_sample_may_hold_any_bytes():
    check_bytes(bytes(range(256)) * 64, "disk.img", TextRule.BINARY)


def test_read_text_drops_the_bom_and_refuses_what_the_check_refuses():
    assert read_text(b"\xef\xbb\xbfzpool list\n", "a.txt") == "zpool list\n"
    with pytest.raises(UnreadableUpload):
        read_text(b"zpool list\x00\n", "a.txt")


def test_a_control_character_in_the_file_name_is_spelled_out():
    exc = _refusal(b"\x00", TextRule.UTF8)
    exc2 = UnreadableUpload("a\x00b\udcff.txt", 1, "x")
    assert "'a\\x00b\\udcff.txt', line 1" in str(exc2.detail) and exc.name == "zpool.txt"
