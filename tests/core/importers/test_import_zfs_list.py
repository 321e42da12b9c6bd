"""zfs list with headers, -p and -H -o."""

from __future__ import annotations

import pytest

from tests.core.import_samples import lines, section
from zfsplanner.core.importers.zfs_list import ZfsListError, columns_from_option, parse


def test_it_reads_the_default_columns():
    rows = parse(section("linux-0.8-raidz2-degraded-replacing.txt", "zfs list").lines)
    assert [(r.name, r.values["used"], r.values["mountpoint"]) for r in rows] == [
        ("tank", "9.53T", "/tank"), ("tank/backup", "2.61T", "/tank/backup"), ("tank/media", "6.92T", "/tank/media")]


def test_it_reads_scripted_rows_with_the_columns_of_the_command_line():
    s = section("freebsd-2.2-raidz1-gptid.txt", "zfs list")
    rows = parse(s.lines, columns=columns_from_option(s.option("o")), scripted=True)
    assert rows[2].values == {"name": "backup/vm", "used": "3379226816512", "available": "7045384960000",
                              "referenced": "3379226816512", "logicalreferenced": "3733745532928",
                              "recordsize": "65536", "compression": "zstd", "compressratio": "1.10"}


def test_a_mountpoint_may_hold_spaces():
    [row] = parse(lines("NAME USED AVAIL REFER MOUNTPOINT\ntank/a 1 2 3 /mnt/My Files\n"))
    assert row.values["mountpoint"] == "/mnt/My Files"


def test_it_names_a_short_row():
    with pytest.raises(ZfsListError, match="line 3: .*expected 5 columns"):
        parse(lines("NAME USED AVAIL REFER MOUNTPOINT\ntank 1 2 3 /t\ntank/a 1 2\n"))


def test_scripted_rows_must_match_the_columns():
    with pytest.raises(ZfsListError, match="line 1: .*expected 3 tab-separated fields"):
        parse(lines("tank\t1\n"), columns=("name", "used", "available"), scripted=True)
