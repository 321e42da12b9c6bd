"""The JSON of OpenZFS 2.3+ (``zpool status/list/get -j``, ``zfs list/get -j``, ``zfs version -j``)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.import_samples import lines, text
from tests.oracles import writer
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.core.importers.compare import compare
from zfsplanner.core.importers.json_outputs import JsonOutputError, parse
from zfsplanner.core.importers.sections import split

ALL = "openzfs-2.3-json-raidz2-special-log-cache-spare.txt"
FLAT = "openzfs-2.3-json-flat-guid-int.txt"
EXAMPLE = json.loads(
    (__import__("pathlib").Path(__file__).resolve().parents[3] / "examples" / "home-server.json").read_text())


def shape(doc):
    return [(v["role"], v["layout"], v["width"], v["count"]) for v in doc["vdevs"]]


def test_the_manual_s_status_example_gives_the_tree_and_the_rounded_sizes():
    result = import_pool([("status.json", text("manpage-2.3-zpool-status-j.txt"))])
    doc = result.document
    assert shape(doc) == [("data", "raidz1", 3, 1), ("dedup", "mirror", 2, 1), ("special", "stripe", 1, 1)]
    devices = {d["name"]: d for d in doc["imported"]["devices"]}
    member = devices["ca1eb824-c371-491d-ac13-37637e35c683"]
    # phys_space "3.64T" (a by-partuuid partition): rounded as printed, not asked
    assert member["size_source"] == "zpool list -v, rounded as printed"
    assert member["size_bytes"] == round(3.64 * 1024**4) and member["state"] == "ONLINE"  # HEALTHY in the manual
    # every size is given; the rounded sizes fit every ashift, which no output states: that is asked
    assert doc["disk_partitioning"] == "none" and [q["kind"] for q in result.questions] == ["ashift"]
    assert doc["imported"]["from"] == ["zpool status -j"]
    # -c vendor,model,size adds each device's model
    assert doc["vdevs"][0]["disk"]["model"] == "WDC WD40EFZX-68AWUN0" and member["model"] == "WDC WD40EFZX-68AWUN0"


def test_the_manual_s_list_example_gives_the_pool_size():
    [s] = split(text("manpage-2.3-zpool-list-j.txt"))
    found = parse(s.lines, expected="zpool list")
    [pool] = found.lists
    assert pool.name == "tank" and pool.size.bytes == 111 * 1024**3 and not pool.size.exact
    assert pool.allocated.bytes == round(30.8 * 1024**3) and pool.health == "ONLINE" and pool.vdevs == ()


def test_every_json_output_together_imports_like_the_text():
    result = import_pool([("paste", text(ALL))])
    doc = result.document
    assert result.sources == ("zpool status -j", "zpool list -j", "zpool get -j", "zfs get -j", "zfs version -j")
    assert shape(doc) == [("data", "raidz2", 6, 1), ("special", "mirror", 2, 1), ("log", "mirror", 2, 1),
                          ("cache", "stripe", 1, 1), ("spare", "stripe", 1, 1)]
    assert doc["openzfs_version"] == "2.3.0" and doc["vdevs"][0]["ashift"] == 12  # the release zfs version -j names
    assert doc["vdevs"][0]["disk"]["model"] == "ST14000NM001G"
    # the spare has no sizes in zpool status -j; zpool list -j gives its partition
    spare = next(d for d in doc["imported"]["devices"] if d["role"] == "spare")
    assert spare["size_source"] == "zpool list -v (partition 1)"
    datasets = {d["name"]: d for d in doc["datasets"]}
    assert datasets["tank/photos"]["recordsize"] == "1M" and datasets["tank/vm-100-disk-0"]["volsize"] == "32G"
    rows = {r.key: r for r in compare(doc, estimate(parse_design(doc)))}
    assert rows["size"].reported_bytes == estimate(parse_design(EXAMPLE)).pool.zpool_size_bytes
    assert rows["size"].difference_bytes == 0 and rows["usable"].difference_bytes == 0


def test_zpool_status_j_alone_carries_the_sizes():
    status = text(ALL).split("root@pve:~# zpool list")[0]
    result = import_pool([("paste", status)])
    doc = result.document
    # the smallest disk zpool create gives that partition 1 (any disk up to 1 MiB larger gives the same)
    assert 0 <= EXAMPLE["vdevs"][0]["disk"]["size_bytes"] - doc["vdevs"][0]["disk"]["size_bytes"] < 1024**2
    assert doc["imported"]["reported"]["zpool_size_bytes"] == estimate(parse_design(EXAMPLE)).pool.zpool_size_bytes
    # a hot spare's sizes are not in zpool status -j (spares_nvlist() prints none): asked
    [q] = result.questions
    assert (q["role"], q["devices"]) == ("spare", ["sdl"])


def test_flat_vdevs_keyed_by_guid_with_integers_give_the_same_tree():
    nested = import_pool([("a", text(ALL).split("root@pve:~# zpool list")[0])]).document
    flat = import_pool([("b", text(FLAT))]).document
    assert flat["vdevs"] == nested["vdevs"] and flat["name"] == "tank"
    assert [d["name"] for d in flat["imported"]["devices"]] == [d["name"] for d in nested["imported"]["devices"]]


def test_zpool_list_j_keyed_by_guid_gives_the_pool_by_its_name():
    design = parse_design(EXAMPLE)
    est = estimate(design)
    found = parse(lines(writer.zpool_list_json(design, est, guid_key=True)), expected="zpool list")
    [pool] = found.lists
    assert pool.name == "tank" and pool.size.bytes == est.pool.zpool_size_bytes and pool.size.exact
    assert [(r.section, r.name, r.depth) for r in pool.vdevs if r.depth == 1] == [
        ("data", "raidz2-0", 1), ("special", "mirror-1", 1), ("log", "mirror-2", 1), ("cache", "sdk", 1),
        ("spare", "sdl", 1)]


def test_full_paths_of_zpool_list_p_match_the_names_zpool_status_prints():
    design = parse_design(EXAMPLE)
    est = estimate(design)
    # zpool list -P: the full path of partition 1 where zpool status names the whole disk
    listing = re.sub(r"    (ata-\S+)", r"    /dev/disk/by-id/\1-part1", writer.zpool_list_text(design, est))
    result = import_pool([("p", f"$ zpool status tank\n{writer.zpool_status_text(design, est)}"
                                f"$ zpool list -v -p -P tank\n{listing}\n")])
    data = [d for d in result.document["imported"]["devices"] if d["role"] == "data"]
    assert {d["size_source"] for d in data} == {"zpool list -v (partition 1)"}


def test_a_draid_vdev_without_vdev_type_or_state_as_2_3_2_prints_it():
    """openzfs/zfs#18431: OpenZFS 2.3.2 prints a dRAID vdev with only its name and figures."""
    result = import_pool([("p", text("openzfs-2.3.2-json-draid2-missing-vdev-type.txt"))])
    doc = result.document
    assert [(v["layout"], v["width"], v["draid_data"], v["draid_spares"]) for v in doc["vdevs"]] == [
        ("draid2", 14, 8, 1)]
    assert result.questions == [] and doc["vdevs"][0]["disk"]["model"] == "ST18000NM000J"
    rows = {r.key: r for r in compare(doc, estimate(parse_design(doc)))}
    assert rows["size"].difference_bytes == 0 and rows["size"].reported_bytes == 233989371985920


def test_pretty_printed_json_is_read_too():
    compact = text(FLAT).splitlines()[1]
    pretty = "$ zpool status -j --json-int --json-flat-vdevs --json-pool-key-guid -p tank | jq\n" + \
        json.dumps(json.loads(compact), indent=2) + "\n"
    assert import_pool([("p", pretty)]).document["vdevs"] == import_pool([("c", text(FLAT))]).document["vdevs"]


def test_json_without_its_command_line_is_told_apart_by_output_version():
    body = "\n".join(t for t in text(ALL).splitlines() if not t.startswith("root@"))
    doc = import_pool([("paste", body)]).document
    assert shape(doc)[0] == ("data", "raidz2", 6, 1) and len(doc["datasets"]) == 2


def test_zfs_list_j_gives_datasets_with_their_sources():
    out = writer.zfs_get_json(parse_design(EXAMPLE), estimate(parse_design(EXAMPLE)), as_int=True)
    data = json.loads(out)
    data["output_version"]["command"] = "zfs list"
    found = parse(lines(json.dumps(data)), expected="zfs list")
    props = {(p.name, p.property): p for p in found.dataset_props}
    assert props[("tank/photos", "recordsize")].value == "1048576"
    assert props[("tank/photos", "recordsize")].source == "local"
    assert props[("tank/photos", "type")].value == "filesystem"


def test_errors_name_the_line():
    with pytest.raises(JsonOutputError, match="line 3: JSON: not valid JSON"):
        parse(lines('{\n  "output_version": {"command": "zpool status"},\n  "pools": {"tank": }\n}'))
    with pytest.raises(JsonOutputError, match="`zfs mount` is not one of the outputs"):
        parse(lines('{"output_version":{"command":"zfs mount","vers_major":0,"vers_minor":1},"datasets":{}}'))
    with pytest.raises(UnreadableOutput) as exc:
        import_pool([("x.txt", "$ zpool list -j\n" + text(ALL).splitlines()[1])])
    assert exc.value.line == 2 and exc.value.source == "x.txt" and "the JSON is from `zpool status`" in str(exc.value)


def test_a_guid_named_tree_from_g_is_refused_like_the_text():
    data = json.loads(text(FLAT).splitlines()[1])
    pool = next(iter(data["pools"].values()))
    root = pool["vdevs"]["tank"]
    top = root["vdevs"]["raidz2-0"]
    top["name"] = "14184252341349707113"  # zpool status -j -g names every vdev by its GUID
    for member in top["vdevs"].values():
        member["parent"] = top["name"]
    with pytest.raises(JsonOutputError, match="zpool status -g"):
        parse(lines(json.dumps({**data, "pools": {"tank": {**pool, "vdevs": {"tank": root}}}})))


def test_the_same_pool_as_text_and_as_json_is_one_pool():
    """What tools/collect.sh sends: every output as text and, from 2.3, as -j too."""
    design = parse_design(EXAMPLE)
    est = estimate(design)
    both = writer.outputs(design, est) + writer.outputs(design, est, status="json", listing="json")
    result = import_pool([("collected", both)])
    assert shape(result.document) == shape(import_pool([("text", writer.outputs(design, est))]).document)
    rows = {r.key: r for r in compare(result.document, estimate(parse_design(result.document)))}
    assert rows["size"].difference_bytes == 0
    assert result.sources[:2] == ("zpool status", "zpool list")
    assert "zpool status -j" in result.sources


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**64) | st.sampled_from(["", "-", "1.5T", "12", "x", "ONLINE"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["name", "vdevs", "pools", "datasets", "properties", "value", "source", "type", "state",
                         "vdev_type", "class", "parent", "path", "phys_space", "total_space", "alloc_space", "was",
                         "configured_ashift", "physical_ashift", "model", "tank", "mirror-0", "sda", "special",
                         "spares", "l2cache", "zfs_version", "userland", "size", "health"]),
        inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(command=st.sampled_from(["zpool status", "zpool list", "zpool get", "zfs list", "zfs get", "zfs version"]),
       body=st.dictionaries(st.sampled_from(["pools", "datasets", "zfs_version"]), JSON_VALUES, max_size=3))
def test_any_json_shape_raises_only_the_readers_error(command, body):
    text = json.dumps({"output_version": {"command": command, "vers_major": 0, "vers_minor": 1}, **body})
    try:
        parse(lines(text))
    except JsonOutputError:
        pass


SCALARS = st.none() | st.booleans() | st.integers(-5, 2**70) | st.lists(st.integers(), max_size=2) | st.sampled_from(
    ["", "-", "1.5T", "12", "9", "99999999999", "x", "ONLINE", "mirror-0", "raidz2-0", "draid2:8d:14c:1s-0", "sda",
     "tank", "/dev/sda1", "normal", "special", "spare", "root", "disk", "12345678901234567890"])


KEYS = ["configured_ashift", "physical_ashift", "was", "aux", "parent", "path", "model", "phys_space",
        "total_space", "alloc_space", "class", "vdev_type", "state", "name", "vdevs", "properties", "value", "source"]


def paths(node, prefix=()):
    """Every (path, value) of a JSON document."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, (*prefix, k))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), name=st.sampled_from([FLAT, ALL]), index=st.integers(0, 4))
def test_any_damage_deep_in_the_json_raises_only_the_readers_error(data, name, index):
    """Real-shaped JSON with values replaced or keys removed anywhere in the tree."""
    docs = [t for t in text(name).splitlines() if t.startswith("{")]
    doc = json.loads(docs[index % len(docs)])
    for _ in range(data.draw(st.integers(1, 4))):
        where = [p for p, _ in paths(doc) if p]
        if not where:
            break
        path = data.draw(st.sampled_from(where))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = data.draw(SCALARS)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            for key in data.draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=3, unique=True)):
                parent[path[-1]][key] = data.draw(SCALARS)
    try:
        parse(lines(json.dumps(doc)))
    except JsonOutputError:
        return
    try:  # what the reader takes, the import takes or refuses with its own error
        import_pool([("paste", json.dumps(doc))])
    except UnreadableOutput:
        pass


@pytest.mark.parametrize(("configured", "physical", "note"), [
    ("9", "12", "block size: 512B configured, 4096B native"),
    (9, 12, "block size: 512B configured, 4096B native"),  # --json-int
    ("x", "12", ""),
    ("99999999999", "12", ""),
])
def test_the_ashift_warning_is_read_only_from_real_ashifts(configured, physical, note):
    leaf = {"name": "sda", "vdev_type": "disk", "state": "ONLINE", "configured_ashift": configured,
            "physical_ashift": physical}
    pool = {"name": "tank", "vdevs": {"tank": {"name": "tank", "vdevs": {"sda": leaf}}}}
    found = parse(lines(json.dumps({"output_version": {"command": "zpool status"}, "pools": {"tank": pool}})))
    assert found.status[0].vdevs[0].note == note
