"""Generated zpool/zfs commands, compared as exact strings."""

from __future__ import annotations

import shlex
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from zfsplanner.core.commands.create import (
    all_commands,
    command_lines,
    top_level_ids,
    zpool_add_commands,
    zpool_attach_commands,
    zpool_create_command,
)
from zfsplanner.core.commands.datasets import zfs_create_commands
from zfsplanner.core.commands.replication import create_refusal, top_level_vdevs
from zfsplanner.core.design.types import Role
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.ashift import written_ashift
from zfsplanner.core.naming import vdev_type_word

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
    # raidz2 data next to a 2-way mirror special: zpool's replication check wants -f
    assert zpool_create_command(d) == (
        f"zpool create -f -o ashift=12 tank raidz2 {hdds(1, 6)} "
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
    assert written_ashift(d.vdevs[1], d.release) == 9
    assert zpool_create_command(d) == (f"zpool create -o ashift=12 tank mirror {hdds(1, 2)} mirror {hdds(3, 4)}")
    # OpenZFS 2.3 (the default) refuses a different ashift on zpool add unless told it is intended
    assert zpool_add_commands(d) == [
        f"zpool add --allow-ashift-mismatch -o ashift=9 tank special mirror {B}INTEL_SSDPE21D280GA-1 "
        f"{B}INTEL_SSDPE21D280GA-2"
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
    # log vdevs are top-level, so the ashift check of zpool add covers them; cache devices are not
    assert zpool_add_commands(d) == [
        f"zpool add --allow-ashift-mismatch -o ashift=12 tank log {B}log-1 {B}log-2",
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
    out = [c for c in all_commands(d) if not c.startswith("# ")]
    assert [c.split()[:2] for c in out] == [
        ["zpool", "create"],
        ["zpool", "add"],
        ["zpool", "attach"],
        ["zfs", "create"],
    ]
    assert out[2] == f"zpool attach -w tank raidz1-0 {B}ST14000NM001G-4"


# --------------------------------------------------------------------------- overrides zpool needs (-f)

MIRROR_SSD = {"role": "special", "layout": "mirror", "disk": SSD}
RAIDZ2_HDD = {"role": "data", "layout": "raidz2", "width": 6, "disk": HDD}
RAIDZ2_VS_MIRROR = (
    "mismatched replication level: raidz and mirror vdevs with different redundancy, 2 vs. 1 (2-way) are present"
)


def versioned(vdevs: list[dict[str, Any]], version: str, datasets: list[dict[str, Any]] | None = None):
    return parse_design({"name": "tank", "openzfs_version": version, "vdevs": vdevs, "datasets": datasets or []})


def comments(d) -> list[str]:
    return [c for c in all_commands(d) if c.startswith("# ")]


def test_raidz2_data_with_a_2_way_mirror_special_gets_f_and_says_why():
    d = design([RAIDZ2_HDD, {**MIRROR_SSD, "width": 2}])
    out = all_commands(d)
    create = next(c for c in out if c.startswith("zpool create"))
    assert create.startswith("zpool create -f -o ashift=12 tank raidz2 ")
    assert out[: out.index(create)] == [
        "# zpool create needs -f: without it OpenZFS 2.3 stops with",
        "#   invalid vdev specification",
        "#   use '-f' to override the following errors:",
        f"#   {RAIDZ2_VS_MIRROR}",
        "# The design asks for exactly these vdevs (its risks say what the mix costs), so -f is intended; -f also "
        "skips the check that the devices are not in use, so make sure each path is the disk you mean.",
    ]


def test_raidz2_data_with_a_3_way_mirror_special_needs_no_f():
    d = design([RAIDZ2_HDD, {**MIRROR_SSD, "width": 3}])
    assert zpool_create_command(d).startswith("zpool create -o ashift=12 tank raidz2 ")
    assert comments(d) == []


def test_2_way_and_3_way_mirrors_get_f():
    d = design(
        [
            {"role": "data", "layout": "mirror", "width": 2, "disk": HDD},
            {"role": "data", "layout": "mirror", "width": 3, "disk": HDD},
        ]
    )
    assert shlex.split(zpool_create_command(d))[:3] == ["zpool", "create", "-f"]
    assert "#   mismatched replication level: both 2-way and 3-way mirror vdevs are present" in comments(d)


def test_a_log_mirror_is_not_compared():
    d = design([RAIDZ2_HDD, {"role": "log", "layout": "mirror", "width": 2, "disk": SSD}])
    assert "-f" not in shlex.split(zpool_create_command(d))
    assert comments(d) == []


def test_raidz_widths_that_differ_need_f_only_before_2_1():
    vdevs = [RAIDZ2_HDD, {**RAIDZ2_HDD, "width": 8}]
    assert "-f" in shlex.split(zpool_create_command(versioned(vdevs, "2.0")))
    assert "-f" not in shlex.split(zpool_create_command(versioned(vdevs, "2.1")))


def test_zpool_add_of_a_less_redundant_special_gets_f_before_2_2_4():
    vdevs = [RAIDZ2_HDD, {**MIRROR_SSD, "width": 2, "disk": OPTANE}]
    (add,) = zpool_add_commands(versioned(vdevs, "2.2"))
    assert add.startswith("zpool add -f -o ashift=9 tank special mirror ")
    assert (
        "#   mismatched replication level: pool and new vdev with different redundancy, raidz and mirror vdevs, "
        "2 vs. 1 (2-way)"
    ) in comments(versioned(vdevs, "2.2"))


def test_zpool_add_uses_the_narrow_options_from_2_3():
    vdevs = [RAIDZ2_HDD, {**MIRROR_SSD, "width": 2, "disk": OPTANE}]
    d = versioned(vdevs, "2.3")
    (add,) = zpool_add_commands(d)
    assert add.startswith("zpool add --allow-replication-mismatch --allow-ashift-mismatch -o ashift=9 tank special ")
    notes = comments(d)
    assert "# zpool add needs --allow-ashift-mismatch: without it OpenZFS 2.3 stops with" in notes
    assert "#   cannot add to 'tank': adding devices with different physical sector sizes is not allowed" in notes


def test_zpool_add_to_a_pool_created_with_f_is_not_checked_for_replication():
    vdevs = [
        RAIDZ2_HDD,
        {**MIRROR_SSD, "width": 2},  # in zpool create, with -f
        {"role": "dedup", "layout": "stripe", "width": 1, "disk": OPTANE},  # added later, ashift 9
    ]
    d = versioned(vdevs, "2.2")
    assert zpool_create_command(d).startswith("zpool create -f ")
    (add,) = zpool_add_commands(d)
    assert add.startswith("zpool add -o ashift=9 tank dedup ")


def test_a_raidz_special_vdev_before_2_4_is_reported_as_impossible():
    vdevs = [RAIDZ2_HDD, {"role": "special", "layout": "raidz2", "width": 4, "disk": SSD}]
    notes = comments(versioned(vdevs, "2.3"))
    assert "#   invalid vdev specification: unsupported 'special' device: raidz" in notes
    assert (
        "# OpenZFS 2.4 accepts raidz and dRAID special/dedup vdevs; on 2.3 make the special vdev "
        "(group 2: 4-wide raidz2) a mirror." in notes
    )
    assert comments(versioned(vdevs, "2.4")) == []


# --------------------------------------------------------------------------- dataset options


def test_unknown_keys_are_never_passed_and_bad_values_are_named():
    d = design(
        [RAIDZ2_HDD],
        [
            {"name": "tank/a", "atime": "maybe", "ui_colour": "red", "sharenfs": "on", "xattr": True, "dedup": "off"},
        ],
    )
    (cmd,) = zfs_create_commands(d)
    assert cmd == "zfs create -o xattr=on -o dedup=off tank/a"
    assert comments(d) == ["# tank/a: left out atime=maybe: atime=maybe is not valid; use one of on, off"]


def test_values_follow_the_release():
    ds = [{"name": "tank/a", "redundant_metadata": "some", "checksum": "blake3"}]
    assert zfs_create_commands(versioned([RAIDZ2_HDD], "2.1", ds)) == ["zfs create tank/a"]
    assert comments(versioned([RAIDZ2_HDD], "2.1", ds)) == [
        "# tank/a: left out redundant_metadata=some: redundant_metadata=some needs OpenZFS 2.2 (or 2.1.7) "
        "(the design targets 2.1)",
        "# tank/a: left out checksum=blake3: checksum=blake3 needs OpenZFS 2.2 (the design targets 2.1)",
    ]
    assert zfs_create_commands(versioned([RAIDZ2_HDD], "2.2", ds)) == [
        "zfs create -o redundant_metadata=some -o checksum=blake3 tank/a"
    ]


def test_filesystem_properties_are_left_off_volumes():
    d = design([RAIDZ2_HDD], [{"name": "tank/vm", "type": "volume", "volsize": "10G", "quota": "1T", "atime": "off"}])
    assert zfs_create_commands(d) == ["zfs create -V 10G tank/vm"]
    assert comments(d) == [
        "# tank/vm: left out quota=1T: quota does not apply to volumes (OpenZFS 2.3)",
        "# tank/vm: left out atime=off: atime does not apply to volumes (OpenZFS 2.3)",
    ]


def test_encryption_without_keyformat_is_left_out_entirely():
    d = design([RAIDZ2_HDD], [{"name": "tank/secret", "encryption": "on", "keylocation": "prompt"}])
    assert zfs_create_commands(d) == ["zfs create tank/secret"]
    (note,) = comments(d)
    assert note.startswith("# tank/secret: left out encryption=on, keylocation=prompt: encryption needs keyformat")
    assert "Keyformat required for new encryption root." in note


def test_complete_encryption_is_kept_and_children_inherit_the_key():
    d = design(
        [RAIDZ2_HDD],
        [
            {"name": "tank", "encryption": "aes-256-gcm", "keyformat": "passphrase", "pbkdf2iters": 500000},
            {"name": "tank/a/b", "encryption": "on"},
            {"name": "tank/c", "keyformat": "hex", "keylocation": "file:///etc/zfs/c.key"},
        ],
    )
    assert "-O encryption=aes-256-gcm -O keyformat=passphrase -O pbkdf2iters=500000 tank" in zpool_create_command(d)
    assert zfs_create_commands(d) == [
        # keyformat without encryption under an encrypted parent: a new encryption root
        "zfs create -o keyformat=hex -o keylocation=file:///etc/zfs/c.key tank/c",
        "zfs create -p -o encryption=on tank/a/b",
    ]
    assert comments(d) == []


def test_encryption_properties_under_an_unencrypted_parent_need_encryption():
    d = design([RAIDZ2_HDD], [{"name": "tank/a", "keyformat": "passphrase"}])
    assert zfs_create_commands(d) == ["zfs create tank/a"]
    assert "Encryption must be turned on to set encryption properties." in comments(d)[0]


def test_raw_keys_need_a_key_file_and_pbkdf2iters_a_passphrase():
    d = design(
        [RAIDZ2_HDD],
        [
            {"name": "tank/raw", "encryption": "on", "keyformat": "raw"},
            {"name": "tank/rawfile", "encryption": "on", "keyformat": "raw", "keylocation": "file:///root/k"},
            {"name": "tank/hex", "encryption": "on", "keyformat": "hex", "pbkdf2iters": 350000},
            {"name": "tank/weak", "encryption": "on", "keyformat": "passphrase", "pbkdf2iters": 1000},
        ],
    )
    assert zfs_create_commands(d) == [
        "zfs create tank/raw",
        "zfs create -o encryption=on -o keyformat=raw -o keylocation=file:///root/k tank/rawfile",
        "zfs create tank/hex",
        "zfs create tank/weak",
    ]
    notes = comments(d)
    assert "Cannot enter raw keys on the terminal" in notes[0]
    assert notes[1].endswith("pbkdf2iters applies only with keyformat=passphrase")
    assert notes[2].endswith("pbkdf2iters=1000: the minimum is 100000")


def test_normalization_with_utf8only_off_is_left_out():
    d = design([RAIDZ2_HDD], [{"name": "tank/smb", "normalization": "formD", "utf8only": "off", "atime": "off"}])
    assert zfs_create_commands(d) == ["zfs create -o atime=off tank/smb"]
    assert comments(d) == [
        "# tank/smb: left out normalization=formD utf8only=off: zfs says 'utf8only' must be set 'on' if "
        "normalization chosen"
    ]


# --------------------------------------------------------------------------- property: -f iff zpool refuses

LAYOUTS = st.sampled_from(
    [("stripe", 1), ("mirror", 2), ("mirror", 3), ("raidz1", 4), ("raidz2", 6), ("raidz2", 8), ("draid2", 10)]
)


@st.composite
def designs(draw):
    version = draw(st.sampled_from(["0.8", "2.0", "2.1", "2.2", "2.3", "2.4"]))
    vdevs = []
    for role in ("data", "data", "special", "dedup", "log"):
        if role != "data" or not vdevs or draw(st.booleans()):
            if role != "data" and draw(st.booleans()):
                continue
            layout, width = draw(LAYOUTS)
            if role == "log" and layout not in ("stripe", "mirror"):
                layout, width = "mirror", 2
            if layout.startswith("draid") and version in ("0.8", "2.0"):
                layout, width = "raidz2", 6
            vdevs.append({"role": role, "layout": layout, "width": width, "ashift": 12, "disk": HDD})
    return versioned(vdevs, version)


@given(designs())
def test_f_appears_exactly_when_the_replication_check_refuses(d):
    # every group has ashift 12, so zpool create names them all: data in design order, then
    # special, dedup and log, as the command line does
    order = [g for role in (Role.DATA, Role.SPECIAL, Role.DEDUP, Role.LOG) for g in d.vdevs if g.role == role]
    vdevs = [v for g in order for v in top_level_vdevs(g)]
    refusal = create_refusal(vdevs, d.release)
    words = shlex.split(zpool_create_command(d))
    assert ("-f" in words) == (refusal is not None)
    notes = comments(d)
    assert any(n.startswith("# zpool create needs -f") for n in notes) == (refusal is not None)
    if refusal is not None:
        assert all(f"#   {line}" in notes for line in refusal.splitlines())


def test_wrapped_zpool_create_gives_each_top_level_vdev_its_own_line():
    d = design(
        [
            {"role": "data", "layout": "mirror", "width": 2, "count": 2, "ashift": 12, "disk": HDD},
            {"role": "special", "layout": "mirror", "width": 2, "ashift": 12, "disk": SSD},
            {"role": "log", "layout": "mirror", "width": 2, "ashift": 12, "disk": {**SSD, "size_bytes": "16GB"}},
            {"role": "cache", "layout": "stripe", "width": 1, "count": 2, "disk": {**SSD, "size_bytes": "1TB"}},
        ],
        [{"name": "tank", "compression": "zstd"}],
    )
    assert zpool_create_command(d, wrapped=True).split("\n") == [
        "zpool create -o ashift=12 \\",
        "  -O compression=zstd tank \\",
        f"  mirror {hdds(1, 2)} \\",
        f"  mirror {hdds(3, 4)} \\",
        f"  special mirror {B}special-1 {B}special-2 \\",
        f"  log mirror {B}log-1 {B}log-2 \\",
        f"  cache {B}cache-1 {B}cache-2",
    ]


def test_a_wrapped_command_is_the_same_command_to_the_shell():
    d = design(
        [
            {"role": "data", "layout": "raidz2", "width": 6, "count": 2, "ashift": 12, "disk": HDD},
            {"role": "special", "layout": "mirror", "width": 2, "ashift": 13, "disk": SSD},
            {"role": "spare", "layout": "stripe", "width": 1, "disk": {"size_bytes": "14TB"}},
        ]
    )
    wrapped = all_commands(d, wrapped=True)
    assert len(wrapped) == len(all_commands(d))
    for long, short in zip(wrapped, all_commands(d), strict=True):
        # the shell reads "\\<newline>" as nothing: the words are the same
        assert shlex.split(long.replace("\\\n", "")) == shlex.split(short)
        assert all(not line.endswith(" ") for line in long.split("\n"))
    assert zpool_add_commands(d, wrapped=True)[-1].endswith(f"tank \\\n  special mirror {B}special-1 {B}special-2")
    assert command_lines(["a \\\n  b", "c"]) == ["a \\", "  b", "c"]
