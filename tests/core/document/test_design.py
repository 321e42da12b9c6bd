import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.design.types import InvalidDesign, Layout, Role
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design

SPEC_EXAMPLE = {
    "format": "zfsplanner.design/1",
    "name": "tank",
    "openzfs_version": "2.3",
    "disk_partitioning": "linux-whole-disk",
    "vdevs": [
        {"role": "data", "layout": "raidz2", "width": 6, "count": 1, "ashift": 12,
         "disk": {"model": "ST14000NM001G", "size_bytes": 14000519643136, "logical_sector_bytes": 512,
                  "physical_sector_bytes": 4096, "media": "hdd", "rpm": 7200}},
        {"role": "special", "layout": "mirror", "width": 2, "count": 1,
         "disk": {"size_bytes": "960GB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096,
                  "media": "ssd", "plp": True}},
        {"role": "log", "layout": "mirror", "width": 2, "count": 1, "disk": {"size_bytes": "16GB", "media": "ssd"}},
        {"role": "cache", "layout": "stripe", "width": 1, "count": 1, "disk": {"size_bytes": "1TB", "media": "ssd"}},
        {"role": "spare", "layout": "stripe", "width": 1, "count": 1, "disk": {"size_bytes": "14TB"}},
    ],
    "datasets": [
        {"name": "tank/photos", "type": "filesystem", "recordsize": "1M", "compression": "zstd",
         "special_small_blocks": "64K", "copies": 1, "sync": "standard",
         "contents": {"logical_bytes": 11059540787, "file_count": 72208,
                      "file_size_histogram": [[4096, 1200], [131072, 50000], [1048576, 21008]],
                      "compressibility": {"profile": "already-compressed"}}},
        {"name": "tank/vm-100-disk-0", "type": "volume", "volsize": "32G", "volblocksize": "16K",
         "compression": "lz4", "contents": {"logical_bytes": 20000000000}},
    ],
}


def errors_of(doc):
    with pytest.raises(InvalidDesign) as exc:
        parse_design(doc)
    return dict(exc.value.errors)


def test_it_reads_the_spec_example():
    d = parse_design(SPEC_EXAMPLE)
    assert d.vdevs[0].layout == Layout.RAIDZ2 and len(d.vdevs[0].disks) == 6
    assert d.vdevs[1].role == Role.SPECIAL and d.vdevs[1].disks[0].size_bytes == 960 * 10**9
    assert d.datasets[0].recordsize == 1048576 and d.datasets[1].volsize == 32 * 2**30


def test_round_trip_is_lossless_including_unknown_keys():
    doc = copy.deepcopy(SPEC_EXAMPLE)
    doc["x-owner"] = {"ticket": 42}
    doc["vdevs"][0]["x-slot"] = "bay 1-6"
    doc["vdevs"][0]["disk"]["serial_prefix"] = "ZL2"
    doc["datasets"][0]["contents"]["x-note"] = "from du"
    out = design_to_document(parse_design(doc))
    assert out["x-owner"] == {"ticket": 42} and out["vdevs"][0]["x-slot"] == "bay 1-6"
    assert out["vdevs"][0]["disk"]["serial_prefix"] == "ZL2"
    assert parse_design(json.loads(json.dumps(out))) == parse_design(doc)
    assert design_to_document(parse_design(out)) == out


def test_mixed_member_disks_round_trip():
    doc = {"name": "p", "vdevs": [{"role": "data", "layout": "mirror", "width": 2,
                                   "disks": [{"size_bytes": "10GB"}, {"size_bytes": "12GB"}]}]}
    d = parse_design(doc)
    assert [x.size_bytes for x in d.vdevs[0].disks] == [10 * 10**9, 12 * 10**9]
    assert parse_design(design_to_document(d)) == d


def test_a_disk_size_is_written_back_as_the_document_spells_it():
    doc = {"name": "p", "vdevs": [{"role": "data", "layout": "mirror", "width": 2,
                                   "disks": [{"size_bytes": "1.92TB"}, {"size_bytes": 1_920_000_000_000}]}]}
    d = parse_design(doc)
    out = design_to_document(d)
    assert [x["size_bytes"] for x in out["vdevs"][0]["disks"]] == ["1.92TB", 1_920_000_000_000]
    # the spelling is not part of the disk: both members are the same disk
    assert d.vdevs[0].disks[0] == d.vdevs[0].disks[1]


@pytest.mark.parametrize(
    "mutate,field,fragment",
    [
        (lambda d: d["vdevs"][0].update(width=2), "vdevs[0].width", "raidz2 needs at least 3"),
        (lambda d: d["vdevs"][0]["disk"].update(size_bytes="14T"), "vdevs[0].disk.size_bytes", "ambiguous"),
        (lambda d: d["vdevs"][0].update(layout="raidz4"), "vdevs[0].layout", "not one of"),
        (lambda d: d["vdevs"][0].update(ashift=17), "vdevs[0].ashift", "at most 16"),
        (lambda d: d.update(openzfs_version="0.7"), "openzfs_version", "not an OpenZFS release the planner knows"),
        (lambda d: d.update(openzfs_version="2.4.9"), "openzfs_version", "its newest 2.4 release is 2.4.4"),
        (lambda d: d.update(openzfs_version="2.5.0"), "openzfs_version", "2.4.0\u20132.4.4"),
        (lambda d: d["datasets"][0].update(recordsize="3K"), "datasets[0].recordsize", "power of two"),
        (lambda d: d["datasets"][1].pop("volsize"), "datasets[1].volsize", "required for a volume"),
        (lambda d: d["datasets"][0].update(name="other/photos"), "datasets[0].name", "pool name"),
        (lambda d: d["datasets"][0].update(copies=4), "datasets[0].copies", "at most 3"),
        (lambda d: d["vdevs"][3].update(layout="raidz1", width=3), "vdevs[3].layout", "stripe or mirror"),
        (lambda d: d.pop("name"), "name", "required"),
        (lambda d: d.update(vdevs=[]), "vdevs", "at least one data vdev"),
    ],
)
def test_it_names_the_bad_field(mutate, field, fragment):
    doc = copy.deepcopy(SPEC_EXAMPLE)
    mutate(doc)
    errs = errors_of(doc)
    assert field in errs, errs
    assert fragment in errs[field]


def test_draid_children_must_hold_data_parity_and_spares():
    doc = {"name": "p", "vdevs": [{"role": "data", "layout": "draid2", "width": 8, "draid_data": 6,
                                   "draid_spares": 2, "disk": {"size_bytes": "4TB"}}]}
    assert "vdevs[0].draid_data" in errors_of(doc)


def test_it_reports_every_problem_at_once():
    doc = copy.deepcopy(SPEC_EXAMPLE)
    doc["vdevs"][0]["width"] = 1
    doc["datasets"][0]["copies"] = 9
    assert {"vdevs[0].width", "datasets[0].copies"} <= set(errors_of(doc))


@given(
    layout=st.sampled_from(["mirror", "raidz1", "raidz2", "raidz3"]),
    width=st.integers(min_value=4, max_value=24),
    count=st.integers(min_value=1, max_value=8),
    size=st.integers(min_value=2**30, max_value=30 * 10**12),
    ashift=st.one_of(st.none(), st.integers(min_value=9, max_value=16)),
)
def test_any_valid_design_round_trips(layout, width, count, size, ashift):
    vdev = {"role": "data", "layout": layout, "width": width, "count": count, "disk": {"size_bytes": size}}
    if ashift is not None:
        vdev["ashift"] = ashift
    d = parse_design({"name": "tank", "vdevs": [vdev]})
    assert parse_design(design_to_document(d)) == d


# ---------------------------------------------------------------------------- price_per_disk

def _with_price(price):
    doc = copy.deepcopy(SPEC_EXAMPLE)
    doc["vdevs"][0]["price_per_disk"] = price
    return doc


@pytest.mark.parametrize(
    "given,stored,written",
    [("249.99", "249.99", "249.99"), (249.99, "249.99", "249.99"), (300, "300", "300"),
     ("120.5000", "120.5", "120.5"), ("0", "0", "0"), (" 99.9 ", "99.9", "99.9"), ("1.2345", "1.2345", "1.2345")],
)
def test_price_per_disk_is_read_as_a_decimal_and_written_back_as_a_string(given, stored, written):
    from decimal import Decimal

    d = parse_design(_with_price(given))
    assert d.vdevs[0].price_per_disk == Decimal(stored)
    assert d.vdevs[1].price_per_disk is None
    out = design_to_document(d)
    assert out["vdevs"][0]["price_per_disk"] == written
    assert "price_per_disk" not in out["vdevs"][1]
    assert "price_per_disk" not in d.vdevs[0].extra
    assert parse_design(json.loads(json.dumps(out))) == d
    assert design_to_document(parse_design(out)) == out


@pytest.mark.parametrize(
    "price,fragment",
    [(-1, "zero or more"), ("-0.01", "zero or more"), ("abc", "is not a number"), ("NaN", "is not a number"),
     (True, "not a boolean"), ([120], "not a list"), ("1.23456", "at most 4 decimal places"),
     (10**12, "below 10^12"), ("Infinity", "is not a number")],
)
def test_a_bad_price_per_disk_is_named(price, fragment):
    errs = errors_of(_with_price(price))
    assert fragment in errs["vdevs[0].price_per_disk"], errs


@given(
    cents=st.integers(min_value=0, max_value=10**14 - 1),
    places=st.integers(min_value=0, max_value=4),
    as_number=st.booleans(),
)
def test_any_valid_price_round_trips(cents, places, as_number):
    from decimal import Decimal

    value = Decimal(cents).scaleb(-places)
    if value >= 10**12:
        return
    price = float(value) if as_number and places <= 2 and cents < 2**52 else str(value)
    d = parse_design(_with_price(price))
    assert d.vdevs[0].price_per_disk == value
    assert parse_design(design_to_document(d)) == d
