"""Damaged input of every kind: only ParseError may come out of parse()."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zfsplanner.parsers import BenchResult, ParseError, parse

from .golden import all_samples

SAMPLES = [(p.name, p.read_bytes()) for p in all_samples()]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse_or_parse_error(data: bytes, filename: str | None) -> None:
    try:
        result = parse(data, filename=filename)
    except ParseError as exc:
        assert exc.format and isinstance(str(exc), str)
        return
    assert isinstance(result, BenchResult)
    result.to_dict()


@FUZZ
@given(st.sampled_from(SAMPLES), st.floats(0, 1), st.booleans())
def test_truncated_samples(sample, fraction, keep_name):
    name, data = sample
    _parse_or_parse_error(data[: int(len(data) * fraction)], name if keep_name else None)


@FUZZ
@given(st.sampled_from(SAMPLES), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=20))
def test_corrupted_bytes(sample, edits):
    name, data = sample
    buf = bytearray(data)
    for where, value in edits:
        if buf:
            buf[min(int(where * len(buf)), len(buf) - 1)] = value
    _parse_or_parse_error(bytes(buf), name)


@FUZZ
@given(st.sampled_from(SAMPLES), st.floats(0, 1), st.binary(max_size=200))
def test_spliced_random_bytes(sample, where, junk):
    name, data = sample
    cut = int(len(data) * where)
    _parse_or_parse_error(data[:cut] + junk + data[cut:], name)


@FUZZ
@given(st.binary(max_size=2000), st.sampled_from([None, "x_bw.1.log", "x_lat.1.log", "a.json"]))
def test_random_bytes(data, filename):
    _parse_or_parse_error(data, filename)


@FUZZ
@given(st.sampled_from(SAMPLES), st.floats(0, 1), st.sampled_from(["utf-16-le", "utf-16-be", "cp932"]))
def test_truncated_reencoded_samples(sample, fraction, encoding):
    name, data = sample
    text = data.decode("utf-8", errors="replace")
    raw = text.encode(encoding, errors="replace")
    _parse_or_parse_error(raw[: int(len(raw) * fraction)], name)
