"""Benchmarks in the browser: choose logs, say what each measured, upload, chart, compare, delete."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from benchmarks.models import BenchRun
from benchmarks.tasks import parse_upload_task
from tests.conftest import SAMPLES
from tests.e2e.browser import AXE, log_in, wide_context
from tests.factories import BenchRunFactory
from zfsplanner.celery import app as celery_app

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")
FIO_ZEROS = SAMPLES / "fio_json" / "generated_fio-3.33_zero-buffers_buffered-write.json"

CDM = SAMPLES / "crystaldiskmark"
FILES = [CDM / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt", CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt"]
DD_REPEATS = SAMPLES / "dd" / "generated_gnu-dd-9.1_de_DE.log"  # two writes of the same shape: "#2"
FIO_ENOSPC = SAMPLES / "fio_json" / "generated_fio-3.33_dev-full-enospc_with-stderr.json"


@pytest.fixture(autouse=True)
def in_process_tasks(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    # The settings use the CELERY_ namespace, so the namespaced key is the one Celery reads.
    before = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = before


def _login_to_benchmarks(page, login, user):
    login(user)
    page.goto("/benchmarks/")
    page.wait_for_selector("form[data-upload-form][data-upload-state=idle]")


def _wait_for_charts(page):
    """Every chart on the page has finished loading: drawn ("ready") or replaced by an error note.
    (Locator waits: the page's Content-Security-Policy forbids the eval a string predicate needs.)"""
    expect(page.locator("article.chart").first).to_be_visible()
    expect(page.locator("canvas[data-chart-url]:not([data-chart-state])")).to_have_count(0, timeout=20000)


def _wait_for_rows(page, status, count):
    expect(page.locator(f"tr.run-row[data-status={status}]")).to_have_count(count, timeout=20000)


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_label_files_before_upload_see_repeats_as_bars_and_delete_a_run(page, login, alice):
    _login_to_benchmarks(page, login, alice)
    page.set_input_files("#upload-form input[type=file]", [str(DD_REPEATS), str(FILES[0])])
    # Choosing files sends nothing: each file gets its own fields first.
    rows = page.locator("#upload-queue fieldset.file-row")
    assert rows.count() == 2
    assert page.locator("tr.run-row").count() == 0
    assert page.inner_text("[data-upload-button]") == "Upload 2 files"
    rows.nth(0).locator("[data-field=label]").fill("tank dd, sync=always")
    rows.nth(0).locator("[data-field=target]").fill("tank/bench")
    rows.nth(1).locator("[data-field=label]").fill("WD Blue in the NAS")
    rows.nth(1).locator("[data-field=target_kind]").select_option("disk")
    rows.nth(1).locator("summary").click()  # this file's own settings
    rows.nth(1).locator("[data-field=zil]").select_option("slog")
    rows.nth(1).locator("[data-field=slog_device]").fill("Optane")
    page.click("[data-upload-button]")
    _wait_for_rows(page, "done", 2)
    assert rows.count() == 0  # the queue empties as files are sent
    names = page.locator("tr.run-row .run-name a").all_inner_texts()
    assert sorted(names) == ["WD Blue in the NAS", "tank dd, sync=always"]
    run = BenchRun.objects.get(label="tank dd, sync=always")
    assert run.target == "tank/bench"
    wd = BenchRun.objects.get(label="WD Blue in the NAS")
    assert wd.target_kind == "disk" and wd.settings == {"zil": "slog", "slog_device": "Optane"}
    assert run.settings == {}  # the other file's settings stay its own

    # The dd log ran the same write twice: two bars, never only the last value.
    page.click("text=tank dd, sync=always")
    page.wait_for_url(f"**/benchmarks/{run.pk}/")
    _wait_for_charts(page)
    assert page.locator("article.chart p.error").count() == 0
    labels = page.evaluate("document.querySelector('article.chart[data-metric=bandwidth] canvas')._chart.data.labels")
    assert labels[:3] == ["SEQ1M Q1T1 write", "SEQ1M Q1T1 read", "SEQ1M Q1T1 write #2"]
    box_height = page.evaluate("document.querySelector('article.chart[data-metric=bandwidth] .chart-box').clientHeight")
    assert box_height >= 220
    page.set_viewport_size({"width": 390, "height": 844})
    assert _fits(page)

    page.click("text=Delete…")
    page.wait_for_url(f"**/benchmarks/{run.pk}/delete/")
    assert _fits(page)
    page.click("button:has-text('Delete the run')")
    page.wait_for_url("**/benchmarks/")
    assert "Deleted tank dd, sync=always" in page.inner_text("main")
    assert page.locator("tr.run-row .run-name a").all_inner_texts() == ["WD Blue in the NAS"]
    assert not BenchRun.objects.filter(pk=run.pk).exists()
    assert _fits(page)
    assert page.js_errors == []


def test_upload_two_logs_and_compare_them(page, login, alice):
    _login_to_benchmarks(page, login, alice)
    page.set_input_files("#upload-form input[type=file]", [str(p) for p in FILES])
    page.click("[data-upload-button]")
    _wait_for_rows(page, "done", 2)
    assert page.locator("tr.run-row .upload-status").all_inner_texts() == ["Done", "Done"]

    for box in page.locator("tr.run-row input[name=runs]").all():
        box.check()
    page.click("#compare-form button[type=submit]")
    page.wait_for_url("**/benchmarks/compare/?runs=*")
    _wait_for_charts(page)
    assert page.locator("article.chart p.error").all_inner_texts() == []
    metrics = page.locator("article.chart").evaluate_all("els => els.map(e => e.dataset.metric)")
    assert metrics == ["bandwidth", "iops", "latency"]
    assert page.locator("canvas[data-chart-state=ready]").count() == 3
    page.set_viewport_size({"width": 390, "height": 844})
    assert _fits(page)
    assert page.js_errors == []


def test_a_failed_fio_job_shows_its_error(page, login, alice, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_bytes(b"just some notes\n")
    _login_to_benchmarks(page, login, alice)
    page.set_input_files("#upload-form input[type=file]", [str(FIO_ENOSPC), str(bad)])
    page.click("[data-upload-button]")
    _wait_for_rows(page, "failed", 2)
    errors = page.locator("tr.run-row[data-status=failed] .upload-error-text").all_inner_texts()
    assert any("fio job 'full-write' ended with error 28 (ENOSPC: No space left on device)" in e for e in errors)
    assert any("not a recognised benchmark log" in e for e in errors)
    assert page.locator("tr.run-row[data-status=failed] button", has_text="Retry").count() == 2
    page.click(f"text={FIO_ENOSPC.name}")
    assert "The log could not be read" in page.inner_text("main")
    assert "No space left on device" in page.inner_text("#run-failure")
    assert page.js_errors == []


def test_a_run_that_measured_memory_says_why_and_can_be_marked_checked(browser, live_server, alice, team):
    run = BenchRunFactory(
        upload__team=team,
        upload__data=FIO_ZEROS.read_bytes(),
        upload__original_name=FIO_ZEROS.name,
        label="tank/bench, zeros",
        settings={"compression": "lz4"},
        target_kind="pool",
        target="tank/bench",
    )
    parse_upload_task(run.upload.pk)
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = AXE.read_text()
    for width in (1366, 390):
        context, page = wide_context(browser, live_server, width)
        log_in(page, alice)
        page.goto(f"/benchmarks/{run.pk}/")
        _wait_for_charts(page)
        codes = page.locator("#run-validity .validity-item").evaluate_all("els => els.map(e => e.dataset.code)")
        assert codes == ["zero-data-compressed", "buffered-writes", "too-short", "single-run"]
        # the chart marks the run: its bars carry the codes, its label the ⚠
        dataset = page.evaluate(
            "document.querySelector('article.chart[data-metric=bandwidth] canvas')._chart.data.datasets[0]"
        )
        assert dataset["validity"] == codes
        if width == 390:
            assert _fits(page), "the run page scrolls sideways at 390 px"
        else:
            page.evaluate(axe)
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            serious = [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")]
            assert serious == []
        page.screenshot(path=str(SHOTS / f"run-validity-{width}.png"), full_page=True)
        page.locator("#run-validity").screenshot(path=str(SHOTS / f"run-validity-warnings-{width}.png"))
        page.locator("article.chart[data-metric=bandwidth]").screenshot(
            path=str(SHOTS / f"run-validity-chart-{width}.png")
        )
        assert page.js_errors == []
        context.close()

    context, page = wide_context(browser, live_server, 1366)
    log_in(page, alice)
    page.goto(f"/benchmarks/{run.pk}/")
    page.fill("#validity-reason", "a test of the zero check, on purpose")
    page.click("#validity-check-form button")
    expect(page.locator("#validity-check")).to_contain_text("Checked by alice")
    _wait_for_charts(page)
    dataset = page.evaluate(
        "document.querySelector('article.chart[data-metric=bandwidth] canvas')._chart.data.datasets[0]"
    )
    assert "validity" not in dataset
    page.screenshot(path=str(SHOTS / "run-validity-checked-1366.png"), full_page=True)
    context.close()


REPEATS = [SAMPLES / "dd" / f"generated_gnu-dd-9.1_{lang}.log" for lang in ("de_DE", "fr_FR", "nl_NL")]
CHANGED = SAMPLES / "dd" / "generated_gnu-dd-9.1_C.log"


def _upload_with(page, files, target, sync):
    page.set_input_files("#upload-form input[type=file]", [str(f) for f in files])
    rows = page.locator("#upload-queue fieldset.file-row")
    for i in range(len(files)):
        rows.nth(i).locator("[data-field=target]").fill(target)
        rows.nth(i).locator("summary").click()
        rows.nth(i).locator("[data-field=sync]").select_option(sync)
    page.click("[data-upload-button]")


def test_three_repeats_and_a_changed_run_show_the_spread_and_the_change(browser, live_server, alice):
    context, page = wide_context(browser, live_server, 1366)
    log_in(page, alice)
    page.goto("/benchmarks/")
    page.wait_for_selector("form[data-upload-form][data-upload-state=idle]")
    _upload_with(page, REPEATS, "tank/bench", "standard")
    _wait_for_rows(page, "done", 3)
    page.wait_for_selector("form[data-upload-form][data-upload-state=idle]")
    _upload_with(page, [CHANGED], "tank/bench", "disabled")
    _wait_for_rows(page, "done", 4)
    first = BenchRun.objects.get(upload__original_name=REPEATS[0].name)
    changed = BenchRun.objects.get(upload__original_name=CHANGED.name)

    page.goto(f"/benchmarks/{first.pk}/")
    expect(page.locator("#run-repeats h2")).to_have_text("3 repeats of these tests")
    assert page.locator("#run-repeats tbody tr").count() > 0
    assert page.locator("#run-changes").count() == 0  # nothing before the first repeats

    for width in (1366, 390):
        ctx, p = (context, page) if width == 1366 else wide_context(browser, live_server, width)
        if width == 390:
            log_in(p, alice)
        p.goto(f"/benchmarks/{changed.pk}/")
        _wait_for_charts(p)
        expect(p.locator("#settings-differ")).to_contain_text("sync standard → disabled")
        verdicts = p.locator("#run-changes tbody tr").evaluate_all("rows => rows.map(r => r.dataset.verdict)")
        assert "regression" in verdicts and "improvement" in verdicts
        if width == 390:
            assert _fits(p), "the run page scrolls sideways at 390 px"
        p.screenshot(path=str(SHOTS / f"run-changes-{width}.png"), full_page=True)
        p.locator("#run-changes").screenshot(path=str(SHOTS / f"run-changes-table-{width}.png"))
        if width == 390:  # the tables are cards on a phone: nothing scrolls sideways inside them either
            wide = p.locator("#run-changes .overflow-auto, #run-repeats .overflow-auto").evaluate_all(
                "els => els.filter(e => e.scrollWidth > e.clientWidth).length"
            )
            assert wide == 0
        assert p.js_errors == []
        if width == 390:
            ctx.close()
    context.close()
