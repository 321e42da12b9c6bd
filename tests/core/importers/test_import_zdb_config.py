"""``zdb -C POOL``: the configuration states each top-level vdev's ashift."""

from __future__ import annotations

from tests.oracles import writer
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import numbered
from zfsplanner.core.importers.outputs import read_sections
from zfsplanner.core.importers.sections import split
from zfsplanner.core.importers.zdb_config import parse


def dump_nvlist(pairs: dict, indent: int = 8) -> list[str]:
    """As ``dump_nvlist()`` (lib/libnvpair/libnvpair.c) prints: ``%*s%s: %llu``, ``'%s'`` for strings, a name alone
    for a boolean, ``%*s%s:`` and 4 more columns for a nested list, ``%*s%s[%u]:`` for each of an array's."""
    out = []
    for name, value in pairs.items():
        pad = " " * indent
        if value is True:
            out.append(f"{pad}{name}")
        elif isinstance(value, dict):
            out += [f"{pad}{name}:", *dump_nvlist(value, indent + 4)]
        elif isinstance(value, list):
            for i, item in enumerate(value):
                out += [f"{pad}{name}[{i}]:", *dump_nvlist(item, indent + 4)]
        elif isinstance(value, str):
            out.append(f"{pad}{name}: '{value}'")
        else:
            out.append(f"{pad}{name}: {value}")
    return out


def leaf(i: int, path: str) -> dict:
    return {"type": "disk", "id": i, "guid": 1000 + i, "path": path, "devid": path.rsplit("/", 1)[-1],
            "whole_disk": 1, "create_txg": 4, "com.delphix:vdev_zap_leaf": 130 + i}


def top(i: int, kind: str, ashift: int, children: list[dict] | None = None, **extra) -> dict:
    out = {"type": kind, "id": i, "guid": 2000 + i, **extra, "metaslab_array": 256, "metaslab_shift": 34,
           "ashift": ashift, "asize": 10**12, "is_log": 0, "create_txg": 4, "com.delphix:vdev_zap_top": 129}
    if children:
        out["children"] = children
    return out


def zdb_c(pool: str, tops: list[dict]) -> str:
    config = {"version": 5000, "name": pool, "state": 0, "txg": 4, "pool_guid": 42, "errata": 0, "hostname": "nas",
              "com.delphix:has_per_vdev_zaps": True, "vdev_children": len(tops),
              "vdev_tree": {"type": "root", "id": 0, "guid": 42, "create_txg": 4, "children": tops},
              "features_for_read": {"com.delphix:hole_birth": True, "com.delphix:embedded_data": True}}
    return "\n".join(["", "MOS Configuration:", *dump_nvlist(config)]) + "\n"


def test_it_reads_each_top_level_vdev_s_ashift():
    text = zdb_c("tank", [
        top(0, "raidz", 9, [leaf(k, f"/dev/sd{chr(97 + k)}1") for k in range(3)], nparity=2),
        top(1, "mirror", 12, [leaf(3, "/dev/nvme0n1p1"), leaf(4, "/dev/nvme1n1p1")]),
        {**leaf(5, "/dev/disk/by-id/ata-ST16000NM001G_ZL2-part1"), "ashift": 13, "id": 2}])
    [config] = parse(numbered(text))
    assert config.name == "tank" and [(v.id, v.type, v.ashift) for v in config.vdevs] == [
        (0, "raidz", 9), (1, "mirror", 12), (2, "disk", 13)]
    assert config.ashift_of("raidz2-0") == 9 and config.ashift_of("mirror-1") == 12
    assert config.ashift_of("ata-ST16000NM001G_ZL2") == 13 and config.ashift_of("mirror-0") is None


def test_without_its_command_line_it_is_told_from_a_block_histogram():
    found = read_sections(split(zdb_c("tank", [top(0, "mirror", 12, [leaf(0, "/dev/sda1"), leaf(1, "/dev/sdb1")])])))
    assert [c.name for c in found.configs] == ["tank"] and found.histograms == []


def test_the_configuration_states_the_ashift_zpool_get_leaves_at_0():
    doc = {"format": "zfsplanner.design/1", "name": "tank", "openzfs_version": "2.3", "disk_partitioning": "none",
           "vdevs": [{"role": "data", "layout": "raidz3", "width": 9, "count": 1, "ashift": 9,
                      "disk": {"size_bytes": 107374182400}}]}
    design = parse_design(doc)
    text = writer.outputs(design, estimate(design), disks=False, ashift_requested=False)
    leaves = [leaf(k, f"/dev/sd{chr(97 + k)}1") for k in range(9)]
    result = import_pool([("paste", text + "$ zdb -C tank\n" + zdb_c("tank", [top(0, "raidz", 9, leaves, nparity=3)]))])
    assert result.questions == [] and result.document["vdevs"][0]["ashift"] == 9
    assert "ashift from the pool configuration (zdb -C): raidz3-0 9" in result.notes
    assert "zdb -C" in result.document["imported"]["from"]
