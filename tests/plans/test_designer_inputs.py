"""The designer's fields for what was written before a RAIDZ expansion, a dataset's dedup ratio and
the pool's fast dedup: form → typed part → form, saved through the page as a browser posts it, and
refused in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from zfsplanner.core.design.types import Contents, Dataset
from zfsplanner.core.document.parse import parse_design
from zfsplanner.core.document.parts import read_dataset
from zfsplanner.plans.forms.designer import DatasetForm, PoolForm
from zfsplanner.plans.forms.parts import read_part
from zfsplanner.plans.models import PoolDesign
from zfsplanner.plans.services import save_design_document
from zfsplanner.plans.services.estimates import estimate_design

GIB = 1024**3


def document(**pool: Any) -> dict[str, Any]:
    """A 4-wide raidz1 widened to 6, a dedup mirror; tank/data written partly before, tank/vm with dedup."""
    return {
        "format": "zfsplanner.design/1",
        "name": "tank",
        "openzfs_version": "2.3",
        **pool,
        "vdevs": [
            {"role": "data", "layout": "raidz1", "width": 6, "expanded_from_width": 4, "ashift": 12,
             "disk": {"size_bytes": "4TB"}},
            {"role": "dedup", "layout": "mirror", "width": 2, "disk": {"size_bytes": "1TB", "media": "ssd"}},
        ],
        "datasets": [
            {"name": "tank/data", "recordsize": "128K", "compression": "off",
             "contents": {"logical_bytes": 2000 * GIB, "logical_bytes_written_before": 1200 * GIB}},
            {"name": "tank/vm", "recordsize": "16K", "dedup": "on", "contents": {"logical_bytes": 100 * GIB}},
        ],
    }  # fmt: skip


def bound(form_class: type, initial: dict[str, Any], prefix: str | None = None, **options: Any) -> Any:
    """The form posted back as the page shows it (what a user who changes nothing sends)."""
    data = {(f"{prefix}-{k}" if prefix else k): "" if v is None else v for k, v in initial.items()}
    return form_class(data, prefix=prefix, **options)


# --------------------------------------------------------------------------- the forms alone


def test_a_dataset_round_trips_written_before_and_the_dedup_ratio():
    ds = {
        "name": "tank/vm",
        "type": "filesystem",
        "contents": {"logical_bytes": 100 * GIB, "logical_bytes_written_before": 40 * GIB, "dedup_ratio": 1.75},
    }
    old = read_part(read_dataset, ds, "datasets[0]", "tank")
    initial = DatasetForm.initial_from(old)
    assert initial["written_before"] == "40GiB" and initial["dedup_ratio"] == 1.75
    form = bound(DatasetForm, initial, "d0")
    assert form.is_valid(), form.errors
    new = form.to_dataset(old, 0, "tank")
    assert new == old
    assert DatasetForm.initial_from(new) == initial


def test_sizes_are_typed_with_their_unit_like_the_data_to_store():
    form = DatasetForm(
        {"name": "tank/a", "type": "filesystem", "logical_size": "8TB", "written_before": "2.5TiB", "dedup_ratio": "2"}
    )
    assert form.is_valid(), form.errors
    contents = contents_of(form)
    assert contents.logical_bytes_written_before == int(2.5 * 2**40) and contents.dedup_ratio == 2.0


def contents_of(form: DatasetForm, old: Contents | None = None) -> Contents:
    """The contents of the dataset ``form`` makes over a dataset tank/a with ``old`` contents."""
    before = Dataset(name="tank/a", contents=old) if old is not None else None
    contents = form.to_dataset(before, 0, "tank").contents
    assert contents is not None
    return contents


def test_blank_fields_write_nothing_so_the_release_defaults_hold():
    form = DatasetForm(
        {"name": "tank/a", "type": "filesystem", "logical_size": "1GiB", "written_before": "", "dedup_ratio": ""}
    )
    assert form.is_valid(), form.errors
    contents = contents_of(form, Contents(logical_bytes=GIB, logical_bytes_written_before=GIB // 2, dedup_ratio=3.0))
    assert contents.logical_bytes_written_before is None and contents.dedup_ratio is None  # removed


def test_a_field_that_does_not_apply_is_left_out_and_keeps_its_value():
    form = DatasetForm({"name": "tank/a", "type": "filesystem"}, expanded=False, dedup=False)
    assert "written_before" not in form.fields and "dedup_ratio" not in form.fields
    assert form.is_valid(), form.errors
    kept = Contents(logical_bytes=GIB, logical_bytes_written_before=GIB // 2, dedup_ratio=3.0)
    contents = contents_of(form, kept)
    assert contents.logical_bytes_written_before == GIB // 2 and contents.dedup_ratio == 3.0


@pytest.mark.parametrize(
    ("features", "shown"), [(None, ""), ({"fast_dedup": True}, "on"), ({"fast_dedup": False}, "off")]
)
def test_the_pool_round_trips_fast_dedup(features, shown):
    spec = parse_design(document(**({"features": features} if features is not None else {})))
    initial = PoolForm.initial_from(spec)
    assert initial["fast_dedup"] == shown
    form = bound(PoolForm, initial)
    assert form.is_valid(), form.errors
    out = form.apply(spec)
    assert out.features == features and out == spec
    assert PoolForm.initial_from(out) == initial


def test_the_pool_form_says_what_the_release_enables():
    on = PoolForm(initial={"openzfs_version": "2.3"}).fields["fast_dedup"].choices[0][1]
    off = PoolForm(initial={"openzfs_version": "2.2"}).fields["fast_dedup"].choices[0][1]
    assert on == "on (default of 2.3)" and off == "off (default of 2.2)"


# --------------------------------------------------------------------------- through the designer


@pytest.fixture
def design(team, alice):
    return save_design_document(team, document(), alice)


def browser(user) -> tuple[Client, str]:
    """A client that checks CSRF as the site does, with the token the designer page gave it."""
    c = Client(enforce_csrf_checks=True)
    c.force_login(user)
    c.get("/designs/", follow=True)  # the designs list, which sets the CSRF cookie
    return c, c.cookies["csrftoken"].value


def dataset_post(client: Client, token: str, design: PoolDesign, index: int, **fields: Any):
    initial = {**DatasetForm.initial_from(design.to_spec().datasets[index]), **fields}
    body = {f"d{index}-{k}": "" if v is None else v for k, v in initial.items()}
    body |= {"index": index, "revision": design.revision, "csrfmiddlewaretoken": token}
    return client.post(f"/designs/{design.pk}/designer/dataset/", body, HTTP_HX_REQUEST="true")


def pool_post(client: Client, token: str, design: PoolDesign, **fields: Any):
    body = {**PoolForm.initial_from(design.to_spec()), **fields}
    body = {k: "" if v is None else v for k, v in body.items()}
    body |= {"revision": design.revision, "csrfmiddlewaretoken": token}
    return client.post(f"/designs/{design.pk}/designer/pool/", body, HTTP_HX_REQUEST="true")


def test_the_dedup_ratio_is_saved_and_shrinks_the_dedup_table(design, alice):
    before = estimate_design(design).sizing.dedup_table
    c, token = browser(alice)
    response = dataset_post(c, token, design, 1, dedup_ratio="2.5")
    assert response.status_code == 200, response.content.decode()[:2000]
    design = PoolDesign.objects.get(pk=design.pk)
    assert design.to_document()["datasets"][1]["contents"] == {"logical_bytes": 100 * GIB, "dedup_ratio": 2.5}
    after = estimate_design(design).sizing.dedup_table
    assert before is not None and after is not None
    assert after.entries == -(-before.entries * 1000 // 2500) and after.in_core_bytes < before.in_core_bytes


def test_data_written_before_the_expansion_is_saved_and_changes_used(design, alice):
    def used() -> int:
        e = estimate_design(PoolDesign.objects.get(pk=design.pk))
        return next(d.zfs_used_bytes for d in e.datasets if d.name == "tank/data")

    first = used()
    c, token = browser(alice)
    response = dataset_post(c, token, design, 0, written_before="2000GiB")
    assert response.status_code == 200, response.content.decode()[:2000]
    contents = PoolDesign.objects.get(pk=design.pk).to_document()["datasets"][0]["contents"]
    assert contents["logical_bytes_written_before"] == 2000 * GIB
    assert used() > first  # all of it at the old width, counted at the old ratio: more USED


def test_fast_dedup_off_is_saved_and_blank_goes_back_to_the_release(design, alice):
    c, token = browser(alice)
    assert pool_post(c, token, design, fast_dedup="off").status_code == 200
    design = PoolDesign.objects.get(pk=design.pk)
    assert design.to_document()["features"] == {"fast_dedup": False}
    assert estimate_design(design).sizing.dedup_table.fast_dedup is False
    assert pool_post(c, token, design, fast_dedup="").status_code == 200
    design = PoolDesign.objects.get(pk=design.pk)
    assert "features" not in design.to_document()
    assert estimate_design(design).sizing.dedup_table.fast_dedup is True


def test_saving_the_forms_unchanged_changes_nothing_and_raises_no_new_risk(design, alice):
    """What the forms show by default (release default, blank ratio) is written back as nothing."""
    doc, codes = design.to_document(), sorted(r.code for r in estimate_design(design).risks)
    c, token = browser(alice)
    assert pool_post(c, token, design).status_code == 200
    assert dataset_post(c, token, PoolDesign.objects.get(pk=design.pk), 1).status_code == 200
    design = PoolDesign.objects.get(pk=design.pk)
    assert design.revision == 3 and design.to_document() == doc
    assert sorted(r.code for r in estimate_design(design).risks) == codes


def test_each_field_shows_where_it_applies(team, alice):
    c, _ = browser(alice)
    expanded = save_design_document(team, document(), alice)
    plain_doc = document()
    del plain_doc["vdevs"][0]["expanded_from_width"]
    del plain_doc["datasets"][0]["contents"]["logical_bytes_written_before"]
    plain = save_design_document(team, {**plain_doc, "name": "pool2", "datasets": []}, alice)

    def form(design: PoolDesign, index: Any) -> str:
        return c.get(f"/designs/{design.pk}/designer/form/?section=datasets&index={index}").content.decode()

    assert 'name="d0-written_before"' in form(expanded, 0) and 'name="d0-dedup_ratio"' not in form(expanded, 0)
    assert 'name="d1-dedup_ratio"' in form(expanded, 1)
    assert "written_before" not in form(plain, "new") and "dedup_ratio" not in form(plain, "new")
    assert "Written before expansion" in form(expanded, "new")  # a new dataset may say it too


# --------------------------------------------------------------------------- refused, in words


def field_error(html: str, name: str) -> str:
    m = re.search(rf'id="id_{name}_error">([^<]*)<', html)
    assert m, f"no error at {name}"
    return m.group(1)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"dedup_ratio": "0.5"}, "d1-dedup_ratio", "The dedup ratio is at least 1.00"),
        ({"dedup_ratio": "lots"}, "d1-dedup_ratio", "Enter the dedup ratio as a number"),
        ({"written_before": "a lot"}, "d1-written_before", "is not a size (expected a number and a unit"),
        ({"written_before": "200GiB"}, "d1-written_before", "cannot be more than the data itself"),
    ],
)
def test_bad_dataset_values_are_refused_at_their_field(design, alice, fields, field, words):
    c, token = browser(alice)
    response = dataset_post(c, token, design, 1, **fields)
    assert response.status_code == 422
    assert words in field_error(response.content.decode(), field)
    assert PoolDesign.objects.get(pk=design.pk).revision == 1


def test_fast_dedup_on_a_release_without_it_is_refused_at_the_field(design, alice):
    c, token = browser(alice)
    response = pool_post(c, token, design, openzfs_version="2.2", fast_dedup="on")
    assert response.status_code == 422
    assert "needs OpenZFS 2.3 or later" in field_error(response.content.decode(), "fast_dedup")
    assert PoolDesign.objects.get(pk=design.pk).revision == 1
