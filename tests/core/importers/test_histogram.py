"""Streaming file-size histograms: formats, buckets, directories, zdb, errors naming the line."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.import_samples import text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.importers.listings import bucket_bytes, bucket_stream, detect_format
from zfsplanner.core.importers.size_buckets import HistogramError, SizeBuckets, bucket_index, merge_contents


def chunked(data: bytes, size: int):
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


def test_sizes_are_counted_exactly_and_bucketed_within_a_sixteenth():
    rng = random.Random(3)
    sizes = [int(rng.lognormvariate(9, 3)) for _ in range(20000)] + [0, 0, 1, 31, 32, 2**40]
    data = "".join(f"{s}\n" for s in sizes).encode()
    r = bucket_bytes(data)
    assert r.format == "sizes" and r.file_count == len(sizes) and r.logical_bytes == sum(sizes)
    assert sum(n for _, n in r.file_size_histogram) == len(sizes)
    assert len(r.file_size_histogram) < 600
    by_bucket: dict[int, list[int]] = {}
    for s in sizes:
        by_bucket.setdefault(int(bucket_index(np.array([s]))[0]), []).append(s)
    for mean, count in r.file_size_histogram:
        members = by_bucket[int(bucket_index(np.array([mean]))[0])]
        assert count == len(members)
        assert all(abs(s - mean) <= max(mean / 16, 1) for s in members)


def test_chunk_boundaries_do_not_matter():
    data = b"".join(f"{i * 37 % 100000}\n".encode() for i in range(5000))
    whole = bucket_bytes(data)
    for size in (1, 7, 4096):
        assert bucket_stream(chunked(data, size)) == whole


def test_buckets_never_straddle_a_power_of_two():
    idx = bucket_index(np.array([2**k - 1 for k in range(6, 40)] + [2**k for k in range(6, 40)]))
    half = len(idx) // 2
    assert all(a != b for a, b in zip(idx[:half], idx[half:], strict=True))


def test_memory_is_a_fixed_number_of_buckets():
    b = SizeBuckets()
    before = b.counts.nbytes
    b.add_array(np.arange(1, 1_000_000, dtype=np.int64) * 1_000_003)
    assert b.counts.nbytes == before and b.file_count == 999_999


def test_du_skips_directories_and_counts_them():
    listing = b"""4096\t./a/one
8192\t./a/two
12298\t./a
100\t./b/c/x
4196\t./b/c
4196\t./b
16494\t.
"""
    r = bucket_bytes(listing)
    assert r.format == "du" and r.file_count == 3 and r.logical_bytes == 4096 + 8192 + 100
    assert r.directories == 4 and r.files_per_directory == 1


def test_find_paths_count_distinct_parents():
    listing = "".join(f"{1000 + i} /data/d{i % 50}/f{i}.jpg\n" for i in range(1000)).encode()
    r = bucket_bytes(listing, "du")
    assert r.directories == 50 and r.files_per_directory == 20 and not r.directories_estimated


def test_many_directories_are_estimated_within_a_few_percent():
    listing = "".join(f"10 /d{i // 2}/f{i}\n" for i in range(300_000)).encode()
    r = bucket_bytes(listing, "du")
    assert r.directories_estimated
    assert abs(r.directories - 150_000) / 150_000 < 0.03 and r.files_per_directory == 2


def test_paths_with_spaces_and_crlf():
    r = bucket_bytes(b"10 /x/My Files/a b.txt\r\n20 /x/My Files/c.txt\r\n", "du")
    assert r.file_count == 2 and r.directories == 1


def test_csv_with_a_header():
    r = bucket_bytes(b"size,count\n4096,10\n131072;5\n\"1048576\",\"2\"\n")
    assert r.format == "csv" and r.file_count == 17
    assert r.file_size_histogram == ((4096, 10), (131072, 5), (1048576, 2))


def test_zdb_gives_block_sizes_and_the_measured_ratio():
    r = bucket_bytes(text("zdb-2.2-LbbbsP.txt").encode())
    assert r.format == "zdb" and r.file_count is None and r.file_size_histogram is None
    assert sum(n for _, n in r.block_size_histogram) == 118000
    assert r.compressratio == pytest.approx(1.5617, abs=1e-4)
    doc = r.to_document()
    assert doc["compressibility"] == {"ratio": 1.5617, "source": "zdb"}
    contents = merge_contents({"logical_bytes": 5, "file_count": 2}, r)
    assert contents["file_count"] == 2 and contents["compressibility"]["ratio"] == 1.56
    parse_design({"name": "t", "vdevs": [{"role": "data", "layout": "stripe", "width": 1,
                                          "disk": {"size_bytes": 10**12}}],
                  "datasets": [{"name": "t/a", "contents": contents}]})


def test_lsize_binned_zdb_keeps_the_ratio_per_block_size():
    out = text("zdb-2.2-LbbbsP.txt").replace(
        "Block Size Histogram\n", "Block Size Histogram\n(note: all categories are binned by lsize)\n")
    contents = bucket_bytes(out.encode()).contents()
    by_size = dict(contents["compressibility"]["by_block_size"])
    assert 131072 in by_size and by_size[131072] > 1


def test_the_document_has_the_spec_keys():
    doc = bucket_bytes(b"1\n2\n").to_document()
    assert list(doc)[:5] == ["file_count", "logical_bytes", "file_size_histogram", "files_per_directory",
                             "block_size_histogram"]
    assert doc["file_size_histogram"] == [[1, 1], [2, 1]] and doc["files_per_directory"] is None


@pytest.mark.parametrize(
    ("data", "fmt", "line", "message"),
    [
        (b"1\n2\nthree\n4\n", "sizes", 3, "'three' is not a size"),
        (b"1\n2\n3 4\n", "sizes", 3, "'3 4' is not a size"),
        (b"1\n-2\n", "sizes", 2, "'-2' is not a size"),
        (b"1\n" + b"9" * 25 + b"\n", "sizes", 2, "25-digit size"),
        (b"10 /a\nxx /b\n", "du", 2, "'xx' is not a size"),
        (b"10 /a\n20\n", "du", 2, "expected a size and a path"),
        (b"size,count\n4096,ten\n", "csv", 2, "count 'ten'"),
        (b"4096,1,2\n", "csv", 1, "expected 'size,count'"),
    ],
)
def test_errors_name_the_line(data, fmt, line, message):
    with pytest.raises(HistogramError) as exc:
        bucket_bytes(data, fmt)
    assert exc.value.line == line and message in str(exc.value)


def test_a_line_number_survives_chunking():
    data = b"".join(b"%d\n" % i for i in range(100000)) + b"oops\n"
    with pytest.raises(HistogramError) as exc:
        bucket_stream(chunked(data, 65536), "sizes")
    assert exc.value.line == 100001


def test_the_format_is_detected():
    assert detect_format(b"\n123\n") == "sizes"
    assert detect_format(b"123 /a/b\n") == "du"
    assert detect_format(b"size,count\n") == "csv"
    assert detect_format(text("zdb-2.2-Lbbbs.txt").encode()) == "zdb"
    with pytest.raises(HistogramError, match="line 1: .*cannot tell the format"):
        detect_format(b"hello\n")
    with pytest.raises(HistogramError, match="empty"):
        detect_format(b"\n\n")


def test_progress_reports_the_bytes_read():
    seen: list[int] = []
    data = b"".join(b"%d\n" % i for i in range(300000))
    bucket_stream(chunked(data, 1 << 20), "sizes", progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == len(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(["auto", "sizes", "du", "csv", "zdb"]), st.integers(1, 64))
def test_any_bytes_raise_only_its_own_error(data, fmt, chunk):
    try:
        r = bucket_stream(chunked(data, chunk), fmt)
    except HistogramError:
        return
    if r.file_size_histogram is not None:
        assert sum(n for _, n in r.file_size_histogram) == r.file_count


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 10**15), min_size=1, max_size=300), st.integers(1, 50))
def test_any_sizes_keep_their_total(sizes, chunk):
    data = "".join(f"{s}\n" for s in sizes).encode()
    r = bucket_stream(chunked(data, chunk), "sizes")
    assert r.file_count == len(sizes) and r.logical_bytes == sum(sizes)


# --------------------------------------------------------------------------- what is refused, not guessed


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"-4096,10\n", 1, "'-4096' is not a size"),
        (b"4096\x00,1\n", 1, "is not a size"),
        (b"size,count\n-4096,10\n", 2, "'-4096' is not a size"),
        (b"4096,-1\n", 1, "count '-1' is not a whole number"),
        (b"4096,%d\n" % 2**63, 1, "more than a dataset can hold"),
        (b"4096,%d\n" % (2**48 + 1), 1, "more than a dataset can hold"),
        (b"1,%d\n2,%d\n" % (2**47, 2**47 + 1), 2, "files so far is more than a dataset can hold"),
        (b"%d,%d\n" % (10**17, 2**40), 1, "bytes so far is beyond what ZFS can address"),
    ],
    ids=["negative-size", "nul-in-size", "negative-after-header", "negative-count", "count-2^63",
         "count-over-2^48", "total-files-over-2^48", "total-bytes-over-2^64"],
)
def test_a_bad_csv_line_is_refused_with_its_number(data, line, message):
    with pytest.raises(HistogramError) as exc:
        bucket_bytes(data, "csv")
    assert exc.value.line == line and message in str(exc.value)
    with pytest.raises(HistogramError):
        bucket_bytes(data)  # the same when the format is detected


@pytest.mark.parametrize(
    ("data", "fmt"),
    [(b"size,count\n", "csv"), (b"# nothing\n\n", "csv"), (b"4096,0\n", "csv"), (b"\n\n", "sizes"),
     (b"\r\n", "du")],
)
def test_a_listing_that_yields_no_file_fails(data, fmt):
    with pytest.raises(HistogramError, match="no file sizes in"):
        bucket_bytes(data, fmt)


def test_a_count_up_to_what_a_dataset_holds_is_exact():
    r = bucket_bytes(b"4096,%d\n1,%d\n" % (2**40, 2**47), "csv")  # 4 PiB in 2^40 files, plus 2^47 tiny ones
    assert r.file_count == 2**40 + 2**47
    assert r.logical_bytes == 4096 * 2**40 + 2**47
    assert r.file_size_histogram == ((1, 2**47), (4096, 2**40))


def test_a_header_is_words_only():
    assert bucket_bytes(b"Size (bytes);Files\n4096;1\n", "csv").file_count == 1
    with pytest.raises(HistogramError, match="line 1"):
        bucket_bytes(b"size2,count\n4096,1\n", "csv")  # a digit: data, and not a size
