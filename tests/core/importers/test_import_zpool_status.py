"""zpool status: the vdev tree from real-format outputs, and errors that name the line."""

from __future__ import annotations

import pytest

from tests.core.import_samples import lines, section, text
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.answers import answer_sizes
from zfsplanner.core.importers.members import CatalogEntry
from zfsplanner.core.importers.pool_import import ImportProblem
from zfsplanner.core.importers.zpool_status import ZpoolStatusError, parse


def test_it_reads_the_man_page_example_with_spaces_for_tabs():
    [pool] = parse(lines(text("manpage-zpool8-example15.txt")))
    assert pool.name == "tank" and pool.state == "ONLINE"
    assert [(v.name, v.kind, [c.name for c in v.children]) for v in pool.vdevs] == [
        ("mirror-0", "mirror", ["sda", "sdb"]),
        ("mirror-1", "mirror", ["sdc", "sdd"]),
    ]
    assert [v.name for v in pool.classes["log"]] == ["mirror-2"]


def test_it_reads_zpool_import_without_a_name_header():
    s = section("manpage-zpool-import.txt", "zpool import")
    [pool] = parse(s.lines)
    assert pool.vdevs[0].name == "mirror" and pool.vdevs[0].kind == "mirror"
    assert [c.name for c in pool.vdevs[0].children] == ["sda", "sdb"]


def test_it_reads_a_resilver_with_a_missing_disk():
    [pool] = parse(section("linux-0.8-raidz2-degraded-replacing.txt", "zpool status").lines)
    raidz = pool.vdevs[0]
    assert raidz.kind == "raidz" and raidz.parity == 2 and len(raidz.children) == 8
    replacing = raidz.children[6]
    assert replacing.kind == "replacing" and replacing.state == "DEGRADED"
    old, new = replacing.children
    assert old.name == "4829173646281736123" and old.state == "UNAVAIL"
    assert old.device == "/dev/disk/by-id/ata-WDC_WD30EFRX-68EUZN0_WD-WCC4N0HF72KG-part1"
    assert new.note == "(resilvering)"
    assert "resilver in progress" in pool.scan and "52.36% done" in pool.scan
    assert pool.errors == "No known data errors"


def test_it_reads_every_class_and_spares():
    [pool] = parse(section("linux-2.3-raidz2-special-log-cache-spare.txt", "zpool status").lines)
    assert [v.name for v in pool.vdevs] == ["raidz2-0"]
    assert pool.classes["special"][0].kind == "mirror"
    assert pool.classes["log"][0].children[0].name == "nvme-INTEL_SSDPEL1K100GA_PHKM0123004A100A-part1"
    assert [v.name for v in pool.classes["cache"]] == ["nvme-INTEL_SSDPEL1K100GA_PHKM0123004A100A-part2"]
    [spare] = pool.classes["spare"]
    assert spare.state == "AVAIL" and spare.kind == "leaf"


def test_it_reads_draid_names_and_distributed_spares():
    [pool] = parse(section("linux-2.2-draid2-spare-in-use.txt", "zpool status").lines)
    draid = pool.vdevs[0]
    assert draid.kind == "draid" and draid.parity == 2 and draid.draid == (8, 24, 2)
    spare = draid.children[3]
    assert spare.kind == "spare" and [c.kind for c in spare.children] == ["leaf", "draid-spare"]
    assert spare.children[0].state == "FAULTED" and spare.children[0].note == "too many errors"
    assert [(v.name, v.state, v.kind) for v in pool.classes["spare"]] == [
        ("draid2-0-0", "INUSE", "draid-spare"),
        ("draid2-0-1", "AVAIL", "draid-spare"),
    ]


def test_it_reads_freebsd_gptid_names():
    [pool] = parse(section("freebsd-2.2-raidz1-gptid.txt", "zpool status").lines)
    assert pool.vdevs[0].children[0].name == "gptid/5e7c1b2a-1c2d-11ee-8a0e-3cecef123401"
    assert pool.classes["cache"][0].name == "ada4p1"


def test_it_reads_several_pools():
    one = text("manpage-zpool8-example15.txt")
    two = one.replace("tank", "backup")
    pools = parse(lines(one + "\n" + two))
    assert [p.name for p in pools] == ["tank", "backup"]


def test_it_reads_the_block_size_warning():
    out = """  pool: t
 state: ONLINE
config:

\tNAME        STATE     READ WRITE CKSUM
\tt           ONLINE       0     0     0
\t  sda       ONLINE       0     0     0  block size: 512B configured, 4096B native

errors: No known data errors
"""
    [pool] = parse(lines(out))
    assert pool.vdevs[0].configured_ashift == 9


def test_it_rejects_guid_names():
    out = """  pool: t
 state: ONLINE
config:

\tNAME                  STATE     READ WRITE CKSUM
\tt                     ONLINE       0     0     0
\t  7465382347623453452 ONLINE       0     0     0
\t    9786123479812349  ONLINE       0     0     0
\t    1249871234981234  ONLINE       0     0     0
"""
    with pytest.raises(ZpoolStatusError, match="line 7: .*GUID.*without -g"):
        parse(lines(out))


def test_it_names_the_line_of_a_row_it_cannot_read():
    out = text("manpage-zpool8-example15.txt").replace("sdc     ONLINE", "sdc     BROKEN")
    with pytest.raises(ZpoolStatusError) as exc:
        parse(lines(out))
    assert exc.value.line == 12
    assert "expected a vdev row" in str(exc.value)


def test_it_rejects_a_draid_with_missing_children():
    body = section("linux-2.2-draid2-spare-in-use.txt", "zpool status").lines
    shorter = [(n, t) for n, t in body if "d3a1b17" not in t]
    with pytest.raises(ZpoolStatusError, match="names 24 children but lists 23"):
        parse(shorter)


def test_it_rejects_output_without_a_config():
    with pytest.raises(ZpoolStatusError, match="line 1: .*no config"):
        parse(lines("  pool: tank\n state: ONLINE\n"))


def test_it_says_when_there_are_no_pools():
    with pytest.raises(ZpoolStatusError, match="found no pools"):
        parse(lines("no pools available\n"))


# --------------------------------------------------------------------------- zpool status alone


def only_status(name):
    return "\n".join(t for _, t in section(name, "zpool status").lines) + "\n"


def test_status_alone_imports_the_layout_and_asks_one_question_per_model():
    result = import_pool([("status", only_status("linux-2.3-raidz2-special-log-cache-spare.txt"))])
    doc = result.document
    assert [(v["role"], v["layout"], v["width"]) for v in doc["vdevs"]] == [
        ("data", "raidz2", 6), ("special", "mirror", 2), ("log", "mirror", 2), ("cache", "stripe", 1),
        ("spare", "stripe", 1)]
    # by-id names carry the model: the spare is the data disks' model, so one question covers both
    assert [(q["model"], len(q["devices"]), q["vdevs"], q["partition"]) for q in result.questions] == [
        ("ST16000NM001G-2KK103", 7, ["raidz2-0", "ata-ST16000NM001G-2KK103_ZL2A1B07"], False),
        ("SAMSUNG MZ7L3960HCJR-00A07", 2, ["mirror-1"], False),
        ("INTEL SSDPEL1K100GA", 2, ["mirror-2"], True),
        # a partition's size is its own: the cache partition of the same NVMe model is another question
        ("INTEL SSDPEL1K100GA", 1, ["nvme-INTEL_SSDPEL1K100GA_PHKM0123004A100A-part2"], True)]
    assert doc["vdevs"][0]["disk"] == {"size_question": "q1", "model": "ST16000NM001G-2KK103"}
    assert "reported" in doc["imported"] and "zpool_size_bytes" not in doc["imported"]["reported"]


def test_the_catalog_answers_a_model_it_knows():
    catalog = [CatalogEntry("ST16000NM001G", 16000900661248, 512, 4096, "hdd", "Seagate", 7200)]
    result = import_pool([("status", only_status("linux-2.3-raidz2-special-log-cache-spare.txt"))], catalog=catalog)
    assert [q["model"] for q in result.questions] == ["SAMSUNG MZ7L3960HCJR-00A07", "INTEL SSDPEL1K100GA",
                                                      "INTEL SSDPEL1K100GA"]
    assert result.document["vdevs"][0]["disk"]["size_bytes"] == 16000900661248
    data = next(d for d in result.document["imported"]["devices"] if d["role"] == "data")
    assert data["size_source"] == "the catalog (ST16000NM001G)"


def test_answers_complete_the_design():
    result = import_pool([("status", only_status("linux-2.3-raidz2-special-log-cache-spare.txt"))])
    answers = {"q1": 16000900661248, "q2": 960197124096}
    partial = answer_sizes(result.document, answers)
    assert [q["id"] for q in partial["imported"]["questions"]] == ["q3", "q4"]
    doc = answer_sizes(partial, {"q3": 17179869184, "q4": 64424509440})
    assert "questions" not in doc["imported"]
    design = parse_design(doc)
    assert design.vdevs[0].disks[0].size_bytes == 16000900661248
    assert estimate(design).to_document()["pool"]["zpool_size_bytes"] > 0
    sources = {d["size_source"] for d in doc["imported"]["devices"]}
    assert sources == {"given in the preview"}


def test_an_answer_too_small_for_zfs_is_refused_by_the_design_rules():
    result = import_pool([("status", text("manpage-zpool8-example15.txt"))])
    with pytest.raises(InvalidDesign):
        answer_sizes(result.document, {"q1": 1024**2, "q2": 16 * 10**9})
    with pytest.raises(ImportProblem, match="no open question 'q9'"):
        answer_sizes(result.document, {"q9": 10**12})
