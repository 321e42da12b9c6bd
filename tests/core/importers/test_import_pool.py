"""From pasted outputs to a design: vdevs, disks, datasets, what the pool reported, and the comparison."""

from __future__ import annotations

import pytest

from tests.core.import_samples import text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import UnreadableOutput
from zfsplanner.core.importers.compare import compare
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.importers.pool_import import ImportProblem

CATALOG = (
    CatalogEntry("ST16000NM001G", 16000900661248, 512, 4096, "hdd", "Seagate", 7200, False),
    CatalogEntry("MZ7L3960HCJR", 960197124096, 512, 4096, "ssd", "Samsung", None, True),
)


def imported(name: str, **kw):
    return import_pool([(name, text(name))], **kw)


def rows_by_key(doc):
    return {r.key: r for r in compare(doc, estimate(parse_design(doc)))}


def test_a_linux_pool_with_every_class():
    doc = imported("linux-2.3-raidz2-special-log-cache-spare.txt", catalog=CATALOG).document
    assert doc["name"] == "tank" and doc["openzfs_version"] == "2.3"
    assert doc["disk_partitioning"] == "linux-whole-disk"
    shapes = [(v["role"], v["layout"], v["width"], v["count"], v.get("disk_partitioning")) for v in doc["vdevs"]]
    assert shapes == [("data", "raidz2", 6, 1, None), ("special", "mirror", 2, 1, None),
                      ("log", "mirror", 2, 1, "none"), ("cache", "stripe", 1, 1, "none"),
                      ("spare", "stripe", 1, 1, None)]
    data = doc["vdevs"][0]
    assert data["ashift"] == 12
    assert data["disk"] == {"size_bytes": 16000900661248, "model": "ST16000NM001G", "vendor": "Seagate",
                            "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "hdd", "rpm": 7200,
                            "plp": False, "catalog": "ST16000NM001G"}
    assert doc["vdevs"][1]["disk"]["catalog"] == "MZ7L3960HCJR"
    log = doc["vdevs"][2]["disk"]
    assert log == {"size_bytes": 17179869184, "model": "INTEL SSDPEL1K100GA", "logical_sector_bytes": 512,
                   "physical_sector_bytes": 512, "media": "nvme"}
    datasets = {d["name"]: d for d in doc["datasets"]}
    assert datasets["tank/home"]["special_small_blocks"] == "32K"
    assert datasets["tank/home"]["compression"] == "lz4"  # inherited, so it is in force
    assert datasets["tank/home"]["contents"] == {"logical_bytes": 2761633644544,
                                                 "compressibility": {"ratio": 1.32, "algorithm": "lz4"}}
    assert datasets["tank/media"]["recordsize"] == "1M"
    vm = datasets["tank/vm-101-disk-0"]
    assert (vm["type"], vm["volsize"], vm["volblocksize"]) == ("volume", "128G", "16K")
    parse_design(doc)


def test_the_linux_pool_is_compared_with_what_it_reported():
    result = imported("linux-2.3-raidz2-special-log-cache-spare.txt", catalog=CATALOG)
    assert any("snapshots" in n for n in result.notes)
    rows = rows_by_key(result.document)
    assert rows["size"].reported_bytes == 96954591739904 and rows["size"].difference_bytes == 0
    assert abs(rows["usable"].difference_fraction) < 0.0001
    assert rows["vdev-1"].label == "SIZE of mirror-1" and rows["vdev-1"].difference_bytes == 0
    assert "dataset-tank/home" in rows and "dataset-tank" not in rows  # tiny root REFER is not compared


def test_the_measured_calibration_pool_matches_to_the_byte():
    doc = imported("calibration-2.3.2-2x-raidz2-6-files.txt").document
    assert doc["disk_partitioning"] == "none"
    assert doc["vdevs"] == [{"role": "data", "layout": "raidz2", "width": 6, "count": 2, "ashift": 9,
                             "disk": {"size_bytes": 107374182400}}]
    rows = rows_by_key(doc)
    assert rows["size"].difference_bytes == 0
    assert rows["usable"].difference_bytes == 0
    assert abs(rows["avail"].difference_bytes) < 4096


def test_a_resilvering_0_8_pool_gets_sizes_fitted_to_what_it_reports():
    result = imported("linux-0.8-raidz2-degraded-replacing.txt")
    doc = result.document
    [v] = doc["vdevs"]
    assert (v["layout"], v["width"]) == ("raidz2", 8)
    assert v["disk"]["model"] == "WDC WD30EFRX-68EUZN0"
    assert 2.99e12 < v["disk"]["size_bytes"] < 3.01e12
    assert any("being replaced by ata-WDC_WD30EFRX-68EUZN0_WD-WCC4N2JH9PLH" in n for n in result.notes)
    assert any("version not given" in n for n in result.notes)
    sources = {d["size_source"] for d in doc["imported"]["devices"]}
    assert sources == {"fitted to the SIZE zpool list -v reports for raidz2-0"}
    rows = rows_by_key(doc)
    assert rows["vdev-0"].fitted and rows["size"].within_rounding


def test_a_draid_pool_with_a_distributed_spare_in_use():
    result = imported("linux-2.2-draid2-spare-in-use.txt")
    [v] = result.document["vdevs"]
    assert (v["layout"], v["width"], v["draid_data"], v["draid_spares"]) == ("draid2", 24, 8, 2)
    assert not any(d["role"] == "spare" for d in result.document["imported"]["devices"])
    assert any("is FAULTED" in n for n in result.notes)
    assert rows_by_key(result.document)["size"].difference_bytes == 0


def test_freebsd_partitions_keep_the_sizes_zpool_list_prints():
    doc = imported("freebsd-2.2-raidz1-gptid.txt").document
    assert doc["disk_partitioning"] == "none" and doc["openzfs_version"] == "2.2"
    assert doc["vdevs"][0]["disk"] == {"size_bytes": 3998639460352}
    assert doc["vdevs"][1]["role"] == "cache" and doc["vdevs"][1]["disk"] == {"size_bytes": 250056605696}
    datasets = {d["name"]: d for d in doc["datasets"]}
    assert datasets["backup/vm"]["recordsize"] == "64K"
    assert datasets["backup/vm"]["contents"]["compressibility"] == {"ratio": 1.1, "algorithm": "zstd"}


def test_without_any_size_the_layout_imports_and_the_sizes_are_asked():
    result = imported("manpage-zpool8-example15.txt")
    doc = result.document
    assert [(v["role"], v["layout"], v["width"], v["count"]) for v in doc["vdevs"]] == [
        ("data", "mirror", 2, 2), ("log", "mirror", 2, 1)]
    # kernel names carry no model: one question per role
    assert [(q["id"], q["role"], q["devices"], q["vdevs"]) for q in result.questions] == [
        ("q1", "data", ["sda", "sdb", "sdc", "sdd"], ["mirror-0", "mirror-1"]),
        ("q2", "log", ["sde", "sdf"], ["mirror-2"])]
    assert doc["vdevs"][0]["disk"] == {"size_question": "q1"}
    assert {d["size_source"] for d in doc["imported"]["devices"]} == {"asked in the preview"}


def test_a_pool_size_alone_is_enough_for_identical_data_vdevs():
    status = text("manpage-zpool8-example15.txt").split("         logs")[0]
    listing = "NAME    SIZE  ALLOC   FREE  EXPANDSZ   FRAG    CAP  DEDUP  HEALTH  ALTROOT\n" \
              "tank   61.5G  20.0G  41.5G         -    48%    32%  1.00x  ONLINE  -\n"
    doc = import_pool([("paste", status + "\n" + listing)]).document
    [v] = doc["vdevs"]
    assert (v["layout"], v["width"], v["count"]) == ("mirror", 2, 2)
    assert doc["imported"]["devices"][0]["size_source"] == "fitted to the pool SIZE zpool list reports"
    row = rows_by_key(doc)["size"]
    assert row.fitted and abs(row.difference_fraction) < 0.01  # the nearest whole number of metaslabs


def test_lsblk_matches_kernel_names_and_full_paths():
    out = """$ zpool status -P tank
  pool: tank
 state: ONLINE
config:

\tNAME                                                   STATE     READ WRITE CKSUM
\ttank                                                   ONLINE       0     0     0
\t  mirror-0                                             ONLINE       0     0     0
\t    /dev/disk/by-id/ata-ST16000NM001G-2KK103_ZL2A1B01-part1  ONLINE       0     0     0
\t    /dev/sdb1                                          ONLINE       0     0     0
$ lsblk -P -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA,PKNAME
"""
    for disk, serial in (("sda", "ZL2A1B01"), ("sdb", "ZL2A1B02")):
        common = 'LOG-SEC="512" PHY-SEC="4096"'
        out += (f'NAME="{disk}" SIZE="16000900661248" {common} MODEL="ST16000NM001G-2KK103" SERIAL="{serial}" '
                'ROTA="1" PKNAME=""\n'
                f'NAME="{disk}1" SIZE="16000890175488" {common} MODEL="" SERIAL="" ROTA="1" PKNAME="{disk}"\n'
                f'NAME="{disk}9" SIZE="8388608" {common} MODEL="" SERIAL="" ROTA="1" PKNAME="{disk}"\n')
    doc = import_pool([("paste", out)]).document
    [v] = doc["vdevs"]
    assert doc["disk_partitioning"] == "linux-whole-disk"
    assert v["disk"] == {"size_bytes": 16000900661248, "model": "ST16000NM001G-2KK103",
                         "logical_sector_bytes": 512, "physical_sector_bytes": 4096, "media": "hdd"}


def test_several_pools_need_a_choice():
    one = text("manpage-zpool8-example15.txt")
    both = one + "\n" + one.replace("tank", "backup")
    with pytest.raises(ImportProblem, match="2 pools \\(tank, backup\\); choose one"):
        import_pool([("paste", both)])
    with pytest.raises(ImportProblem, match="no pool named 'other'"):
        import_pool([("paste", both)], pool="other")


def test_errors_name_the_file_they_come_from():
    bad = "$ zpool list -p\nNAME SIZE ALLOC\ntank 12x 3\n"
    with pytest.raises(UnreadableOutput) as exc:
        import_pool([("status.txt", text("manpage-zpool8-example15.txt")), ("list.txt", bad)])
    assert str(exc.value).startswith("list.txt: line 3: zpool list: SIZE '12x' is not a size")


def test_an_empty_paste_is_refused():
    with pytest.raises(ImportProblem, match="empty"):
        import_pool([("paste", "\n\n")])


def test_a_member_size_cut_off_in_the_paste_is_refused_not_modelled():
    """A paste ending inside a leaf row of ``zpool list -v -p`` leaves that member a SIZE of 3 B, and without its
    ``raidz1-0`` line the disks are four single-disk vdevs whose other sizes are fitted to the pool's SIZE: no vdev
    ZFS could build, so the import says so instead of failing in the geometry (found by test_damaged_input.py)."""
    body = text("freebsd-2.2-raidz1-gptid.txt").splitlines()
    assert body[8].split()[0] == "raidz1-0"
    leaf = next(i for i, t in enumerate(body) if i > 20 and t.strip().startswith("gptid/"))
    pasted = "\n".join([*body[:8], *body[9:leaf], body[leaf][: body[leaf].index(" 3998639460352") + 2]])
    assert pasted.endswith("gptid/5e7c1b2a-1c2d-11ee-8a0e-3cecef123401    3")
    with pytest.raises(ImportProblem, match="make no vdev ZFS could build: 3 B; ZFS needs at least 67108864 B"):
        import_pool([("paste", pasted)], catalog=CATALOG)
