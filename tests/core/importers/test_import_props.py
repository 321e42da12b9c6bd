"""zpool get / zfs get, padded and -H forms."""

from __future__ import annotations

import pytest

from tests.core.import_samples import lines, section
from zfsplanner.core.importers.props import ZfsGetError, ZpoolGetError, by_name, parse


def test_it_reads_padded_zpool_get_with_sources():
    props = parse(section("linux-2.3-raidz2-special-log-cache-spare.txt", "zpool get").lines, zpool=True)
    got = {p.property: (p.value, p.source) for p in props}
    assert got["size"] == ("96954591739904", "-")
    assert got["ashift"] == ("12", "local")
    assert got["altroot"] == ("-", "default")
    assert got["feature@raidz_expansion"] == ("enabled", "local")


def test_it_reads_padded_zfs_get_with_values_and_sources_that_hold_spaces():
    props = parse(section("linux-2.3-raidz2-special-log-cache-spare.txt", "zfs get").lines, zpool=False)
    ds = by_name(props)
    assert list(ds) == ["tank", "tank/home", "tank/media", "tank/vm-101-disk-0"]
    assert ds["tank/home"]["compression"].source == "inherited from tank"
    assert ds["tank/vm-101-disk-0"]["volsize"].value == "137438953472"


def test_it_reads_scripted_lines():
    s = section("freebsd-2.2-raidz1-gptid.txt", "zpool get")
    props = parse(s.lines, zpool=True, scripted=True)
    assert [(p.property, p.value) for p in props][:2] == [("ashift", "12"), ("size", "15994458210304")]


def test_scripted_lines_need_every_field():
    with pytest.raises(ZfsGetError, match="line 2: .*expected 4 tab-separated fields, got 3"):
        parse(lines("tank\tused\t1\t-\ntank\tavailable\t2\n"), zpool=False, scripted=True)


def test_a_padded_line_that_overflows_its_column_is_named():
    out = "NAME  PROPERTY  VALUE  SOURCE\ntank  size      1234567890123  -\n"
    with pytest.raises(ZpoolGetError, match="line 2: .*do not line up"):
        parse(lines(out), zpool=True)
