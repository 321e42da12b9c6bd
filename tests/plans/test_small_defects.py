"""Small defects of the design pages: the dRAID label, compare's pre-ticks, the share page's links,
and one-time messages that must not outlive the page they were meant for."""

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.core.commands import vdev_type_word
from zfsplanner.core.design import parse_design
from zfsplanner.core.estimate import estimate_document
from zfsplanner.plans.presentation import summarize

pytestmark = pytest.mark.django_db


def draid_document(**group):
    doc = design_document("tank")
    doc["vdevs"][0].update({"layout": "draid2", "width": 24, "draid_spares": 2, **group})
    return doc


# ------------------------------------------------------------------ the dRAID label


@pytest.mark.parametrize(
    ("group", "word"),
    [({}, "draid2:8d:24c:2s"), ({"draid_data": 4}, "draid2:4d:24c:2s"), ({"draid_spares": 0}, "draid2:8d:24c")],
)
def test_the_designer_and_the_design_page_name_a_draid_vdev_as_zpool_create_does(group, word, team, alice, web):
    doc = draid_document(**group)
    assert vdev_type_word(parse_design(doc).vdevs[0]) == word  # the commands' word is the reference
    shape = summarize(estimate_document(doc), doc).vdevs[0].shape
    assert shape == word
    design = PoolDesignFactory(team=team, name="tank", document=doc)
    client = web(alice)
    for page in (f"/designs/{design.pk}/designer/", f"/designs/{design.pk}/"):
        html = client.get(page).content.decode()
        assert word in html, page
        assert "?d" not in html, page
