"""A volume's size as ZFS checks it (module/zfs/zvol.c ``zvol_check_volsize``): more than zero and a
whole number of volblocksize blocks; the design parser refuses what ``zfs create -V`` would."""

from __future__ import annotations

import pytest

from tests.factories import design_document
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.parse import parse_design


def _with_volume(**volume):
    doc = design_document("tank")
    doc["datasets"].append({"name": "tank/vm", "type": "volume", **volume})
    return doc


@pytest.mark.parametrize(
    ("volume", "message"),
    [
        ({"volsize": 0}, "must be larger than zero"),
        ({"volsize": "0"}, "must be larger than zero"),
        ({"volsize": 10_000, "volblocksize": "16K"}, "must be a whole number of volblocksize blocks"),
    ],
)
def test_a_volume_zfs_would_refuse_is_refused_naming_its_size(volume, message):
    with pytest.raises(InvalidDesign) as exc:
        parse_design(_with_volume(**volume))
    [(path, text)] = [(p, m) for p, m in exc.value.errors if p.endswith("volsize")]
    assert path == "datasets[1].volsize" and message in text


def test_a_volume_of_whole_blocks_is_read():
    design = parse_design(_with_volume(volsize="32G", volblocksize="16K"))
    assert design.datasets[1].volsize == 32 * 1024**3
