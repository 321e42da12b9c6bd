"""The planning partials, their chart JSON (special_small_blocks curve, predicted vs measured) on
design pages and share links, and GET /api/designs/{id}/measured/."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from benchmarks.models import TargetKind
from benchmarks.tasks import parse_upload_task
from tests.benchmarks.conftest import CDM_WD
from tests.factories import BenchRunFactory, PoolDesignFactory, design_document
from zfsplanner.plans.presentation.pages import design_summary
from zfsplanner.plans.services import create_share_link, revoke_share_link
from zfsplanner.plans.services.measurements import measured_comparisons

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _doc(special=True, log=False):
    doc = design_document("tank")
    if special:
        doc["vdevs"].append(
            {
                "role": "special",
                "layout": "mirror",
                "width": 2,
                "count": 1,
                "disk": {"size_bytes": "960GB", "media": "ssd", "plp": True},
            }
        )
    if log:
        doc["vdevs"].append(
            {
                "role": "log",
                "layout": "mirror",
                "width": 2,
                "count": 1,
                "disk": {"size_bytes": "118GB", "model": "SSDPEK1A118GA", "media": "nvme", "plp": True},
            }
        )
    doc["datasets"] = [
        {
            "name": "tank/files",
            "recordsize": "1M",
            "special_small_blocks": "64K",
            "compression": "lz4",
            "contents": {
                "file_size_histogram": [[2000, 100000], [60000, 20000], [900000, 5000]],
                "compressibility": {"profile": "mixed"},
            },
        },
        {
            "name": "tank/vm",
            "type": "volume",
            "volsize": "100G",
            "volblocksize": "16K",
            "contents": {"logical_bytes": 50 * 10**9},
        },
    ]
    return doc


def _attached_pool_run(team, design):
    run = BenchRunFactory(
        upload__team=team,
        upload__data=CDM_WD.read_bytes(),
        upload__original_name=CDM_WD.name,
        design=design,
        target_kind=TargetKind.POOL,
        label="pool run",
    )
    assert parse_upload_task(run.upload.pk) == "parsed"
    return run


# --------------------------------------------------------------------------- partials


def _summary(design):
    """What the views give the partials: the design's presentation (its ``planning`` view)."""
    summary, _ = design_summary(design)
    return summary


def _render(design):
    ctx = {"summary": _summary(design), "design": design}
    return {
        name: render_to_string(f"plans/_{name}.html", ctx) for name in ("special_sizing", "reliability", "performance")
    }


def test_the_partials_lead_with_the_answer_and_fold_the_assumptions(team):
    design = PoolDesignFactory(team=team, document=_doc())
    html = _render(design)
    special = html["special_sizing"]
    assert "Special class size to aim for" in special
    assert f"/designs/{design.pk}/charts/special/0/" in special and f"/designs/{design.pk}/charts/special/1/" in special
    assert "<details" in special and "zfs_special_class_metadata_reserve_pct" in special
    rel = html["reliability"]
    assert "Chance of losing some data within 5 years" in rel
    assert "Backblaze Drive Stats for 2024" in rel and "<details" in rel
    perf = html["performance"]
    assert "Random reads (4 KiB)" in perf and "media default (hdd, 7200 rpm)" in perf
    # no log vdev, no benchmark run attached, no dedup, no cache: said, not left blank
    assert "with a SLOG: does not apply" in perf
    assert "no benchmark run of this pool is attached" in perf
    assert "does not apply: no dataset uses dedup" in perf and "does not apply: no cache device" in perf


def test_without_a_special_vdev_the_size_is_for_one_to_add(team):
    html = _render(PoolDesignFactory(team=team, document=_doc(special=False)))["special_sizing"]
    assert "does not apply" in html and "sizes are for a 1 × mirror of 2 to add" in html


def test_shared_pages_get_share_link_chart_urls(team):
    design = PoolDesignFactory(team=team, document=_doc())
    link = create_share_link(design, None)
    ctx = {"summary": _summary(design), "design": design, "share_token": link.token}
    html = render_to_string("plans/_special_sizing.html", ctx)
    assert f"/share/{link.token}/charts/special/0/" in html and f"/designs/{design.pk}/" not in html


# --------------------------------------------------------------------------- special curve chart


def test_the_special_chart_shows_the_curve_and_the_stop_line(client, alice, team):
    design = PoolDesignFactory(team=team, document=_doc())
    client.force_login(alice)
    chart = client.get(f"/designs/{design.pk}/charts/special/0/").json()
    assert chart["type"] == "line" and chart["unit"] == "bytes_si" and chart["y_scale"] == "logarithmic"
    assert chart["labels"][:3] == ["0 (metadata only)", "4K", "8K"] and chart["labels"][-1].startswith("1M")
    pool_special, on_normal, stop, size = chart["datasets"]
    assert pool_special["data"] == sorted(pool_special["data"])  # rises with the threshold
    assert on_normal["data"][-1] is None  # at the recordsize every block moves over: no zero on a log axis
    assert len(set(stop["data"])) == 1 and stop["data"][0] == int(size["data"][0] * 0.75)


def test_the_special_chart_refuses_unknown_datasets_and_outsiders(client, alice, charlie, team):
    design = PoolDesignFactory(team=team, document=_doc())
    client.force_login(alice)
    assert client.get(f"/designs/{design.pk}/charts/special/5/").status_code == 404
    client.force_login(charlie)
    assert client.get(f"/designs/{design.pk}/charts/special/0/").status_code == 404


def test_share_links_serve_the_charts_until_revoked(client, team):
    design = PoolDesignFactory(team=team, document=_doc())
    link = create_share_link(design, None)
    assert client.get(f"/share/{link.token}/charts/special/1/").status_code == 200
    assert client.get(f"/share/{link.token}/charts/measured/").json()["rows"] == []
    revoke_share_link(link)
    assert client.get(f"/share/{link.token}/charts/special/1/").status_code == 404


# --------------------------------------------------------------------------- predicted vs measured


def test_an_attached_run_is_compared_with_the_prediction(client, alice, team):
    design = PoolDesignFactory(team=team, document=_doc(log=True))
    run = _attached_pool_run(team, design)
    client.force_login(alice)
    chart = client.get(f"/designs/{design.pk}/charts/measured/").json()
    assert chart["unit"] == "percent" and len(chart["rows"]) == 8  # all eight CrystalDiskMark tests
    seq = next(r for r in chart["rows"] if r["test"] == "SEQ1M Q8T1 read")
    assert seq["run"] == run.pk and seq["metric"] == "bandwidth" and seq["measured"] == 531_458_000
    middle = (seq["predicted_low"] * seq["predicted_high"]) ** 0.5
    assert seq["difference_percent"] == pytest.approx((531_458_000 - middle) / middle * 100, abs=0.1)
    assert seq["within_range"] == (seq["predicted_low"] <= 531_458_000 <= seq["predicted_high"])
    rnd = next(r for r in chart["rows"] if r["test"] == "RND4K Q1T1 read")
    assert rnd["metric"] == "iops" and rnd["depth"] == 1
    i = chart["rows"].index(seq)
    assert chart["datasets"][1]["data"][i] == pytest.approx(100 * 531_458_000 / middle, abs=0.1)
    assert "pool run: SEQ1M Q8T1 read (" in chart["labels"][i]
    context = {"summary": _summary(design), "design": design, "measured": measured_comparisons(design)}
    html = render_to_string("plans/_performance.html", context)
    assert f"/designs/{design.pk}/charts/measured/" in html and "SEQ1M Q8T1 read" in html
    assert "SEQ1M Q8T1 read" in client.get(f"/designs/{design.pk}/").content.decode()  # the view passes them


def test_the_performance_partial_reads_no_database(team, django_assert_num_queries):
    """The comparisons come from the view: rendering the partial runs no query."""
    design = PoolDesignFactory(team=team, document=_doc(log=True))
    _attached_pool_run(team, design)
    context = {"summary": _summary(design), "design": design, "measured": measured_comparisons(design)}
    with django_assert_num_queries(0):
        html = render_to_string("plans/_performance.html", context)
    assert "SEQ1M Q8T1 read" in html


def test_the_measured_chart_in_one_unit(client, alice, team):
    design = PoolDesignFactory(team=team, document=_doc())
    _attached_pool_run(team, design)
    client.force_login(alice)
    chart = client.get(f"/designs/{design.pk}/charts/measured/?metric=iops").json()
    assert chart["unit"] == "iops" and all(r["metric"] == "iops" for r in chart["rows"])
    assert client.get(f"/designs/{design.pk}/charts/measured/?metric=colour").status_code == 400


def test_a_disk_run_is_not_compared_with_the_pool(client, alice, team):
    design = PoolDesignFactory(team=team, document=_doc())
    run = BenchRunFactory(
        upload__team=team, upload__data=CDM_WD.read_bytes(), design=design, target_kind=TargetKind.DISK
    )
    parse_upload_task(run.upload.pk)
    client.force_login(alice)
    assert client.get(f"/designs/{design.pk}/charts/measured/").json()["rows"] == []


def test_the_api_lists_the_comparisons(alice, charlie, client_for, team):
    design = PoolDesignFactory(team=team, document=_doc())
    _attached_pool_run(team, design)
    body = client_for(alice).get(f"/api/designs/{design.pk}/measured/").json()
    assert len(body["rows"]) == 8 and body["chart"]["unit"] == "percent"
    assert client_for(alice).get(f"/api/designs/{design.pk}/measured/?metric=x").status_code == 400
    assert client_for(charlie).get(f"/api/designs/{design.pk}/measured/").status_code == 404
