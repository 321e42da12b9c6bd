"""One default release everywhere a page, an import or a sample must pick one: the newest release
the planner knows (``versions.default_version``). A document that names none keeps the design
format's own default, the 2.3 series."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from zfsplanner.core.design.types import DEFAULT_OPENZFS_VERSION
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.importers import import_pool
from zfsplanner.core.versions import NEWEST_RELEASE, SERIES, default_version

from ..compression.conftest import text_sample, upload

pytestmark = pytest.mark.django_db
NEWEST = default_version()
STATUS = """  pool: tank
 state: ONLINE
config:

\tNAME        STATE     READ WRITE CKSUM
\ttank        ONLINE       0     0     0
\t  mirror-0  ONLINE       0     0     0
\t    sda     ONLINE       0     0     0
\t    sdb     ONLINE       0     0     0

errors: No known data errors
"""
LSBLK = """NAME  SIZE LOG-SEC PHY-SEC
sda   16000900661248 512 4096
sdb   16000900661248 512 4096
"""


def selected(html: str, name: str) -> str:
    """The value of the option the page selects in the ``name`` select box."""
    select = html[html.index(f'name="{name}"'):]
    select = select[: select.index("</select>")]
    found = re.search(r'<option value="([^"]+)"[^>]*selected', select)
    assert found is not None, f"nothing selected in {name}"
    return found.group(1)


def test_the_default_is_the_newest_release_the_planner_knows():
    assert NEWEST == str(NEWEST_RELEASE) == "2.4.4"
    assert NEWEST != str(SERIES[DEFAULT_OPENZFS_VERSION].release)  # the pages' default is not the documents'


def test_the_quick_planner_starts_from_it():
    html = Client().get("/plan/").content.decode()
    assert selected(html, "version") == NEWEST
    doc = json.loads(Client().get("/plan/design.json").content)
    assert doc["openzfs_version"] == NEWEST


def test_a_new_design_starts_from_it_in_the_form_and_in_the_document(web, alice):
    html = web(alice).get("/designs/new/").content.decode()
    assert selected(html, "openzfs_version") == NEWEST
    template = html[html.index('name="document"'):]
    assert f"&quot;openzfs_version&quot;: &quot;{NEWEST}&quot;" in template[: template.index("</textarea>")]


def test_the_advisor_page_and_api_start_from_it(web, alice, client_for):
    html = web(alice).get("/advisor/").content.decode()
    assert selected(html, "openzfs_version") == NEWEST
    body = {"candidates": [{"catalog": "ST16000NM001G", "count": 6}],
            "data": {"logical_bytes": "20TB", "growth_per_year": 0.1, "years": 3}}
    rows = client_for(alice).post("/api/advisor/", body, format="json").json()["rows"]
    assert {r["document"]["openzfs_version"] for r in rows} == {NEWEST}


def test_a_compression_sample_starts_from_it(web, alice, client_for):
    html = web(alice).get("/compression/").content.decode()
    assert selected(html, "openzfs_version") == NEWEST
    response = client_for(alice).post("/api/compression/measure/", {"file": upload(text_sample()), "algorithms": "lz4"},
                                      format="multipart")
    assert response.status_code == 200, response.content
    assert response.json()["openzfs_version"] == NEWEST


def test_an_import_whose_outputs_name_no_release_is_built_for_it():
    result = import_pool([("zpool status", STATUS), ("lsblk -b", LSBLK)])
    assert result.document["openzfs_version"] == NEWEST
    assert any(f"the newest release the planner knows, {NEWEST}, is used" in n for n in result.notes)


def test_a_document_that_names_no_release_keeps_the_formats_default():
    doc = {"format": "zfsplanner.design/1", "name": "tank",
           "vdevs": [{"role": "data", "layout": "mirror", "width": 2, "disk": {"size_bytes": "16TB"}}]}
    assert parse_design(doc).version == DEFAULT_OPENZFS_VERSION == "2.3"
