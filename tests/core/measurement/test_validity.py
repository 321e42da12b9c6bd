"""Validity checks of benchmark runs (core/measurement/validity): each rule fires on its condition
and stays quiet on the same run without it. The checks on real logs are in
tests/benchmarks/test_validity.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zfsplanner.core.design.types import Dataset, Design, Host
from zfsplanner.core.measurement.validity import CODES, RunFacts, Setting, check, compression
from zfsplanner.core.versions import Version

V = Version.parse  # a release as a document names it

GIB = 1024**3


def codes(facts: RunFacts, setting: Setting | None = None) -> list[str]:
    return [f.code for f in check(facts, setting or Setting())]


def design(version: str = "2.3", ram: int | None = 64 * GIB, datasets: tuple[Dataset, ...] = ()) -> Design:
    return Design(name="tank", vdevs=(), datasets=datasets, openzfs_version=V(version),
                  host=Host(ram_bytes=ram))


# A run that measured well: long, many I/Os, flushed, repeated, big file, random data.
GOOD = RunFacts(
    tool="fio",
    reads=True,
    writes=True,
    test_file_bytes=256 * GIB,
    direct=False,
    flushed=True,
    shortest_test_s=60.0,
    fewest_ios=100_000,
    repeats=3,
)


def test_the_codes_are_the_contract_in_order():
    assert CODES == (
        "zero-data-compressed",
        "compressible-data",
        "file-fits-in-cache",
        "buffered-writes",
        "direct-io-ignored",
        "safety-off",
        "too-short",
        "single-run",
    )


def test_a_good_run_has_no_warning():
    assert codes(GOOD, Setting(design=design())) == []


def test_zeros_on_a_compressing_dataset_are_flagged_and_not_with_compression_off():
    zeros = replace(GOOD, zero_data="dd if=/dev/zero")
    assert codes(zeros, Setting(compression="lz4")) == ["zero-data-compressed"]
    assert codes(zeros, Setting(compression="off")) == []
    # on a raw disk there is no ZFS to drop the zeros
    assert codes(replace(zeros, raw_device=True), Setting(compression="lz4")) == []


def test_compression_falls_back_to_the_dataset_then_the_versions_default():
    ds = Dataset(name="tank/bench", compression="off")
    assert compression(Setting(design=design(datasets=(ds,)), dataset="tank/bench"))[0] is False
    assert compression(Setting(design=design("2.1")))[0] is False  # off by default before 2.2
    assert compression(Setting(design=design("2.2")))[0] is True  # on by default from 2.2 (PR #13078)
    assert compression(Setting())[0] is None
    # unknown compression: zeros are still flagged (on by default since 2.2)
    assert codes(replace(GOOD, zero_data="CrystalDiskMark All 0x00"), Setting()) == ["zero-data-compressed"]


def test_compressible_fio_data():
    run = replace(GOOD, compressible=("buffer_compress_percentage=75",))
    assert codes(run, Setting(compression="zstd")) == ["compressible-data"]
    assert codes(run, Setting(compression="off")) == []
    # dedupe_percentage matters with compression off too (dedup)
    assert codes(replace(run, compressible=("dedupe_percentage=30",)), Setting(compression="off")) == [
        "compressible-data"
    ]


def test_a_test_file_smaller_than_ram_is_read_from_the_arc():
    small = replace(GOOD, test_file_bytes=16 * GIB)
    assert codes(small, Setting(design=design(ram=64 * GIB))) == ["file-fits-in-cache"]
    assert codes(small, Setting(design=design(ram=8 * GIB))) == []
    assert codes(small, Setting()) == []  # RAM unknown: nothing to compare with
    assert codes(replace(small, reads=False), Setting(design=design())) == []
    # direct=1 reads bypass the ARC from 2.3
    assert codes(replace(small, direct=True), Setting(design=design("2.3"))) == []


def test_buffered_writes():
    run = replace(GOOD, flushed=False)
    assert codes(run) == ["buffered-writes"]
    assert codes(run, Setting(sync="always")) == []
    assert codes(replace(run, direct=None, flushed=None)) == []  # the log does not say


def test_direct_io_before_2_3_is_ignored():
    run = replace(GOOD, direct=True)
    assert codes(run, Setting(design=design("2.2"))) == ["direct-io-ignored"]
    assert codes(run, Setting(design=design("2.3"))) == []
    assert codes(run, Setting()) == []  # version unknown


@pytest.mark.parametrize(
    "setting",
    [
        Setting(sync="disabled"),
        Setting(zil="disabled"),
        Setting(tunables={"zfs_nocacheflush": "1"}),
        Setting(tunables={"zil_disable": "1"}),
        Setting(design=design(datasets=(Dataset(name="tank/db", sync="disabled"),)), dataset="tank/db"),
    ],
)
def test_safety_off(setting):
    assert codes(GOOD, setting) == ["safety-off"]


def test_safety_on_is_quiet():
    assert codes(GOOD, Setting(sync="standard", tunables={"zfs_nocacheflush": "0"})) == []


def test_too_short():
    assert codes(replace(GOOD, shortest_test_s=2.0)) == ["too-short"]
    assert codes(replace(GOOD, fewest_ios=300)) == ["too-short"]
    assert codes(replace(GOOD, shortest_test_s=10.0, fewest_ios=1000)) == []


def test_single_run():
    assert codes(replace(GOOD, repeats=1)) == ["single-run"]
    assert codes(replace(GOOD, repeats=1, repeats_in_log=True)) == []


def test_a_finding_says_what_it_means_and_how_to_measure():
    [f] = check(replace(GOOD, zero_data="dd if=/dev/zero"), Setting(compression="lz4"))
    assert f.title == "Zeros written to a compressing dataset"
    assert "hole" in f.source and "zio_write_compress" in f.source
    assert f.detail.startswith("dd if=/dev/zero: the data is all zeros and the dataset's compression is lz4.")
    assert "compression=off" in f.advice
