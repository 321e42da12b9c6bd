"""What the browser tests share: the vendored axe-core, a counted user, logging in, a context at a
given width, and waiting for htmx."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
PASSWORD = "pw-for-tests-1"  # the factories' password


class Steps:
    """Counts what the user does: clicks, fills and selections."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def click(self, selector):
        self.count += 1
        self.page.click(selector)

    def fill(self, selector, value):
        self.count += 1
        self.page.fill(selector, value)

    def select(self, selector, value):
        self.count += 1
        self.page.select_option(selector, value)


def log_in(page, user, password: str = PASSWORD):
    """Log ``user`` in through the real log-in form."""
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", password)
    page.click("#password-login button[type=submit]")
    page.wait_for_load_state("networkidle")
    return page


def wide_context(browser, live_server, width: int, height: int = 900):
    """A context ``width`` px wide with its page; JS errors collect in ``page.js_errors``.

    ``bypass_csp``: axe-core is injected for the check only; the app itself runs no inline script."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height},
                                  bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return context, page


# htmx keeps its bookkeeping on each element it has processed; ``initHash`` is set once the
# element's hx-* attributes are wired up (htmx 2, initNode; elements without hx-* are never
# marked). An element swapped in a moment ago may be on the page before that: a change made to
# it then goes unheard.
PROCESSED = """(sel) => {
  const el = document.querySelector(sel);
  return !!(el && el["htmx-internal-data"] && el["htmx-internal-data"].initHash);
}"""


def wait_processed(page, selector: str) -> None:
    """Wait until htmx has wired up the element ``selector`` (after a swap brought it)."""
    page.wait_for_function(PROCESSED, arg=selector)


def wait_htmx_idle(page) -> None:
    """Wait until no htmx request is in flight (htmx marks the element that sent one with ``htmx-request``
    from the moment it is sent until its answer is swapped in)."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
