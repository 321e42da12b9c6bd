"""design -> the text a real pool of it prints -> import -> the same design."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.oracles import writer
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import answer_sizes, import_pool
from zfsplanner.core.importers.common import numbered
from zfsplanner.core.importers.zpool_status import parse as parse_status

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
VDEV_FIGURES = ("role", "layout", "width", "ashift", "zpool_size_bytes", "raw_bytes", "asize_bytes", "dspace_bytes",
                "fault_tolerance", "draid")
DISK_KEYS = ("size_bytes", "model", "logical_sector_bytes", "physical_sector_bytes", "media")


def round_trip(doc, **kw):
    design = parse_design(doc)
    est = estimate(design)
    text = writer.outputs(design, est, **kw)
    result = import_pool([("paste", text)])
    assert result.questions == []
    return design, est, result.document


def same_estimate(a, b, *, raw=True):
    keys = ("zpool_size_bytes", "zfs_avail_bytes", "slop_bytes", "special_size_bytes") + (("raw_bytes",) if raw else ())
    figures = VDEV_FIGURES if raw else tuple(k for k in VDEV_FIGURES if k != "raw_bytes")
    for key in keys:
        assert getattr(a.pool, key) == getattr(b.pool, key), key
    assert [{k: getattr(v, k) for k in figures} for v in a.vdevs] == [{k: getattr(v, k) for k in figures}
                                                                       for v in b.vdevs]


def shape(doc):
    return [(v["role"], v["layout"], v["width"], v["count"], v.get("draid_data"), v.get("draid_spares"))
            for v in doc["vdevs"]]


def disks(doc):
    design = parse_design(doc)
    return [[{k: getattr(d, k) for k in DISK_KEYS} for d in g.disks] for g in design.vdevs]


def test_the_home_server_example_comes_back():
    doc = json.loads((EXAMPLES / "home-server.json").read_text())
    design, est, back = round_trip(doc)
    assert shape(back) == shape(design_to_document(design))
    same_estimate(est, estimate(parse_design(back)))
    orig = disks(doc)
    got = disks(back)
    # the example leaves sector sizes and media of some disks unset; lsblk always prints them
    for og, gg in zip(orig, got, strict=True):
        for o, g in zip(og, gg, strict=True):
            assert g["size_bytes"] == o["size_bytes"] and g["model"] == o["model"]
    datasets = {d["name"]: d for d in back["datasets"]}
    assert datasets["tank/photos"]["recordsize"] == "1M"
    assert datasets["tank/photos"]["special_small_blocks"] == "64K"
    assert datasets["tank/photos"]["contents"]["logical_bytes"] == 11059540787
    assert datasets["tank/vm-100-disk-0"]["volsize"] == "32G"


def test_the_draid_example_comes_back():
    doc = json.loads((EXAMPLES / "draid.json").read_text())
    design, est, back = round_trip(doc)
    assert shape(back) == shape(design_to_document(design))
    same_estimate(est, estimate(parse_design(back)))


def test_a_fully_described_design_comes_back_unchanged():
    disk = {"size_bytes": 16000900661248, "model": "ST16000NM001G", "logical_sector_bytes": 512,
            "physical_sector_bytes": 4096, "media": "hdd"}
    ssd = {"size_bytes": 960197124096, "model": "MZ7L3960HCJR", "logical_sector_bytes": 512,
           "physical_sector_bytes": 4096, "media": "ssd"}
    doc = {"format": "zfsplanner.design/1", "name": "tank", "openzfs_version": "2.3.9",
           "disk_partitioning": "linux-whole-disk",
           "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 2, "ashift": 12, "disk": disk},
                     {"role": "special", "layout": "mirror", "width": 3, "count": 1, "ashift": 12, "disk": ssd},
                     {"role": "spare", "layout": "stripe", "width": 1, "count": 1, "ashift": 12, "disk": disk}],
           "datasets": [{"name": "tank/media", "type": "filesystem", "recordsize": "1M", "compression": "zstd",
                         "contents": {"logical_bytes": 5 * 10**12, "compressibility": {"ratio": 2.0,
                                                                                       "algorithm": "zstd"}}}]}
    _, est, back = round_trip(doc)
    back.pop("imported")
    # zfs reports the ratio it reached on the whole dataset, metadata included: 1.98 for data that halves
    measured = back["datasets"][0]["contents"].pop("compressibility")
    given = doc["datasets"][0]["contents"].pop("compressibility")
    assert measured["algorithm"] == given["algorithm"] and abs(measured["ratio"] - given["ratio"]) < 0.03
    assert back == doc


def test_the_status_text_has_the_format_zpool_prints():
    doc = json.loads((EXAMPLES / "home-server.json").read_text())
    design = parse_design(doc)
    text = writer.zpool_status_text(design, estimate(design))
    lines = text.splitlines()
    assert lines[:3] == ["  pool: tank", " state: ONLINE", "config:"]
    assert lines[5].startswith("\ttank ") and "ONLINE       0     0     0" in lines[5]
    assert "\tspecial\t" in lines and "\tlogs\t" in lines and "\tcache" in lines and "\tspares" in lines
    assert lines[-1] == "errors: No known data errors"
    [pool] = parse_status(numbered(text))
    assert [v.name for v in pool.vdevs] == ["raidz2-0"]


def test_zpool_status_j_alone_gives_the_same_size():
    doc = json.loads((EXAMPLES / "home-server.json").read_text())
    doc["vdevs"] = [v for v in doc["vdevs"] if v["role"] != "spare"]  # spares carry no sizes in -j
    design = parse_design(doc)
    est = estimate(design)
    result = import_pool([("paste", writer.outputs(design, est, status="json", listing="none", datasets=False,
                                                   disks=False))])
    assert result.questions == []
    back = estimate(parse_design(result.document))
    assert back.pool.zpool_size_bytes == est.pool.zpool_size_bytes
    assert result.document["imported"]["reported"]["zpool_size_bytes"] == est.pool.zpool_size_bytes


def test_older_versions_print_lists_without_ids_and_leaf_sizes():
    doc = json.loads((EXAMPLES / "home-server.json").read_text()) | {"openzfs_version": "2.1"}
    design = parse_design(doc)
    text = writer.zpool_list_text(design, estimate(design))
    assert "\n  raidz2 " in text and "raidz2-0" not in text
    _, est, back = round_trip(doc)
    same_estimate(est, estimate(parse_design(back)))


LAYOUTS = st.sampled_from([("stripe", 1), ("mirror", 2), ("mirror", 3), ("raidz1", 3), ("raidz1", 5), ("raidz2", 6),
                           ("raidz2", 10), ("raidz3", 9), ("draid1", 8), ("draid2", 14)])
SIZES = st.sampled_from([480103981056, 2000398934016, 4000787030016, 12000138625024, 18000207937536,
                         22000969973760, 1073741824 * 100])


@st.composite
def designs(draw):
    version = draw(st.sampled_from(["2.0", "2.1", "2.2", "2.3", "2.4"]))
    partitioning = draw(st.sampled_from(["linux-whole-disk", "none"]))
    layout, width = draw(LAYOUTS)
    group = {"role": "data", "layout": layout, "width": width, "count": draw(st.integers(1, 3)),
             "disk": {"size_bytes": draw(SIZES), "physical_sector_bytes": 4096}}
    if width > 1 and draw(st.booleans()):  # mixed member sizes
        group.pop("disk")
        group["disks"] = [{"size_bytes": draw(SIZES), "physical_sector_bytes": 4096} for _ in range(width)]
    if layout.startswith("draid"):
        group["draid_spares"] = draw(st.integers(0, 1))
        parity = int(layout[-1])
        group["draid_data"] = draw(st.integers(1, width - parity - group["draid_spares"]))
    vdevs = [group]
    if draw(st.booleans()):  # zpool lists the classes as dedup, special, logs
        vdevs.append({"role": "dedup", "layout": "mirror", "width": 2, "count": 1,
                      "disk": {"size_bytes": draw(SIZES), "physical_sector_bytes": 4096}})
    if draw(st.booleans()):
        vdevs.append({"role": "special", "layout": "mirror", "width": 2, "count": 1,
                      "disk": {"size_bytes": draw(SIZES), "physical_sector_bytes": 4096}})
    if draw(st.booleans()):
        vdevs.append({"role": "log", "layout": draw(st.sampled_from(["stripe", "mirror"])), "width": 1, "count": 1,
                      "disk": {"size_bytes": 17179869184, "physical_sector_bytes": 4096}})
        if vdevs[-1]["layout"] == "mirror":
            vdevs[-1]["width"] = 2
    if draw(st.booleans()):
        vdevs.append({"role": "cache", "layout": "stripe", "width": 1, "count": draw(st.integers(1, 2)),
                      "disk": {"size_bytes": draw(SIZES), "physical_sector_bytes": 4096}})
    if draw(st.booleans()):
        vdevs.append({"role": "spare", "layout": "stripe", "width": 1, "count": 1,
                      "disk": {"size_bytes": (group.get("disk") or group["disks"][0])["size_bytes"],
                               "physical_sector_bytes": 4096}})
    return {"name": "pool1", "openzfs_version": version, "disk_partitioning": partitioning, "vdevs": vdevs}


FORMS = st.sampled_from([("text", "text"), ("text", "scripted"), ("json", "json"), ("json", "text"),
                         ("text", "json"), ("json", "scripted")])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(designs(), st.booleans(), FORMS)
def test_any_design_comes_back_with_the_same_estimate(doc, with_lsblk, forms):
    """Without lsblk the disks' sizes come from the partitions zpool list -v prints (2.2+) or are fitted to
    each vdev's SIZE (older versions print no leaf sizes, and no cache or spare size at all). Any of the
    forms: zpool status as text or -j, zpool list -v -p as text, -H -o name,size,alloc,free or -j (JSON
    from 2.3)."""
    status, listing = forms
    if doc["openzfs_version"] < "2.3":
        status, listing = "text", "scripted" if listing == "scripted" else "text"
    with_lsblk = with_lsblk or doc["openzfs_version"] in ("2.0", "2.1")
    design, est, back = round_trip(doc, disks=with_lsblk, datasets=False, status=status, listing=listing)
    expected = [(g.role.value, g.layout.value, g.width, g.count) for g in design.vdevs]
    # cache and spare devices come back one group per identical run of devices
    assert [(v["role"], v["layout"], v["width"], v["count"]) for v in back["vdevs"]] == expected
    assert back["disk_partitioning"] == doc["disk_partitioning"]
    same_estimate(est, estimate(parse_design(back)), raw=with_lsblk)


def savings_design(version, *, dedup_ratio=2.0, cloned=100 * 2**30):
    return {"name": "tank", "openzfs_version": version,
            "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": {"size_bytes": 4000787030016}}],
            "datasets": [
                {"name": "tank/vm", "dedup": "on", "recordsize": "64K",
                 "contents": {"logical_bytes": 300 * 2**30, "dedup_ratio": dedup_ratio}},
                {"name": "tank/files", "compression": "lz4",
                 "contents": {"logical_bytes": 500 * 2**30, "cloned_bytes": cloned,
                              "compressibility": {"ratio": 1.5, "algorithm": "lz4"}}}]}


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["2.1", "2.2", "2.3", "2.4"]), st.sampled_from([2.0, 4.0, 1.25]),
       st.integers(2**20, 500 * 2**30), FORMS)
def test_dedup_and_cloned_data_come_back_with_the_same_used_and_avail(version, ratio, cloned, forms):
    """DEDUP (zpool list, or zpool get dedupratio) and bclonesaved (zpool get) come back as the datasets'
    dedup ratio and cloned bytes: the root's USED + AVAIL and AVAIL are those of the design, to the byte."""
    status, listing = forms
    if version < "2.3":
        status, listing = "text", "scripted" if listing == "scripted" else "text"
    design, est, back = round_trip(savings_design(version, dedup_ratio=ratio, cloned=cloned),
                                   status=status, listing=listing)
    again = estimate(parse_design(back))
    assert est.pool.savings is not None and again.pool.savings is not None
    assert again.pool.usable_bytes == est.pool.usable_bytes
    assert again.pool.zfs_avail_after_bytes == est.pool.zfs_avail_after_bytes
    assert again.pool.savings.dedup_saved_bytes == est.pool.savings.dedup_saved_bytes
    assert again.pool.savings.bclone_saved_bytes == est.pool.savings.bclone_saved_bytes
    datasets = {d["name"]: d for d in back["datasets"]}
    assert datasets["tank/vm"]["dedup"] == "on" and datasets["tank/vm"]["contents"]["dedup_ratio"] == ratio
    if version >= "2.2":
        assert est.pool.savings.bclone_saved_bytes > 0
    else:
        assert "cloned_bytes" not in datasets["tank/files"]["contents"]


def test_the_writer_prints_dedup_and_clones_as_openzfs_does():
    design = parse_design(savings_design("2.3"))
    est = estimate(design)
    text = writer.outputs(design, est)
    saved = est.pool.savings.bclone_saved_bytes
    assert f"tank\tdedupratio\t2.00\t-\ntank\tbcloneused\t{saved}\t-\ntank\tbclonesaved\t{saved}\t-\n" in text
    assert "tank\tbcloneratio\t2.00\t-" in text and "tank/vm\tdedup\ton\tlocal" in text
    pool_row = writer.zpool_list_text(design, est).splitlines()[1].split()
    assert pool_row[8] == "2.00"  # the DEDUP column
    old = parse_design(savings_design("2.1"))
    assert "bclone" not in writer.outputs(old, estimate(old))


def test_without_zpool_list_the_ratio_comes_from_zpool_get():
    design, est, back = round_trip(savings_design("2.3"), listing="none", disks=True)
    assert {d["name"]: d for d in back["datasets"]}["tank/vm"]["contents"]["dedup_ratio"] == 2.0
    assert estimate(parse_design(back)).pool.usable_bytes == est.pool.usable_bytes
    assert any("DEDUP 2.00x" in n for n in back["imported"]["notes"])


def test_ratios_and_sizes_as_printed_without_p_are_read():
    # without -p zpool prints "2.00x" and zfs_nicenum sizes (zpool_get_prop(), libzfs_pool.c)
    design = parse_design(savings_design("2.3", cloned=64 * 2**30))
    est = estimate(design)
    saved = est.pool.savings.bclone_saved_bytes
    text = writer.outputs(design, est, listing="none")
    text = text.replace("\tdedupratio\t2.00\t", "\tdedupratio\t2.00x\t").replace(
        f"\tbclonesaved\t{saved}\t", "\tbclonesaved\t42.5G\t")
    back = import_pool([("paste", text)]).document
    again = estimate(parse_design(back))
    assert {d["name"]: d for d in back["datasets"]}["tank/vm"]["contents"]["dedup_ratio"] == 2.0
    assert abs(again.pool.savings.bclone_saved_bytes - 42.5 * 2**30) < 2**20


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(designs(), st.sampled_from(["lsblk", "vdev properties", "sizes"]))
def test_a_pool_created_without_ashift_comes_back_with_its_ashift(doc, told_by):
    """``zpool get ashift`` prints 0: the ashift comes from lsblk's sectors (zpool's own choice), from the vdev
    properties (2.2+), or from the sizes the outputs give; when several ashifts give them, the preview asks,
    and the answer gives back the same estimate."""
    if doc["openzfs_version"] < "2.2":
        told_by = "lsblk"  # no vdev properties, and no leaf sizes in zpool list -v: lsblk gives the sizes
    design = parse_design(doc)
    est = estimate(design)
    text = writer.outputs(design, est, disks=told_by == "lsblk", datasets=False, ashift_requested=False,
                          vdev_props=told_by == "vdev properties")
    text += f"$ zfs list -p -H -o name,used,avail {design.name}\n{design.name}\t{est.pool.initial_used_bytes}\t" \
            f"{est.pool.zfs_avail_bytes}\n"
    assert f"{design.name}\tashift\t0\tdefault" in text
    result = import_pool([("paste", text)])
    back = result.document
    used = {v.index: v.ashift for v in est.vdevs}
    if told_by == "lsblk":
        assert f"ashift {used[0]}: as zpool chose it for the disks' sector sizes (lsblk)" in " ".join(result.notes)
    if result.questions:
        [question] = result.questions
        assert told_by == "sizes" and question["kind"] == "ashift" and len(question["choices"]) > 1
        assert used[0] in question["choices"]
        back = answer_sizes(back, {question["id"]: used[0]})
    again = estimate(parse_design(back))
    assert [v.ashift for v in again.vdevs] == [v.ashift for v in est.vdevs]
    assert again.pool.zpool_size_bytes == est.pool.zpool_size_bytes
    assert again.pool.zfs_avail_bytes + again.pool.initial_used_bytes == (
        est.pool.zfs_avail_bytes + est.pool.initial_used_bytes)
