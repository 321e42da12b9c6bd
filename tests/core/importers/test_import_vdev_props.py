"""``zpool get PROPS POOL all-vdevs`` (OpenZFS 2.2+): each vdev's ashift, in every form it is printed."""

from __future__ import annotations

import json

import pytest

from tests.oracles import writer
from tests.oracles.writer_json import zpool_get_vdevs_json
from tests.oracles.writer_model import zpool_get_vdevs_text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.importers.common import numbered
from zfsplanner.core.importers.outputs import read_sections
from zfsplanner.core.importers.sections import split
from zfsplanner.core.importers.vdev_props import parse

# raidz3-9 of 100 GiB files at ashift 9 (tests/core/data/openzfs-2.3.2.json): 6 data disks, so 9 and 12 deflate
# a 128 KiB block differently
RAIDZ3 = {"format": "zfsplanner.design/1", "name": "tank", "openzfs_version": "2.3", "disk_partitioning": "none",
          "vdevs": [{"role": "data", "layout": "raidz3", "width": 9, "count": 1, "ashift": 9,
                     "disk": {"size_bytes": 107374182400, "model": "ST16000NM001G"}},
                    {"role": "special", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                     "disk": {"size_bytes": 107374182400, "model": "MZ7L3960HCJR"}}]}


def design_and_estimate():
    design = parse_design(RAIDZ3)
    return design, estimate(design)


def test_the_padded_text_is_read_by_words_though_later_rows_overflow_the_header():
    text = zpool_get_vdevs_text(*design_and_estimate())
    lines = text.splitlines()
    # the widths come from root-0: a by-id leaf name pushes its row's columns right
    assert lines[0] == "NAME    PROPERTY  VALUE  SOURCE" and lines[1] == "root-0  ashift    0      -"
    assert any(line.index("ashift") > lines[0].index("PROPERTY") for line in lines[2:])
    found = parse(numbered(text), pool="tank")
    ashifts = found.ashifts()
    assert ashifts["raidz3-0"] == 9 and ashifts["mirror-1"] == 12 and "root-0" not in ashifts
    assert len(ashifts) == 1 + 9 + 1 + 2


def test_scripted_and_json_forms_give_the_same():
    design, est = design_and_estimate()
    text = parse(numbered(zpool_get_vdevs_text(design, est)), pool="tank").ashifts()
    scripted = parse(numbered(zpool_get_vdevs_text(design, est, scripted=True)), pool="tank", scripted=True)
    assert scripted.ashifts() == text
    for as_int in (False, True):
        raw = zpool_get_vdevs_json(design, est, as_int=as_int)
        found = read_sections(split(f"$ zpool get -j -p ashift tank all-vdevs\n{raw}"))
        [props] = found.vdev_props
        assert props.pool == "tank" and props.ashifts() == text
        assert json.loads(raw)["vdevs"]["root-0"]["properties"]["ashift"]["source"]["type"] == "NONE"


def test_values_with_spaces_and_inherited_sources():
    text = ("NAME      PROPERTY  VALUE          SOURCE\n"
            "root-0    comment   -              default\n"
            "sda       comment   bay 3, left    local\n"
            "sda       io_n      10             inherited from mirror-0\n")
    props = {(p.name, p.property): p for p in parse(numbered(text), pool=None).props}
    assert props[("sda", "comment")].value == "bay 3, left" and props[("sda", "comment")].source == "local"
    assert props[("sda", "io_n")].source == "inherited from mirror-0" and props[("sda", "io_n")].value == "10"


@pytest.mark.parametrize("prompt", ["$ zpool get -p all tank all-vdevs\n", ""])
def test_a_paste_is_told_from_pool_properties_with_or_without_its_command_line(prompt):
    design, est = design_and_estimate()
    found = read_sections(split(prompt + zpool_get_vdevs_text(design, est)))
    assert found.pool_props == [] and len(found.vdev_props) == 1
    assert found.vdev_props[0].pool == ("tank" if prompt else None)


def test_the_vdev_properties_state_the_ashift_zpool_get_leaves_at_0():
    design, est = design_and_estimate()
    text = writer.outputs(design, est, disks=False, ashift_requested=False, vdev_props=True)
    assert "tank\tashift\t0\tdefault" in text
    result = import_pool([("paste", text)])
    assert result.questions == []
    assert [v["ashift"] for v in result.document["vdevs"]] == [9, 12]
    assert any(n.startswith("ashift from the vdev properties") and "raidz3-0 9" in n for n in result.notes)
    assert "zpool get all-vdevs" in result.document["imported"]["from"]


def test_o_columns_and_h_on_the_command_line():
    design, est = design_and_estimate()
    scripted = zpool_get_vdevs_text(design, est, scripted=True)
    found = read_sections(split(f"$ zpool get -H -p ashift tank all-vdevs\n{scripted}"))
    assert found.vdev_props[0].ashifts()["raidz3-0"] == 9
    no_source = "".join("\t".join(line.split("\t")[:3]) + "\n" for line in scripted.splitlines())
    found = read_sections(split(f"$ zpool get -Hp -o name,property,value ashift tank all-vdevs\n{no_source}"))
    assert found.vdev_props[0].ashifts()["mirror-1"] == 12
    padded = "NAME      PROPERTY  VALUE\nraidz3-0  ashift    9\n"  # one vdev named: told by the command line
    found = read_sections(split(f"$ zpool get -o name,property,value ashift tank raidz3-0\n{padded}"))
    assert found.vdev_props[0].ashifts() == {"raidz3-0": 9}
