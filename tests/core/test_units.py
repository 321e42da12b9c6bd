import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.units import (
    UnitError,
    format_disk_size,
    format_iec,
    format_si,
    format_zfs_size,
    parse_disk_size,
    parse_zfs_size,
    roundup,
    zfs_nicenum,
)


@pytest.mark.parametrize(
    "text,expected",
    [("128K", 131072), ("1M", 1048576), ("16K", 16384), ("512", 512), ("1.5G", 1610612736), ("64KiB", 65536),
     ("8KB", 8192), (4096, 4096)],
)
def test_it_reads_zfs_property_sizes_in_powers_of_1024(text, expected):
    assert parse_zfs_size(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [("14TB", 14 * 10**12), ("960GB", 960 * 10**9), ("12.7TiB", int(12.7 * 2**40)), ("1TiB", 2**40),
     (14000519643136, 14000519643136)],
)
def test_it_reads_disk_sizes_with_explicit_units(text, expected):
    assert parse_disk_size(text) == expected


def test_it_rejects_an_ambiguous_disk_unit_saying_why():
    with pytest.raises(UnitError, match="ambiguous.*14TB.*14TiB"):
        parse_disk_size("14T")


@pytest.mark.parametrize("bad", ["12X", "abc", "", "1.5", "-3K", True])
def test_it_rejects_unreadable_zfs_sizes(bad):
    with pytest.raises(UnitError):
        parse_zfs_size(bad)


def test_zpool_style_numbers_are_binary_with_one_letter_suffix():
    assert zfs_nicenum(24000277250048) == "21.8T"
    assert zfs_nicenum(3985729650688) == "3.62T"
    assert zfs_nicenum(131072) == "128K"
    assert zfs_nicenum(1000) == "1000"


def test_human_formats_say_their_unit():
    assert format_si(14000519643136) == "14.00 TB"
    assert format_iec(14000519643136) == "12.73 TiB"


@given(st.integers(min_value=1, max_value=2**60))
def test_zfs_size_round_trips(n):
    assert parse_zfs_size(format_zfs_size(n)) == n


@given(st.integers(min_value=0, max_value=2**50), st.sampled_from([512, 4096, 8192, 65536]))
def test_roundup_is_the_smallest_multiple_not_below(x, m):
    r = roundup(x, m)
    assert r % m == 0 and r >= x and r - x < m


@pytest.mark.parametrize(
    "n,text",
    [(8 * 10**12, "8TB"), (100 * 2**30, "100GiB"), (2**40, "1TiB"), (1536 * 2**30, "1536GiB"), (123, "123B"),
     (14000519643137, "14000519643137B"), (0, "0B")],
)
def test_a_disk_size_is_written_in_its_shortest_exact_unit(n, text):
    assert format_disk_size(n) == text


@given(st.integers(min_value=1, max_value=2**62))
def test_parse_of_format_disk_size_gives_the_bytes_back(n):
    assert parse_disk_size(format_disk_size(n)) == n
