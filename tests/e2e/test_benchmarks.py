"""Upload two logs in the browser, watch them reach "done", compare them in charts."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from zfsplanner.celery import app as celery_app

CDM = SAMPLES / "crystaldiskmark"
FILES = [CDM / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt", CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt"]


@pytest.fixture(autouse=True)
def in_process_tasks(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    # The settings use the CELERY_ namespace, so the namespaced key is the one Celery reads.
    before = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = before


def _login_to_benchmarks(page, user):
    page.goto("/accounts/login/?next=/benchmarks/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/benchmarks/")


def test_upload_two_logs_and_compare_them(page, alice):
    _login_to_benchmarks(page, alice)
    page.wait_for_selector("form[data-upload-form][data-upload-state=idle]")
    page.set_input_files("#upload-form input[type=file]", [str(p) for p in FILES])
    page.wait_for_function("document.querySelectorAll('tr.run-row[data-status=done]').length === 2", timeout=20000)
    assert page.locator("tr.run-row .upload-status").all_inner_texts() == ["Done", "Done"]

    for box in page.locator("tr.run-row input[name=runs]").all():
        box.check()
    page.click("#compare-form button[type=submit]")
    page.wait_for_url("**/benchmarks/compare/?runs=*")
    # Every chart has finished loading: drawn ("ready") or replaced by an error note.
    page.wait_for_function(
        "document.querySelectorAll('section.chart').length > 0 && "
        "document.querySelectorAll('canvas[data-chart-url]:not([data-chart-state])').length === 0",
        timeout=20000,
    )
    assert page.locator("section.chart p.error").all_inner_texts() == []
    metrics = page.locator("section.chart").evaluate_all("els => els.map(e => e.dataset.metric)")
    assert metrics == ["bandwidth", "iops", "latency"]
    assert page.locator("canvas[data-chart-state=ready]").count() == 3
    assert page.js_errors == []


def test_a_failed_upload_shows_the_parser_message(page, alice, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_bytes(b"just some notes\n")
    _login_to_benchmarks(page, alice)
    page.wait_for_selector("form[data-upload-form][data-upload-state=idle]")
    page.set_input_files("#upload-form input[type=file]", [str(bad)])
    page.wait_for_selector("tr.run-row[data-status=failed]", timeout=20000)
    assert "not a recognised benchmark log" in page.inner_text("tr.run-row[data-status=failed] .upload-error-text")
    assert page.locator("tr.run-row[data-status=failed] button", has_text="Retry").count() == 1
    assert page.js_errors == []
