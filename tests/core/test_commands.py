"""Generated zpool/zfs commands, compared as exact strings."""

from __future__ import annotations

import shlex
from typing import Any

from zfsplanner.core.commands import (
    all_commands,
    resolved_ashift,
    top_level_ids,
    vdev_type_word,
    zfs_create_commands,
    zpool_add_commands,
    zpool_attach_commands,
    zpool_create_command,
)
from zfsplanner.core.design import parse_design

HDD = {
    "model": "ST14000NM001G",
    "size_bytes": 14000519643136,
    "logical_sector_bytes": 512,
    "physical_sector_bytes": 4096,
    "media": "hdd",
}
SSD = {"size_bytes": "960GB", "logical_sector_bytes": 4096, "physical_sector_bytes": 4096, "media": "ssd"}
OPTANE = {"model": "INTEL SSDPE21D280GA", "size_bytes": "280GB", "physical_sector_bytes": 512, "media": "nvme"}
B = "/dev/disk/by-id/"


def design(vdevs: list[dict[str, Any]], datasets: list[dict[str, Any]] | None = None, name: str = "tank"):
    return parse_design({"name": name, "vdevs": vdevs, "datasets": datasets or []})


def hdds(first: int, last: int, model: str = "ST14000NM001G") -> str:
    return " ".join(f"{B}{model}-{i}" for i in range(first, last + 1))


def test_spec_example_design():
    d = design(
        [
            {"role": "data", "layout": "raidz2", "width": 6, "ashift": 12, "disk": HDD},
            {"role": "special", "layout": "mirror", "width": 2, "disk": SSD},
            {"role": "log", "layout": "mirror", "width": 2, "disk": {"size_bytes": "16GB", "media": "ssd"}},
            {"role": "cache", "layout": "stripe", "width": 1, "disk": {"size_bytes": "1TB", "media": "ssd"}},
            {"role": "spare", "layout": "stripe", "width": 1, "disk": {"size_bytes": "14TB"}},
        ],
        [
            {
                "name": "tank/photos",
                "recordsize": "1M",
                "compression": "zstd",
                "special_small_blocks": "64K",
                "copies": 1,
                "sync": "standard",
            },
            {
                "name": "tank/vm-100-disk-0",
                "type": "volume",
                "volsize": "32G",
                "volblocksize": "16K",
                "compression": "lz4",
            },
        ],
    )
    assert zpool_create_command(d) == (
        f"zpool create -o ashift=12 tank raidz2 {hdds(1, 6)} "
        f"special mirror {B}special-1 {B}special-2 log mirror {B}log-1 {B}log-2 cache {B}cache-1 spare {B}spare-1"
    )
    assert zpool_add_commands(d) == []
    assert zpool_attach_commands(d) == []
    assert zfs_create_commands(d) == [
        "zfs create -o recordsize=1M -o compression=zstd -o special_small_blocks=64K -o copies=1 -o sync=standard "
        "tank/photos",
        "zfs create -V 32G -o volblocksize=16K -o compression=lz4 tank/vm-100-disk-0",
    ]


def test_draid_with_distributed_spares_and_sparse_zvol():
    d = design(
        [{"role": "data", "layout": "draid2", "width": 24, "draid_data": 8, "draid_spares": 2, "disk": HDD}],
        [
            {"name": "big/vm", "type": "volume", "volsize": "100G", "volblocksize": "64K", "sparse": True},
            {"name": "big/a/b", "recordsize": "1M", "atime": "off", "ui_colour": "red"},
        ],
        name="big",
    )
    assert zpool_create_command(d) == f"zpool create -o ashift=12 big draid2:8d:24c:2s {hdds(1, 24)}"
    assert zfs_create_commands(d) == [
        "zfs create -s -V 100G -o volblocksize=64K big/vm",
        "zfs create -p -o recordsize=1M -o atime=off big/a/b",
    ]


def test_draid_defaults_and_no_spares():
    d = design([{"role": "data", "layout": "draid1", "width": 5, "disk": HDD}])
    assert vdev_type_word(d.vdevs[0]) == "draid1:4d:5c"


def test_mixed_ashift_special_is_added_with_its_own_ashift():
    d = design(
        [
            {"role": "data", "layout": "mirror", "width": 2, "count": 2, "disk": HDD},
            {"role": "special", "layout": "mirror", "width": 2, "disk": OPTANE},
        ]
    )
    assert resolved_ashift(d.vdevs[1]) == 9
    assert zpool_create_command(d) == (f"zpool create -o ashift=12 tank mirror {hdds(1, 2)} mirror {hdds(3, 4)}")
    assert zpool_add_commands(d) == [
        f"zpool add -o ashift=9 tank special mirror {B}INTEL_SSDPE21D280GA-1 {B}INTEL_SSDPE21D280GA-2"
    ]
    assert top_level_ids(d) == [[0, 1], [2]]


def test_explicit_ashift_on_data_group_is_the_pool_default():
    d = design(
        [
            {"role": "data", "layout": "raidz1", "width": 3, "ashift": 13, "disk": HDD},
            {"role": "log", "layout": "stripe", "width": 1, "count": 2, "disk": SSD},
            {"role": "cache", "layout": "stripe", "width": 1, "count": 2, "disk": SSD},
        ]
    )
    assert zpool_create_command(d) == f"zpool create -o ashift=13 tank raidz1 {hdds(1, 3)}"
    assert zpool_add_commands(d) == [
        f"zpool add -o ashift=12 tank log {B}log-1 {B}log-2",
        f"zpool add -o ashift=12 tank cache {B}cache-1 {B}cache-2",
    ]


def test_raidz_expansion_creates_narrow_then_attaches_each_disk():
    d = design(
        [
            {"role": "special", "layout": "mirror", "width": 3, "disk": SSD},
            {"role": "data", "layout": "raidz2", "width": 7, "count": 2, "expanded_from_width": 5, "disk": HDD},
        ]
    )
    assert zpool_create_command(d) == (
        f"zpool create -o ashift=12 tank raidz2 {hdds(1, 5)} raidz2 {hdds(8, 12)} "
        f"special mirror {B}special-1 {B}special-2 {B}special-3"
    )
    assert zpool_attach_commands(d) == [
        f"zpool attach -w tank raidz2-0 {B}ST14000NM001G-6",
        f"zpool attach -w tank raidz2-0 {B}ST14000NM001G-7",
        f"zpool attach -w tank raidz2-1 {B}ST14000NM001G-13",
        f"zpool attach -w tank raidz2-1 {B}ST14000NM001G-14",
    ]
    # ids follow the command line: the data vdevs come first, then the special mirror
    assert top_level_ids(d) == [[2], [0, 1]]


def test_root_dataset_becomes_pool_options_and_stripes_list_plain_disks():
    d = design(
        [{"role": "data", "layout": "stripe", "width": 1, "count": 2, "disk": SSD}],
        [
            {"name": "tank", "compression": "lz4", "atime": "off", "xattr": "sa"},
            {"name": "tank/home"},
        ],
    )
    assert zpool_create_command(d) == (
        f"zpool create -o ashift=12 -O compression=lz4 -O atime=off -O xattr=sa tank {B}data-1 {B}data-2"
    )
    assert zfs_create_commands(d) == ["zfs create tank/home"]


def test_mixed_disks_in_one_vdev_use_each_model():
    d = design(
        [
            {
                "role": "data",
                "layout": "mirror",
                "width": 2,
                "disks": [{"model": "WD80EFAX", "size_bytes": "8TB"}, {"model": "ST8000VN004", "size_bytes": "8TB"}],
            }
        ]
    )
    assert zpool_create_command(d) == f"zpool create -o ashift=12 tank mirror {B}WD80EFAX-1 {B}ST8000VN004-1"


def test_names_with_spaces_are_quoted():
    d = design(
        [{"role": "data", "layout": "mirror", "width": 2, "disk": SSD}],
        [{"name": "tank/my data", "quota": "1T", "mountpoint": "/srv/my data"}],
    )
    (cmd,) = zfs_create_commands(d)
    assert cmd == "zfs create -o quota=1T -o 'mountpoint=/srv/my data' 'tank/my data'"
    assert shlex.split(cmd)[-1] == "tank/my data"


def test_parents_are_created_first():
    d = design(
        [{"role": "data", "layout": "mirror", "width": 2, "disk": SSD}],
        [{"name": "tank/a/b", "recordsize": "16K"}, {"name": "tank/a", "compression": "zstd"}],
    )
    assert zfs_create_commands(d) == [
        "zfs create -o compression=zstd tank/a",
        "zfs create -o recordsize=16K tank/a/b",
    ]


def test_all_commands_order():
    d = design(
        [
            {"role": "data", "layout": "raidz1", "width": 4, "expanded_from_width": 3, "disk": HDD},
            {"role": "special", "layout": "mirror", "width": 2, "disk": OPTANE},
        ],
        [{"name": "tank/x"}],
    )
    out = all_commands(d)
    assert [c.split()[:2] for c in out] == [
        ["zpool", "create"],
        ["zpool", "add"],
        ["zpool", "attach"],
        ["zfs", "create"],
    ]
    assert out[2] == f"zpool attach -w tank raidz1-0 {B}ST14000NM001G-4"
