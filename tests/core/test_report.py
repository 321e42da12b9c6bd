"""Markdown and CSV reports of a design and its estimate."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.core.import_samples import text
from zfsplanner.core.design import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.report import csv_text, generic, markdown, value

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name="home-server.json"):
    design = parse_design(json.loads((EXAMPLES / name).read_text()))
    return design, estimate(design)


def test_the_markdown_report_leads_with_the_answer():
    design, est = example()
    md = markdown(design, est, meta={"team": "Alpha", "revision": "3"})
    lines = md.splitlines()
    assert lines[0] == "# ZFS pool design: tank"
    summary = md.split("## Summary")[1].split("##")[0]
    assert "Usable space (empty pool):** 55.80 TB (50.75 TiB) — `zfs list` AVAIL 50.8T" in summary
    assert "`zpool list` SIZE 77.3T" in summary
    assert "Disk failures survived:** 1" in summary and "Risks:** 2 warning, 2 info" in summary
    assert "- team: Alpha" in md


def test_every_section_is_there():
    design, est = example()
    md = markdown(design, est)
    for heading in ("## Vdevs", "## Datasets", "## Estimate", "## Risks", "## Special vdev sizing",
                    "## Reliability", "## Performance", "## Commands"):
        assert heading in md, heading
    assert "| data | 1 × raidz2 of 6 | ST14000NM001G 14.00 TB | 12 | 83.99 TB (76.39 TiB) | 2 | no |" in md
    assert "tank/photos" in md.split("## Datasets")[1].split("##")[0]
    assert "$ zpool list -o name,size tank" in md and "tank  77.3T" in md
    assert "`special-vdev-irremovable`" in md and "**Fix:**" in md
    assert "zpool create" in md.split("## Commands")[1]


def test_estimate_sections_added_later_are_rendered_too():
    design, est = example()
    est = dict(est, lifespan={"model": "x" * 100, "wear_bytes": 10**15, "rows": [{"year": 1, "fill_fraction": 0.5}]})
    md = markdown(design, est)
    assert "## Lifespan" in md and "| wear bytes | 1.00 PB (909.49 TiB) |" in md
    assert "| year | fill fraction |" in md and "| 1 | 50 % |" in md


def test_values_follow_their_units():
    assert value("seq_read_bytes_per_s", {"low": 2.5e8, "high": 5e8}) == "250 MB/s – 500 MB/s"
    assert value("resilver_seconds", 3 * 3600 + 7 * 60) == "3 h 07 min"
    assert value("1y", 0.000123) == "0.0123 %"
    assert value("removable", False) == "no"
    assert generic("empty", {})[0] == "## Empty"


def test_an_imported_design_shows_model_vs_pool():
    doc = import_pool([("p", text("calibration-2.3.2-2x-raidz2-6-files.txt"))]).document
    design = parse_design(doc)
    md = markdown(design, estimate(design))
    part = md.split("## Model vs the pool it was imported from")[1]
    assert "| SIZE | zpool list | 1.28 TB (1.16 TiB) | 1.28 TB (1.16 TiB) | +0 B (0 B) | +0.00 % |  |" in part
    assert "OpenZFS 2.3, from zfs version" in part


def test_the_csv_has_a_row_per_vdev_and_dataset():
    design, est = example()
    rows = list(csv.DictReader(io.StringIO(csv_text(design, est))))
    kinds = [r["kind"] for r in rows]
    assert kinds == ["pool"] + ["vdev"] * len(est["vdevs"]) + ["dataset"] * len(est["datasets"])
    assert rows[0]["zpool_size_bytes"] == str(est["pool"]["zpool_size_bytes"])
    assert rows[1]["name"] == "data[0]" and rows[1]["layout"] == "raidz2" and rows[1]["removable"] == "false"
    photos = next(r for r in rows if r["name"] == "tank/photos")
    assert photos["zfs_used_bytes"] == str(est["datasets"][0]["zfs_used_bytes"])
