"""Limits on a design document: every absurd input refused naming its field, before any work
proportional to the value; the validator lets nothing escape but its own error, and its work
is linear in the size of the document (counted in function calls and memory, not timed)."""

from __future__ import annotations

import copy
import json
import math
import sys
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document import limits
from zfsplanner.core.document.limits import DocumentLimitError, load_json_document
from zfsplanner.core.document.parse import parse_design

DISK = {"size_bytes": 14_000_519_643_136, "model": "ST14000NM001G"}


def doc(**top: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "zfsplanner.design/1",
        "name": "tank",
        "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "disk": dict(DISK)}],
        "datasets": [{"name": "tank/data", "contents": {"logical_bytes": 10**12, "file_count": 1000}}],
    }
    out.update(top)
    return out


def with_vdev(**fields: Any) -> dict[str, Any]:
    d = doc()
    d["vdevs"][0].update(fields)
    return d


def errors_of(document: Any) -> dict[str, str]:
    with pytest.raises(InvalidDesign) as info:
        parse_design(document)
    return dict(info.value.errors)


def test_the_example_design_is_within_every_limit():
    assert limits.document_errors(doc()) == []
    parse_design(doc())


# --------------------------------------------------------------------------- sizes and counts


@pytest.mark.parametrize("size", [10**400, 10**30, 2**64])
def test_a_disk_larger_than_zfs_can_address_is_refused(size):
    errors = errors_of(with_vdev(disk={"size_bytes": size}))
    assert "beyond 2^64" in errors["vdevs[0].disk.size_bytes"]


def test_a_disk_size_written_with_a_unit_beyond_2_64_is_refused():
    errors = errors_of(with_vdev(disk={"size_bytes": "99999999EB"}))
    assert "beyond what ZFS can address" in errors["vdevs[0].disk.size_bytes"]


def test_the_largest_addressable_disk_is_accepted():
    parse_design(with_vdev(layout="stripe", width=1, disk={"size_bytes": 2**64 - 1}))


def test_a_pool_larger_than_2_64_bytes_in_all_is_refused():
    errors = errors_of(with_vdev(layout="mirror", width=2, count=2, disk={"size_bytes": 2**63}))
    assert "beyond what one pool can address" in errors["vdevs"]


@pytest.mark.parametrize(
    ("layout", "width", "message"),
    [
        ("mirror", 2**30, "a mirror vdev can have at most 255 disks"),
        ("mirror", 10_000_000, "a mirror vdev can have at most 255 disks"),
        ("raidz2", 2**30, "a raidz2 vdev can have at most 255 disks"),
        ("draid1", 256, "dRAID can have at most 255 disks"),
        ("stripe", 2**40, "a stripe vdev can have at most 1 disks"),
        (None, 2**30, "a vdev can have at most 255 disks"),
    ],
)
def test_widths_beyond_openzfs_limits_are_refused_before_any_disk_is_built(layout, width, message):
    tracemalloc.start()
    try:
        errors = errors_of(with_vdev(layout=layout, width=width))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message in errors["vdevs[0].width"]
    assert peak < 1_000_000  # not one object per member


def test_a_255_wide_raidz3_is_accepted():
    parse_design(with_vdev(layout="raidz3", width=255))


def test_too_many_top_level_vdevs_are_refused():
    assert "at most 1,024" in errors_of(with_vdev(layout="mirror", width=2, count=10**6))["vdevs[0].count"]
    groups = [dict(layout="mirror", role="data", width=2, count=600, disk=DISK)] * 2
    assert "1,200 top-level vdevs" in errors_of(doc(vdevs=groups))["vdevs"]


def test_too_many_disks_are_refused():
    errors = errors_of(with_vdev(layout="raidz3", width=200, count=100))
    assert "20,000 disks" in errors["vdevs"]


def test_too_many_vdev_groups_datasets_and_buckets_are_refused():
    group = doc()["vdevs"][0]
    assert "10,000 vdev groups" in errors_of(doc(vdevs=[group] * 10_000))["vdevs"]
    datasets = [{"name": f"tank/d{i}"} for i in range(10_000)]
    assert "10,000 datasets" in errors_of(doc(datasets=datasets))["datasets"]
    hist = [[512 * (i + 1), 1] for i in range(4097)]
    errors = errors_of(doc(datasets=[{"name": "tank/a", "contents": {"file_size_histogram": hist}}]))
    assert "4,097 entries; at most 4,096" in errors["datasets[0].contents.file_size_histogram"]
    blocks = [[512 * (i + 1), 1] for i in range(32_769)]
    errors = errors_of(doc(datasets=[{"name": "tank/a", "contents": {"block_size_histogram": blocks}}]))
    assert "32,769 entries" in errors["datasets[0].contents.block_size_histogram"]
    many = [{"name": f"tank/d{i}", "contents": {"block_size_histogram": [[512, 1]] * 9000}} for i in range(8)]
    assert "72,000 histogram entries" in errors_of(doc(datasets=many))["datasets"]


def test_an_imported_histogram_of_16_buckets_per_power_of_two_fits():
    hist = [[2**p + q * 2 ** (p - 4), 1] for p in range(5, 64) for q in range(16)]
    parse_design(doc(datasets=[{"name": "tank/a", "contents": {"file_size_histogram": hist}}]))


def test_file_counts_beyond_zfs_object_numbers_are_refused():
    errors = errors_of(doc(datasets=[{"name": "tank/a", "contents": {"file_count": 2**49}}]))
    assert "at most 281474976710656" in errors["datasets[0].contents.file_count"]


# --------------------------------------------------------------------------- strings and structure


@pytest.mark.parametrize(
    ("document", "field"),
    [
        (doc(description="photos\x00"), "description"),
        (doc(name="ta\x01nk"), "name"),
        (with_vdev(disk={"size_bytes": "14TB", "model": "ST\x00"}), "vdevs[0].disk.model"),
        (doc(datasets=[{"name": "tank/a\x1b"}]), "datasets[0].name"),
        (doc(notes={"deep": ["x\x7f"]}), "notes.deep[0]"),
    ],
)
def test_nul_and_control_characters_are_refused_naming_the_field(document, field):
    assert "contains a" in errors_of(document)[field]


def test_a_nul_in_an_unknown_key_is_refused():
    errors = errors_of(doc(**{"x\x00y": 1}))
    assert "the key 'x\\x00y' contains a NUL" in errors[""]


def test_tabs_and_newlines_in_a_description_are_text():
    parse_design(doc(description="line one\n\tline two\r\n"))


def test_a_50_mb_unknown_key_is_refused_without_copying_it():
    errors = errors_of(doc(attachment="x" * 50_000_000))
    assert "50,000,000 characters" in errors["attachment"]
    assert "larger than 1 MiB" in errors[""]


def test_a_document_over_1_mib_is_refused():
    errors = errors_of(doc(notes=["x" * 9000] * 200))
    assert "larger than 1 MiB" in errors[""]


def test_deep_nesting_as_objects_is_refused_without_recursion():
    deep: Any = {}
    for _ in range(100_000):
        deep = {"a": deep}
    errors = errors_of(doc(extra=deep))
    assert any("nested more than 32 levels" in m for m in errors.values())


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_are_refused(value):
    d = doc()
    d["datasets"][0]["contents"]["compressibility"] = {"ratio": value}
    assert "finite" in errors_of(d)["datasets[0].contents.compressibility.ratio"]


def test_at_most_20_errors_are_listed():
    d = doc(datasets=[{"name": f"tank/{i}\x00"} for i in range(200)])
    assert len(errors_of(d)) <= limits.MAX_ERRORS


# --------------------------------------------------------------------------- JSON text


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deeply_nested_json_text_is_refused_before_parsing(depth):
    with pytest.raises(DocumentLimitError) as info:
        load_json_document("[" * depth + "]" * depth)
    assert "nested more than 32 levels" in str(info.value)


def test_oversized_json_text_is_refused_before_parsing():
    with pytest.raises(DocumentLimitError, match="larger than 1 MiB"):
        load_json_document(b'{"a": "' + b"x" * (2 * 1024 * 1024) + b'"}')


def test_huge_number_literals_and_nan_are_refused():
    with pytest.raises(DocumentLimitError, match="more than 1000 digits"):
        load_json_document('{"size_bytes": 1' + "0" * 1400 + "}")
    assert load_json_document('{"size_bytes": 1' + "0" * 400 + "}") == {"size_bytes": 10**400}
    with pytest.raises(DocumentLimitError, match="NaN is not a JSON number"):
        load_json_document('{"ratio": NaN}')


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"description": "[" * 1000 + '\\"{' * 100})
    assert load_json_document(text) == json.loads(text)


# --------------------------------------------------------------------------- properties

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)
KNOWN_KEYS = [
    "format", "name", "openzfs_version", "disk_partitioning", "description", "vdevs", "datasets", "role",
    "layout", "width", "count", "ashift", "draid_data", "draid_spares", "disk", "disks", "size_bytes",
    "logical_sector_bytes", "physical_sector_bytes", "media", "rpm", "plp", "catalog", "recordsize", "volsize",
    "volblocksize", "quota", "compression", "special_small_blocks", "copies", "sync", "contents",
    "logical_bytes", "file_count", "file_size_histogram", "compressibility", "profile", "ratio", "algorithm",
    "expanded_from_width", "logical_bytes_written_before", "reserved_per_disk_bytes", "type",
]


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_designs(draw: Any) -> Any:
    """A valid design with a few of its values (or keys) replaced by anything JSON can hold."""
    d = copy.deepcopy(doc(description="x"))
    d["vdevs"].append({"role": "special", "layout": "mirror", "width": 2, "disk": {"size_bytes": "1TB"}})
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(d) if p]
        path = draw(st.sampled_from(paths))
        parent = d
        for part in path[:-1]:
            parent = parent[part]
        if isinstance(parent, dict) and draw(st.booleans()):
            parent[draw(st.sampled_from(KNOWN_KEYS))] = draw(json_values)
        else:
            parent[path[-1]] = draw(json_values)
    return d


def _validate(document: Any) -> None:
    try:
        parse_design(document)
    except InvalidDesign:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_designs())
def test_nothing_escapes_the_validator_but_its_own_error(document):
    _validate(document)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_json_value_is_a_design_or_an_invalid_design(value):
    _validate(value)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_the_scan_visits_each_node_once(value):
    scan = limits.scan_document(value)
    if not scan.errors:
        assert scan.steps == len(_paths(value))


def _work(document: Any) -> tuple[int, int]:
    """(Python function calls, peak bytes allocated) while validating ``document``."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    tracemalloc.start()
    sys.setprofile(count)
    try:
        _validate(document)
    finally:
        sys.setprofile(None)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return calls, peak


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layout=st.sampled_from(["stripe", "mirror", "raidz1", "raidz2", "raidz3", "draid1", "draid2", "draid3", None]),
    width=st.integers(min_value=1, max_value=2**64),
    count=st.integers(min_value=1, max_value=2**64),
    size=st.integers(min_value=1, max_value=2**70) | st.sampled_from(["14TB", "16EiB", "99999999EB"]),
)
def test_the_work_does_not_grow_with_the_values(layout, width, count, size):
    """Widths, counts and sizes up to 2^64 cost what small ones cost: the document is the same size."""
    calls, peak = _work(with_vdev(layout=layout, width=width, count=count, disk={"size_bytes": size}))
    assert calls < 60_000
    assert peak < 2_000_000


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(groups=st.integers(1, 200), datasets=st.integers(0, 400), padding=st.integers(0, 300_000))
def test_the_work_is_linear_in_the_size_of_the_document(groups, datasets, padding):
    group = {"role": "data", "layout": "mirror", "width": 2, "disk": dict(DISK)}
    document = doc(
        vdevs=[group] * groups, datasets=[{"name": f"tank/d{i}"} for i in range(datasets)], notes="n" * padding
    )
    size = len(json.dumps(document))
    calls, peak = _work(document)
    assert calls < 20_000 + 60 * size
    assert peak < 200_000 + 40 * size


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_designs())
def test_a_document_the_validator_accepts_can_be_estimated(document):
    from zfsplanner.core.estimate import estimate

    try:
        design = parse_design(document)
    except InvalidDesign:
        return
    estimate(design).to_document()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"layout": "mirror", "width": 2, "disk": {"size_bytes": 1}}, "vdevs[0].disk.size_bytes", "SPA_MINDEVSIZE"),
        ({"layout": "stripe", "width": 1, "ashift": 9,
          "disk": {"size_bytes": 10**12, "logical_sector_bytes": 4096, "physical_sector_bytes": 4096}},
         "vdevs[0].ashift", "logical sector"),
    ],
)
def test_what_the_estimate_would_refuse_is_refused_with_the_document(fields, field, words):
    document = with_vdev(**fields)
    document["openzfs_version"] = "0.8"
    with pytest.raises(InvalidDesign) as refused:
        parse_design(document)
    assert [(path, words in message) for path, message in refused.value.errors] == [(field, True)]


class _Walked(list):  # type: ignore[type-arg]
    """A list the scan visits item by item: its one-pass sizing takes plain lists only."""


def _walked(value: Any) -> Any:
    if isinstance(value, list):
        return _Walked(_walked(v) for v in value)
    if isinstance(value, dict):
        return {k: _walked(v) for k, v in value.items()}
    return value


histogram_like = st.lists(
    st.lists(st.integers(min_value=-(2**70), max_value=2**70) | st.booleans() | st.floats(), max_size=3)
    | st.integers(min_value=0, max_value=2**66),
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(histogram_like)
def test_lists_of_integers_are_sized_as_if_each_item_were_visited(histogram):
    document: Any = {"datasets": [{"contents": {"file_size_histogram": histogram}}]}
    for _ in range(limits.MAX_DEPTH):  # at every depth, up to and beyond the nesting limit
        for max_bytes in (limits.MAX_DOCUMENT_BYTES, 200):
            fast = limits.scan_document(document, max_bytes=max_bytes)
            walked = limits.scan_document(_walked(document), max_bytes=max_bytes)
            assert (fast.errors, fast.steps, fast.size) == (walked.errors, walked.steps, walked.size)
        document = [document]


def test_a_count_beyond_2_64_in_a_histogram_is_named_by_its_path():
    hist = [[4096, 10], [8192, 2**65], [16384, 1]]
    errors = limits.scan_document({"datasets": [{"contents": {"file_size_histogram": hist}}]}).errors
    assert [path for path, _ in errors] == ["datasets[0].contents.file_size_histogram[1][1]"]
