"""The designer through the test client: forms change the design one revision at a time."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tests.factories import design_document
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.estimate import estimate
from zfsplanner.core.risk.fixes import design_fix
from zfsplanner.core.units import format_iec
from zfsplanner.plans.models import CatalogDisk, DesignRevision, PoolDesign
from zfsplanner.plans.services import save_design_document


@pytest.fixture
def design(team, alice):
    return save_design_document(team, design_document("tank"), alice)


def vdev_post(design, index="new", **fields):
    prefix = "vnew" if index == "new" else f"v{index}"
    body = {
        "index": index,
        "revision": design.revision,
        f"{prefix}-role": "data",
        f"{prefix}-layout": "raidz2",
        f"{prefix}-width": 6,
        f"{prefix}-count": 1,
        f"{prefix}-ashift": "",
        f"{prefix}-disk": "__custom__",
        f"{prefix}-custom_size": "14TB",
        f"{prefix}-custom_sectors": "512e",
        f"{prefix}-custom_media": "hdd",
    }
    body.update({f"{prefix}-{k}": v for k, v in fields.items()})
    return body


def test_new_design_from_the_form_opens_the_designer(team, alice, web):
    disk = CatalogDisk.objects.filter(media="hdd").first()
    response = web(alice).post(
        "/designs/new/",
        {
            "team": team.pk,
            "name": "tank",
            "openzfs_version": "2.3",
            "first-layout": "raidz2",
            "first-width": 8,
            "first-count": 1,
            "first-disk": disk.model,
        },
    )
    design = PoolDesign.objects.get(team=team)
    assert response.status_code == 302
    assert response["Location"] == f"/designs/{design.pk}/designer/"
    group = design.vdevs.get()
    assert (group.role, group.layout, group.width, group.catalog_disk) == ("data", "raidz2", 8, disk)
    assert design.revisions.get().kind == "create"


def test_new_design_form_error_is_at_the_field_and_saves_nothing(team, alice, web):
    response = web(alice).post(
        "/designs/new/",
        {
            "team": team.pk,
            "name": "tank",
            "openzfs_version": "2.3",
            "first-layout": "raidz2",
            "first-width": 2,
            "first-count": 1,
            "first-disk": "__custom__",
            "first-custom_size": "14TB",
        },
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert 'class="error field-error"' in html and "raidz2 needs at least 3 disks" in html
    assert not PoolDesign.objects.exists()


def test_adding_a_vdev_group_saves_a_revision_and_returns_the_new_estimate(design, alice, web):
    body = vdev_post(
        design, role="special", layout="mirror", width=2, custom_size="1TB", custom_media="ssd", custom_sectors="4Kn"
    )
    response = web(alice).post(f"/designs/{design.pk}/designer/vdev/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    design.refresh_from_db()
    assert design.revision == 2
    assert [(v.role, v.layout, v.width) for v in design.vdevs.all()] == [
        ("data", "raidz2", 6),
        ("special", "mirror", 2),
    ]
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="designer"')
    expected = estimate(parse_design(design.to_document())).to_document()
    assert format_iec(expected["pool"]["zfs_avail_bytes"]) in html
    assert 'data-code="special-redundancy-below-data"' in html


def test_an_invalid_change_is_422_with_the_message_at_the_field(design, alice, web):
    body = vdev_post(design, index=0, width=2)
    response = web(alice).post(f"/designs/{design.pk}/designer/vdev/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    html = response.content.decode()
    assert "raidz2 needs at least 3 disks" in html
    assert 'name="v0-width" value="2"' in html  # the user's input is kept
    design.refresh_from_db()
    assert design.revision == 1 and design.vdevs.get().width == 6


def test_a_change_on_an_old_revision_is_a_conflict_that_keeps_the_input(design, alice, erin, web):
    web(erin).post(f"/designs/{design.pk}/designer/vdev/", vdev_post(design, index=0, count=2), HTTP_HX_REQUEST="true")
    stale = vdev_post(design, index=0, width=8)  # made on revision 1
    response = web(alice).post(f"/designs/{design.pk}/designer/vdev/", stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    html = response.content.decode()
    assert "changed while you were editing" in html and "erin" in html
    assert 'name="v0-width" value="8"' in html
    assert 'name="revision" value="2"' in html  # a second Save applies it on top of revision 2
    design.refresh_from_db()
    assert design.revision == 2 and design.vdevs.get().count == 2 and design.vdevs.get().width == 6


def test_dataset_form_adds_a_dataset_with_inheritance_left_unset(design, alice, web):
    body = {
        "index": "new",
        "revision": 1,
        "dnew-name": "tank/media",
        "dnew-type": "filesystem",
        "dnew-recordsize": "1M",
        "dnew-compression": "zstd",
        "dnew-logical_size": "8TB",
        "dnew-profile": "mixed",
    }
    response = web(alice).post(f"/designs/{design.pk}/designer/dataset/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    ds = PoolDesign.objects.get(pk=design.pk).to_document()["datasets"][-1]
    assert ds["name"] == "tank/media" and ds["recordsize"] == "1M" and ds["compression"] == "zstd"
    assert ds["contents"] == {"logical_bytes": 8 * 10**12, "compressibility": {"profile": "mixed"}}
    assert "sync" not in ds and "copies" not in ds


@pytest.mark.parametrize(
    ("op", "expected"),
    [("duplicate", ["raidz2", "raidz2", "mirror"]), ("remove", ["mirror"]), ("down", ["mirror", "raidz2"])],
)
def test_row_operations(op, expected, team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "layout": "mirror", "width": 2})
    design = save_design_document(team, doc, alice)
    response = web(alice).post(
        f"/designs/{design.pk}/designer/row/", {"op": op, "section": "vdevs", "index": 0, "revision": 1}
    )
    assert response.status_code == 302
    assert [v.layout for v in PoolDesign.objects.get(pk=design.pk).vdevs.all()] == expected


def test_removing_the_last_data_vdev_is_refused_and_saves_nothing(design, alice, web):
    response = web(alice).post(
        f"/designs/{design.pk}/designer/row/",
        {"op": "remove", "section": "vdevs", "index": 0, "revision": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "Not done" in response.content.decode()
    assert PoolDesign.objects.get(pk=design.pk).revision == 1


def test_one_click_fix_then_undo_then_redo(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    design = save_design_document(team, doc, alice)
    c = web(alice)
    response = c.post(
        f"/designs/{design.pk}/fix/",
        {"code": "special-redundancy-below-data", "subject": "vdevs[1]", "revision": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    design.refresh_from_db()
    assert design.revision == 2 and design.vdevs.all()[1].width == 3
    assert design.revisions.get(number=2).kind == "fix"
    assert 'data-code="special-redundancy-below-data"' not in response.content.decode()

    c.post(f"/designs/{design.pk}/undo/", {"revision": 2}, HTTP_HX_REQUEST="true")
    design.refresh_from_db()
    assert design.revision == 3 and design.vdevs.all()[1].width == 2

    c.post(f"/designs/{design.pk}/redo/", {"revision": 3}, HTTP_HX_REQUEST="true")
    design.refresh_from_db()
    assert design.revision == 4 and design.vdevs.all()[1].width == 3
    response = c.post(f"/designs/{design.pk}/redo/", {"revision": 4}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and "nothing to redo" in response.content.decode()


def test_undo_walks_back_several_steps_and_redo_forward(design, alice, web):
    c = web(alice)
    for count in (2, 3):
        d = PoolDesign.objects.get(pk=design.pk)
        c.post(f"/designs/{design.pk}/designer/vdev/", vdev_post(d, index=0, count=count))
    counts = []
    for _ in range(2):
        d = PoolDesign.objects.get(pk=design.pk)
        c.post(f"/designs/{design.pk}/undo/", {"revision": d.revision})
        counts.append(PoolDesign.objects.get(pk=design.pk).vdevs.get().count)
    assert counts == [2, 1]
    d = PoolDesign.objects.get(pk=design.pk)
    assert c.post(f"/designs/{design.pk}/undo/", {"revision": d.revision}).status_code == 409  # nothing left
    for expected in (2, 3):
        d = PoolDesign.objects.get(pk=design.pk)
        c.post(f"/designs/{design.pk}/redo/", {"revision": d.revision})
        assert PoolDesign.objects.get(pk=design.pk).vdevs.get().count == expected
    numbers = list(DesignRevision.objects.filter(design=design).values_list("number", flat=True))
    assert sorted(numbers) == list(range(1, PoolDesign.objects.get(pk=design.pk).revision + 1))


def test_viewer_cannot_change_the_design(design, bob, web):
    c = web(bob)
    assert c.post(f"/designs/{design.pk}/designer/vdev/", vdev_post(design, index=0)).status_code == 403
    assert c.post(f"/designs/{design.pk}/undo/", {"revision": 1}).status_code == 403
    assert c.get(f"/designs/{design.pk}/designer/").status_code == 302  # to the read-only summary


def test_outsider_gets_404(design, alice, charlie, web):
    c = web(charlie)
    assert c.get(f"/designs/{design.pk}/designer/").status_code == 404
    assert c.post(f"/designs/{design.pk}/duplicate/").status_code == 404
    # the design's revision as the compare page shows it (not "r1" alone: a CSRF token may hold it)
    shown = ('r1</span>', f"{design.team.name} · r1")
    html = c.get(f"/designs/compare/?ids={design.pk}").content.decode()
    assert not any(s in html for s in shown)
    html = web(alice).get(f"/designs/compare/?ids={design.pk}").content.decode()
    assert all(s in html for s in shown)


def test_duplicate_as_variant_and_compare(design, alice, web):
    c = web(alice)
    response = c.post(f"/designs/{design.pk}/duplicate/")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    assert response["Location"] == f"/designs/{variant.pk}/designer/"
    assert variant.name == "tank-v2" and variant.to_document()["vdevs"] == design.to_document()["vdevs"]
    html = c.get(f"/designs/compare/?ids={design.pk},{variant.pk}").content.decode()
    assert 'id="compare-summary"' in html and "tank-v2" in html
    chart = c.get(f"/designs/compare/chart/?ids={design.pk},{variant.pk}").json()
    assert chart["labels"] == ["tank (r1)", "tank-v2 (r1)"]
    assert chart["unit"] == "bytes" and chart["stacked"] is True
    raw = estimate(parse_design(design.to_document())).to_document()["pool"]["raw_bytes"]
    assert sum(d["data"][0] for d in chart["datasets"]) == raw  # the segments add up to the disks


def test_catalog_filter_narrows_the_disk_options(alice, web):
    html = web(alice).get("/designs/catalog-options/?media=nvme&prefix=v0").content.decode()
    nvme = CatalogDisk.objects.filter(media="nvme")
    assert f"{nvme.count()} catalog disk" in html
    for disk in CatalogDisk.objects.exclude(media="nvme"):
        assert f'value="{disk.model}"' not in html
    assert 'name="v0-disk"' in html


def test_the_estimate_is_computed_once_per_revision(design, alice, web):
    from zfsplanner.plans.services import estimates as services

    calls = []
    original = services.estimate

    def counting(spec, *args, **kwargs):
        calls.append(spec)
        return original(spec, *args, **kwargs)

    services.estimate = counting
    try:
        c = web(alice)
        c.get(f"/designs/{design.pk}/")
        c.get(f"/designs/{design.pk}/designer/")
        c.get(f"/designs/{design.pk}/charts/breakdown/")
    finally:
        services.estimate = original
    assert len(calls) <= 1


def test_designer_figures_equal_the_api_and_the_command(design, alice, web, tmp_path, capsys):
    doc = PoolDesign.objects.get(pk=design.pk).to_document()
    api = web(alice).post("/api/estimate/", json.dumps(doc), content_type="application/json").json()
    path = tmp_path / "tank.json"
    path.write_text(json.dumps(doc))
    call_command("estimate", str(path))
    cli = json.loads(capsys.readouterr().out)
    html = web(alice).get(f"/designs/{design.pk}/designer/").content.decode()
    for est in (api, cli):
        assert format_iec(est["pool"]["zfs_avail_bytes"]) in html
        assert format_iec(est["pool"]["raw_bytes"]) in html or f"{est['pool']['raw_bytes'] / 1e12:.2f} TB" in html
    assert api["pool"] == cli["pool"]


def test_fix_labels_only_for_design_changes():
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    design = parse_design(doc)
    risks = {r.code: r for r in estimate(design).risks}
    fix = design_fix(risks["special-redundancy-below-data"], design)
    assert fix is not None and "3-way mirror" in fix.label
    assert fix.design.vdevs[1].width == 3
    assert design_fix(risks["special-vdev-irremovable"], design) is None


# ------------------------------------------------------------------ the same through the API


@pytest.fixture
def special_design(team, alice):
    doc = design_document("tank")
    doc["vdevs"].append({**doc["vdevs"][0], "role": "special", "layout": "mirror", "width": 2})
    return save_design_document(team, doc, alice)


def test_api_lists_and_applies_fixes_then_undoes_and_redoes(special_design, alice, client_for):
    api = client_for(alice)
    base = f"/api/designs/{special_design.pk}"
    fixes = api.get(f"{base}/fixes/").json()
    assert {"code": "special-redundancy-below-data", "subject": "vdevs[1]"}.items() <= fixes[0].items()
    response = api.post(f"{base}/fixes/apply/", {**fixes[0], "revision": 1}, format="json")
    assert response.status_code == 200 and response.json()["revision"] == 2
    assert response.json()["vdevs"][1]["width"] == 3
    stale = api.post(f"{base}/undo/", {"revision": 1}, format="json")
    assert stale.status_code == 409
    assert api.post(f"{base}/undo/", {"revision": 2}, format="json").json()["vdevs"][1]["width"] == 2
    assert api.post(f"{base}/redo/", {}, format="json").json()["vdevs"][1]["width"] == 3
    revisions = api.get(f"{base}/revisions/").json()
    assert [r["kind"] for r in revisions] == ["redo", "undo", "fix", "create"]


def test_api_duplicate_and_viewer_limits(special_design, alice, bob, client_for):
    base = f"/api/designs/{special_design.pk}"
    assert client_for(bob).post(f"{base}/undo/", {}, format="json").status_code == 403
    assert client_for(bob).post(f"{base}/duplicate/").status_code == 403
    response = client_for(alice).post(f"{base}/duplicate/")
    assert response.status_code == 201 and response.json()["name"] == "tank-v2"
    assert response.json()["datasets"][0]["name"] == "tank-v2/data"


def test_api_outsiders_get_404(special_design, charlie, client_for):
    base = f"/api/designs/{special_design.pk}"
    for path in ("fixes/", "revisions/"):
        assert client_for(charlie).get(f"{base}/{path}").status_code == 404
    assert client_for(charlie).post(f"{base}/undo/", {}, format="json").status_code == 404


def test_row_forms_load_when_opened(design, alice, bob, web):
    c = web(alice)
    html = c.get(f"/designs/{design.pk}/designer/form/?section=vdevs&index=0").content.decode()
    assert 'name="v0-width" value="6"' in html and 'name="index" value="0"' in html
    html = c.get(f"/designs/{design.pk}/designer/form/?section=datasets&index=new").content.decode()
    assert 'name="dnew-name" value="tank/"' in html
    html = c.get(f"/designs/{design.pk}/designer/form/?section=datasets&index=0").content.decode()
    assert "inherit (" in html
    assert c.get(f"/designs/{design.pk}/designer/form/?section=vdevs&index=7").status_code == 404
    assert c.get(f"/designs/{design.pk}/designer/form/?section=other&index=0").status_code == 404
    assert web(bob).get(f"/designs/{design.pk}/designer/form/?section=vdevs&index=0").status_code == 403


# ---------------------------------------------------------------------------- defaults as an expert sets them


def _new_design(web, alice, team, **fields):
    disk = CatalogDisk.objects.filter(media="hdd", capacity_bytes=16000900661248).first()
    body = {"team": team.pk, "name": "tank", "openzfs_version": "2.3", "first-layout": "raidz2", "first-width": 8,
            "first-count": 1, "first-disk": disk.model, **fields}
    assert web(alice).post("/designs/new/", body).status_code == 302
    return PoolDesign.objects.get(team=team, name="tank")


def _role_form(web, alice, design, role, index="new", **typed):
    prefix = "vnew" if index == "new" else f"v{index}"
    query = {"section": "vdevs", "index": index, "defaults": "1", f"{prefix}-role": role,
             **{f"{prefix}-{k}": v for k, v in typed.items()}}
    response = web(alice).get(f"/designs/{design.pk}/designer/form/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def _selected(html, name):
    import re

    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.search(r'<option value="([^"]*)"[^>]*selected', select).group(1)


def _value(html, name):
    import re

    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def test_a_new_design_gets_pool_ashift_12_that_its_vdevs_follow(team, alice, web):
    design = _new_design(web, alice, team)
    doc = design.to_document()
    assert doc["ashift"] == 12 and "ashift" not in doc["vdevs"][0]
    row = estimate(design.to_spec()).to_document()["vdevs"][0]
    assert (row["ashift"], row["ashift_source"]) == (12, "pool")
    html = web(alice).get(f"/designs/{design.pk}/designer/").content.decode()
    assert _selected(html, "ashift") == "12"  # the pool form shows it, and it can be changed
    # the first row's "ashift" links to the glossary
    assert "ashift</a> 12 <span class=\"ashift-why\">(the pool&#x27;s ashift)</span>" in html


def test_the_pool_ashift_can_be_set_to_auto_and_back(team, alice, web):
    design = _new_design(web, alice, team)
    body = {"name": "tank", "openzfs_version": "2.3", "disk_partitioning": "", "description": "", "revision": 1,
            "ashift": ""}
    assert web(alice).post(f"/designs/{design.pk}/designer/pool/", body, HTTP_HX_REQUEST="true").status_code == 200
    design.refresh_from_db()
    assert design.ashift is None and "ashift" not in design.to_document()
    body.update(revision=2, ashift="13")
    web(alice).post(f"/designs/{design.pk}/designer/pool/", body, HTTP_HX_REQUEST="true")
    design.refresh_from_db()
    assert design.ashift == 13 and estimate(design.to_spec()).to_document()["vdevs"][0]["ashift"] == 13


def test_choosing_role_special_brings_a_plp_ssd_mirror_as_redundant_as_the_data_vdevs(team, alice, web):
    design = _new_design(web, alice, team)
    html = _role_form(web, alice, design, "special", layout="raidz2", width="8", disk="__custom__")
    assert _selected(html, "vnew-role") == "special"
    assert _selected(html, "vnew-layout") == "mirror"
    assert _value(html, "vnew-width") == "3"  # raidz2 survives two failures, so does a 3-way mirror
    chosen = CatalogDisk.objects.get(model=_selected(html, "vnew-disk"))
    assert chosen.media in ("ssd", "nvme") and chosen.plp and chosen.capacity_bytes >= 900 * 10**9
    # the list holds only SSDs and NVMe drives (and "Custom disk")
    import re

    options = re.findall(r'<option value="([^"]+)"', html.split('name="vnew-disk"')[1].split("</select>")[0])
    assert set(CatalogDisk.objects.filter(model__in=options).values_list("media", flat=True)) <= {"ssd", "nvme"}
    assert "__custom__" in options
    assert _selected(html, "vnew-ashift") == ""  # follows the pool
    assert "the pool&#x27;s (12)" in html
    assert 'hx-get="/designs/' in html and "defaults=1" in html  # the next role change asks again


@pytest.mark.parametrize(
    ("role", "layout", "width"), [("log", "mirror", "2"), ("cache", "stripe", "1"), ("spare", "stripe", "1"),
                                  ("dedup", "mirror", "3"), ("data", "raidz2", "8")],
)
def test_each_role_has_its_defaults(team, alice, web, role, layout, width):
    design = _new_design(web, alice, team)
    html = _role_form(web, alice, design, role)
    assert (_selected(html, "vnew-layout"), _value(html, "vnew-width")) == (layout, width)
    disk = CatalogDisk.objects.get(model=_selected(html, "vnew-disk"))
    if role == "log":  # the smallest SSD with power-loss protection
        plp = CatalogDisk.objects.filter(media__in=("ssd", "nvme"), plp=True).order_by("capacity_bytes", "model")
        assert disk == plp.first()
    elif role in ("spare", "data"):  # like the data disks
        assert disk == design.vdevs.get().catalog_disk
    else:
        assert disk.media in ("ssd", "nvme")


def test_the_reference_pool_from_the_defaults_has_no_warning_a_default_caused(team, alice, web):
    design = _new_design(web, alice, team)
    c = web(alice)
    for role in ("special", "log"):
        html = _role_form(web, alice, design, role)
        body = {"index": "new", "revision": design.revision, "vnew-role": role,
                "vnew-layout": _selected(html, "vnew-layout"), "vnew-width": _value(html, "vnew-width"),
                "vnew-count": _value(html, "vnew-count"), "vnew-ashift": "", "vnew-disk": _selected(html, "vnew-disk")}
        response = c.post(f"/designs/{design.pk}/designer/vdev/", body, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content.decode()[:2000]
        design.refresh_from_db()
        # the "Add a vdev group" panel stays open, with a fresh form, for the next group
        page = response.content.decode()
        assert '<details class="add-row" id="add-vdev" open>' in page and 'name="vnew-role"' in page
    risks = {r["code"]: r for r in estimate(design.to_spec()).to_document()["risks"]}
    assert not {"mixed-ashift", "non-redundant-vdev", "special-redundancy-below-data", "slog-unmirrored",
                "slog-without-plp", "ashift-below-physical-sector"} & set(risks)
    irremovable = risks["special-vdev-irremovable"]["detail"]  # the raidz2 makes it so, not the ashift
    assert "differ in ashift" not in irremovable and "differs from the data vdevs'" not in irremovable
    assert [g["ashift"] for g in estimate(design.to_spec()).to_document()["vdevs"]] == [12, 12, 12]


def test_a_price_per_disk_is_typed_in_the_group_form(design, alice, web):
    response = web(alice).post(
        f"/designs/{design.pk}/designer/vdev/", vdev_post(design, index=0, price_per_disk="249.90"),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    design.refresh_from_db()
    assert design.to_document()["vdevs"][0]["price_per_disk"] == "249.9"
    form = web(alice).get(f"/designs/{design.pk}/designer/form/", {"section": "vdevs", "index": 0}).content.decode()
    assert 'name="v0-price_per_disk" value="249.9000"' in form or 'name="v0-price_per_disk" value="249.9"' in form
    bad = web(alice).post(f"/designs/{design.pk}/designer/vdev/",
                          vdev_post(design, index=0, price_per_disk="-3"), HTTP_HX_REQUEST="true")
    assert bad.status_code == 422 and "greater than or equal to 0" in bad.content.decode()


def test_an_existing_groups_blank_ashift_says_what_zpool_would_choose(team, alice, web):
    doc = design_document("tank")
    doc["ashift"] = 12
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 3,
                         "disk": {"size_bytes": "1TB", "logical_sector_bytes": 512, "physical_sector_bytes": 512,
                                  "model": "OLD512"}})
    design = save_design_document(team, doc, alice)
    form = web(alice).get(f"/designs/{design.pk}/designer/form/", {"section": "vdevs", "index": 1}).content.decode()
    assert "Blank: the pool&#x27;s ashift (12); zpool alone would choose 9 here (physical sector of OLD512)." in form


def test_the_mixed_ashift_fix_in_the_designer_gives_every_vdev_ashift_12(team, alice, web):
    doc = design_document("tank")
    doc["vdevs"].append({"role": "special", "layout": "mirror", "width": 3,
                         "disk": {"size_bytes": "1TB", "logical_sector_bytes": 512, "physical_sector_bytes": 512}})
    design = save_design_document(team, doc, alice)
    page = web(alice).get(f"/designs/{design.pk}/designer/").content.decode()
    assert "Give every vdev ashift=12" in page
    response = web(alice).post(f"/designs/{design.pk}/fix/", {"code": "mixed-ashift", "subject": "vdevs[1]",
                                                              "revision": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    design.refresh_from_db()
    assert design.ashift == 12 and design.revisions.get(number=2).kind == "fix"
    assert 'data-code="mixed-ashift"' not in response.content.decode()


def test_the_pool_form_offers_the_releases_that_differ_and_keeps_the_designs_own(team, alice, web):
    import re

    design = _new_design(web, alice, team)  # named "2.3", as designs were before point releases
    html = web(alice).get(f"/designs/{design.pk}/designer/").content.decode()
    assert _selected(html, "openzfs_version") == "2.3"
    select = re.search(r'<select name="openzfs_version"[^>]*>(.*?)</select>', html, re.S).group(1)
    offered = re.findall(r'<option value="([^"]*)"', select)
    assert offered[:4] == ["2.4.4", "2.4.0", "2.3.9", "2.3"] and "2.3.2" in offered and "2.4.2" not in offered
    assert "OpenZFS 2.3 (as 2.3.9)" in select
    body = {"name": "tank", "openzfs_version": "2.3.4", "disk_partitioning": "", "description": "", "revision": 1,
            "ashift": "12"}
    assert web(alice).post(f"/designs/{design.pk}/designer/pool/", body, HTTP_HX_REQUEST="true").status_code == 200
    design.refresh_from_db()
    assert design.openzfs_version == "2.3.4" and design.to_spec().version == "2.3.4"
    body.update(revision=2, openzfs_version="2.4.9")
    response = web(alice).post(f"/designs/{design.pk}/designer/pool/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    design.refresh_from_db()
    assert design.openzfs_version == "2.3.4"


def test_the_compare_chart_names_each_redundancy_by_its_group_number(design, alice, web):
    c = web(alice)
    c.post(f"/designs/{design.pk}/duplicate/")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    chart = c.get(f"/designs/compare/chart/?ids={design.pk},{variant.pk}").json()
    redundancy = [d for d in chart["datasets"] if d["category"] == "redundancy"]
    assert redundancy and all(d["label"].startswith("Redundancy, vdev group ") for d in redundancy)
    assert [d["shade"] for d in redundancy] == list(range(len(redundancy)))


def test_the_compare_table_has_a_row_per_breakdown_category(design, alice, web):
    c = web(alice)
    c.post(f"/designs/{design.pk}/duplicate/")
    variant = PoolDesign.objects.exclude(pk=design.pk).get()
    html = c.get(f"/designs/compare/?ids={design.pk},{variant.pk}").content.decode()
    for key, label in (("data", "Data"), ("redundancy", "Redundancy"), ("slop", "Slop"),
                       ("metadata", "Pool metadata"), ("log_cache", "Log and cache devices"), ("free", "Free")):
        assert f'<tr data-row="category-{key}"><th scope="row">{label}</th>' in html


def test_switching_a_group_to_mirror_keeps_its_disks_as_2_way_mirrors(design, alice, web):
    c = web(alice)
    html = c.get(f"/designs/{design.pk}/designer/form/?section=vdevs&index=0").content.decode()
    assert "relayout=1" in html and "from_layout&quot;: &quot;raidz2" in html  # the layout select asks for it
    form = f"/designs/{design.pk}/designer/form/"
    typed = {"v0-role": "data", "v0-layout": "mirror", "v0-width": "6", "v0-count": "1", "from_layout": "raidz2"}
    html = c.get(form, {"section": "vdevs", "index": "0", "relayout": "1", **typed}).content.decode()
    assert 'name="v0-width" value="2"' in html and 'name="v0-count" value="3"' in html
    assert "from_layout&quot;: &quot;mirror" in html  # the next switch starts from the mirror
    new = {"vnew-role": "data", "vnew-layout": "mirror", "vnew-width": "8", "vnew-count": "1", "from_layout": "raidz2"}
    html = c.get(form, {"section": "vdevs", "index": "new", "relayout": "1", **new}).content.decode()
    assert 'name="vnew-width" value="2"' in html and 'name="vnew-count" value="4"' in html
