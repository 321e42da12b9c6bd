"""The host's module parameters that trade safety for speed: zfs_nocacheflush and zil_disable."""

from __future__ import annotations

from typing import Any

import pytest

from zfsplanner.core.design.types import Host, InvalidDesign
from zfsplanner.core.document.export import design_to_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.risk.fixes import design_fix
from zfsplanner.core.risk.registry import Severity, assess

from .test_risk import HDD14, SSD, risks, vdev

RAIDZ2 = vdev("data", "raidz2", 6)
RAIDZ2_PLP = vdev("data", "raidz2", 6, SSD)


def doc(host: dict[str, Any] | None, vdevs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"name": "tank", "vdevs": vdevs or [RAIDZ2], "datasets": [{"name": "tank/data"}]}
    if host is not None:
        d["host"] = host
    return d


@pytest.mark.parametrize("value", [1, "1", True, "Y"])
def test_nocacheflush_on_disks_without_plp_is_critical(value):
    d = parse_design(doc({"tunables": {"zfs_nocacheflush": value}}))
    (r,) = risks(d, code="host-nocacheflush")
    assert r.severity == Severity.CRITICAL
    assert r.subject == "pool"
    assert "6 disks of the pool are not marked with power-loss protection" in r.detail
    assert "zpool import -F" in r.detail  # what a power failure costs
    assert "fsync()" in r.detail  # what it gains
    assert r.fix.startswith("Remove zfs_nocacheflush")


@pytest.mark.parametrize("value", [0, "0", False, "N"])
def test_nocacheflush_off_raises_nothing(value):
    d = parse_design(doc({"tunables": {"zfs_nocacheflush": value}}))
    assert risks(d, code="host-nocacheflush") == []


def test_nocacheflush_with_every_disk_protected_is_information():
    d = parse_design(doc({"tunables": {"zfs_nocacheflush": 1}}, [RAIDZ2_PLP]))
    (r,) = risks(d, code="host-nocacheflush")
    assert r.severity == Severity.INFO
    assert "added or replaced later" in r.detail


def test_a_log_without_plp_counts_as_exposed():
    log = vdev("log", "mirror", 2, {**SSD, "plp": False})
    d = parse_design(doc({"tunables": {"zfs_nocacheflush": 1}}, [RAIDZ2_PLP, log]))
    (r,) = risks(d, code="host-nocacheflush")
    assert r.severity == Severity.CRITICAL
    assert "2 disks of the pool are" in r.detail


def test_zil_disable_says_what_it_did_and_that_openzfs_ignores_it():
    d = parse_design(doc({"ram_bytes": 64 * 2**30, "tunables": {"zil_disable": 1}}))
    (r,) = risks(d, code="host-zil-disable")
    assert r.severity == Severity.INFO
    assert "sync=disabled on every dataset" in r.detail
    assert "OpenZFS ignores zil_disable" in r.detail


def test_the_fix_removes_the_parameter_and_the_risk_is_gone():
    document = doc({"ram_bytes": 64 * 2**30, "tunables": {"zfs_nocacheflush": 1, "zfs_arc_max": 8 * 2**30}})
    d = parse_design(document)
    (r,) = [r for r in assess(d) if r.code == "host-nocacheflush"]
    fixed = design_fix(r, d)
    assert fixed is not None
    assert fixed.label == "Remove zfs_nocacheflush from the host's module parameters"
    assert design_to_document(fixed.design)["host"] == {"ram_bytes": 64 * 2**30, "tunables": {"zfs_arc_max": 8 * 2**30}}
    assert d.host.tunables["zfs_nocacheflush"] == 1  # the design given is not changed
    assert [x for x in assess(fixed.design) if x.code.startswith("host-")] == []


def test_the_fix_drops_an_empty_host():
    document = doc({"tunables": {"zil_disable": "1"}})
    d = parse_design(document)
    (r,) = [r for r in assess(d) if r.code == "host-zil-disable"]
    fixed = design_fix(r, d)
    assert fixed is not None and "host" not in design_to_document(fixed.design)


def test_host_is_read_typed_and_written_back_as_given():
    document = doc({"ram_bytes": 32 * 2**30, "tunables": {"zfs_nocacheflush": "1", "zfs_ddt_data_is_special": 0}})
    d = parse_design(document)
    assert d.host == Host(ram_bytes=32 * 2**30, tunables={"zfs_nocacheflush": "1", "zfs_ddt_data_is_special": 0})
    assert d.host.tunable("zfs_ddt_data_is_special") == 0 and d.host.is_set("zfs_nocacheflush")
    assert design_to_document(d)["host"] == document["host"]
    assert "host" not in design_to_document(parse_design(doc(None)))


@pytest.mark.parametrize(
    ("host", "path", "words"),
    [
        ({"ram_bytes": 0}, "host.ram_bytes", "at least 1"),
        ({"ram_bytes": "lots"}, "host.ram_bytes", "integer"),
        ({"tunables": [1]}, "host.tunables", "must be an object"),
        ({"tunables": {"zfs nocacheflush": 1}}, "host.tunables.zfs nocacheflush", "module parameter name"),
        ({"tunables": {"zfs_nocacheflush": [1]}}, "host.tunables.zfs_nocacheflush", "must be a number"),
        ("64G", "host", "must be an object"),
    ],
)
def test_bad_host_values_are_named(host, path, words):
    with pytest.raises(InvalidDesign) as exc:
        parse_design(doc(host))
    (where, message), *_ = exc.value.errors
    assert where == path and words in message, exc.value.errors


def test_ram_reaches_the_sizing_figures():
    d = parse_design(doc({"ram_bytes": 64 * 2**30}, [vdev("data", "mirror", 2, HDD14)]))
    assert estimate(d).sizing.ram.ram_bytes == 64 * 2**30
