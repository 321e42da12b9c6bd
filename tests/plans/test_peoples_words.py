"""Pages name vdev groups and datasets as a person would; only the API keeps JSON paths."""

from __future__ import annotations

import json
import re

import pytest

from tests.factories import design_document
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

JSON_PATH = re.compile(r"\b(vdevs|datasets)\[\d|\b(host|extra)\.[a-z]")
RAIDZ2 = "the data vdev (group 1: 6-wide raidz2)"


@pytest.fixture
def design(team, alice):
    return save_design_document(team, design_document("tank"), alice)


def summaries(design):
    return list(PoolDesign.objects.get(pk=design.pk).revisions.order_by("number").values_list("summary", flat=True))


def special_mirror_post(design):
    p = "vnew"
    return {
        "index": "new",
        "revision": design.revision,
        f"{p}-role": "special",
        f"{p}-layout": "mirror",
        f"{p}-width": 2,
        f"{p}-count": 1,
        f"{p}-ashift": "",
        f"{p}-disk": "__custom__",
        f"{p}-custom_size": "1TB",
        f"{p}-custom_sectors": "4Kn",
        f"{p}-custom_media": "ssd",
    }


def test_adding_a_group_and_a_dataset_says_what_was_added(design, alice, web):
    c = web(alice)
    response = c.post(f"/designs/{design.pk}/designer/vdev/", special_mirror_post(design), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Saved revision 2: added the special mirror (group 2)." in response.content.decode()
    body = {"index": "new", "revision": 2, "dnew-name": "tank/media", "dnew-type": "filesystem"}
    response = c.post(f"/designs/{design.pk}/designer/dataset/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Saved revision 3: added dataset tank/media." in html
    assert summaries(design)[1:] == ["added the special mirror (group 2)", "added dataset tank/media"]
    assert not JSON_PATH.search(" ".join(summaries(design)))


def test_row_operations_name_the_row_as_it_was(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "layout": "mirror", "width": 2})
    design = save_design_document(team, doc, alice)
    c = web(alice)
    c.post(f"/designs/{design.pk}/designer/row/", {"op": "down", "section": "vdevs", "index": 0, "revision": 1})
    c.post(f"/designs/{design.pk}/designer/row/", {"op": "duplicate", "section": "datasets", "index": 0, "revision": 2})
    assert summaries(design)[1:] == [
        f"moved down {RAIDZ2}",
        "duplicated dataset tank/data",
    ]


def test_a_refused_row_operation_names_the_group_not_its_path(design, alice, web):
    response = web(alice).post(
        f"/designs/{design.pk}/designer/row/",
        {"op": "remove", "section": "vdevs", "index": 0, "revision": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert f"Not done: removing {RAIDZ2} is refused. The vdev groups: needs at least one data vdev." in html
    assert not JSON_PATH.search(html.split('id="risks"')[0].split("<textarea")[0])


def test_a_one_click_fix_is_summarised_with_the_groups_name(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    design = save_design_document(team, doc, alice)
    response = web(alice).post(
        f"/designs/{design.pk}/fix/",
        {"code": "special-redundancy-below-data", "subject": "vdevs[1]", "revision": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    (summary,) = summaries(design)[1:]
    assert summary.startswith("fix for the special mirror (group 2): Make it a 3-way mirror")


def test_risks_on_the_design_page_are_in_words(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    design = save_design_document(team, doc, alice)
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert "The special mirror (group 2) tolerates fewer failures than the data vdevs" in html
    assert 'data-subject="vdevs[1]"' in html  # the fix form still posts the risk's path
    for title in re.findall(r'<p class="risk-title">(.*?)</p>', html, re.S):
        assert not JSON_PATH.search(title), title


def test_json_tab_errors_name_the_part_not_its_path(design, alice, web):
    doc = design_document("tank")
    doc["datasets"][0]["recordsize"] = "3K"
    doc["vdevs"][0]["disk"]["physical_sector_bytes"] = 3000
    response = web(alice).post(
        f"/designs/{design.pk}/edit/", {"document": json.dumps(doc), "revision": 1}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    errors = response.content.decode().split('class="form-errors')[1].split("</div>")[0]
    assert "Recordsize of dataset tank/data: must be a power of two" in errors
    assert f"Physical sector size of the disks of {RAIDZ2}: must be a power of two" in errors
    assert not JSON_PATH.search(errors)


def test_the_api_keeps_the_paths(team, alice, client_for):
    doc = design_document("tank")
    doc["datasets"][0]["recordsize"] = "3K"
    response = client_for(alice).post("/api/designs/", {**doc, "team": team.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "datasets[0].recordsize"


def test_reliability_assumptions_name_the_groups():
    from pathlib import Path

    from zfsplanner.core.document.parse import parse_design
    from zfsplanner.core.estimate import estimate
    from zfsplanner.plans.presentation.planning import planning_view

    doc = json.loads((Path(__file__).resolve().parents[2] / "examples" / "home-server.json").read_text())
    view = planning_view(estimate(parse_design(doc)))
    labels = [a.name for a in view.reliability.assumptions]
    assert f"Fill of {RAIDZ2} at rebuild time" in labels
    assert "Rebuild speed of the special mirror (group 2)" in labels
    assert not JSON_PATH.search(" ".join(labels))
