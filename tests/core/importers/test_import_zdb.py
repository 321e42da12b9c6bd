"""zdb -Lbbbs: the Block Size Histogram and the bp totals."""

from __future__ import annotations

import pytest

from tests.core.import_samples import lines, section, text
from zfsplanner.core.importers.zdb import ZdbError, parse


def test_it_reads_the_exact_table_and_totals():
    hist = parse(lines(text("zdb-2.2-LbbbsP.txt")))
    assert hist.exact
    assert [s for s, _, _ in hist.psize] == [1 << i for i in range(9, 25)]
    assert hist.bp_logical == sum(b for _, _, b in hist.lsize)
    assert hist.bp_physical == sum(b for _, _, b in hist.psize)
    assert sum(c for _, c, _ in hist.psize) == sum(c for _, c, _ in hist.lsize) == 118000
    assert hist.compressratio == pytest.approx(1.5617, abs=1e-4)
    assert hist.binned_by is None and hist.ratio_by_block_size() == ()


def test_the_rounded_table_agrees_with_the_exact_one():
    exact = parse(lines(text("zdb-2.2-LbbbsP.txt")))
    rounded = parse(section("zdb-2.2-Lbbbs.txt", "zdb").lines)
    assert not rounded.exact
    for (s1, c1, b1), (s2, c2, b2) in zip(exact.psize, rounded.psize, strict=True):
        assert s1 == s2
        assert c2 == pytest.approx(c1, rel=0.01, abs=1)
        assert b2 == pytest.approx(b1, rel=0.01, abs=1)


def test_lsize_binning_gives_a_ratio_per_block_size():
    out = text("zdb-2.2-LbbbsP.txt").replace(
        "Block Size Histogram\n", "Block Size Histogram\n(note: all categories are binned by lsize)\n")
    hist = parse(lines(out))
    assert hist.binned_by == "lsize"
    ratios = dict(hist.ratio_by_block_size())
    assert 131072 in ratios


def test_output_without_the_histogram_says_what_to_run():
    with pytest.raises(ZdbError, match="run zdb -Lbbbs POOL"):
        parse(lines("\tbp count: 12\n\tbp logical: 1234 avg: 12\n"))


def test_a_row_with_missing_numbers_is_named():
    out = text("zdb-2.2-LbbbsP.txt")
    broken = out.replace("\n4096\t", "\n4096\t1\t", 1).splitlines()
    row = next(i for i, t in enumerate(broken, 1) if t.startswith("4096\t"))
    with pytest.raises(ZdbError) as exc:
        parse(lines("\n".join(broken)))
    assert exc.value.line == row and "9 numbers" in exc.value.message
