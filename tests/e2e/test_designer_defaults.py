"""The designer's defaults in real Chromium: the reference pool in at most 15 interactions, no warning
that a default caused.

8 × 16 TB raidz2, a special mirror, a mirrored SLOG and a dataset with recordsize 1M and zstd: the
pool ashift (12) that a new design gets and the defaults each role brings (special: a mirror of
power-loss-protected SSDs as redundant as the data vdevs; log: a 2-way mirror of the smallest
such SSD) leave the user only the choices that are theirs. Screenshots of the designer at 1366
and 390 px go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path

from zfsplanner.core.estimate import estimate
from zfsplanner.plans.models import CatalogDisk, PoolDesign

from .browser import Steps, wait_processed

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
MAX_INTERACTIONS = 15
# Warnings a default could cause: each is either gone or, for the special vdev that a raidz2 pool
# can never remove, must not name ashift as a reason.
DEFAULT_WARNINGS = (
    "mixed-ashift",
    "ashift-below-physical-sector",
    "non-redundant-vdev",
    "special-redundancy-below-data",
    "slog-unmirrored",
    "slog-without-plp",
    "slog-on-hdd",
)




def wait_revision(page, n):
    page.wait_for_selector(f"#revision:has-text('revision {n}')")


def add_with_defaults(steps, role, revision, shot=None):
    """Choose a role in the open "Add a vdev group" panel and add the group its defaults make."""
    wait_processed(steps.page, "#id_vnew-role")  # a form htmx just swapped in hears changes once wired
    steps.select("#id_vnew-role", role)
    steps.page.wait_for_selector(f"#add-vdev form.vdev-form[data-role='{role}']")
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        steps.page.locator("#add-vdev").screenshot(path=str(SHOTS / shot))
    steps.click("#add-vdev button.save-vdev")
    wait_revision(steps.page, revision)


def test_the_reference_pool_in_at_most_15_interactions_with_no_warning_from_a_default(page, login, alice, team):
    login(alice)
    steps = Steps(page)
    page.goto("/")
    steps.click("#new-design")
    steps.fill("#id_first-width", "8")  # raidz2 is the default layout
    steps.select("#id_first-disk", "ST16000NM001G")
    steps.click("#create-design")
    page.wait_for_url("**/designer/")

    steps.click("#add-vdev > summary")
    add_with_defaults(steps, "special", 2, shot="designer-defaults-special-1366.png")
    # the panel stays open for the next group, with a fresh form
    assert page.locator("#add-vdev[open] form.vdev-form").count() == 1
    add_with_defaults(steps, "log", 3)

    steps.click("#add-dataset > summary")
    steps.fill("#id_dnew-name", "tank/media")
    steps.select("#id_dnew-recordsize", "1M")
    steps.select("#id_dnew-compression", "zstd")
    steps.click("#add-dataset button.save-dataset")
    wait_revision(page, 4)
    assert steps.count <= MAX_INTERACTIONS, steps.count

    design = PoolDesign.objects.get(team=team, name="tank")
    doc = design.to_document()
    assert doc["ashift"] == 12 and not any("ashift" in v for v in doc["vdevs"])
    shapes = [(v["role"], v["layout"], v["width"]) for v in doc["vdevs"]]
    assert shapes == [("data", "raidz2", 8), ("special", "mirror", 3), ("log", "mirror", 2)]
    special, log = (CatalogDisk.objects.get(model=v["disk"]["model"]) for v in doc["vdevs"][1:])
    assert special.media in ("ssd", "nvme") and special.plp and log.plp
    assert doc["datasets"] == [{"name": "tank/media", "type": "filesystem", "recordsize": "1M", "compression": "zstd"}]

    result = estimate(design.to_spec()).to_document()
    assert [v["ashift"] for v in result["vdevs"]] == [12, 12, 12]
    codes = {r["code"] for r in result["risks"]}
    assert not codes & set(DEFAULT_WARNINGS), codes
    for r in result["risks"]:
        assert "differ in ashift" not in r["detail"] and "differs from the data vdevs'" not in r["detail"], r
    # the page shows the same: none of those warnings, no mixed-ashift command
    for code in DEFAULT_WARNINGS:
        assert page.locator(f".risk[data-code='{code}']").count() == 0, code
    assert "--allow-ashift-mismatch" not in page.content()
    assert page.js_errors == []

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.locator("#pool-settings details summary").click()  # the pool form, with its ashift
    page.screenshot(path=str(SHOTS / "designer-defaults-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll at 390 px"
    page.screenshot(path=str(SHOTS / "designer-defaults-390.png"), full_page=True)
    page.locator("#pool-settings").screenshot(path=str(SHOTS / "designer-defaults-390-pool.png"))
    page.locator("#vdev-groups").screenshot(path=str(SHOTS / "designer-defaults-390-vdevs.png"))
