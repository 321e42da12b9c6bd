"""Markdown and CSV reports of a design and its estimate."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.core.import_samples import text
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.importers import import_pool
from zfsplanner.core.report import headline, markdown
from zfsplanner.core.report.html_text import markdown_to_html
from zfsplanner.core.report.spreadsheet import csv_text
from zfsplanner.core.report.tables import generic, value

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def example(name="home-server.json"):
    design = parse_design(json.loads((EXAMPLES / name).read_text()))
    return design, estimate(design)


def test_the_markdown_report_leads_with_the_answer():
    design, est = example()
    md = markdown(design, est, meta={"team": "Alpha", "revision": "3"})
    lines = md.splitlines()
    assert lines[0] == "# ZFS pool design: tank"
    summary = md.split("## Summary")[1].split("##")[0]
    assert "- **Usable space:** 50.75 TiB — what `zfs list` shows as AVAIL for the empty pool (it prints 50.8T)" \
        in summary
    assert "`zpool list` shows as SIZE (it prints 77.3T)" in summary
    assert "**Disk failures survived:** Any 1 disk failure per vdev" in summary
    assert "**Risks:** 2 warning, 2 info." in summary
    assert "- Team: Alpha" in md and "- Revision: 3" in md


def test_the_report_uses_one_unit_at_a_time():
    design, est = example()
    tib, tb = markdown(design, est), markdown(design, est, unit="TB")
    assert "Sizes are in binary units (TiB" in tib and "Sizes are in decimal units (TB" in tb
    assert "**Usable space:** 55.80 TB" in tb and "**Raw disks:** 86.96 TB" in tb
    usable_line = next(line for line in tb.splitlines() if line.startswith("- **Usable space"))
    assert "TiB" not in usable_line.split("—")[0]


def test_the_report_and_the_page_read_one_headline():
    """The survivors text when no vdev holds data is the page's ("does not apply"), not a second wording."""
    design, est = example()
    no_data = replace(est, vdevs=tuple(v for v in est.vdevs if v.role in ("log", "cache")))
    top = headline(no_data)
    assert top.survives is None and top.survives_text == "does not apply"
    assert "**Disk failures survived:** does not apply" in markdown(design, no_data)
    assert headline(est).survives == 1 and headline(est).usable_bytes == est.pool.zfs_avail_bytes


def test_every_section_is_there_with_labels_in_words():
    design, est = example()
    md = markdown(design, est)
    for heading in ("## Vdevs", "## Datasets", "## Space, figure by figure", "## Risks", "## Special vdev size",
                    "## How likely is losing data", "## How fast it will be", "## SLOG and RAM",
                    "## Compared with Linux md RAID", "## Commands"):
        assert heading in md, heading
    assert "| data | 1 × raidz2 of 6 | ST14000NM001G 14.00 TB | 12 | 76.39 TiB | 2 | no |" in md
    assert "tank/photos" in md.split("## Datasets")[1].split("##")[0]
    assert "$ zpool list -o name,size tank" in md and "tank  77.3T" in md
    assert "(rule `special-vdev-irremovable`)" in md and "**Fix:**" in md
    assert "| Annualized failure rate, ST14000NM001G | 1.57 % per year | Backblaze Drive Stats for 2024" in md
    assert "| Fill of vdev group 1 at rebuild time | 0.1 % | planned contents |" in md
    assert "zpool create" in md.split("## Commands")[1]


def test_the_report_gives_the_replacement_wait_the_figures_use_even_none():
    doc = json.loads((EXAMPLES / "home-server.json").read_text())
    doc["reliability"] = {"replacement_hours": 0}
    design = parse_design(doc)
    est = estimate(design)
    assert est.reliability.assumptions.replacement_hours == 0
    assert "| Wait before a rebuild starts | 0 h without a hot spare; none with one |" in markdown(design, est)


@pytest.mark.parametrize("name", ["home-server.json", "draid.json"])
def test_no_field_name_of_the_estimate_is_shown(name):
    design, est = example(name)
    for report in (markdown(design, est), markdown_to_html(markdown(design, est, unit="TB"))):
        # OpenZFS module parameters (zfs_special_class_metadata_reserve_pct) are names a reader looks up
        raw = [t for t in re.findall(r"\b\w+_(?:bytes|pct|fraction)\w*", report) if not t.startswith("zfs_")]
        assert raw == [], raw
        for words in ("reserve pct", "fill fraction by vdev", "ure per bit", "afr source"):
            assert words not in report.lower()


def test_estimate_sections_added_later_are_rendered_too():
    lifespan = {"model": "x" * 100, "wear_bytes": 10**15, "rows": [{"year": 1, "fill_fraction": 0.5}]}
    md = "\n".join(generic("lifespan", lifespan, unit="TiB"))
    assert "## Lifespan" in md and "| Wear | 909.49 TiB |" in md
    assert "| Year | Fill |" in md and "| 1 | 50 % |" in md


def test_values_follow_their_units():
    assert value("seq_read_bytes_per_s", {"low": 2.5e8, "high": 5e8}) == "250 MB/s – 500 MB/s"
    assert value("resilver_seconds", 3 * 3600 + 7 * 60) == "3.1 h"
    assert value("wear_bytes", 10**12, "TB") == "1.00 TB"
    assert value("1y", 0.000123) == "0.0123 %"
    assert value("removable", False) == "no"
    assert generic("empty", {})[0] == "## Empty"


def test_an_imported_design_shows_model_vs_pool():
    doc = import_pool([("p", text("calibration-2.3.2-2x-raidz2-6-files.txt"))]).document
    design = parse_design(doc)
    md = markdown(design, estimate(design))
    part = md.split("## Model vs the pool it was imported from")[1]
    assert "| SIZE | zpool list | 1.16 TiB | 1.16 TiB | +0 B | +0.00 % |  |" in part
    assert "OpenZFS 2.3.2, from zfs version" in part


def test_the_csv_has_a_row_per_vdev_and_dataset():
    design, est = example()
    rows = list(csv.DictReader(io.StringIO(csv_text(design, est))))
    kinds = [r["kind"] for r in rows]
    assert kinds == ["pool"] + ["vdev"] * len(est.vdevs) + ["dataset"] * len(est.datasets)
    assert rows[0]["zpool_size_bytes"] == str(est.pool.zpool_size_bytes)
    assert rows[1]["name"] == "data[0]" and rows[1]["layout"] == "raidz2" and rows[1]["removable"] == "false"
    photos = next(r for r in rows if r["name"] == "tank/photos")
    assert photos["zfs_used_bytes"] == str(est.datasets[0].zfs_used_bytes)


def test_the_csv_keeps_its_columns_and_adds_a_label_in_words():
    design, est = example()
    text = csv_text(design, est)
    header = text.splitlines()[0].split(",")
    assert header[:21] == ["kind", "name", "role", "layout", "width", "count", "ashift", "fault_tolerance",
                           "zpool_size_bytes", "zfs_avail_bytes", "raw_bytes", "logical_bytes", "compressratio",
                           "data_allocated_bytes", "metadata_allocated_bytes", "special_allocated_bytes",
                           "normal_allocated_bytes", "zfs_used_bytes", "referenced_bytes", "raidz_overhead_fraction",
                           "removable"]
    assert header[-1] == "label"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["label"] for r in rows[:2]] == ["pool tank", "data vdev 1: 6-disk raidz2"]
    assert {r["label"] for r in rows if r["kind"] == "dataset"} == {"dataset tank/photos", "volume tank/vm-100-disk-0"}


def test_the_space_table_leaves_out_what_the_design_does_not_have():
    design, est = example("draid.json")
    space = markdown(design, est).split("## Space, figure by figure")[1].split("##")[0]
    assert "| Usable space, empty pool (AVAIL) | 511.39 TiB | 511T |" in space
    for absent in ("Free after the planned contents", "Used by the planned contents", "Log devices", "Hot spares"):
        assert absent not in space
