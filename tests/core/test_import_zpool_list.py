"""zpool list [-v] [-p] [-H]: pool and vdev sizes as printed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.import_samples import lines, section
from zfsplanner.core.importers.zpool_list import ZpoolListError, columns_from_option, parse


def test_it_reads_exact_sizes_and_every_class():
    s = section("linux-2.3-raidz2-special-log-cache-spare.txt", "zpool list")
    [pool] = parse(s.lines)
    assert pool.name == "tank" and pool.size.bytes == 96954591739904 and pool.exact
    assert pool.allocated.bytes == 42730051837542 and pool.health == "ONLINE"
    top = [(r.section, r.name, r.size.bytes) for r in pool.vdevs if r.depth == 1]
    assert top[:3] == [("data", "raidz2-0", 96001109000192), ("special", "mirror-1", 953482739712),
                       ("log", "mirror-2", 16642998272)]
    leaf = next(r for r in pool.vdevs if r.name.endswith("ZL2A1B01"))
    assert leaf.depth == 2 and leaf.size.bytes == 16000890175488 and leaf.allocated is None
    spare = [r for r in pool.vdevs if r.section == "spare"]
    assert [r.name for r in spare] == ["ata-ST16000NM001G-2KK103_ZL2A1B07"]


def test_it_reads_0_8_rounded_sizes_and_short_rows():
    [pool] = parse(section("linux-0.8-raidz2-degraded-replacing.txt", "zpool list").lines)
    assert not pool.size.exact
    assert abs(pool.size.bytes - 21.8 * 1024**4) < 1
    raidz = pool.vdevs[0]
    assert raidz.name == "raidz2" and raidz.depth == 1 and raidz.size.bytes == pool.size.bytes
    assert all(r.size is None for r in pool.vdevs[1:])
    assert pool.health == "DEGRADED"


def test_it_reads_scripted_output_with_chosen_columns():
    out = "tank\t1279900254208\t359424\tONLINE\nbackup\t15994458210304\t6188073902080\tONLINE\n"
    pools = parse(lines(out), columns=columns_from_option("name,size,alloc,health"), scripted=True)
    assert [(p.name, p.size.bytes, p.allocated.bytes) for p in pools] == [
        ("tank", 1279900254208, 359424), ("backup", 15994458210304, 6188073902080)]


def test_it_names_an_unreadable_size():
    s = section("linux-2.3-raidz2-special-log-cache-spare.txt", "zpool list")
    bad = [(n, t.replace("96001109000192", "96001109000x92")) for n, t in s.lines]
    with pytest.raises(ZpoolListError) as exc:
        parse(bad)
    assert exc.value.line == s.lines[2][0] and "SIZE" in exc.value.message


def test_it_rejects_an_unknown_header():
    with pytest.raises(ZpoolListError, match="line 1: .*unknown column 'BOGUS'"):
        parse(lines("NAME SIZE BOGUS\ntank 1 2\n"))


def test_it_rejects_a_vdev_before_any_pool():
    with pytest.raises(ZpoolListError, match="line 2: .*before any pool"):
        parse(lines("NAME SIZE ALLOC FREE\n  mirror-0 1 2 3\n"))


SAMPLE = section("linux-2.3-raidz2-special-log-cache-spare.txt", "zpool list").lines


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_damaged_output_raises_only_its_own_error(data):
    body = list(SAMPLE[: data.draw(st.integers(0, len(SAMPLE)))])
    for _ in range(data.draw(st.integers(0, 4))):
        if not body:
            break
        i = data.draw(st.integers(0, len(body) - 1))
        n, t = body[i]
        pos = data.draw(st.integers(0, max(len(t) - 1, 0)))
        body[i] = (n, t[:pos] + data.draw(st.text(max_size=5)) + t[pos + 1 :])
    try:
        parse(body)
    except ZpoolListError:
        pass
