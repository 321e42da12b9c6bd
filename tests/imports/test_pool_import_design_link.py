"""An import sent for a design (collect.sh --design) and an import saved as a design, on the import page and
on the design page: which one it is, and a warning when the design is not laid out as the pool."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.core.import_samples import text
from tests.factories import PoolDesignFactory, design_document
from zfsplanner.accounts.tokens import issue_upload_token
from zfsplanner.imports.models import DesignLink, PoolImport
from zfsplanner.imports.services import save_pool_import

pytestmark = pytest.mark.django_db
LINUX = "linux-2.3-raidz2-special-log-cache-spare.txt"  # 6-wide raidz2, a special mirror, log, cache, spare
WARNING = ("The design has 8 disks in raidz2, the pool 6 in raidz2; the design has no special vdevs, the pool has "
           "2 special disks in mirrors: the figures compare different layouts.")


def send_for(alice, team, design) -> PoolImport:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_upload_token(alice, team)[1]}")
    made = client.post("/api/pool-imports/", {"text": text(LINUX), "pool": "tank", "design": design.pk}, format="json")
    assert made.status_code == 201, made.data
    return PoolImport.objects.get(pk=made.data["id"])


def eight_wide(team):
    doc = design_document("tank")
    doc["vdevs"][0]["width"] = 8
    return PoolDesignFactory(team=team, name="tank", document=doc)


def test_an_import_sent_for_a_design_says_so_and_warns_of_another_layout(web, alice, team):
    design = eight_wide(team)
    record = send_for(alice, team, design)
    assert record.design_link == DesignLink.ATTACHED
    html = web(alice).get(f"/imports/pool/{record.pk}/").content.decode()
    assert "Saved as a design" not in html
    assert re.search(rf'id="import-attached">Sent for design <a href="/designs/{design.pk}/">tank</a>', html)
    assert f'id="import-layout-differs">{WARNING}</p>' in html
    assert '<h2 id="save-title">Save as a new design</h2>' in html and 'id="save-import-form"' in html


def test_the_design_page_warns_above_the_figures_of_another_layout(web, alice, team):
    design = eight_wide(team)
    send_for(alice, team, design)
    html = web(alice).get(f"/designs/{design.pk}/").content.decode()
    assert f'id="attached-layout-differs">{WARNING}</p>' in html
    assert html.index('id="attached-layout-differs"') < html.index('id="attached-size"')


def test_the_same_layout_gives_no_warning(web, alice, team):
    first = send_for(alice, team, eight_wide(team))
    saved = save_pool_import(first, team, alice, "tank")
    record = send_for(alice, team, saved)
    assert 'id="import-layout-differs"' not in web(alice).get(f"/imports/pool/{record.pk}/").content.decode()
    page = web(alice).get(f"/designs/{saved.pk}/").content.decode()
    assert 'id="attached-size"' in page and 'id="attached-layout-differs"' not in page


def test_an_import_saved_as_a_design_shows_it_and_no_second_form(web, alice, team):
    record = send_for(alice, team, eight_wide(team))
    response = web(alice).post(f"/imports/pool/{record.pk}/save/", {"team": team.pk, "name": "tank-now"})
    assert response.status_code == 302
    record.refresh_from_db()
    assert record.design_link == DesignLink.SAVED and record.design.name == "tank-now"
    html = web(alice).get(f"/imports/pool/{record.pk}/").content.decode()
    assert '<h2 id="save-title">Saved as a design</h2>' in html
    assert f'This import is design <a href="/designs/{record.design.pk}/">tank-now</a>' in html
    assert 'id="save-import-form"' not in html and "Sent for design" not in html
    assert 'id="import-layout-differs"' not in html
