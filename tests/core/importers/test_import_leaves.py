"""A disk that is itself a top-level vdev: SIZE is its physical size, ALLOC + FREE the vdev's space.

``collect_list_stats()`` (``cmd/zpool/zpool_main.c``, OpenZFS 2.1.6+) prints a leaf's ``vs_pspace`` as SIZE
and every top-level vdev's ``vs_space`` as ALLOC + FREE; a stripe member, a single-disk pool, a single
special, dedup or log disk and a cache device are both. The outputs below are built as OpenZFS 2.3.2
prints them, with real figures: the single-disk pools of ``data/openzfs-2.3.2.json`` and the 10 GiB file
pool whose SIZE (10,200,547,328) OpenZFS 2.3.2 reported; the writer is checked against the real
``zpool list -v`` of ``data/openzfs-2.3.2-json-sample.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.oracles import writer
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.geometry.partitioning import leaf_psize
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import numbered, parse_size
from zfsplanner.core.importers.compare import compare
from zfsplanner.core.importers.json_outputs import parse as parse_json
from zfsplanner.core.importers.zpool_list import ListRow, size_is_physical
from zfsplanner.core.importers.zpool_list import parse as parse_list
from zfsplanner.core.versions import Version, default_version

DATA = Path(__file__).resolve().parents[1] / "data"
EMPTY = {(p["layout"], p["disk_size_bytes"]): p for p in json.loads((DATA / "openzfs-2.3.2.json").read_text())
         ["empty_pools"]}
SAMPLE = {r["pool"]: r for r in json.loads((DATA / "openzfs-2.3.2-json-sample.json").read_text())["records"]}
GIB = 1024**3
TEN_GIB_SIZE = 10_200_547_328  # zpool list SIZE of a pool of one 10 GiB file (OpenZFS 2.3.2)
ASHIFT = "$ zpool get -H -p ashift tank\ntank\tashift\t9\tlocal\n"


# --------------------------------------------------------------------------- real-format outputs


def status_text(files: list[str]) -> str:
    """``zpool status tank`` of a stripe of files (``print_status_config()``)."""
    width = max(10, *(2 + len(f) for f in files))
    rows = [f"\t{'tank':<{width}}  ONLINE       0     0     0"]
    rows += [f"\t  {f:<{width - 2}}  ONLINE       0     0     0" for f in files]
    return "\n".join(["$ zpool status tank", "  pool: tank", " state: ONLINE", "config:", "",
                      f"\t{'NAME':<{width}}  STATE     READ WRITE CKSUM", *rows, "",
                      "errors: No known data errors"]) + "\n"


def list_text(files: list[tuple[str, int, int, int]], *, scripted: bool = False) -> str:
    """``zpool list -v -p [-H -o name,size,alloc,free] tank`` of a stripe of files ``(path, file size, vs_space,
    vs_alloc)``: the pool row is the sums, each file's row its physical size then ALLOC and FREE."""
    size = sum(space for _, _, space, _ in files)
    alloc = sum(used for _, _, _, used in files)
    if scripted:
        out = ["$ zpool list -v -p -H -o name,size,alloc,free tank", f"tank\t{size}\t{alloc}\t{size - alloc}"]
        out += [f"\t{p}\t{psize}\t{used}\t{space - used}\t-\t-\t0\t0\t-\tONLINE" for p, psize, space, used in files]
        return "\n".join(out) + "\n"
    width = max(9, *(2 + len(p) for p, *_ in files))
    out = ["$ zpool list -v -p tank",
           f"{'NAME':<{width}}  {'SIZE':>12}  {'ALLOC':>7}  {'FREE':>12}  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP"
           "    HEALTH  ALTROOT",
           f"{'tank':<{width}}  {size:>12}  {alloc:>7}  {size - alloc:>12}        -         -      0      0   1.00"
           "    ONLINE  -"]
    out += [f"{'  ' + p:<{width}}  {psize:>12}  {used:>7}  {space - used:>12}        -         -      0      0"
            "      -    ONLINE" for p, psize, space, used in files]
    return "\n".join(out) + "\n"


def list_json(files: list[tuple[str, int, int, int]]) -> str:
    """``zpool list -v -j --json-int tank`` of the same stripe (``collect_pool()``, ``collect_list_stats()``)."""
    def props(size: int, alloc: int, free: int) -> dict:
        values = {"size": size, "allocated": alloc, "free": free, "checkpoint": "-", "expandsize": "-",
                  "fragmentation": 0, "capacity": 0, "dedupratio": "-", "health": "ONLINE"}
        return {k: {"value": v, "source": {"type": "NONE", "data": "-"}} for k, v in values.items()}

    size = sum(space for _, _, space, _ in files)
    alloc = sum(used for _, _, _, used in files)
    vdevs = {p: {"name": p, "vdev_type": "file", "guid": str(i + 2), "path": p, "class": "normal", "state": "ONLINE",
                 "properties": props(psize, used, space - used)} for i, (p, psize, space, used) in enumerate(files)}
    pool = {"name": "tank", "type": "POOL", "state": "ONLINE", "pool_guid": 1, "txg": 4, "spa_version": 5000,
            "zpl_version": 5, "properties": props(size, alloc, size - alloc), "vdevs": vdevs}
    body = {"output_version": {"command": "zpool list", "vers_major": 0, "vers_minor": 1}, "pools": {"tank": pool}}
    return "$ zpool list -v -j --json-int tank\n" + json.dumps(body, separators=(",", ":")) + "\n"


def stripe(*disks: tuple[int, int]) -> list[tuple[str, int, int, int]]:
    """``(file size, vs_space)`` per file -> rows with the 138,240 B a new pool allocates on its first vdev."""
    return [(f"/scratch/v/d{i:02d}", psize, space, 138240 if i == 0 else 0) for i, (psize, space) in enumerate(disks)]


def imported(text: str):
    result = import_pool([("paste", text)])
    assert result.questions == []
    doc = result.document
    return doc, estimate(parse_design(doc))


ONE = (GIB, EMPTY[("single", GIB)]["zpool_size"])
TEN = (10 * GIB, TEN_GIB_SIZE)
HUNDRED = (100 * GIB, EMPTY[("single", 100 * GIB)]["zpool_size"])
FORMS = {
    "text": lambda rows: list_text(rows),
    "scripted": lambda rows: list_text(rows, scripted=True),
    "json": list_json,
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("disks", "pool_size"), [
    ((TEN,), TEN_GIB_SIZE),
    ((TEN, TEN, TEN), 3 * TEN_GIB_SIZE),
    ((ONE, TEN, HUNDRED), ONE[1] + TEN_GIB_SIZE + HUNDRED[1]),
], ids=["single-10G", "stripe-3x10G", "stripe-1G-10G-100G"])
def test_a_stripe_of_files_imports_with_the_size_openzfs_reports(disks, pool_size, form):
    rows = stripe(*disks)
    doc, est = imported(status_text([p for p, *_ in rows]) + FORMS[form](rows) + ASHIFT)
    # no zfs version: the rows alone say that SIZE is the file's (it differs from ALLOC + FREE)
    assert doc["openzfs_version"] == default_version()  # the newest release the planner knows
    assert sorted(d["size_bytes"] for d in doc["imported"]["devices"]) == sorted(psize for psize, _ in disks)
    assert {d["size_source"] for d in doc["imported"]["devices"]} == {"zpool list -v"}
    assert est.pool.zpool_size_bytes == pool_size
    rows_by_key = {r.key: r for r in compare(doc, est)}
    assert rows_by_key["size"].reported_bytes == pool_size and rows_by_key["size"].difference_bytes == 0
    # each leaf's reported SIZE is the vdev's allocatable space, ALLOC + FREE, and the model gives it
    vdev_rows = [r for r in rows_by_key.values() if r.key.startswith("vdev-")]
    assert sorted(r.reported_bytes for r in vdev_rows) == sorted(space for _, space in disks)
    assert all(r.difference_bytes == 0 and not r.fitted for r in vdev_rows)


@pytest.mark.parametrize("size", [GIB, 100 * GIB])
def test_the_measured_single_disk_pools_give_their_size_and_used_plus_avail(size):
    real = EMPTY[("single", size)]
    rows = stripe((size, real["zpool_size"]))
    zfs_list = f"$ zfs list -H -p -o name,used,avail tank\ntank\t{real['zfs_used']}\t{real['zfs_avail']}\n"
    doc, est = imported(status_text([rows[0][0]]) + list_text(rows) + ASHIFT + zfs_list)
    assert doc["vdevs"][0]["disk"] == {"size_bytes": size}
    by_key = {r.key: r for r in compare(doc, est)}
    assert by_key["size"].difference_bytes == 0 and by_key["usable"].difference_bytes == 0


def test_zpool_list_alone_gives_the_tree_and_the_sizes():
    rows = stripe(ONE, HUNDRED)
    doc, est = imported(list_text(rows) + ASHIFT)
    assert [d["size_bytes"] for d in doc["imported"]["devices"]] == [GIB, 100 * GIB]
    assert est.pool.zpool_size_bytes == ONE[1] + HUNDRED[1]


def test_rounded_figures_tell_a_physical_size_when_they_differ_by_more_than_their_rounding():
    text = ("$ zpool list -v tank\n"
            "NAME               SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH  ALTROOT\n"
            "tank              9.50G   135K  9.50G        -         -     0%     0%  1.00x    ONLINE  -\n"
            "  /scratch/v/d00    10G   135K  9.50G        -         -     0%  0.00%      -    ONLINE\n")
    [pool] = parse_list(numbered(text)[1:])
    assert size_is_physical(pool.vdevs[0]) is True
    doc, est = imported(text + ASHIFT)
    assert doc["imported"]["devices"][0]["size_bytes"] == 10 * GIB
    assert est.pool.zpool_size_bytes == TEN_GIB_SIZE


def test_a_size_equal_to_alloc_plus_free_is_the_vdev_s_space():
    """Kernels before 2.1.6 print a top-level leaf's ``vs_space``: then the disk is fitted to it."""
    rows = [("/scratch/v/d00", TEN_GIB_SIZE, TEN_GIB_SIZE, 138240)]
    [pool] = parse_list(numbered(list_text(rows))[1:])
    assert size_is_physical(pool.vdevs[0]) is False
    doc, est = imported(status_text(["/scratch/v/d00"]) + list_text(rows) + ASHIFT)
    assert "fitted" in doc["imported"]["devices"][0]["size_source"]
    assert est.pool.zpool_size_bytes == TEN_GIB_SIZE


def test_a_rounded_size_within_the_rounding_of_alloc_plus_free_cannot_tell():
    row = ListRow("sda", 1, "data", size=parse_size("16.4T"), allocated=parse_size("1.2M"), line=3,
                  free=parse_size("16.4T"))
    assert size_is_physical(row) is None


def test_a_spare_s_size_is_physical_and_a_cache_s_too_when_it_is_not_its_space():
    spare = ListRow("sdl", 1, "spare", size=parse_size("1000"), allocated=None, line=1)
    cache = ListRow("sdk", 1, "cache", size=parse_size("4294967296"), allocated=parse_size("8192"), line=2,
                    free=parse_size("4290236416"))
    assert size_is_physical(spare) is True and size_is_physical(cache) is True


def test_openzfs_2_4_prints_vdev_rows_with_the_columns_asked():
    """From 2.4 (commit c4ad5e2938) ``zpool list -v -o`` prints each vdev with the ``-o`` columns."""
    text = ("NAME              FREE         SIZE\n"
            "tank       10200409088  10200547328\n"
            "  /scratch/v/d00  10200409088  10737418240\n")
    [pool] = parse_list(numbered(text))
    row = pool.vdevs[0]
    assert row.size is not None and row.size.bytes == 10 * GIB
    assert row.free is not None and row.free.bytes == 10200409088 and row.allocated is None


# --------------------------------------------------------------------------- the writer against real OpenZFS


def zlogcache_design():
    return parse_design({
        "format": "zfsplanner.design/1", "name": "zlogcache", "openzfs_version": "2.3", "disk_partitioning": "none",
        "vdevs": [{"role": "data", "layout": "raidz1", "width": 3, "count": 1, "ashift": 12,
                   "disk": {"size_bytes": 10 * GIB}},
                  {"role": "log", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                   "disk": {"size_bytes": GIB}},
                  {"role": "cache", "layout": "stripe", "width": 1, "count": 1, "ashift": 12,
                   "disk": {"size_bytes": 4 * GIB}},
                  {"role": "spare", "layout": "stripe", "width": 1, "count": 1, "ashift": 12,
                   "disk": {"size_bytes": 10 * GIB}}]})


def figures(pool) -> list[tuple[str, int | None, int | None]]:
    """(class, SIZE, ALLOC + FREE) of each vdev row, names aside."""
    return [(r.section, r.size.bytes if r.size else None, r.allocatable.bytes if r.allocatable else None)
            for r in pool.vdevs]


def test_the_writer_prints_the_sizes_openzfs_prints_for_a_cache_a_spare_and_a_log():
    real = SAMPLE["zlogcache"]["outputs"]
    design = zlogcache_design()
    est = estimate(design)
    [printed] = parse_list(numbered(real["list_vp"]["stdout"]))
    [written] = parse_list(numbered(writer.zpool_list_text(design, est)))
    assert figures(written) == figures(printed)
    cache = printed.vdevs[-2]
    assert cache.section == "cache" and cache.size.bytes == 4 * GIB and cache.allocatable.bytes == 4290244608
    [printed_json] = parse_json(numbered(real["list_j_int_v"]["stdout"])).lists
    [written_json] = parse_json(numbered(writer.zpool_list_json(design, est, as_int=True))).lists
    assert figures(written_json) == figures(printed_json) == figures(printed)


def test_the_writer_s_status_json_gives_the_cache_its_space_as_openzfs_does():
    real = json.loads(SAMPLE["zlogcache"]["outputs"]["status_j_p"]["stdout"])["pools"]["zlogcache"]["l2cache"]
    design = zlogcache_design()
    written = json.loads(writer.zpool_status_json(design, estimate(design)))["pools"]["zlogcache"]["l2cache"]
    [(_, real_cache)] = real.items()
    [(_, written_cache)] = written.items()
    for key in ("total_space", "rep_dev_size", "phys_space"):
        assert written_cache[key] == real_cache[key], key
    assert "def_space" not in written_cache and "def_space" not in real_cache


# --------------------------------------------------------------------------- the round trip


SIZES = st.sampled_from([GIB, 10 * GIB, 100 * GIB, 480103981056, 2000398934016, 4000787030016, 18000207937536])


def single(role: str, size: int, count: int = 1) -> dict:
    return {"role": role, "layout": "stripe", "width": 1, "count": count,
            "disk": {"size_bytes": size, "physical_sector_bytes": 4096}}


@st.composite
def leaf_designs(draw):
    """Designs whose top-level vdevs include single disks of every role: a single-disk pool, a stripe of
    equal or mixed disks, a single special, dedup or log disk, cache devices and a hot spare."""
    version = draw(st.sampled_from(["2.0", "2.1", "2.2", "2.3", "2.4"]))
    # groups of different disks (the import makes one group of each run of identical vdevs)
    vdevs = [single("data", size, draw(st.integers(1, 3)))
             for size in draw(st.lists(SIZES, min_size=1, max_size=3, unique=True))]
    if draw(st.booleans()):  # next to a mirror, as in a pool grown by one disk
        vdevs.append({"role": "data", "layout": "mirror", "width": 2, "count": 1,
                      "disk": {"size_bytes": draw(SIZES), "physical_sector_bytes": 4096}})
    for role in ("dedup", "special", "log", "cache"):
        if draw(st.booleans()):
            vdevs.append(single(role, draw(SIZES), draw(st.integers(1, 2)) if role == "cache" else 1))
    if draw(st.booleans()):
        vdevs.append(single("spare", vdevs[0]["disk"]["size_bytes"]))
    partitioning = draw(st.sampled_from(["linux-whole-disk", "none"]))
    return {"name": "pool1", "openzfs_version": version, "disk_partitioning": partitioning, "vdevs": vdevs}


LEAF_FORMS = st.sampled_from([("text", "text"), ("text", "scripted"), ("json", "json"), ("json", "text"),
                              ("text", "json"), ("json", "scripted")])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leaf_designs(), st.booleans(), st.booleans(), LEAF_FORMS)
def test_single_disk_vdevs_of_every_role_come_back_with_the_same_size_and_used_plus_avail(
        doc, with_lsblk, with_version, forms):
    """Written as OpenZFS prints them (with or without ``zfs version``, zpool status as text or -j, zpool list
    -v -p as text, -H -o or -j) and read back: the same SIZE and USED + AVAIL to the byte. Before 2.2 leaves
    print no physical size (a top-level leaf prints its space as SIZE) and spares no size at all: lsblk gives
    them."""
    status, listing = forms
    if doc["openzfs_version"] < "2.3":
        status, listing = "text", "scripted" if listing == "scripted" else "text"
    with_lsblk = with_lsblk or doc["openzfs_version"] in ("2.0", "2.1")
    design = parse_design(doc)
    est = estimate(design)
    text = writer.outputs(design, est, disks=with_lsblk, datasets=False, status=status, listing=listing,
                          version=with_version)
    result = import_pool([("paste", text)])
    assert result.questions == []
    back = result.document
    # zfs version names the release the series stands for ("2.0" -> 2.0.3), which the import keeps
    # without it, the newest release the planner knows (as everywhere a release must be picked)
    assert Version.parse(back["openzfs_version"]) == Version.parse(
        doc["openzfs_version"] if with_version else default_version())
    back["openzfs_version"] = doc["openzfs_version"]  # the rules of the design's release, whatever was pasted
    expected = [(g.role.value, g.layout.value, g.width, g.count) for g in design.vdevs]
    assert [(v["role"], v["layout"], v["width"], v["count"]) for v in back["vdevs"]] == expected
    again = estimate(parse_design(back))
    assert again.pool.zpool_size_bytes == est.pool.zpool_size_bytes
    assert (again.pool.zfs_avail_bytes + again.pool.initial_used_bytes
            == est.pool.zfs_avail_bytes + est.pool.initial_used_bytes)
    assert [v.zpool_size_bytes for v in again.vdevs] == [v.zpool_size_bytes for v in est.vdevs]
    if not with_lsblk:  # the sizes came from zpool list -v or zpool status -j: a disk's, not a fitted one
        assert not any("fitted" in d["size_source"] for d in back["imported"]["devices"])


def test_a_hot_spare_zpool_status_j_alone_does_not_size_is_still_asked():
    design = parse_design({"name": "tank", "openzfs_version": "2.3", "disk_partitioning": "none",
                           "vdevs": [single("data", 10 * GIB, 2), single("spare", 10 * GIB)]})
    text = writer.outputs(design, estimate(design), status="json", listing="none", disks=False, datasets=False)
    result = import_pool([("paste", text)])
    [question] = result.questions
    assert question["role"] == "spare" and question["id"] == "q1"
    spare = next(d for d in result.document["imported"]["devices"] if d["role"] == "spare")
    assert spare["question"] == "q1" and spare["size_bytes"] is None
    # the data disks, leaves themselves, come from their phys_space
    assert [d["size_bytes"] for d in result.document["imported"]["devices"] if d["role"] == "data"] == [10 * GIB] * 2
    # zpool list -v prints the spare's physical size
    with_list = writer.outputs(design, estimate(design), status="json", listing="json", disks=False, datasets=False)
    assert import_pool([("paste", with_list)]).questions == []


# --------------------------------------------------------------------------- the reader against real OpenZFS


def real_outputs(pool: str, *kinds: str) -> str:
    outputs = SAMPLE[pool]["outputs"]
    return "".join(f"$ {outputs[k]['cmd']}\n{outputs[k]['stdout'].rstrip()}\n" for k in kinds)


@pytest.mark.parametrize("listing", ["list_vp", "list_vpH_o", "list_j_int_v", "list_j_p_v"])
@pytest.mark.parametrize("status", ["status", "status_j_p"])
def test_real_outputs_give_the_cache_and_the_spare_their_physical_size(status, listing):
    real = SAMPLE["zlogcache"]
    doc, est = imported(real_outputs("zlogcache", status, listing, "get_p_all"))
    devices = {d["role"]: d for d in doc["imported"]["devices"]}
    assert devices["cache"]["size_bytes"] == 4 * GIB and devices["spare"]["size_bytes"] == 10 * GIB
    assert est.pool.zpool_size_bytes == real["real"]["zpool_size"]
    by_key = {r.key: r for r in compare(doc, est)}
    # the cache's reported SIZE is its ALLOC + FREE, which the model gives to the byte
    cache = next(r for r in by_key.values() if r.label == "SIZE of /scratch/v/zlogcache-d05")
    assert cache.reported_bytes == 4290244608 and cache.difference_bytes == 0


# Real OpenZFS 2.4.4 (shared/calibration/openzfs-2.4.4-sample.json, the first pool: raidz2 of six 4,000,787,030,016 B
# files and a special mirror of two 64 GiB files, ashift 12), as it printed them.
REAL_244_LIST_H_O = """$ zpool list -v -p -H -o name,size,alloc,free tank
tank\t24068459855872\t417792\t24068459438080
\traidz2-0\t24000277250048\t0\t24000277250048
\t/scratch/v/d0_00\t4000786939904\t-\t-
\t/scratch/v/d0_01\t4000786939904\t-\t-
\t/scratch/v/d0_02\t4000786939904\t-\t-
\t/scratch/v/d0_03\t4000786939904\t-\t-
\t/scratch/v/d0_04\t4000786939904\t-\t-
\t/scratch/v/d0_05\t4000786939904\t-\t-
special                            -       -               -
\tmirror-1\t68182605824\t417792\t68182188032
\t/scratch/v/s1_00\t68719476736\t-\t-
\t/scratch/v/s1_01\t68719476736\t-\t-
"""


def test_a_leaf_s_size_is_its_file_rounded_down_to_the_label_size():
    """``vdev_open()`` aligns the device to 256 KiB before it becomes ``vdev_psize``: the writer prints that."""
    assert leaf_psize(4_000_787_030_016) == 4_000_786_939_904
    design = parse_design({"name": "tank", "openzfs_version": "2.4", "disk_partitioning": "none",
                           "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "ashift": 12,
                                      "disk": {"size_bytes": 4_000_787_030_016}},
                                     {"role": "special", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                                      "disk": {"size_bytes": 64 * GIB}}]})
    [written] = parse_list(numbered(writer.zpool_list_text(design, estimate(design))))
    [printed] = parse_list(numbered(REAL_244_LIST_H_O)[1:], columns=("name", "size", "allocated", "free"),
                           scripted=True)
    assert [(r.section, r.size, r.allocatable) for r in written.vdevs] == [
        (r.section, r.size, r.allocatable) for r in printed.vdevs]


def test_openzfs_2_4_s_vdev_rows_with_the_o_columns_import():
    doc, est = imported(REAL_244_LIST_H_O + "$ zpool get -H -p ashift tank\ntank\tashift\t12\tlocal\n")
    assert [(v["role"], v["layout"], v["width"]) for v in doc["vdevs"]] == [("data", "raidz2", 6),
                                                                           ("special", "mirror", 2)]
    assert est.pool.zpool_size_bytes == 24_068_459_855_872


REAL_244_LIST_V_P = (
    "NAME                            SIZE   ALLOC            FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH"
    "  ALTROOT\n"
    "tank                  24068459855872  417792  24068459438080        -         -      0      0   1.00    ONLINE"
    "  -\n"
    "  raidz2-0            24000277250048      0  24000277250048        -         -      0      0      -    ONLINE"
    "        -\n"
    + "".join(f"    /scratch/v/d0_0{i}  4000786939904      -      -        -         -      -      -      -    ONLINE"
              "        -\n" for i in range(6))
    + "special                            -       -               -        -         -      -      -      -         -"
      "        -\n"
    "  mirror-1            68182605824  417792  68182188032        -         -      0      0      -    ONLINE"
    "        -\n"
    + "".join(f"    /scratch/v/s1_0{i}  68719476736      -      -        -         -      -      -      -    ONLINE"
              "        -\n" for i in range(2))
)


def test_the_writer_prints_openzfs_2_4_s_rows_and_headings():
    """2.4 prints ALTROOT on vdev rows and a class heading's dashes under every column (real 2.4.4 output)."""
    design = parse_design({"name": "tank", "openzfs_version": "2.4", "disk_partitioning": "none",
                           "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "ashift": 12,
                                      "disk": {"size_bytes": 4_000_787_030_016}},
                                     {"role": "special", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                                      "disk": {"size_bytes": 64 * GIB}}]})
    text = writer.zpool_list_text(design, estimate(design))
    assert [len(line.split()) for line in text.splitlines()] == [
        len(line.split()) for line in REAL_244_LIST_V_P.splitlines()]
    assert text.splitlines()[0].split() == REAL_244_LIST_V_P.splitlines()[0].split()
    [written] = parse_list(numbered(text))
    [printed] = parse_list(numbered(REAL_244_LIST_V_P))
    assert figures(written) == figures(printed)
