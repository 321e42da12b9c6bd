"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driven by Playwright.

The page fixture talks to Django's live server. Tests here are marked ``e2e``; they
need Chromium, which .ci/run installs (apt-get install chromium).
"""

from __future__ import annotations

import os
import shutil

import pytest
from django.core.files.base import File

from tests.conftest import SAMPLES
from zfsplanner.celery import app as celery_app

from .browser import PASSWORD, log_in

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# Playwright's sync API runs an event loop; Django refuses ORM calls from it otherwise.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Browser tests talk to a live server in another thread, so they need committed data.

    They are marked transactional (pytest-django then runs them after the ordinary database
    tests) with serialized rollback, so the catalog that a data migration seeds is put back
    after each of them.
    """
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.django_db(transaction=True, serialized_rollback=True))


@pytest.fixture(autouse=True)
def seeded_catalog(transactional_db):
    """The seeded disk catalog, whatever an earlier test that emptied the tables left.

    Browser tests pick disks by model from the catalog the data migration seeds; a
    transactional test elsewhere in the run may have flushed it.
    """
    from importlib import import_module

    from zfsplanner.plans.models import CatalogDisk

    for migration in ("0002_seed_catalog", "0009_catalog_current_disks"):
        seed = import_module(f"zfsplanner.plans.migrations.{migration}")
        for row in seed.DISKS:
            defaults = {k: v for k, v in row.items() if k != "model"}
            CatalogDisk.objects.get_or_create(model=row["model"], defaults=defaults)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `apt-get install chromium` (or set CHROMIUM_PATH)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    # Let the page's last requests (chart data, htmx swaps) finish before the test's database
    # goes away, so the live server never answers them from a torn-down test.
    try:
        pg.wait_for_load_state("networkidle", timeout=5000)
    except Exception:  # noqa: BLE001 - a page that never settles is closed anyway
        pass
    context.close()


@pytest.fixture
def login(page):
    """login(user) logs the browser in through the real login form."""

    def do(user, password=PASSWORD):
        return log_in(page, user, password)

    return do


@pytest.fixture
def benchmark_run(team, alice, settings, tmp_path):
    """A CrystalDiskMark run of alice's team, parsed as it is stored (tasks in-process)."""
    from benchmarks.services import store_upload

    settings.MEDIA_ROOT = tmp_path / "media"
    before = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = True
    try:
        path = SAMPLES / "crystaldiskmark" / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"
        with path.open("rb") as fh:
            stored = store_upload(team=team, user=alice, file=File(fh, name=path.name))
        yield stored.upload.run
    finally:
        celery_app.conf.CELERY_TASK_ALWAYS_EAGER = before
