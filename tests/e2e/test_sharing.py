"""Share links and measured compression in a real browser."""

import pytest

from tests.factories import PoolDesignFactory, design_document
from zfsplanner.plans.models import PoolDesign, ShareLink

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def design(team):
    return PoolDesignFactory(team=team, name="tank", document=design_document("tank", description="the main pool"))


def test_a_share_link_opens_the_design_read_only_without_login(browser, live_server, page, login, alice, design):
    login(alice)
    page.goto(f"/designs/{design.pk}/")
    assert "zpool create -o ashift=12 tank \\\n  raidz2 " in page.locator("#commands-text").inner_text()
    page.click("#create-share-link")
    page.wait_for_selector("table.share-links tr.active")
    link = ShareLink.objects.get(design=design)
    url = page.locator("table.share-links a.share-url").get_attribute("href")
    assert url == f"/share/{link.token}/"

    anonymous = browser.new_context(base_url=live_server.url)
    try:
        shared = anonymous.new_page()
        errors = []
        shared.on("pageerror", lambda exc: errors.append(str(exc)))
        shared.goto(url)
        assert shared.locator("h1").inner_text() == "tank"
        assert "read-only" in shared.locator("#shared-design").inner_text()
        assert "the main pool" in shared.locator("#shared-design").inner_text()
        shared.click("#details-datasets summary")
        assert "tank/data" in shared.locator("table.datasets").inner_text()
        assert "zpool create" in shared.locator("#commands-text").inner_text()
        assert shared.locator("meta[name=robots]").get_attribute("content").startswith("noindex")
        assert shared.locator("form").count() == 0  # nothing to submit (not even the log-out form)
        shared.wait_for_selector("canvas[data-chart-state='ready']")
        assert shared.locator("textarea, #save-design, #edit-button, #create-share-link").count() == 0
        assert shared.locator("a:has-text('Log in')").count() == 1  # not logged in
        assert errors == []

        page.click("button.revoke-link")
        page.wait_for_selector("table.share-links tr.revoked")
        assert ShareLink.objects.get(pk=link.pk).revoked
        response = shared.goto(url)
        assert response.status == 404
    finally:
        anonymous.close()
    assert page.js_errors == []


def test_measuring_a_sample_shows_a_ratio_and_can_be_used(page, login, tmp_path, erin, design):
    sample = tmp_path / "app.log"
    sample.write_text(
        "".join(
            f"2025-01-{i % 28 + 1:02d} INFO worker={i % 8} request={i} path=/designs/{i % 50}/ ok\n"
            for i in range(20000)
        )
    )
    login(erin)
    page.goto(f"/designs/{design.pk}/")
    page.click("#compression summary")
    box = page.locator("#measure-0")
    box.locator("input[name=algorithm]").fill("zstd")
    box.locator("input[type=file]").set_input_files(str(sample))
    box.locator("button.measure-button").click()
    page.wait_for_selector("#measure-0 .measured")
    ratio = float(page.locator("#measure-0 .ratio").inner_text().rstrip("x"))
    assert ratio > 1
    assert "zstd-3" in page.locator("#measure-0 .measured").inner_text()
    assert page.locator("#measure-0 table.psize-histogram tbody tr").count() >= 1

    page.click("#measure-0 button.use-ratio")
    page.wait_for_selector("#revision:has-text('revision 2')")
    compressibility = PoolDesign.objects.get(pk=design.pk).datasets.get(name="tank/data").contents["compressibility"]
    assert compressibility["algorithm"] == "zstd-3"
    assert compressibility["recordsize"] == "1M"
    assert compressibility["ratio"] > 1
    assert page.js_errors == []
