"""Journey: measure a sample in the browser, read what ZFS would store, at 1366 and 390 px.

Screenshots go to ``SCREENSHOT_DIR`` (default ``build/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parents[2] / "build" / "screenshots")


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def sample(tmp_path: Path) -> Path:
    lines = [
        f"{i:08d} INFO request id={i * 7919 % 100003} path=/api/designs/{i % 97}/ status=200\n" for i in range(4000)
    ]
    p = tmp_path / "app.log"
    p.write_text("".join(lines))
    return p


@pytest.mark.parametrize("width", [1366, 390])
def test_a_user_measures_a_sample_and_reads_the_stored_size(page, login, alice, tmp_path, width):
    page.set_viewport_size({"width": width, "height": 900})
    login(alice)
    page.goto("/compression/")
    page.set_input_files("input[name=file]", str(sample(tmp_path)))
    page.fill("input[name=algorithms]", "lz4,zstd,gzip-9")
    page.fill("input[name=recordsize]", "128K")
    page.click("#sample-form button[type=submit]")
    page.wait_for_selector("#sample-status[data-status=done]")
    rows = page.locator("#sample-status tbody tr")
    assert rows.count() == 3
    assert "x" in rows.first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.js_errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"compression-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [1366, 390])
def test_a_sample_over_the_upload_limit_comes_back_as_the_form_saying_so(page, login, alice, tmp_path, settings, width):
    settings.COMPRESSION_UPLOAD_MAX_BYTES = 10_000  # the sample is ~350 KB: refused as it streams in
    page.set_viewport_size({"width": width, "height": 900})
    login(alice)
    page.goto("/compression/")
    page.set_input_files("input[name=file]", str(sample(tmp_path)))
    page.click("#sample-form button[type=submit]")
    error = page.wait_for_selector("#sample-form .error")
    assert "larger than the upload limit of 10,000 bytes" in error.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.js_errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"compression-too-large-{width}.png"), full_page=True)
