"""lsblk -b in its table, -P pairs and -J JSON forms."""

from __future__ import annotations

import json

import pytest

from tests.core.import_samples import lines, section
from zfsplanner.core.importers.lsblk import LsblkError, parse


def test_it_reads_the_tree_with_models_that_hold_spaces():
    devs = {d.name: d for d in parse(section("linux-2.3-raidz2-special-log-cache-spare.txt", "lsblk").lines)}
    sdh = devs["sdh"]
    assert (sdh.size.bytes, sdh.logical_sector, sdh.physical_sector) == (960197124096, 512, 4096)
    assert sdh.model == "SAMSUNG MZ7L3960HCJR-00A07" and sdh.serial == "S664NE0R901234"
    assert sdh.rotational is False and sdh.parent is None
    part = devs["sdh1"]
    assert part.parent == "sdh" and part.model is None and part.size.bytes == 960187334656
    assert devs["nvme0n1p2"].parent == "nvme0n1"
    assert devs["sda"].rotational is True


def test_it_reads_ascii_trees_and_rounded_sizes():
    rows = ["NAME    SIZE LOG-SEC PHY-SEC MODEL            SERIAL   ROTA",
            "sda    12.7T     512    4096 WDC WUH721414ALE W1234567    1",
            "|-sda1 12.7T     512    4096" + " " * 30 + "1",
            "`-sda9    8M     512    4096" + " " * 30 + "1"]
    out = "\n".join(rows) + "\n"
    devs = parse(lines(out))
    assert [(d.name, d.parent) for d in devs] == [("sda", None), ("sda1", "sda"), ("sda9", "sda")]
    assert devs[0].size.exact is False and devs[0].model == "WDC WUH721414ALE"


def test_it_reads_key_value_pairs():
    out = ('NAME="sda" SIZE="14000519643136" LOG_SEC="512" PHY_SEC="4096" MODEL="ST14000NM001G-2KJ103" '
           'SERIAL="ZL2ABCDE" ROTA="1"\n'
           'NAME="sda1" SIZE="14000509157376" LOG_SEC="512" PHY_SEC="4096" MODEL="" SERIAL="" ROTA="1" PKNAME="sda"\n')
    a, b = parse(lines(out))
    assert (a.name, a.size.bytes, a.physical_sector, a.model) == ("sda", 14000519643136, 4096, "ST14000NM001G-2KJ103")
    assert b.parent == "sda" and b.model is None


def test_it_reads_json_with_children():
    doc = {"blockdevices": [{"name": "nvme0n1", "size": 1920383410176, "log-sec": 512, "phy-sec": 4096,
                             "model": "SAMSUNG MZQL21T9HCJR-00A07", "serial": "S64GNE0R1", "rota": False,
                             "children": [{"name": "nvme0n1p1", "size": 1920373620736, "log-sec": 512,
                                           "phy-sec": 4096, "model": None, "serial": None, "rota": False}]}]}
    devs = parse(lines(json.dumps(doc, indent=3)))
    assert [(d.name, d.parent, d.rotational) for d in devs] == [("nvme0n1", None, False),
                                                                ("nvme0n1p1", "nvme0n1", False)]


def test_misaligned_columns_are_named_not_guessed():
    out = "NAME   SIZE LOG-SEC PHY-SEC MODEL SERIAL ROTA\nsda  12.7T     512    4096 X Y 1\n|-sda1 12.7T 512 4096 1\n"
    with pytest.raises(LsblkError, match="line 3: .*does not line up with the header"):
        parse(lines(out))


def test_it_names_a_value_that_is_not_a_sector_size():
    out = "NAME SIZE LOG-SEC PHY-SEC ROTA\nsda  100     513    4096    1\n"
    with pytest.raises(LsblkError, match="line 2: .*LOG-SEC 513"):
        parse(lines(out))


def test_it_names_invalid_json():
    with pytest.raises(LsblkError, match="line 2: .*invalid JSON"):
        parse(lines('{"blockdevices": [\n  {"name": "sda",,}\n]}'))
