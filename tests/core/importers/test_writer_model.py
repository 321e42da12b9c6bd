"""``zfs get`` as the writer prints it: every settable property's VALUE and SOURCE as
``properties.resolve()`` resolves it, in the words real OpenZFS prints.

The real outputs are ``zfs get -p -r -t filesystem,volume all`` of OpenZFS 2.3.2 pools
(``data/openzfs-2.3.2-json-sample.json``): ``zspecial`` holds ``zspecial/small`` with
``special_small_blocks=64K`` set on it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.oracles import writer
from tests.oracles.writer_model import SETTABLE_PRINTED
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.properties.resolve import block_size, resolve

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLE = {r["pool"]: r for r in json.loads((DATA / "openzfs-2.3.2-json-sample.json").read_text())["records"]}
GIB = 1024**3


def rows(text: str) -> dict[tuple[str, str], tuple[str, str]]:
    """``(name, property) -> (value, source)`` of ``zfs get`` output, ``-H`` or with its header."""
    out = {}
    for line in text.splitlines():
        cells = line.split("\t") if "\t" in line else line.split(None, 3)
        if cells[0] == "NAME":
            continue
        name, prop, value, source = cells
        out[(name, prop)] = (value, source)
    return out


def design(datasets: list[dict], version: str = "2.3") -> object:
    return parse_design({
        "format": "zfsplanner.design/1", "name": "tank", "openzfs_version": version,
        "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                   "disk": {"size_bytes": 100 * GIB}}],
        "datasets": datasets})


def test_a_child_prints_what_it_inherits_with_the_parent_as_source():
    d = design([{"name": "tank/data", "recordsize": "1M", "compression": "zstd", "copies": 2},
                {"name": "tank/data/child"}])
    got = rows(writer.zfs_get_text(d, estimate(d)))
    assert got[("tank/data/child", "recordsize")] == ("1048576", "inherited from tank/data")
    assert got[("tank/data/child", "compression")] == ("zstd", "inherited from tank/data")
    assert got[("tank/data/child", "copies")] == ("2", "inherited from tank/data")
    assert got[("tank/data", "recordsize")] == ("1048576", "local")
    assert got[("tank/data/child", "sync")] == ("standard", "default")
    assert got[("tank/data/child", "quota")] == ("0", "default")  # quota is not inherited


def test_an_imported_child_keeps_the_parent_s_values_in_force():
    d = design([{"name": "tank/data", "recordsize": "1M", "compression": "zstd"}, {"name": "tank/data/child"}])
    imported = {ds["name"]: ds for ds in import_pool([("p", writer.outputs(d, estimate(d)))]).document["datasets"]}
    assert imported["tank/data/child"]["recordsize"] in ("1M", 1048576)
    assert imported["tank/data/child"]["compression"] == "zstd"


@pytest.mark.parametrize("form", ["text", "json"])
def test_a_child_that_inherits_is_imported_back_to_the_same_design(form):
    """``zfs get`` as text and as ``-j``: the child says "inherited from tank/data" for what it does not
    set, so the importer gives the design the same values in force, dataset by dataset, and the same figures."""
    d = design([{"name": "tank/data", "recordsize": "1M", "compression": "zstd", "copies": 2},
                {"name": "tank/data/child"}], version="2.3.2")
    est = estimate(d)
    child = rows(writer.zfs_get_text(d, est))
    assert child[("tank/data/child", "recordsize")] == ("1048576", "inherited from tank/data")
    assert child[("tank/data/child", "compression")] == ("zstd", "inherited from tank/data")
    back = parse_design(import_pool([("p", writer.outputs(d, est, status=form))]).document)
    for ds in d.datasets:
        (got,) = [b for b in back.datasets if b.name == ds.name]
        for prop in ("recordsize", "compression", "copies", "sync", "special_small_blocks", "dedup"):
            assert resolve(back, got, prop).value == resolve(d, ds, prop).value, (ds.name, prop)
        assert block_size(back, got) == block_size(d, ds)
    figures = {x.name: x.referenced_bytes for x in estimate(back).datasets}
    assert figures == {x.name: x.referenced_bytes for x in est.datasets}


def test_the_settable_rows_are_those_openzfs_2_3_2_prints():
    real = rows(SAMPLE["zspecial"]["outputs"]["zfs_get_p_r"]["stdout"])
    d = parse_design({
        "format": "zfsplanner.design/1", "name": "zspecial", "openzfs_version": "2.3.2",
        "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "count": 1, "disk": {"size_bytes": 1024 * GIB}},
                  {"role": "special", "layout": "mirror", "width": 2, "count": 1, "disk": {"size_bytes": 100 * GIB}}],
        "datasets": [{"name": "zspecial/small", "special_small_blocks": "64K", "compression": "off"}]})
    written = rows(writer.zfs_get_text(d, estimate(d)))
    settable = ("recordsize", "quota", *SETTABLE_PRINTED)
    for name in ("zspecial/small",):
        for prop in settable:
            assert written[(name, prop)] == real[(name, prop)], (name, prop)
    assert written[("zspecial", "compression")] == real[("zspecial", "compression")] == ("on", "default")


def test_a_zvol_s_volblocksize_has_a_source_only_at_the_default():
    d = design([{"name": "tank/vm", "type": "volume", "volsize": "10G", "volblocksize": "64K"},
                {"name": "tank/vm2", "type": "volume", "volsize": "10G", "volblocksize": "16K"},
                {"name": "tank/vm3", "type": "volume", "volsize": "10G"}])
    got = rows(writer.zfs_get_text(d, estimate(d)))
    assert got[("tank/vm", "volblocksize")] == ("65536", "-")  # dsl_prop_nvlist_add_uint64(): no source
    assert got[("tank/vm2", "volblocksize")] == ("16384", "default")  # equal to the 2.2+ default
    assert got[("tank/vm3", "volblocksize")] == ("16384", "default")
    assert ("tank/vm", "recordsize") not in got


def test_a_zvol_s_refreservation_is_set_by_zfs_create_unless_it_is_sparse():
    d = design([{"name": "tank/vm", "type": "volume", "volsize": "10G"},
                {"name": "tank/thin", "type": "volume", "volsize": "10G", "sparse": True}])
    est = estimate(d)
    got = rows(writer.zfs_get_text(d, est))
    reserved = next(ds for ds in est.datasets if ds.name == "tank/vm").refreservation_bytes
    assert reserved and got[("tank/vm", "refreservation")] == (str(reserved), "local")
    assert got[("tank/thin", "refreservation")] == ("0", "default")  # zfs get -p prints none as 0
    imported = {ds["name"]: ds for ds in import_pool([("p", writer.outputs(d, est))]).document["datasets"]}
    assert imported["tank/thin"].get("sparse") is True and not imported["tank/vm"].get("sparse")
