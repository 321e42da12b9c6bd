"""The designer's "Host and planning" form: RAM, failure rates, read-error rates, replacement wait, fill level."""

from __future__ import annotations

import pytest

from tests.factories import design_document
from zfsplanner.plans.models import CatalogDisk, PoolDesign
from zfsplanner.plans.services import estimate_design, save_design_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(team, alice):
    doc = design_document("tank")
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 2, "count": 1, "ashift": 12,
                         "disk": {"size_bytes": 960 * 10**9, "media": "ssd", "logical_sector_bytes": 512,
                                  "physical_sector_bytes": 4096}})
    return save_design_document(team, doc, alice)


def _form(design, **fields):
    body = {"revision": design.revision}
    body.update({f"host-{k}": v for k, v in fields.items()})
    return body


def test_the_form_shows_what_each_empty_field_inherits_and_from_where(web, alice, design):
    r = web(alice).get(f"/designs/{design.pk}/designer/host/")
    assert r.status_code == 200
    page = r.content.decode()
    assert 'id="host-form"' in page and 'name="host-ram"' in page
    assert "Failure rate of ST14000NM001G disks (%/year)" in page and "Failure rate of ssd disks (%/year)" in page
    assert "Default: 1.57 %/year (Backblaze Drive Stats for 2024, all data drives)." in page
    assert "Default: 0.98 %/year (Backblaze Drive Stats SSD edition for 2022 (boot SSDs))." in page
    assert "Default: 1 per 10¹⁵ bits (data-sheet class default)." in page  # HDD read errors
    assert "Default: 1 per 10¹⁶ bits (data-sheet class default)." in page  # SSD read errors
    assert "Default: 24 h (a new disk within a day; no wait with a hot spare)." in page
    assert "Default: the planned contents" in page  # the design plans 1 TB of data
    assert 'placeholder="1.57"' in page and 'placeholder="10^16"' in page and 'placeholder="24"' in page
    assert "Default: not given (the SLOG sizing then assumes the 4 GiB cap of zfs_dirty_data_max)." in page


def test_a_catalog_failure_rate_is_what_the_field_inherits(web, alice, design):
    CatalogDisk.objects.filter(model="ST14000NM001G").update(afr=0.0121, afr_source="Backblaze Q2 2025, this model")
    page = web(alice).get(f"/designs/{design.pk}/designer/host/").content.decode()
    assert "Default: 1.21 %/year (Backblaze Q2 2025, this model)." in page


def test_saving_writes_the_document_as_a_new_revision_and_the_estimate_follows(web, alice, design):
    before = estimate_design(design).to_document()["reliability"]["assumptions"]
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", _form(
        design, ram="64 GiB", replacement_hours="72", fill_percent="90", afr_0="3", afr_1="", ure_hdd="10^14",
        ure_ssd=""), HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    assert "Saved revision 2: host and planning inputs changed." in r.content.decode()
    design = PoolDesign.objects.get(pk=design.pk)
    doc = design.to_document()
    assert doc["host"] == {"ram_bytes": 64 * 1024**3}
    assert doc["reliability"] == {"replacement_hours": 72.0, "fill_fraction": 0.9,
                                  "afr": {"ST14000NM001G": 0.03}, "ure_per_bit": {"hdd": 1e-14}}
    after = estimate_design(design).to_document()
    a = after["reliability"]["assumptions"]
    assert a["afr"]["ST14000NM001G"] == 0.03 and a["afr_source"]["ST14000NM001G"] == "design"
    assert a["afr"]["ssd"] == before["afr"]["ssd"]  # the empty field inherits
    assert a["ure_per_bit"]["hdd"] == 1e-14 and a["replacement_hours"] == 72.0 and a["fill_source"] == "design"
    assert after["sizing"]["ram"]["ram_bytes"] == 64 * 1024**3


def test_emptying_a_field_returns_to_the_inherited_value_and_keeps_other_keys(web, alice, team):
    doc = design_document("tank")
    doc["reliability"] = {"afr": {"ST14000NM001G": 0.05}, "rebuild_bytes_per_s": {"vdevs[0]": 1e8},
                          "replacement_hours": 12}
    doc["host"] = {"ram_bytes": 32 * 1024**3, "tunables": {"zfs_nocacheflush": 1}}
    design = save_design_document(team, doc, alice)
    page = web(alice).get(f"/designs/{design.pk}/designer/host/").content.decode()
    assert 'value="32 GiB"' in page and 'value="5.0"' in page and 'value="12"' in page
    assert "\nzfs_nocacheflush=1</textarea>" in page
    # the browser sends the module parameters as the field shows them
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", _form(design, tunables="zfs_nocacheflush=1"),
                        HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    saved = PoolDesign.objects.get(pk=design.pk).to_document()
    assert saved["reliability"] == {"rebuild_bytes_per_s": {"vdevs[0]": 1e8}}
    assert saved["host"] == {"tunables": {"zfs_nocacheflush": 1}}  # unchanged, still the number written


def test_module_parameters_are_saved_and_a_risky_one_is_named_among_the_risks(web, alice, design):
    r = web(alice).post(f"/designs/{design.pk}/designer/host/",
                        _form(design, tunables="zfs_nocacheflush=1\nzfs_arc_max = 8589934592"),
                        HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    saved = PoolDesign.objects.get(pk=design.pk)
    assert saved.to_document()["host"] == {"tunables": {"zfs_nocacheflush": "1", "zfs_arc_max": "8589934592"}}
    codes = [risk.code for risk in estimate_design(saved).risks]
    assert "host-nocacheflush" in codes
    page = web(alice).get(f"/designs/{saved.pk}/designer/").content.decode()
    assert "The host sets zfs_nocacheflush=1" in page
    # emptying the field takes them out again
    web(alice).post(f"/designs/{saved.pk}/designer/host/", _form(saved, tunables=""), HTTP_HX_REQUEST="true")
    assert "host" not in PoolDesign.objects.get(pk=saved.pk).to_document()


@pytest.mark.parametrize(("text", "message"), [
    ("zfs_nocacheflush", "Entry 1 (&#x27;zfs_nocacheflush&#x27;) is not name=value"),
    ("zfs nocacheflush=1", "is not a module parameter name"),
])
def test_bad_module_parameters_are_named_next_to_the_field(web, alice, design, text, message):
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", _form(design, tunables=text), HTTP_HX_REQUEST="true")
    page = r.content.decode()
    assert message in page
    assert PoolDesign.objects.get(pk=design.pk).revision == design.revision


@pytest.mark.parametrize(("field", "value", "message"), [
    ("ram", "64G", "Write it with its unit"),
    ("ure_hdd", "often", "Write the bits read per error"),
    ("ure_hdd", "1000", "At least 10^6 bits per error"),
    ("fill_percent", "0", "greater than or equal to 0.1"),
    ("afr_0", "120", "less than or equal to 100"),
])
def test_a_bad_value_comes_back_at_its_field_and_nothing_is_saved(web, alice, design, field, value, message):
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", _form(design, **{field: value}), HTTP_HX_REQUEST="true")
    assert r.status_code == 422
    page = r.content.decode()
    assert message in page and 'id="host-planning-fold" open' in page
    assert f'value="{value}"' in page  # what was typed is kept
    assert PoolDesign.objects.get(pk=design.pk).revision == design.revision


def test_a_stale_revision_is_a_conflict_that_keeps_the_form(web, alice, design):
    body = _form(design, replacement_hours="48")
    body["revision"] = design.revision - 1
    r = web(alice).post(f"/designs/{design.pk}/designer/host/", body, HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and 'value="48"' in r.content.decode()


def test_viewers_and_outsiders_cannot_change_it(web, bob, charlie, design):
    assert web(bob).post(f"/designs/{design.pk}/designer/host/", _form(design, ram="8 GiB")).status_code == 403
    assert web(charlie).get(f"/designs/{design.pk}/designer/host/").status_code == 404


def test_the_designer_links_the_fold(web, alice, design):
    page = web(alice).get(f"/designs/{design.pk}/designer/").content.decode()
    assert f'hx-get="/designs/{design.pk}/designer/host/"' in page and "Host and planning" in page
