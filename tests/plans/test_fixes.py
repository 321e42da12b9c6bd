"""One-click fixes go through one service (services.fixes.apply_fix): the designer and the API find the
same risk, build the same fix and save the same revision."""

from __future__ import annotations

import pytest

from tests.factories import design_document
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document

pytestmark = pytest.mark.django_db

FIX = {"code": "special-redundancy-below-data", "subject": "vdevs[1]"}


def _special_mirror(team, alice, name="tank"):
    doc = design_document(name)
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    return save_design_document(team, doc, alice)


def _newest(design):
    design = PoolDesign.objects.get(pk=design.pk)
    return design, design.revisions.order_by("-number").first()


def test_the_designer_and_the_api_save_the_same_fix(team, alice, web, client_for):
    by_page, by_api = _special_mirror(team, alice), _special_mirror(team, alice, "tank2")
    page = web(alice).post(f"/designs/{by_page.pk}/fix/", {**FIX, "revision": 1}, HTTP_HX_REQUEST="true")
    api = client_for(alice).post(f"/api/designs/{by_api.pk}/fixes/apply/", {**FIX, "revision": 1}, format="json")
    assert page.status_code == 200 and api.status_code == 200
    (page_design, page_rev), (api_design, api_rev) = _newest(by_page), _newest(by_api)
    assert page_rev.kind == api_rev.kind == "fix"
    assert page_rev.summary == api_rev.summary
    assert api_rev.summary.startswith("fix for the special mirror (group 2): Make it a 3-way mirror")
    assert page_design.to_document()["vdevs"] == api_design.to_document()["vdevs"]


def test_a_fix_on_a_stale_revision_is_refused_by_both(team, alice, web, client_for):
    design = _special_mirror(team, alice)
    save_design_document(team, {**design.to_document(), "description": "someone else's edit"}, alice, instance=design)
    page = web(alice).post(f"/designs/{design.pk}/fix/", {**FIX, "revision": 1}, HTTP_HX_REQUEST="true")
    assert page.status_code == 409 and "changed while you were editing" in page.content.decode()
    api = client_for(alice).post(f"/api/designs/{design.pk}/fixes/apply/", {**FIX, "revision": 1}, format="json")
    assert api.status_code == 409 and api.json()["revision"] == 2
    assert PoolDesign.objects.get(pk=design.pk).revision == 2


def test_a_risk_without_a_fix_is_refused_by_both(team, alice, web, client_for):
    design = _special_mirror(team, alice)
    gone = {"code": "special-redundancy-below-data", "subject": "vdevs[0]"}
    page = web(alice).post(f"/designs/{design.pk}/fix/", {**gone, "revision": 1}, HTTP_HX_REQUEST="true")
    assert page.status_code == 409 and "That risk is gone or has no one-click fix any more." in page.content.decode()
    api = client_for(alice).post(f"/api/designs/{design.pk}/fixes/apply/", {**gone, "revision": 1}, format="json")
    assert api.status_code == 400 and "vdevs[0]" in api.json()["code"][0]
    assert PoolDesign.objects.get(pk=design.pk).revision == 1
