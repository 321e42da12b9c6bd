"""Which ashift a vdev really gets, and that commands, capacity and risks agree on it.

Expected values are worked by hand through ``vdev_open()`` / ``vdev_ashift_optimize()`` of the
named OpenZFS release (``module/zfs/vdev.c``), and cross-checked with the reports in
openzfs/zfs#13557 (2.1.4/2.1.12: ``-o ashift=9`` mirror of a 4K and a 512 B disk gets 12),
#15844 (2.2.2: ``-o ashift=9`` raidz2 of 512e disks cannot be had) and #18045 (2.2.2: a
512/32768 disk gets ashift 9).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfsplanner.core.capacity.pool import pool_capacity
from zfsplanner.core.commands.create import all_commands, device_names
from zfsplanner.core.design.types import Disk, InvalidDesign
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.geometry.ashift import automatic, resolve, vdev_ashift
from zfsplanner.core.geometry.partitioning import linux_whole_disk_partition_bytes
from zfsplanner.core.risk.registry import assess
from zfsplanner.core.versions import Version

TB = 4_000_787_030_016


def disk(logical: int = 512, physical: int | None = 4096, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"size_bytes": TB, "logical_sector_bytes": logical, **kw}
    if physical is not None:
        out["physical_sector_bytes"] = physical
    return out


def design(*vdevs: dict[str, Any], version: str = "2.3") -> Any:
    return parse_design({"name": "tank", "openzfs_version": version, "vdevs": list(vdevs)})


def group(layout: str, width: int, d: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"role": "data", "layout": layout, "width": width, "disk": d, **kw}


def command_ashifts(d: Any) -> dict[str, int]:
    """Device placeholder -> the ``-o ashift=N`` of the command that names it."""
    out: dict[str, int] = {}
    for cmd in all_commands(d):
        words = shlex.split(cmd)
        if words[:2] not in (["zpool", "create"], ["zpool", "add"]):
            continue
        n = int(next(w for w in words if w.startswith("ashift=")).split("=")[1])
        for w in words:
            if w.startswith("/dev/disk/by-id/"):
                out[w] = n
    return out


# --------------------------------------------------------------------------- the 64 KiB disagreement


@pytest.mark.parametrize(
    ("version", "logical", "expected"),
    [
        ("0.8", 512, 16),  # 0.8 takes the physical sector as it is
        ("2.0", 512, 16),
        ("2.1", 512, 16),  # 2.1.5: zfs_vdev_max_auto_ashift is still 16
        ("2.2", 512, 9),  # 2.2: a 64 KiB physical sector is ignored, the logical one used
        ("2.3", 512, 9),
        ("2.4", 512, 9),
        ("2.3", 4096, 12),
    ],
)
def test_64k_physical_sectors_get_the_same_ashift_in_commands_capacity_and_risks(version, logical, expected):
    d = design(group("mirror", 2, disk(logical, 65536)), version=version)
    cap = pool_capacity(d)
    assert cap.vdevs[0].ashift == expected
    assert set(command_ashifts(d).values()) == {expected}
    assert f"-o ashift={expected} " in all_commands(d)[0]
    warnings = [r for r in assess(d) if r.code == "ashift-below-physical-sector"]
    if expected == 16:  # zpool takes the 64 KiB sector by itself: nothing to say
        assert warnings == []
        return
    # zpool ignores the 64 KiB sector (above zfs_vdev_max_auto_ashift=14): the warning says what the
    # vdev gets, the same figure as the command and the capacity, and names the explicit ashift to set
    (risk,) = warnings
    assert risk.title.startswith(f"ashift={expected} on ")
    assert f"gives the vdev ashift {expected} " in risk.detail and f"-o ashift={expected}," in risk.detail
    assert "zfs_vdev_max_auto_ashift=14" in risk.detail
    assert risk.fix.startswith("Set ashift=16 explicitly") and "or ashift=12 (4096 B)" in risk.fix
    assert "leave it out" not in risk.fix


def test_a_pool_ashift_of_12_on_64k_sector_disks_names_16_and_does_not_say_leave_it_out():
    d = parse_design({"name": "tank", "openzfs_version": "2.3", "ashift": 12,
                      "vdevs": [group("mirror", 2, disk(512, 65536))]})
    assert pool_capacity(d).vdevs[0].ashift == 12
    assert set(command_ashifts(d).values()) == {12}
    (risk,) = [r for r in assess(d) if r.code == "ashift-below-physical-sector"]
    assert "takes the pool's ashift=12 (4096 B)" in risk.detail
    assert risk.fix.startswith("Set ashift=16 explicitly") and "or keep ashift=12" in risk.fix
    assert "leave it out" not in risk.fix


def test_an_explicit_ashift_below_a_4k_sector_still_offers_to_leave_it_out():
    (risk,) = [r for r in assess(design(group("stripe", 1, disk(512, 4096), ashift=9)))
               if r.code == "ashift-below-physical-sector"]
    assert risk.fix == "Use ashift=12 (or leave it out and let the planner take it from the physical sector)."


def test_the_command_for_a_64k_sector_disk_on_2_3_writes_what_zpool_would_pick():
    d = design(group("stripe", 1, disk(512, 65536, model="BIGSECTOR")), version="2.3")
    assert all_commands(d)[0].startswith("zpool create -o ashift=9 tank")
    assert "zfs_vdev_max_auto_ashift=14" in pool_capacity(d).vdevs[0].ashift_source


# --------------------------------------------------------------------------- a requested ashift below the sector


def test_ashift_9_on_a_512e_mirror_is_raised_to_12_before_2_3_6_but_not_on_a_single_disk():
    mirror = design(group("mirror", 2, disk(512, 4096), ashift=9), version="2.3.2")
    single = design(group("stripe", 1, disk(512, 4096), ashift=9), version="2.3.2")
    assert pool_capacity(mirror).vdevs[0].ashift == 12
    assert pool_capacity(single).vdevs[0].ashift == 9
    assert all_commands(mirror)[0].startswith("zpool create -o ashift=9 ")  # what the user asked for
    (risk,) = [r for r in assess(mirror) if r.code == "ashift-below-physical-sector"]
    assert "raised to 12" in risk.detail and "zpool get ashift keeps printing 9" in risk.detail
    (risk,) = [r for r in assess(single) if r.code == "ashift-below-physical-sector"]
    assert "read-modify-write" in risk.detail


def test_ashift_9_on_a_512e_raidz_is_kept_from_2_4():
    # 2.3.6/2.4.0 pass -o ashift to the raidz vdev too (PR #17826)
    d = design(group("raidz2", 6, disk(512, 4096), ashift=9), version="2.4")
    assert pool_capacity(d).vdevs[0].ashift == 9
    assert pool_capacity(design(group("raidz2", 6, disk(512, 4096), ashift=9), version="2.2")).vdevs[0].ashift == 12


def test_ashift_9_on_4kn_disks_is_raised_from_2_3_and_cannot_be_built_before():
    for layout, width in (("stripe", 1), ("raidz1", 3)):
        d = design(group(layout, width, disk(4096, 4096), ashift=9), version="2.3")
        assert pool_capacity(d).vdevs[0].ashift == 12
    # 2.2.2: the single disk keeps 9 and fails; the raidz is raised to its physical sector and works
    with pytest.raises(InvalidDesign, match="PR #16690"):
        pool_capacity(design(group("stripe", 1, disk(4096, 4096), ashift=9), version="2.2"))
    assert pool_capacity(design(group("raidz1", 3, disk(4096, 4096), ashift=9), version="2.2")).vdevs[0].ashift == 12
    # 0.8 passes the request to every vdev as it is: nothing raises it
    with pytest.raises(InvalidDesign):
        pool_capacity(design(group("raidz1", 3, disk(4096, 4096), ashift=9), version="0.8"))


def test_mixed_4k_and_512_mirror_with_ashift_9_gets_12_like_issue_13557():
    d = parse_design(
        {
            "name": "tank",
            "openzfs_version": "2.1",
            "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "ashift": 9,
                       "disks": [disk(4096, 4096), disk(512, 512)]}],
        }
    )
    assert pool_capacity(d).vdevs[0].ashift == 12


def test_unknown_physical_sector_is_assumed_4k_only_for_the_automatic_choice():
    unknown = {"size_bytes": TB}
    assert pool_capacity(design(group("mirror", 2, unknown))).vdevs[0].ashift == 12
    assert pool_capacity(design(group("mirror", 2, unknown, ashift=9))).vdevs[0].ashift == 9


# --------------------------------------------------------------------------- 4Kn and 512e whole disks


def test_4kn_and_512e_whole_disks_auto_select_12_and_partition_in_their_own_logical_blocks():
    e512 = pool_capacity(design(group("mirror", 2, disk(512, 4096))))
    kn = pool_capacity(design(group("mirror", 2, disk(4096, 4096))))
    assert e512.vdevs[0].ashift == kn.vdevs[0].ashift == 12
    # zpool_label_disk(): 2048-block start, 16384-block reserved partition and 2048-block end
    # alignment, all in logical blocks. By hand for 976 754 646 blocks of 4 KiB: the backup GPT
    # takes 5 blocks, so the last usable block is 976 754 640; 976 754 641 - 16384 - 2048 =
    # 976 736 209, rounded down to 2048 blocks = 976 734 208 blocks = 4 000 703 315 968 B,
    # against 4 000 776 716 288 B on the 512e disk (7 814 017 024 blocks of 512 B).
    assert linux_whole_disk_partition_bytes(TB, 4096) == 4_000_703_315_968
    assert kn.vdevs[0].leaf_asize == 4_000_703_315_968 - 9 * 512 * 1024
    assert e512.vdevs[0].leaf_asize == 4_000_776_716_288 - 9 * 512 * 1024


# --------------------------------------------------------------------------- one home: hypothesis


SECTORS = st.sampled_from([(512, 512), (512, 4096), (4096, 4096), (512, 8192), (512, 16384), (512, 65536),
                           (4096, 65536), (512, None)])
LAYOUTS = st.sampled_from([("stripe", 1), ("mirror", 2), ("mirror", 3), ("raidz1", 3), ("raidz2", 6),
                           ("draid1", 5)])


@st.composite
def designs(draw: Any) -> dict[str, Any]:
    version = draw(st.sampled_from(["0.8", "2.0", "2.1", "2.2", "2.3", "2.4"]))
    groups = []
    for role in draw(st.lists(st.sampled_from(["data", "special", "log", "cache"]), min_size=0, max_size=3)) + [
        "data"
    ]:
        layout, width = draw(LAYOUTS)
        if role in ("log", "cache"):
            layout, width = ("stripe", 1) if role == "cache" else draw(st.sampled_from([("stripe", 1), ("mirror", 2)]))
        if role == "special" and layout not in ("stripe", "mirror"):
            layout, width = "mirror", 2
        if version in ("0.8", "2.0") and layout.startswith("draid"):
            layout, width = "raidz1", 5
        members = draw(st.lists(SECTORS, min_size=width, max_size=width))
        disks = [disk(lo, ph, model=f"M{lo}-{ph}") for lo, ph in members]
        g: dict[str, Any] = {"role": role, "layout": layout, "width": width, "disks": disks}
        if draw(st.booleans()):
            g["ashift"] = draw(st.integers(9, 14))
        groups.append(g)
    return {"name": "tank", "openzfs_version": version, "disk_partitioning": "none", "vdevs": groups[::-1]}


@settings(max_examples=300, deadline=None)
@given(doc=designs())
def test_every_ashift_in_the_commands_is_the_one_the_capacity_used(doc):
    try:
        d = parse_design(doc)
    except InvalidDesign as exc:  # an ashift zpool would refuse is refused with the document, at its field
        assert exc.errors and all(path.endswith(".ashift") for path, _ in exc.errors), exc.errors
        return
    choices = [resolve(g, d.release) for g in d.vdevs]
    assert not any(c.fails for c in choices)
    cap = pool_capacity(d)
    written = command_ashifts(d)
    names = device_names(d)
    for gi, g in enumerate(d.vdevs):
        vdev = next(v for v in cap.vdevs if v.group_index == gi)
        n = written[names[gi][0][0]]
        # the command writes the group's ashift, and the capacity uses what that request really gives
        assert n == choices[gi].written
        leaf = g.layout.value == "stripe" or g.role.value == "cache"
        assert vdev.ashift == vdev_ashift(n, g.disks, top_is_leaf=leaf, version=d.release) == choices[gi].used


@settings(max_examples=300, deadline=None)
@given(doc=designs())
def test_writing_the_automatic_ashift_out_gives_the_same_vdev(doc):
    d = parse_design({**doc, "vdevs": [{k: v for k, v in g.items() if k != "ashift"} for g in doc["vdevs"]]})
    for g in d.vdevs:
        auto, _ = automatic(g, d.release)
        leaf = g.layout.value == "stripe" or g.role.value == "cache"
        assert vdev_ashift(auto, g.disks, top_is_leaf=leaf, version=d.release) == auto


def test_no_module_but_ashift_derives_an_ashift_from_sectors():
    """Commands, capacity and risks all call zfsplanner.core.geometry.ashift; none reads sectors itself."""
    from pathlib import Path

    core = Path(__file__).resolve().parents[3] / "zfsplanner" / "core"
    offenders = []
    for path in core.rglob("*.py"):
        if path.name == "ashift.py":
            continue
        text = path.read_text()
        if re.search(r"ilog2\([^)]*physical_sector", text) or "max_auto_ashift =" in text:
            offenders.append(path.name)
    assert offenders == []


def test_vdev_ashift_takes_disk_objects():
    assert vdev_ashift(0, [Disk(size_bytes=TB, logical_sector_bytes=512, physical_sector_bytes=8192)],
                       top_is_leaf=True, version=Version.parse("2.3")) == 13


def test_the_ashift_bounds_are_written_once():
    """ASHIFT_MIN/ASHIFT_MAX (include/sys/fs/zfs.h) live in core/geometry/ashift.py; no module repeats 9 and 16."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "zfsplanner"
    literal = re.compile(
        r"range\(9, 17\)|min_value=9, max_value=16|lo=9, hi=16|max\(9, min\(16|between 9 and 16|9 <= [^\n]*<= 16"
    )
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "ashift.py" and "migrations" not in path.parts and literal.search(path.read_text())
    ]
    assert offenders == []


# --------------------------------------------------------------------------- the pool's ashift


SSD_512 = {"size_bytes": 10**12, "logical_sector_bytes": 512, "physical_sector_bytes": 512, "media": "ssd"}


def pool_design(pool_ashift: int | None, *vdevs: dict[str, Any], version: str = "2.3") -> Any:
    doc: dict[str, Any] = {"name": "tank", "openzfs_version": version, "vdevs": list(vdevs)}
    if pool_ashift is not None:
        doc["ashift"] = pool_ashift
    return parse_design(doc)


def test_the_pool_ashift_applies_to_every_group_without_its_own():
    d = pool_design(
        12,
        group("raidz2", 6, disk(512, 4096)),
        {"role": "special", "layout": "mirror", "width": 2, "disk": SSD_512},
        {"role": "log", "layout": "mirror", "width": 2, "disk": SSD_512, "ashift": 13},
    )
    choices = [resolve(g, d.release) for g in d.vdevs]
    assert [c.used for c in choices] == [12, 12, 13]
    assert [c.source for c in choices] == ["pool", "pool", "design"]
    # what zpool would have chosen alone is still said
    assert "without it zpool would choose 9 from the physical sector" in choices[1].notes[0]
    # one zpool create for the two groups at 12; the log with its own 13 is added after
    commands = [c for c in all_commands(d) if not c.startswith("#")]
    assert commands[0].startswith("zpool create -f -o ashift=12 tank raidz2 ")  # -f: raidz2 beside a mirror
    assert " special mirror " in commands[0] and " log " not in commands[0]
    assert commands[1].startswith("zpool add --allow-ashift-mismatch -o ashift=13 tank log mirror ")
    risks = assess(d)
    assert "mixed-ashift" not in {r.code for r in risks}
    (irremovable,) = [r for r in risks if r.code == "special-vdev-irremovable"]  # for the raidz2, not the ashift
    assert "differ in ashift" not in irremovable.detail and "differs from the data vdevs'" not in irremovable.detail


def test_without_a_pool_ashift_the_512_byte_ssd_special_gets_9_and_mixes():
    d = pool_design(None, group("raidz2", 6, disk(512, 4096)),
                    {"role": "special", "layout": "mirror", "width": 2, "disk": SSD_512})
    assert [resolve(g, d.release).used for g in d.vdevs] == [12, 9]
    assert [r.subject for r in assess(d) if r.code == "mixed-ashift"] == ["vdevs[1]"]


def test_the_pool_ashift_round_trips_and_is_checked_like_a_groups():
    from zfsplanner.core.document.export import design_to_document

    d = pool_design(13, group("mirror", 2, disk()))
    out = design_to_document(d)
    assert out["ashift"] == 13 and "ashift" not in out["vdevs"][0]
    assert parse_design(out) == d
    with pytest.raises(InvalidDesign) as exc:
        pool_design(17, group("mirror", 2, disk()))
    assert dict(exc.value.errors)["ashift"] == "must be at most 16 (got 17)"
